"""One sandbox per submission: a private folder, its own namespaces, limits, and nothing left behind.

The batch grader runs every process of a submission (its kernel, the process that tests its
functions) through :meth:`Sandbox.command`, which gives an argv of two layers:

1. **the launcher**, this file run as a script by the grader's Python (stdlib only, so it starts
   in milliseconds): it dies with its parent (``PR_SET_PDEATHSIG``), sets the resource limits
   (address space, CPU seconds, file size, core dumps), joins the submission's cgroups where the
   machine lets us create them (``pids.max`` against fork bombs, a memory limit on the whole
   tree), becomes a *subreaper* (``PR_SET_CHILD_SUBREAPER``: orphans, double-forked or ``setsid``
   children included, are re-parented to it, never to init), runs the command, and when the
   command ends or the launcher is told to stop, kills every descendant it has;
2. **bubblewrap** (``bwrap``, Debian's ``bubblewrap`` package) where it works: new user, PID,
   mount, network, IPC and UTS namespaces, all capabilities dropped, no further user namespaces;
   a read-only view of the system, of Python and of course_lib in which ``course_lib/grading``
   is replaced by a copy without the expected results (see :func:`build_view`); a size-limited
   ``/tmp`` in memory (the working folder and ``HOME``); and the submission's private folder
   (mode 0700, the kernel's connection file and ZeroMQ ``ipc`` sockets) as the only host folder
   it can write.  No network, no view of other submissions, of their processes or of the report.
   When the sandbox's first process ends, the kernel kills everything left in its PID namespace.

Where bubblewrap is missing or cannot create namespaces, :func:`probe` says so and the grader
runs one submission at a time with the launcher alone (limits, subreaper, private folder), and
warns that the submission can read the grader's files.

``python _sandbox.py '<json options>' -- command ...`` is the launcher's command line.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

__all__ = ["probe", "Sandbox", "build_view", "descendants", "kill_descendants", "Cgroup"]

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
SANDBOX_UID = 65534          # "nobody" inside the sandbox's user namespace


def _prctl(option, value):
    """``prctl(option, value)`` through libc; False where it is not available (not Linux)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# ---------------------------------------------------------------------------
# Processes: descendants from /proc, killed until none is left
# ---------------------------------------------------------------------------

