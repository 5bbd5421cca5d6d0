"""Code the batch grader sends into a submission's kernel (as source text, not as an import).

The grader reads this file from its own installation and executes it in the
kernel with ``exec`` in a fresh namespace holding ``_user_ns`` (the notebook's
globals) and ``_args``.  Two kinds of request:

``preamble``     run before the learner's first cell: import course_lib and the
                 chapter's tests, and report the fingerprint of course_lib and numpy
``fingerprint``  report the fingerprint again after the learner's cells, so the
                 grader can see whether anything was patched

A fingerprint maps every function, class and module reachable as an attribute
of a course_lib module (and of ``numpy``), and every method or descriptor of
course_lib's classes, to the identity of the object and of its code object.
Replacing ``torch.Tensor.view``, or only its ``__code__``, changes it.

This is a tripwire, not the grader's defence: no verdict comes from this kernel.
A notebook that forges its fingerprint escapes the ``tampered`` status, not its
honest score, since its functions are tested elsewhere (``_observe.py``), in a
process that never ran the notebook's top-level code.

Results leave the kernel as ``display_data`` of type :data:`MIME` holding JSON
text; the grader reads only the last such output of each of its own cells,
tagged with the run's random nonce.
"""

MIME = "text/x-course-lib-grader"


def fingerprint():
    """``{"module:attr" or "module:Class.attr": id}`` for course_lib's modules and numpy."""
    import sys
    import types

    keep = sys.modules.setdefault("_course_lib_grader_refs", types.ModuleType("_course_lib_grader_refs"))
    refs = keep.__dict__.setdefault("refs", [])
    out = {}
    names = sorted(n for n in list(sys.modules) if n == "numpy" or n == "course_lib" or n.startswith("course_lib."))
    for name in names:
        if name == "course_lib.core.hooks":      # switch points that inference and anomaly modes change on purpose
            continue
        module = sys.modules.get(name)
        if not isinstance(module, types.ModuleType):
            out[name] = -1
            continue
        for key, value in list(vars(module).items()):
            if key.startswith("__"):
                continue
            if callable(value) or isinstance(value, types.ModuleType):
                out[f"{name}:{key}"] = _identity(value, refs)
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                for attr, member in list(vars(value).items()):
                    if attr in ("__dict__", "__weakref__", "__doc__", "__module__"):
                        continue
                    if callable(member) or hasattr(type(member), "__get__"):
                        out[f"{name}:{key}.{attr}"] = _identity(member, refs)
    return out


def _identity(obj, refs):
    """``"<id>"``, or ``"<id>/<id of the code object>"`` for a Python function (or a wrapper of one).

    The objects are kept alive in ``refs``, so that no id can be reused by a replacement.
    """
    inner = getattr(obj, "__func__", obj)
    code = getattr(inner, "__code__", None)
    if code is None and isinstance(obj, property):
        code = getattr(obj.fget, "__code__", None)
    refs.append((obj, code))
    return f"{id(obj)}/{id(code)}" if code is not None else str(id(obj))


def _emit(payload):
    import json

    from IPython.display import display
    display({MIME: json.dumps(payload, allow_nan=True)}, raw=True)


def run(ns, args):
    """Answer one grader request (``args["kind"]``) about namespace ``ns``."""
    import importlib

    kind = args["kind"]
    base = {"nonce": args["nonce"], "kind": kind}
    if kind in ("preamble", "fingerprint"):
        if kind == "preamble":
            importlib.import_module("course_lib")
            importlib.import_module("course_lib.grading.core")
            importlib.import_module(args["module"])
        _emit(dict(base, ids=fingerprint()))
    else:
        raise ValueError(kind)


if "_args" in globals():
    run(globals()["_user_ns"], globals()["_args"])
