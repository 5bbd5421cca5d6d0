"""The process that tests a submission's functions, inside its sandbox: observations only, no verdicts.

    python -I -m course_lib.grading._observe      (started by the worker, see ``_worker.py``)

It talks to the worker over its stdin/stdout, one JSON object per line, and points its own file
descriptors 0-2 at ``/dev/null`` before any learner code exists, so nothing the learner's code
prints or writes can reach that channel.

1. ``{"ready": true}`` once course_lib and the framework are imported (this overlaps the notebook
   run in the kernel);
2. the worker sends ``{"cells": [...], "module": ..., "questions": [...]}``: the notebook's cells as
   Python source, and for each the top-level statements to load (``_definitions.plan_cell``: imports,
   definitions, assignments; never hooks, patches or other top-level code).  They are executed in
   a namespace of their own, under :class:`LoadGuard`, which refuses any call the learner's
   top-level code makes to its own functions or outside course_lib, NumPy, PyTorch and a few pure
   modules, and any change to a module's tables.  The answer: ``{"loaded": {"errors", "refused"}}``;
3. then, for each question, the process **forks**: the child imports the chapter's observing half
   (the sandbox's copy, without expected results), runs ``core.observe_question`` on the loaded
   names, writes the plain-data observation to a pipe of its own and exits; the parent, which has
   never run a learner function, reads at most :data:`MAX_OBSERVATION` bytes within the question's
   time, kills the child and everything it started, and sends ``{"question", "observed"}`` (or
   ``{"question", "error"}``).  One question's code cannot change what another question sees.

It never judges: the observations are judged by the worker, outside the sandbox, against the
expected results of the full chapter module.
"""

import ast
import builtins
import json
import linecache
import os
import select
import signal
import sys
import time
import types

MAX_OBSERVATION = 16 * 1024 * 1024     # bytes of one question's observation
CO_NEWLOCALS = 0x0002
COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
ALLOWED_MODULES = frozenset({
    "course_lib", "numpy", "torch", "math", "cmath", "random", "fractions", "decimal", "statistics", "itertools",
    "functools", "collections", "string", "re", "copy", "typing", "enum", "abc", "numbers",
})
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "ascii", "bin", "callable", "chr", "divmod", "format", "hash", "hex", "id", "isinstance",
    "issubclass", "iter", "len", "max", "min", "next", "oct", "ord", "pow", "print", "repr", "round", "sorted",
    "sum", "hasattr", "staticmethod", "classmethod", "property", "__build_class__",
})


class Refused(BaseException):
    """Raised by :class:`LoadGuard` into the learner's top-level code (not an ``Exception``)."""


def _module_allowed(name):
    if not name:
        return False
    if name in ("importlib._bootstrap", "importlib._bootstrap_external"):     # what an import statement calls
        return True
    if name == "course_lib.grading" or name.startswith("course_lib.grading."):
        return False
    return name.split(".")[0] in ALLOWED_MODULES