def _parents():
    """``{pid: ppid}`` of every process this process can see (from ``/proc/<pid>/stat``)."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces or parentheses itself
        rest = stat[stat.rfind(b")") + 2:].split()
        if len(rest) > 1:
            out[int(name)] = int(rest[1])
    return out


def descendants(pid=None):
    """The pids of every descendant of ``pid`` (default: this process), children first."""
    pid = os.getpid() if pid is None else pid
    parents = _parents()
    children = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    out, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_descendants(pid=None, keep=(), rounds=50):
    """SIGKILL every descendant of ``pid`` (default: this process) but ``keep``, until none is left.

    A process that forks while it is being killed leaves a child behind; the loop kills again
    until a pass finds nothing (at most ``rounds`` passes).  Returns the number of kills sent.
    """
    sent = 0
    mine = pid is None or pid == os.getpid()
    for _ in range(rounds):
        found = [p for p in descendants(pid) if p not in keep]
        if not found:
            break
        for p in found:
            try:
                os.kill(p, signal.SIGKILL)
                sent += 1
            except OSError:
                pass
        if mine:
            _reap()
        time.sleep(0.005)
    if mine:
        _reap()
    return sent


# ---------------------------------------------------------------------------
# cgroups: pids and memory limits on a whole sandbox, where we may create them
# ---------------------------------------------------------------------------

class Cgroup:
    """A cgroup per sandbox (v1 ``pids`` + ``memory`` hierarchies, or v2 with both controllers).

    ``Cgroup.create(name, pids_max, memory_bytes)`` returns None where this process may not
    create cgroups (no root, no delegation, no controllers): the rlimits still hold then.
    """

    ROOT = "/sys/fs/cgroup"

    def __init__(self, paths):
        self.paths = paths

    @classmethod
    def _own(cls):
        own = {}
        try:
            with open("/proc/self/cgroup", encoding="utf-8") as f:
                for line in f:
                    _, controllers, path = line.rstrip("\n").split(":", 2)
                    for c in controllers.split(","):
                        own[c] = path
        except OSError:
            pass
        return own

    @classmethod
    def create(cls, name, pids_max, memory_bytes):
        own = cls._own()
        made = []
        try:
            if os.path.isdir(os.path.join(cls.ROOT, "pids")) and "pids" in own:          # v1
                for controller, knob, value in (("pids", "pids.max", pids_max),
                                                ("memory", "memory.limit_in_bytes", memory_bytes)):
                    if controller not in own:
                        continue
                    path = os.path.join(cls.ROOT, controller, own[controller].lstrip("/"), name)
                    os.mkdir(path)
                    made.append(path)
                    with open(os.path.join(path, knob), "w") as f:
                        f.write(str(value))
            elif "" in own and os.path.exists(os.path.join(cls.ROOT, "cgroup.controllers")):  # v2
                path = os.path.join(cls.ROOT, own[""].lstrip("/"), name)
                os.mkdir(path)
                made.append(path)
                for knob, value in (("pids.max", pids_max), ("memory.max", memory_bytes)):
                    with open(os.path.join(path, knob), "w") as f:
                        f.write(str(value))
            else:
                return None
        except OSError:
            for path in reversed(made):
                try:
                    os.rmdir(path)
                except OSError:
                    pass
            return None
        return cls(made)

    @classmethod
    def remove_stale(cls, owner=None):
        """Remove the cgroups ``clg-<pid>-...`` of graders that are gone (or of ``owner``), killing what is in them."""
        import re
        own = cls._own()
        parents = [os.path.join(cls.ROOT, c, own[c].lstrip("/")) for c in ("pids", "memory") if c in own]
        if "" in own:
            parents.append(os.path.join(cls.ROOT, own[""].lstrip("/")))
        for parent in parents:
            try:
                names = os.listdir(parent)
            except OSError:
                continue
            for name in names:
                m = re.match(r"clg-(\d+)-", name)
                if not m or not os.path.isdir(os.path.join(parent, name)):
                    continue
                if owner is not None and int(m.group(1)) == owner:
                    cls([os.path.join(parent, name)]).remove()
                    continue
                try:
                    os.kill(int(m.group(1)), 0)
                    continue
                except ProcessLookupError:
                    cls([os.path.join(parent, name)]).remove()
                except OSError:
                    continue

    def join(self, pid=None):
        """Move process ``pid`` (default: this one) into every hierarchy of this cgroup."""
        for path in self.paths:
            with open(os.path.join(path, "cgroup.procs"), "w") as f:
                f.write(str(pid or os.getpid()))

    def pids(self):
        out = set()
        for path in self.paths:
            try:
                with open(os.path.join(path, "cgroup.procs")) as f:
                    out.update(int(x) for x in f.read().split())
            except OSError:
                pass
        return out

    def remove(self):
        """Kill what is still inside, then remove the cgroup."""
        for _ in range(50):
            left = self.pids()
            if not left:
                break
            for p in left:
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        for path in self.paths:
            for _ in range(20):
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)


# ---------------------------------------------------------------------------
# What the sandbox sees: the system read-only, and course_lib without the expected results
# ---------------------------------------------------------------------------

_GRADER_ONLY = {"grader.py", "_worker.py", "_view.py", "generate.py",
                "README.md", "__main__.py"}


def build_view(dest):
    """Write the sandbox's ``course_lib/grading`` into folder ``dest``; return ``dest``.

    It holds the framework (``core.py``), the observing half of every question (``chapters/``
    with ``expect``, ``judge`` and the answers of prediction items removed, see ``_view.py``),
    the code the grader sends into kernels, and a ``check()`` that only says that grading is
    under way.  The grader's own modules and the expected results are not in it.
    """
    from . import _view
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(dest, exist_ok=True)
    for root, dirs, files in os.walk(here):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(root, here)
        target = os.path.join(dest, rel) if rel != "." else dest
        os.makedirs(target, exist_ok=True)
        for name in files:
            if not name.endswith(".py") or (rel == "." and name in _GRADER_ONLY):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                source = f.read()
            if rel == "chapters" and name.startswith("ch"):
                source = _view.strip_expected(source)
            elif rel == "." and name == "check.py":
                source = _view.CHECK_STUB
            with open(os.path.join(target, name), "w", encoding="utf-8") as f:
                f.write(source)
    return dest


def _system_binds():
    out = []
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            out += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            out += ["--ro-bind", top, top]
    for path in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"):
        if os.path.exists(path):
            out += ["--ro-bind", path, path]
    return out


def _inside(path, folder):
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _python_binds(course_lib_dir):
    """Read-only binds for this Python (base install, virtual environment) and course_lib's source.

    Other entries of ``sys.path`` (another editable install, ``PYTHONPATH``) are bound too, but never
    the current folder or the script's (``sys.path[0]``), the temporary folder, nor a folder that
    holds course_lib's repository (its ``solutions/``, the submissions, the report would show).
    """
    course_lib_dir = os.path.realpath(course_lib_dir)
    repository = os.path.dirname(course_lib_dir)
    prefixes = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
                os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}
    paths = prefixes | {course_lib_dir}
    tmp = os.path.realpath(tempfile.gettempdir())
    for entry in sys.path[1:]:
        real = os.path.realpath(entry) if entry else ""
        if not real or not os.path.isdir(real) or real.startswith("/usr/") or _inside(real, tmp):
            continue
        if _inside(repository, real) or (_inside(real, repository) and not any(_inside(real, p) for p in prefixes)):
            continue
        paths.add(real)
    # keep the outermost paths only (a venv inside the prefix needs no bind of its own)
    kept = []
    for p in sorted(paths, key=len):
        if not any(_inside(p, k) for k in kept):
            kept.append(p)
    out = []
    for p in kept:
        out += ["--ro-bind", p, p]
    # sys.prefix may be a symlinked path (a venv reached through a link): bind it as it is named too
    for p in (sys.prefix, os.path.dirname(os.path.dirname(sys.executable))):
        if os.path.realpath(p) != p and os.path.isdir(p):
            out += ["--ro-bind", p, p]
    return out


_PROBE = {}


def probe(force=None):
    """``("bwrap", "")`` where bubblewrap can sandbox a process here, else ``(None, reason)``.

    ``force="none"`` (or the environment variable ``COURSE_LIB_GRADER_SANDBOX=none``) gives the
    fallback without trying, for machines where namespaces are known to be unavailable and for
    the tests of the fallback.
    """
    if force in (None, "auto"):
        force = os.environ.get("COURSE_LIB_GRADER_SANDBOX", "auto")
    if force == "none":
        return None, "已按设置关闭沙箱（--sandbox none）"
    if "result" in _PROBE:
        return _PROBE["result"]
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        result = (None, "没有找到 bubblewrap（bwrap）；Debian/Ubuntu 上可以用 apt-get install bubblewrap 安装")
    else:
        import course_lib
        argv = _bwrap_argv(bwrap, os.path.dirname(course_lib.__file__), None, None, 16) + [
            sys.executable, "-I", "-S", "-c", "import os; print(os.getpid(), os.getuid())"]
        try:
            out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
            ok = out.returncode == 0 and out.stdout.split() == ["2", str(SANDBOX_UID)]
            reason = "" if ok else f"bubblewrap 无法创建命名空间：{(out.stderr or out.stdout).strip()[:200]}"
        except (OSError, subprocess.SubprocessError) as e:
            ok, reason = False, f"bubblewrap 无法运行：{e}"
        result = ("bwrap", "") if ok else (None, reason)
    _PROBE["result"] = result
    return result


def _bwrap_argv(bwrap, course_lib_dir, view, private, tmp_mb):
    argv = [bwrap, "--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup-try", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--hostname", "grader",
            "--clearenv"]
    # the in-memory /tmp first: Python or course_lib may live under /tmp, and are bound onto it then
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(tmp_mb * 1024 * 1024), "--tmpfs", "/tmp",
             "--dir", "/tmp/work", "--dir", "/tmp/home"]
    argv += _system_binds() + _python_binds(course_lib_dir)
    if view:
        argv += ["--ro-bind", view, os.path.join(os.path.realpath(course_lib_dir), "grading")]
    if private:
        argv += ["--bind", private, private]
    argv += ["--chdir", "/tmp/work"]
    return argv


class Sandbox:
    """How to run the processes of one submission.

    Args:
        private: the submission's private folder on the host (mode 0700; bound into the sandbox).
        mode: ``"bwrap"`` or ``None`` (see :func:`probe`).
        view: the folder from :func:`build_view` (bwrap mode only).
        memory_mb: address-space limit of each process (``RLIMIT_AS``), and with ``tmp_mb`` the
            memory limit of the whole sandbox where cgroups are available.
        cpu_s: CPU seconds of each process (``RLIMIT_CPU``).
        tmp_mb: size of the in-memory ``/tmp`` (working folder and home) in bwrap mode.
    """

    def __init__(self, private, mode, view=None, memory_mb=2048, cpu_s=600, tmp_mb=256, pids_max=256,
                 name=None):
        import course_lib
        self.private, self.mode, self.view = str(private), mode, view
        self.memory_mb, self.cpu_s, self.tmp_mb, self.pids_max = memory_mb, cpu_s, tmp_mb, pids_max
        self.course_lib_dir = os.path.dirname(os.path.abspath(course_lib.__file__))
        self.name = name or f"clg-{os.getpid()}-{time.monotonic_ns()}"
        self.cgroups = []

    def env(self):
        """The environment of the processes inside (bwrap clears the rest)."""
        home = "/tmp/home" if self.mode == "bwrap" else os.path.join(self.private, "home")
        os.makedirs(home, exist_ok=True) if self.mode != "bwrap" else None
        return {"HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                "MPLBACKEND": "agg", "MPLCONFIGDIR": os.path.join(home, ".mpl"),
                "IPYTHONDIR": os.path.join(home, ".ipython"), "PYDEVD_DISABLE_FILE_VALIDATION": "1",
                "JUPYTER_PLATFORM_DIRS": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}

    def command(self, argv, label="p"):
        """The argv that runs ``argv`` (a Python command of this interpreter) inside the sandbox."""
        cgroup = Cgroup.create(f"{self.name}_{label}", self.pids_max,
                               (self.memory_mb + self.tmp_mb + 256) * 1024 * 1024)
        if cgroup is not None:
            self.cgroups.append(cgroup)
        options = {"memory_mb": self.memory_mb, "cpu_s": self.cpu_s, "fsize_mb": max(64, self.tmp_mb),
                   "cgroups": cgroup.paths if cgroup else [], "parent": os.getpid()}
        launcher = [sys.executable, "-I", "-S", os.path.abspath(__file__), json.dumps(options), "--"]
        if self.mode == "bwrap":
            inner = _bwrap_argv(shutil.which("bwrap"), self.course_lib_dir, self.view, self.private, self.tmp_mb)
            for key, value in self.env().items():
                inner += ["--setenv", key, value]
            return launcher + inner + ["--"] + list(argv)
        return launcher + ["env", "-i"] + [f"{k}={v}" for k, v in self.env().items()] + list(argv)

    def cwd(self):
        """The working folder to start processes in (inside the sandbox, bwrap sets its own)."""
        if self.mode == "bwrap":
            return self.private
        work = os.path.join(self.private, "work")
        os.makedirs(work, exist_ok=True)
        return work

    def close(self):
        """Remove the cgroups (killing anything still in them)."""
        for cgroup in self.cgroups:
            cgroup.remove()
        self.cgroups = []


# ---------------------------------------------------------------------------
# The launcher (this file run as a script)
# ---------------------------------------------------------------------------

def _apply_limits(options):
    try:
        import resource
    except ImportError:
        return
    limits = [(getattr(resource, "RLIMIT_CORE", None), 0)]
    if options.get("memory_mb"):
        limits.append((resource.RLIMIT_AS, options["memory_mb"] * 1024 * 1024))
    if options.get("cpu_s"):
        limits.append((resource.RLIMIT_CPU, int(options["cpu_s"])))
    if options.get("fsize_mb"):
        limits.append((getattr(resource, "RLIMIT_FSIZE", None), options["fsize_mb"] * 1024 * 1024))
    for which, value in limits:
        if which is None:
            continue
        try:
            soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def launch(options, argv):
    """Run ``argv`` under ``options`` (limits, cgroups), kill every descendant at the end; return its status."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if options.get("parent") and os.getppid() != options["parent"]:
        return 137                       # the worker died before we could ask to die with it
    for path in options.get("cgroups", []):
        try:
            with open(os.path.join(path, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        except OSError:
            pass
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _apply_limits(options)
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)
        kill_descendants()
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    signal.signal(signal.SIGINT, lambda s, f: child.send_signal(signal.SIGINT))
    child = subprocess.Popen(argv, preexec_fn=lambda: _prctl(PR_SET_PDEATHSIG, signal.SIGKILL))
    try:
        status = child.wait()
    finally:
        kill_descendants()
    return status if status >= 0 else 128 - status


def main(args):
    """``_sandbox.py OPTIONS_JSON -- COMMAND...`` (the launcher)."""
    options = json.loads(args[0])
    argv = args[args.index("--") + 1:]
    return launch(options, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
