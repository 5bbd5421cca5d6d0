"""One engine's side of the differential fuzzer: run programs, report what each statement did.

Run as ``python worker.py torch`` or ``python worker.py course_lib``: the engine
is imported once, bound to the name ``torch`` in every program, and each
program then runs in a forked child (so grad mode, print options, the default
dtype, the random generator and once-per-process warnings start fresh, as in a
new interpreter).  The protocol is one JSON line per request on stdin,
``{"stmts": [source, ...]}``, and one JSON line per answer on stdout.

For each statement the answer holds:

``out``    what it printed: an expression statement prints ``repr`` of its value
           (unless None), a statement that binds names prints ``repr`` of each
           (``x = ...``, ``x += ...``, ``x[i] = ...`` and assignments in a
           ``with`` body), as the repro scripts written by the fuzzer do;
``exc``    ``[type name, message]`` of the exception it raised, or null;
``warn``   ``[[category name, first line], ...]`` of the warnings it emitted;
``shown``  the exact contents of the values it showed (see ``digest``);
``state``  the exact values of every tensor the program holds afterwards:
           ``{name: digest}``, a digest being dtype, shape, the values
           (floats as ``float.hex``, so last bits show), requires_grad, the
           grad_fn's name and the gradient of a leaf.

and ``final`` holds ``repr`` of every tensor and of every leaf's ``.grad`` once
the program has ended.  Only the standard library and NumPy are used here.
"""

import ast
import contextlib
import io
import json
import math
import os
import re
import select
import signal
import sys
import time
import warnings

import numpy as np

TIMEOUT_S = 20.0

_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
# course_lib's rule for class paths (README.md, "Class names"): course_lib in front of PyTorch's path
_CLASS_PATH = re.compile(r"<(class ')?course_lib\.")


_CPP_TRACE = re.compile(r"\nException raised from .*", re.S)


def normalize(text):
    """Addresses, class paths (course_lib's rule, README.md "Class names": ``<class 'course_lib.dtype'>`` reads as
    ``<class 'torch.dtype'>``) and the C++ stack trace that a few torch messages carry read the same on
    both sides (course_lib reproduces torch's "(Triggered internally at ...)" notes, so they are compared)."""
    return _CLASS_PATH.sub(r"<\1torch.", _ADDRESS.sub("0x?", _CPP_TRACE.sub("", text)))


def shown_names(node):
    """The names a statement binds, whose values it shows (in order, without repeats)."""
    names = []

    def add(target):
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            if target.id not in names and not target.id.startswith("_"):     # _f, _s: helpers, not shown
                names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                add(elt)

    if isinstance(node, ast.Assign):
        for t in node.targets:
            add(t)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        add(node.target)
    elif isinstance(node, (ast.With, ast.For, ast.If)):
        for inner in node.body:
            for n in shown_names(inner):
                if n not in names:
                    names.append(n)
    return names


def _float(x):
    if math.isnan(x):
        return "nan"                  # the sign of a NaN never shows in a print
    return float.hex(x)


def _flat(values):
    out = []
    stack = [values]
    while stack:                      # depth-first, left to right
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, bool):
            out.append(v)
        elif isinstance(v, float):
            out.append(_float(v))
        else:
            out.append(v)
    return out


def digest(value, engine, depth=0):
    """Exact, JSON-able contents of a value (tensors, numbers, tuples of them); None for other values."""
    if isinstance(value, engine.Tensor):
        try:
            d = {"dtype": str(value.dtype), "shape": list(value.shape),
                 "values": _flat(value.detach().tolist()),
                 "requires_grad": bool(value.requires_grad),
                 "grad_fn": None if value.grad_fn is None else type(value.grad_fn).__name__}
            if value.is_leaf and value.grad is not None and depth == 0:
                d["grad"] = digest(value.grad, engine, depth + 1)
            return d
        except Exception as e:  # noqa: BLE001 - a tensor that cannot be read is recorded as such
            return {"unreadable": type(e).__name__}
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, (tuple, list)) and depth < 2 and len(value) <= 16:
        return [digest(v, engine, depth + 1) for v in value]
    return None


def state_of(namespace, engine):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: digest(v, engine) for name, v in sorted(namespace.items())
                if not name.startswith("_") and isinstance(v, (engine.Tensor, tuple, list))}


