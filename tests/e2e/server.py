"""A JupyterLab server for the browser tests: the project's own environment, isolated from the user's.

``LabServer.start(home)`` runs ``python -m jupyter lab`` with the interpreter
that runs the tests (so the kernel, ``course_lib``, ipywidgets and the
front-end extensions are the project's), on 127.0.0.1, a free port and a
random token.  Every Jupyter folder (config, data, runtime, settings,
workspaces, IPython) points into ``home``, so nothing of the user's setup
leaks in and nothing is written back; the settings switch autosave, the news
pop-up and notebook windowing (cells outside the viewport would be detached
from the DOM) off.  Notebooks are served from copies under ``home/root``: the
tests save them (to read the outputs back) without touching the checkout.
"""

import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["LabServer", "SETTINGS", "isolated_env"]

# user settings (JUPYTERLAB_SETTINGS_DIR), one file per plugin; Notebook 7 reads the same folder
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def isolated_env(home):
    """Environment variables that put every Jupyter and IPython folder under ``home``."""
    home = pathlib.Path(home)
    env = dict(os.environ)
    folders = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data", "JUPYTER_RUNTIME_DIR": "runtime",
               "JUPYTERLAB_SETTINGS_DIR": "settings", "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
               "IPYTHONDIR": "ipython"}
    for var, name in folders.items():
        (home / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / name)
    env.pop("JUPYTER_PATH", None)
    env.pop("JUPYTER_CONFIG_PATH", None)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class LabServer:
    """A running ``jupyter lab``; ``url(path)`` builds page links, ``api(...)`` calls its REST API."""

    def __init__(self, home, process, port, token, log_path):
        self.home = pathlib.Path(home)
        self.root = self.home / "root"
        self.process = process
        self.port = port
        self.token = token
        self.log_path = log_path
        self.base = f"http://127.0.0.1:{port}"

    @classmethod
    def start(cls, home, timeout=90):
        home = pathlib.Path(home)
        env = isolated_env(home)
        for plugin, values in SETTINGS.items():
            path = home / "settings" / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        root = home / "root"
        root.mkdir(exist_ok=True)
        port, token = _free_port(), secrets.token_hex(16)
        log_path = home / "jupyter-server.log"
        cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               "--port-retries=0", "--allow-root", f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}"]
        log = open(log_path, "wb")  # noqa: SIM115 - closed with the process in stop()
        process = subprocess.Popen(cmd, env=env, cwd=root, stdout=log, stderr=subprocess.STDOUT)
        server = cls(home, process, port, token, log_path)
        server._log = log
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {process.returncode}:\n{server.log_tail()}")
            try:
                server.api("GET", "status")
                return server
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    server.stop()
                    raise RuntimeError(f"jupyter lab did not answer within {timeout} s:\n{server.log_tail()}") \
                        from None
                time.sleep(0.3)

    def log_tail(self, n=4000):
        return self.log_path.read_text(errors="replace")[-n:]

    def stop(self):
        try:
            for session in self.api("GET", "sessions"):
                self.api("DELETE", f"sessions/{session['id']}")
        except Exception:  # noqa: BLE001 - best effort: the process is stopped next anyway
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()

    # --- links and REST ---------------------------------------------------------------
    def url(self, path, ui="lab"):
        """The page that opens ``path`` (relative to the server root) in JupyterLab or in Notebook 7."""
        quoted = urllib.parse.quote(str(path))
        if ui == "lab":
            return f"{self.base}/lab/tree/{quoted}?reset&token={self.token}"
        if ui == "notebook":
            return f"{self.base}/notebooks/{quoted}?token={self.token}"
        raise ValueError(ui)

    def api(self, method, endpoint, timeout=30):
        request = urllib.request.Request(f"{self.base}/api/{endpoint}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def notebook_json(self, path):
        """The notebook at ``path`` as saved on the server (nbformat JSON as a dict)."""
        return self.api("GET", f"contents/{urllib.parse.quote(str(path))}?content=1&type=notebook")["content"]

    def last_modified(self, path):
        return self.api("GET", f"contents/{urllib.parse.quote(str(path))}?content=0")["last_modified"]

    def shutdown_kernels(self):
        """Delete every session (and so its kernel): the next page gets a fresh kernel."""
        for session in self.api("GET", "sessions"):
            self.api("DELETE", f"sessions/{session['id']}")

    def copy_in(self, source, name):
        """Copy the folder ``source`` to ``root/name`` (replacing an older copy); returns the path relative to root."""
        target = self.root / name
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        return pathlib.PurePosixPath(name)
