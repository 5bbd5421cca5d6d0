"""Shortcuts a question forbids: a library call, tensors altogether, Python loops.

Some questions ask the learner to do by hand what a library call would do (``broadcast_shape``
without ``torch.broadcast_shapes``, strides without creating a tensor), or to do it without a
Python loop.  A question says so with a :class:`Forbid` in its ``forbid`` attribute, and the
checker looks for the shortcut in two ways, both on the observing side (in the learner's kernel)
and both giving plain data:

* :func:`code_facts` reads the bytecode of the learner's functions: every global and attribute
  name they use, which of the names are bound to a tensor library (``torch``, ``np``), and whether
  they loop (``for``, ``while``, comprehensions, recursion, ``map``).  It follows the lambdas and
  inner functions they hold and the notebook's own helper functions they call (a ``try_view``
  defined in another cell counts as the learner's code).  No source text is needed, so it works
  for code run by ``exec`` too.
* :class:`CallRecorder` watches, while the cases run, which library functions the learner's code
  calls directly (``sys.setprofile``): a call hidden behind ``getattr`` or an imported alias shows
  up here.

:meth:`Forbid.judge` turns both into a Chinese reason, on the judging side, or ``None``.  A question
with a shortcut scores zero until the shortcut is gone, whatever the cases say.
"""

import dis
import sys
import types

__all__ = ["Forbid", "code_facts", "CallRecorder", "LIBRARIES"]

LIBRARIES = ("torch", "course_lib", "numpy")     # the roots of the modules whose calls are recorded
_TENSOR_LIBRARIES = ("torch", "course_lib")
# NumPy functions that make an array from a shape, or broadcast shapes: the shortcuts of a "no tensors" question
NUMPY_MAKERS = frozenset({
    "empty", "zeros", "ones", "full", "array", "asarray", "ndarray", "arange", "as_strided", "empty_like",
    "zeros_like", "ones_like", "full_like", "broadcast", "broadcast_to", "broadcast_shapes", "broadcast_arrays",
    "matmul", "dot", "einsum", "lib", "stride_tricks",
})
_LOOP_BUILTINS = frozenset({"map", "filter"})                      # builtins that loop over an iterable
_LOOP_FUNCTIONS = frozenset({"reduce", "accumulate", "starmap"})     # functools / itertools
_HIDDEN_CODE = frozenset({"exec", "eval", "compile", "__import__"})  # builtins that run code not in the function
_MAX_NAMES = 400


def _root(module_name):
    return str(module_name or "").split(".")[0]


def _is_learners(globals_, ns):
    """Whether code with these globals is the learner's: the notebook's namespace, or no module's.

    Code made with ``types.FunctionType(code, {})`` or run by ``exec`` in a fresh dict has globals
    that belong to no imported module: it is the learner's too.
    """
    if globals_ is ns:
        return True
    module = sys.modules.get(globals_.get("__name__")) if isinstance(globals_, dict) else None
    return module is None or getattr(module, "__dict__", None) is not globals_


# ---------------------------------------------------------------------------
# Observing: what the learner's code is made of
# ---------------------------------------------------------------------------

def _code_objects(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _loops_in(code):
    for instr in dis.get_instructions(code):
        name = instr.opname
        if name == "FOR_ITER" or "BACKWARD" in name or name == "JUMP_ABSOLUTE":
            return True
    return False


def _library_of_value(value):
    """The library root of a module, function or class, or None (for a name the code uses)."""
    if isinstance(value, types.ModuleType):
        root = _root(value.__name__)
    else:
        root = _root(getattr(value, "__module__", None))
    return root if root in LIBRARIES else None


_ATTRIBUTE_OPS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "DELETE_ATTR", "IMPORT_FROM"})
_GLOBAL_OPS = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})