def run_statement(source, namespace, engine):
    """Run one statement in ``namespace``: ``{"out", "exc", "warn"}``."""
    out = io.StringIO()
    exc = None
    shown = []
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return {"out": "", "exc": ["SyntaxError", str(e)], "warn": [], "shown": []}
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        # course_lib's own filter (course_lib/_tensor.py), which "always" would override
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"course_lib(\.|$)")
        try:
            for node in tree.body:
                if isinstance(node, ast.Expr):
                    value = eval(compile(ast.Expression(node.value), "<program>", "eval"), namespace)
                    if value is not None:
                        shown.append(value)
                        print(repr(value))
                else:
                    exec(compile(ast.Module([node], []), "<program>", "exec"), namespace)
                    for name in shown_names(node):
                        if name in namespace:
                            shown.append(namespace[name])
                            print(repr(namespace[name]))
        except Exception as e:  # noqa: BLE001 - the exception is the result
            try:
                message = str(e)
            except Exception:  # noqa: BLE001
                message = "<str() of the exception failed>"
            exc = [type(e).__name__, normalize(message)]
    warns = []
    for w in caught:
        text = str(w.message)
        warns.append([w.category.__name__, normalize(text.splitlines()[0] if text else "")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shown = [digest(v, engine) for v in shown]
    return {"out": normalize(out.getvalue()), "exc": exc, "warn": warns, "shown": shown}


def final_state(namespace, engine):
    """``repr`` of each tensor the program holds and of each leaf's gradient, once it has ended."""
    shown = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, v in sorted(namespace.items()):
            if name.startswith("_") or not isinstance(v, engine.Tensor):
                continue
            try:
                text = repr(v)
                if v.is_leaf and v.grad is not None:
                    text += "\n.grad: " + repr(v.grad)
            except Exception as e:  # noqa: BLE001
                text = f"<repr failed: {type(e).__name__}: {e}>"
            shown[name] = normalize(text)
    return shown


def run_program(stmts, engine):
    engine.manual_seed(0)
    namespace = {"torch": engine, "np": np, "__name__": "program"}
    results = []
    for source in stmts:
        r = run_statement(source, namespace, engine)
        r["state"] = state_of(namespace, engine)
        results.append(r)
    return {"results": results, "final": final_state(namespace, engine)}


def _read_all(fd, deadline):
    chunks = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b"".join(chunks), True
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return b"".join(chunks), True
        data = os.read(fd, 1 << 16)
        if not data:
            return b"".join(chunks), False
        chunks.append(data)


def run_forked(stmts, engine, timeout=TIMEOUT_S):
    """``run_program`` in a forked child, under a timeout; a crash or a hang is reported as such."""
    rfd, wfd = os.pipe()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            data = json.dumps(run_program(stmts, engine)).encode()
        except BaseException as e:  # noqa: BLE001 - SystemExit, RecursionError, ...
            data = json.dumps({"runner_error": f"{type(e).__name__}: {e}"}).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(wfd, view):]
        os.close(wfd)
        os._exit(0)
    os.close(wfd)
    data, timed_out = _read_all(rfd, time.monotonic() + timeout)
    os.close(rfd)
    if timed_out:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return {"runner_error": f"timed out after {timeout:g} s"}
    _, status = os.waitpid(pid, 0)
    if not data:
        return {"runner_error": f"the program's process died (status {status})"}
    try:
        return json.loads(data)
    except ValueError:
        return {"runner_error": "unreadable result"}


def import_engine(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "torch":
            import torch
            torch.set_num_threads(1)      # one thread: the same order of operations every run
            return torch
        if name == "course_lib":
            import course_lib
            return course_lib
    raise SystemExit(f"unknown engine {name!r}")


def main(argv):
    engine = import_engine(argv[1])
    channel = os.fdopen(os.dup(1), "w")       # answers go here; stray writes to fd 1 go to stderr
    os.dup2(2, 1)
    for line in sys.stdin:
        request = json.loads(line)
        answer = run_forked(request["stmts"], engine, request.get("timeout", TIMEOUT_S))
        channel.write(json.dumps(answer) + "\n")
        channel.flush()


if __name__ == "__main__":
    main(sys.argv)
