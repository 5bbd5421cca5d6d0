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
import gc
import json
import linecache
import os
import select
import signal
import sys
import time
import types

from ._definitions import CALL, DENIED_ATTRIBUTES, DENIED_NAMES, _bound_names, as_loaded

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


SCALARS = frozenset({int, float, bool, str, complex, type(None), bytes})
PURE = frozenset({"abs", "all", "any", "ascii", "bin", "callable", "chr", "divmod", "format", "hash", "hex",
                  "isinstance", "issubclass", "len", "max", "min", "oct", "ord", "pow", "repr", "round", "sorted",
                  "sum"})       # built-ins that change nothing: fine as arguments (``max(xs, key=abs)``)
C_CALLABLES = (types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
               types.MethodWrapperType, types.ClassMethodDescriptorType)


def _module_of(cls):
    """A class's ``__module__`` as the class's dict holds it (never runs a property the learner put there)."""
    module = type.__dict__["__module__"].__get__(cls)
    return module if type(module) is str else ""


def _module_allowed(name):
    if not isinstance(name, str) or not name:
        return False
    if name in ("importlib._bootstrap", "importlib._bootstrap_external"):     # what an import statement calls
        return True
    if name == "course_lib.grading" or name.startswith("course_lib.grading."):
        return False
    return name.split(".")[0] in ALLOWED_MODULES