class LoadGuard:
    """A profile function (``sys.setprofile``) for loading definitions; see the module docstring."""

    def __init__(self, learner_files, allowed_callables=()):
        from ._definitions import DENIED_ATTRIBUTES, DENIED_NAMES
        self.files = learner_files
        self.denied = DENIED_ATTRIBUTES | DENIED_NAMES
        self.allowed = {id(f) for f in allowed_callables}
        self.keep = list(allowed_callables)
        # every list / dict / set that a module holds as an attribute: the learner may not change them
        self.protected = set()
        for module in list(sys.modules.values()):
            if isinstance(module, types.ModuleType):
                for value in list(getattr(module, "__dict__", {}).values()):
                    if issubclass(type(value), (list, dict, set, bytearray)):   # type(): no __class__ lookup
                        self.protected.add(id(value))
        self.protected.add(id(sys.modules))
        self.refused = None

    def _refuse(self, why):
        self.refused = why
        raise Refused(why)

    def _c_allowed(self, fn):
        if id(fn) in self.allowed:
            return True
        name = getattr(fn, "__name__", "") or ""
        if name in self.denied:
            return False
        owner = getattr(fn, "__self__", None)
        if owner is None or isinstance(owner, types.ModuleType):
            module = owner.__name__ if isinstance(owner, types.ModuleType) else getattr(fn, "__module__", "") or ""
            if module == "builtins":
                return name in SAFE_BUILTINS
            return _module_allowed(module)
        if id(owner) in self.protected:
            return False
        cls = owner if isinstance(owner, type) else type(owner)
        module = getattr(cls, "__module__", "") or ""
        if module == "builtins":
            return not name.startswith("_")
        return _module_allowed(module)

    def __call__(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename in self.files:
                if code.co_flags & CO_NEWLOCALS and code.co_name not in COMPREHENSIONS:
                    self._refuse(f"加载时调用了笔记本里定义的函数 {code.co_name}")
                return
            back = frame.f_back
            if back is not None and back.f_code.co_filename in self.files:
                module = frame.f_globals.get("__name__", "")
                allowed = self.allowed and any(getattr(f, "__code__", None) is code for f in self.keep)
                if not allowed and (not _module_allowed(module) or code.co_name in self.denied):
                    self._refuse(f"加载时调用了 {module}.{code.co_name}")
        elif event == "c_call":
            if frame.f_code.co_filename in self.files and not self._c_allowed(arg):
                self._refuse(f"加载时调用了 {getattr(arg, '__qualname__', getattr(arg, '__name__', arg))}")


def _display(*args, **kwargs):
    """``display`` for functions that call it: shows nothing here."""


def load(cells):
    """Run the planned statements of ``cells`` in a new namespace; return ``(namespace, report)``."""
    ns = {"__name__": "__main__", "__builtins__": builtins, "display": _display}
    files = set()
    errors, refused = [], []
    try:
        from course_lib.grading import checker
        allowed = [checker]
    except ImportError:
        allowed = []
    parsed = []
    for cell in cells:
        filename = f"<cell {cell['index'] + 1}>"
        source = cell["source"]
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        files.add(filename)
        try:
            tree = ast.parse(source, filename)
        except (SyntaxError, ValueError):
            continue
        parsed.append((cell, filename, tree))
    guard = LoadGuard(files, allowed)
    for cell, filename, tree in parsed:
        for i in cell["run"]:
            if i >= len(tree.body):
                continue
            node = tree.body[i]
            code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
            guard.refused = None
            sys.setprofile(guard)
            try:
                exec(code, ns)
            except Refused as e:
                refused.append({"cell": cell["index"], "line": node.lineno, "why": str(e)})
            except BaseException as e:  # noqa: B036 - SystemExit, KeyboardInterrupt: a failed statement
                if guard.refused:
                    refused.append({"cell": cell["index"], "line": node.lineno, "why": guard.refused})
                else:
                    errors.append({"cell": cell["index"], "line": node.lineno,
                                   "error": f"{type(e).__name__}: {str(e)[:300]}"})
            finally:
                sys.setprofile(None)
    return ns, {"errors": errors, "refused": refused, "names": sorted(k for k in ns if not k.startswith("__"))}


def _prctl(option, value):
    try:
        import ctypes
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _kill_family():
    from ._sandbox import kill_descendants
    kill_descendants()


def observe_in_child(module_name, question, ns, channel_fds):
    """Fork; the child observes ``question`` (a dict: name, class, timeout); return the parent's reading."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                           # the child: learner code runs here only
        try:
            os.close(r)
            for fd in channel_fds:
                os.close(fd)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            import importlib
            core = importlib.import_module("course_lib.grading.core")
            module = importlib.import_module(module_name)
            q = getattr(module, question["class"])()
            observed = core.observe_question(q, ns, question["timeout"])
            data = json.dumps({"observed": observed}, allow_nan=True)
        except BaseException as e:  # noqa: B036 - anything the learner's code raised or did
            data = json.dumps({"error": f"{type(e).__name__}: {str(e)[:300]}"})
        try:
            payload = data.encode("utf-8", "replace")
            view = memoryview(payload)
            while view:
                n = os.write(w, view[:65536])
                view = view[n:]
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + question["timeout"] + question.get("grace", 10)
    chunks, size, result = [], 0, None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                result = {"observed": {"status": "timeout", "case": 0, "seconds": question["timeout"]}}
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_OBSERVATION:
                result = {"error": f"这道题的观察结果超过 {MAX_OBSERVATION // 2**20} MB"}
                break
            chunks.append(chunk)
    finally:
        os.close(r)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        _kill_family()
    if result is None:
        try:
            result = json.loads(b"".join(chunks).decode("utf-8"))
            if not isinstance(result, dict):
                raise ValueError("not an object")
        except ValueError:
            result = {"error": "测试进程没有留下可以读取的结果（它被提前结束了吗？）"}
    return result


def main():
    """Serve one submission (see the module docstring)."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    inp = os.fdopen(os.dup(0), "r", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdout = sys.stderr = open(os.devnull, "w")
    _prctl(4, 0)                                           # PR_SET_DUMPABLE 0: no ptrace, no /proc/<pid>/fd
    _prctl(36, 1)                                          # PR_SET_CHILD_SUBREAPER: orphans come back to us

    def send(obj):
        out.write(json.dumps(obj, ensure_ascii=True, allow_nan=True) + "\n")
        out.flush()
    import course_lib  # noqa: F401 - imported once, before any learner code, shared by the forks
    import course_lib.grading.chapters._util  # noqa: F401
    import course_lib.grading.core  # noqa: F401
    send({"ready": True})
    line = inp.readline()
    if not line:
        return 0
    try:
        job = json.loads(line)
        import importlib
        importlib.import_module(job["module"])             # the observing half (no learner code yet)
        ns, report = load(job["cells"])
    except Exception as e:  # noqa: BLE001 - say why, for the report
        send({"fatal": f"{type(e).__name__}: {str(e)[:300]}"})
        return 1
    send({"loaded": report})
    for question in job["questions"]:
        result = observe_in_child(job["module"], question, ns, (out.fileno(), inp.fileno()))
        send(dict(result, question=question["name"]))
    send({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