def code_facts(functions, ns):
    """Plain data about the code of ``functions`` (the learner's answers) and what they reach.

    Returns ``{"functions": [...], "names": [...], "libraries": {name: root}, "loops": [...],
    "recursive": [...], "builtins": [...]}``: the learner's functions read (by name); the names
    their code uses that may be library functions (every attribute name, every imported name,
    every global name that is not one of the notebook's own functions or values, and the real name
    of a library function bound to another name); which global or imported names are bound to a
    library (``{"torch": "course_lib", "np": "numpy"}``); the functions that hold a loop; the
    functions that call themselves; and the builtins they use (``map``, ``exec``).  A function
    counts as the learner's when its globals are the notebook's namespace ``ns`` (or belong to no
    module).
    """
    seen, names, libraries, loops, recursive, order, used_builtins = set(), set(), {}, [], [], [], set()
    builtins_ns = ns.get("__builtins__", {}) if isinstance(ns, dict) else {}
    if isinstance(builtins_ns, types.ModuleType):
        builtins_ns = vars(builtins_ns)

    def visit(fn):
        if isinstance(fn, (staticmethod, classmethod, types.MethodType)):
            fn = fn.__func__
        if not isinstance(fn, types.FunctionType):
            # a class of the learner's (an autograd.Function, a callable object's class): its methods
            cls = fn if isinstance(fn, type) else type(fn) if callable(fn) else None
            module = getattr(cls, "__module__", None)
            if cls is not None and id(cls) not in seen and _root(module) not in LIBRARIES + ("builtins",):
                seen.add(id(cls))
                for member in list(vars(cls).values()):
                    visit(member)
            return
        code = getattr(fn, "__code__", None)
        if not isinstance(code, types.CodeType) or id(code) in seen:
            return
        if not _is_learners(getattr(fn, "__globals__", None), ns):
            return
        seen.add(id(code))
        order.append(getattr(fn, "__qualname__", code.co_name))
        has_loop, globals_used = False, set()
        for c in _code_objects(code):
            has_loop = has_loop or _loops_in(c)
            for instr in dis.get_instructions(c):
                if instr.opname in _ATTRIBUTE_OPS:
                    names.add(str(instr.argval))
                elif instr.opname in _GLOBAL_OPS:
                    globals_used.add(str(instr.argval))
                elif instr.opname == "IMPORT_NAME":
                    module = str(instr.argval)
                    names.add(module.rpartition(".")[2])
                    if _root(module) in LIBRARIES:
                        libraries[module] = _root(module)
        if has_loop:
            loops.append(order[-1])
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                visit(cell.cell_contents)
            except ValueError:      # an empty cell
                pass
        for default in (getattr(fn, "__defaults__", None) or ()):
            visit(default)
        own = fn.__globals__
        for name in sorted(globals_used):
            if name in own:
                value = own[name]
            elif name in builtins_ns:
                value = builtins_ns[name]
            else:
                names.add(name)
                continue
            if value is fn:
                recursive.append(order[-1])
            lib = _library_of_value(value)
            if lib:
                libraries[name] = lib
                names.add(name)
                names.add(str(getattr(value, "__name__", name)).rpartition(".")[2])
            elif name not in own:
                names.add(name)         # a builtin: map, exec, ...
                used_builtins.add(name)
            visit(value)

    for fn in functions:
        visit(fn)
    return {"functions": order, "names": sorted(names)[:_MAX_NAMES], "libraries": libraries,
            "loops": loops, "recursive": sorted(set(recursive)), "builtins": sorted(used_builtins)}


class CallRecorder:
    """A profile hook that records the library functions the learner's code calls directly.

    Used as a context manager around running a case.  A call is recorded when the calling frame is
    the learner's (its globals are the notebook's namespace ``ns``, as for the learner's functions,
    their lambdas and comprehensions, or belong to no module) and the function called belongs to
    torch, course_lib or NumPy; its record
    reads ``"torch.empty"``, ``"course_lib.Tensor.stride"``, ``"numpy.zeros"`` (module root and
    qualified name).  The previous profile function is restored on the way out.
    """

    def __init__(self, ns):
        self.ns = ns
        self.calls = {}             # in the order first made (a dict as an ordered set)
        self._previous = None

    def _record(self, root, qualname):
        if len(self.calls) < _MAX_NAMES:
            self.calls.setdefault(f"{root}.{qualname}", None)

    def _profile(self, frame, event, arg):
        ns = self.ns
        if event == "call":
            caller = frame.f_back
            if caller is not None and _is_learners(caller.f_globals, ns) and not _is_learners(frame.f_globals, ns):
                module = frame.f_globals.get("__name__", "")
                root = _root(module)
                if root in LIBRARIES and not module.startswith("course_lib.grading"):
                    self._record(root, frame.f_code.co_qualname if hasattr(frame.f_code, "co_qualname")
                                 else frame.f_code.co_name)
        elif event == "c_call" and _is_learners(frame.f_globals, ns):
            owner = getattr(arg, "__self__", None)
            module = getattr(arg, "__module__", None)
            if not module and owner is not None:
                module = getattr(type(owner), "__module__", None) if not isinstance(owner, types.ModuleType) \
                    else owner.__name__
            root = _root(module)
            qualname = str(getattr(arg, "__qualname__", getattr(arg, "__name__", "?")))
            if root in LIBRARIES:
                if qualname.startswith("_VariableFunctionsClass."):   # torch.empty and friends
                    qualname = qualname.rpartition(".")[2]
                self._record(root, qualname)
            elif root == "builtins" and qualname in _HIDDEN_CODE:
                self._record("builtins", qualname)

    def __enter__(self):
        self._previous = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(self._previous)
        return False

    def result(self):
        """The recorded calls, in the order they were first made (plain data)."""
        return list(self.calls)