class LoadGuard:
    """A profile function (``sys.setprofile``) for loading definitions; see the module docstring."""

    def __init__(self, learner_files, allowed_callables=()):
        self.files = learner_files
        self.denied = DENIED_ATTRIBUTES | DENIED_NAMES
        self.allowed = {id(f) for f in allowed_callables}
        self.keep = list(allowed_callables)
        # every list / dict / set / array that a module holds as an attribute: the learner may not change them
        mutable = (list, dict, set, bytearray) + ((sys.modules["numpy"].ndarray,) if "numpy" in sys.modules else ())
        self.protected = set()
        for module in list(sys.modules.values()):
            if isinstance(module, types.ModuleType):
                for value in list(getattr(module, "__dict__", {}).values()):
                    if type(value) is type and getattr(value, "__module__", None) == module.__name__:
                        for attr in list(value.__dict__.values()):        # a class's tables: Tensor._cache
                            self._protect(attr, mutable, 1)
                    else:
                        self._protect(value, mutable, 0)
        self.protected.add(id(sys.modules))
        self.refused = None
        self.active = False

    def _protect(self, value, mutable, depth):
        """Protect ``value`` if it is a mutable container, and the containers in it (three levels)."""
        t = type(value)                                   # type(): no __class__ lookup
        if issubclass(t, mutable):
            self.protected.add(id(value))
        if depth < 3 and t in (dict, list, tuple, set, frozenset) and len(value) <= 10_000:
            for item in (list(value.values()) if t is dict else list(value)):
                if type(item) not in SCALARS:
                    self._protect(item, mutable, depth + 1)

    def _refuse(self, why):
        self.refused = why
        raise Refused(why)

    def _c_allowed(self, fn):
        """Whether the learner's code may call the C function ``fn`` (read with ``type()``, never ``isinstance``:
        that would look up ``__class__``, which the learner's object may define as a property)."""
        if id(fn) in self.allowed:
            return True
        name = getattr(fn, "__name__", "") or ""
        if name in self.denied:
            return False
        if type(fn) is types.MethodDescriptorType or type(fn) is types.WrapperDescriptorType:
            owner = fn.__objclass__                       # dict.update, list.clear: unbound, on a class
        else:
            owner = getattr(fn, "__self__", None)
        if owner is None or type(owner) is types.ModuleType:
            module = owner.__name__ if owner is not None else getattr(fn, "__module__", "") or ""
            if module == "builtins":
                return name in SAFE_BUILTINS
            return _module_allowed(module)
        if id(owner) in self.protected:
            return False
        cls = owner if issubclass(type(owner), type) else type(owner)
        module = _module_of(cls)
        if module == "builtins":
            return not name.startswith("_")
        return _module_allowed(module) or module == "__main__"

    def _arg_refusal(self, value, depth=0, seen=None):
        """Why ``value``, passed to a call at load time, is refused, or None.

        The callee may call what it is given with arguments no check sees (``map``, ``functools.partial``,
        ``itertools.starmap`` call C functions from C): so a library's table is refused, and so is a
        callable unless it is the learner's own (refused when it runs), a class, a pure built-in or
        ``math`` function, or a Python function of the libraries.  Lists, tuples, dicts and sets are
        searched (``map(np.add, [TABLE], ...)``).
        """
        if id(value) in self.protected:
            return "把库里的表格传给了函数"
        t = type(value)
        if t in C_CALLABLES:
            owner = getattr(value, "__self__", None) if t is types.BuiltinFunctionType else None
            pure = type(owner) is types.ModuleType and (
                owner.__name__ in ("math", "cmath") or (owner.__name__ == "builtins" and value.__name__ in PURE))
            if not pure:
                return f"把 {getattr(value, '__qualname__', t.__name__)} 作为参数传给了函数"
        elif t is types.MethodType or t is types.FunctionType:
            if not self._callee_allowed(value):
                return f"把 {getattr(value, '__qualname__', t.__name__)} 作为参数传给了函数"
        elif callable(value) and not issubclass(t, type):
            # a ufunc, np.copyto, a partial, an operator.methodcaller: C code that calls what it holds
            if _module_of(t).split(".")[0] not in ("course_lib", "torch", "__main__"):
                return f"把一个 {t.__name__} 对象（可以调用）作为参数传给了函数"
        elif t in (list, tuple, dict, set, frozenset):
            seen = seen if seen is not None else [0]
            if depth > 32:
                return "参数嵌套太深，无法检查"
            for item in (value.items() if t is dict else value):
                seen[0] += 1
                if seen[0] > 1_000_000:
                    return "参数太多，无法检查"
                if type(item) in SCALARS:
                    continue
                why = self._arg_refusal(item, depth + 1, seen)
                if why:
                    return why
        return None

    def _callee_allowed(self, fn):
        t = type(fn)
        if t in C_CALLABLES:
            return self._c_allowed(fn)
        if t is types.MethodType:
            return id(fn.__self__) not in self.protected and self._callee_allowed(fn.__func__)
        if t is types.FunctionType:
            if fn.__code__.co_filename in self.files:
                return True                               # the learner's own: refused when called (profile)
            return (_module_allowed(fn.__globals__.get("__name__")) and fn.__code__.co_name not in self.denied) \
                or any(fn is f for f in self.keep)
        return True

    def call(self, fn, /, *args, **kwargs):
        """Every call in the learner's loaded code goes through here (``_definitions.as_loaded``)."""
        if sys.getprofile() is not self:          # a library swallowed a refusal and CPython switched us off
            sys.setprofile(self)
        t = type(fn)
        if t is types.FunctionType and fn.__code__.co_filename in self.files:
            self._refuse(f"加载时调用了笔记本里定义的函数 {fn.__code__.co_name}")
        if t in C_CALLABLES or t is types.MethodType or t is types.FunctionType:
            if not self._callee_allowed(fn):
                self._refuse(f"加载时调用了 {getattr(fn, '__qualname__', getattr(fn, '__name__', t.__name__))}")
        elif issubclass(t, type):
            module = _module_of(fn)
            if not (_module_allowed(module) or module in ("builtins", "__main__")):
                self._refuse(f"加载时创建了 {fn.__name__}")
        elif not (_module_allowed(_module_of(t)) or _module_of(t) == "__main__"):
            self._refuse(f"加载时调用了一个 {t.__name__} 对象")
        for value in args + tuple(kwargs.values()):
            why = self._arg_refusal(value)
            if why:
                self._refuse(f"加载时{why}")
        return fn(*args, **kwargs)

    def __call__(self, frame, event, arg):
        try:
            self._check(frame, event, arg)
        except Refused:
            raise
        except Exception as e:  # noqa: BLE001 - whatever the learner's objects made the check raise: refuse
            self._refuse(f"加载时的检查出错（{type(e).__name__}）")

    def _check(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename in self.files:
                if code.co_flags & CO_NEWLOCALS and code.co_name not in COMPREHENSIONS:
                    self._refuse(f"加载时调用了笔记本里定义的函数 {code.co_name}")
                return
            back = frame.f_back
            if back is not None and back.f_code.co_filename in self.files:
                module = frame.f_globals.get("__name__", "")
                allowed = any(getattr(f, "__code__", None) is code for f in self.keep)
                if not allowed and (not _module_allowed(module) or code.co_name in self.denied):
                    self._refuse(f"加载时调用了 {module}.{code.co_name}")
        elif event == "c_call":
            if frame.f_code.co_filename in self.files and not self._c_allowed(arg):
                self._refuse(f"加载时调用了 {getattr(arg, '__qualname__', getattr(arg, '__name__', arg))}")


def _display(*args, **kwargs):
    """``display`` for functions that call it: shows nothing here."""


def _plain_call(fn, /, *args, **kwargs):
    return fn(*args, **kwargs)


def _describe(e):
    """``"Class: message"`` of an exception the learner's code raised (its ``__str__`` may be refused)."""
    try:
        return f"{type(e).__name__}: {str(e)[:300]}"
    except BaseException:  # noqa: B036 - a refused or failing __str__: the class name is enough
        return type(e).__name__


def load(cells):
    """Run the planned statements of ``cells`` in a new namespace; return ``(namespace, report)``.

    Each statement runs as ``_definitions.as_loaded`` rewrites it, under :class:`LoadGuard`.  CPython
    switches a profile function off when it raises: where a finalizer or a weakref callback swallows a
    refusal (``sys.unraisablehook``), the guard is switched on again.  Garbage left by the statements is
    collected while the guard is on; the observing process also keeps the collector off afterwards (``main``).
    """
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
    guard.keep.append(guard.call)
    ns[CALL] = guard.call
    previous_hook = sys.unraisablehook

    def rearm(unraisable):
        if guard.active:
            sys.setprofile(guard)

    def run(code, cell, node):
        guard.refused = None
        guard.active = True
        sys.setprofile(guard)
        try:
            exec(code, ns)
        except Refused as e:
            refused.append({"cell": cell["index"], "line": node.lineno, "why": guard.refused or _describe(e)})
        except BaseException as e:  # noqa: B036 - SystemExit, KeyboardInterrupt: a failed statement
            if guard.refused:
                refused.append({"cell": cell["index"], "line": node.lineno, "why": guard.refused})
            else:
                errors.append({"cell": cell["index"], "line": node.lineno, "error": _describe(e)})
        else:
            if guard.refused:                 # refused, and the refusal swallowed: the statement does not count
                refused.append({"cell": cell["index"], "line": node.lineno, "why": guard.refused})
                for name in _bound_names(node):
                    ns.pop(name, None)
        finally:
            guard.active = False
            sys.setprofile(None)

    sys.unraisablehook = rearm
    collecting = gc.isenabled()
    gc.disable()
    gc.freeze()                               # what existed before: not the statements' garbage, not scanned
    try:
        for cell, filename, tree in parsed:
            for i in cell["run"]:
                if i >= len(tree.body):
                    continue
                node = tree.body[i]
                code = compile(ast.Module(body=[as_loaded(node)], type_ignores=[]), filename, "exec")
                run(code, cell, node)
        guard.active = True                   # the statements' garbage: its finalizers run guarded, now
        sys.setprofile(guard)
        try:
            gc.collect()
        except BaseException:  # noqa: B036 - a refusal raised by a finalizer is already swallowed; anything else too
            pass
        finally:
            guard.active = False
            sys.setprofile(None)
    finally:
        sys.unraisablehook = previous_hook
        gc.unfreeze()
        if collecting:
            gc.enable()
    ns[CALL] = _plain_call                    # a generator defined at the top runs later, unchecked, in a child
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
            gc.enable()                                    # the learner's code may make garbage cycles here
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
        except (ValueError, RecursionError):
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
    gc.disable()       # never again here: a finalizer of the learner's garbage would run unguarded (see load)
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
    status = main()
    os._exit(status)   # no finalizer of the learner's objects runs on the way out