# ---------------------------------------------------------------------------
# Judging: is a forbidden shortcut among the facts?
# ---------------------------------------------------------------------------

def _as_torch(call):
    """How a recorded call reads for the learner: ``torch.zeros``, ``Tensor.stride``, ``np.zeros``."""
    root, _, qualname = call.partition(".")
    if "<locals>" in qualname or qualname.rpartition(".")[2].startswith("_"):
        return "张量的运算符" if root in _TENSOR_LIBRARIES else "NumPy 的运算符"
    if root == "numpy":
        return "np." + qualname.rpartition(".")[2]
    if root == "builtins":
        return qualname
    if qualname.startswith(("Tensor.", "TensorBase.")):
        return "Tensor." + qualname.rpartition(".")[2]
    return "torch." + qualname.rpartition(".")[2]


def _last(call):
    return call.rpartition(".")[2]


class Forbid:
    """What a question forbids, and why (the reason is shown to the learner in Chinese).

    Args:
        calls: names of library functions or methods that must not be used (``"broadcast_shapes"``,
            ``"cdist"``, ``"backward"``); a name matches a global or attribute name of the learner's
            code and the last part of a recorded call.
        tensors: no tensors at all: no name bound to torch/course_lib, no call into them, and no
            NumPy function that makes an array from a shape (:data:`NUMPY_MAKERS`).
        loops: no Python loop (``for``, ``while``, comprehensions, recursion, ``map``/``filter``).
        why: one Chinese sentence: what the question asks instead (ends the verdict).
    """

    def __init__(self, calls=(), tensors=False, loops=False, why=""):
        self.calls = frozenset(calls)
        self.tensors, self.loops, self.why = tensors, loops, why

    def judge(self, facts):
        """A Chinese reason when ``facts`` (``code_facts`` plus ``"calls"``) show a forbidden shortcut, else None.

        The reason names what the code says (its names read the same whichever library ran it, so
        the verdict does too); the recorded calls are named only when the code's names show nothing,
        as for a call reached through ``getattr``.
        """
        if not isinstance(facts, dict):
            return None
        names = set(facts.get("names") or ())
        libraries = facts.get("libraries") or {}
        calls = list(facts.get("calls") or ())
        functions = list(facts.get("functions") or ())
        builtins_used = set(facts.get("builtins") or ())
        helpers = f"（包括它用到的 {'、'.join(functions[1:4])}）" if len(functions) > 1 else ""
        found = sorted(self.calls & names)
        if not found:
            found = list(dict.fromkeys(_as_torch(c) for c in calls if _last(c) in self.calls))
        if found:
            return f"代码{helpers}用到了题目不允许的 {'、'.join(found[:4])}。{self.why}"
        if self.tensors:
            used = sorted({n for n, lib in libraries.items() if lib in _TENSOR_LIBRARIES})
            if "numpy" in libraries.values() and names & NUMPY_MAKERS:
                used += sorted(n for n, lib in libraries.items() if lib == "numpy")
            if not used:
                used = [_as_torch(c) for c in calls if _root(c) in _TENSOR_LIBRARIES]
                used += [_as_torch(c) for c in calls if _root(c) == "numpy" and _last(c) in NUMPY_MAKERS]
            if used:
                what = "、".join(list(dict.fromkeys(used))[:4])
                return f"代码{helpers}用到了 {what}：这道题不允许创建张量（或 NumPy 数组）。{self.why}"
        if self.loops:
            loops = list(dict.fromkeys(list(facts.get("loops") or ()) + list(facts.get("recursive") or ())))
            looping = (builtins_used & _LOOP_BUILTINS) | (names & _LOOP_FUNCTIONS)
            if not loops and looping:
                loops = [f"{functions[0] if functions else '函数'}（{'、'.join(sorted(looping))}）"]
            if loops:
                return (f"{'、'.join(loops[:4])} 里有 Python 循环（for、while、推导式、递归或 map 都算）："
                        f"这道题不允许写循环。{self.why}")
        hidden = sorted(builtins_used & _HIDDEN_CODE) + (["import_module"] if "import_module" in names else [])
        hidden += [_last(c) for c in calls if _root(c) == "builtins" and _last(c) in _HIDDEN_CODE]
        if hidden:
            return (f"代码里用 {'、'.join(dict.fromkeys(hidden))} 运行了另一段代码：这道题要检查你写的代码本身，"
                    "请把它直接写在函数里。")
        return None
