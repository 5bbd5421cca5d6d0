"""The differential fuzzer, bounded: random programs must behave under course_lib as under PyTorch.

Hypothesis draws programs (``tests/fuzz/programs.py``); each runs under PyTorch
and under course_lib in two worker processes (``tests/fuzz/worker.py``) and the
two are compared statement by statement: printed output, exception type and
message, warnings, and at the end every tensor and gradient
(``tests/fuzz/compare.py``).  The examples are derandomised (the same programs
every run); ``FUZZ_EXAMPLES`` sets how many (default 120, a few seconds per
ten).  A difference fails the test unless it is a documented last-bit class or
a class already known (``tests/fuzz/known.py``: those the long fuzzer found
that remain); hypothesis then shrinks the program.  The
long run is ``make fuzz N=5000`` (``python -m tests.fuzz``).

The machinery itself is tested too: the classification of differences (a
last-bit one, a signed zero, a message), the shrinking, the worker's capture.
"""

import importlib.util
import os

import pytest
from fuzz.compare import Engines, Mismatch, classify, rows_at, state_distance, ulp_distance
from fuzz.known import known_issue
from fuzz.programs import Program, Stmt, programs
from fuzz.reduce import reduce_program
from hypothesis import HealthCheck, given, settings

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="PyTorch is not installed (pip install torch==2.13.0)")

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "120"))


@pytest.fixture(scope="module")
def engines():
    with Engines() as e:
        yield e


def _program(*sources):
    return Program(tuple(Stmt(s, op) for s, op in sources))


def _report(program, m, t, c):
    i = m.index
    rows = [program.script()]
    if 0 <= i < len(program.stmts):
        rows += [f"first difference at statement {i}: {program.stmts[i].src}",
                 f"torch:      {t['results'][i]}", f"course_lib: {c['results'][i]}"]
    else:
        rows += [f"torch:      {t.get('final', t)}", f"course_lib: {c.get('final', c)}"]
    return "\n".join(rows)


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(program=programs())
def test_random_programs_match_pytorch(engines, program):
    t, c = engines.run(program.sources)
    m = classify(program, t, c)
    if m is None or m.expected:
        return
    assert known_issue(m, *rows_at(m, t, c)), f"a new difference from PyTorch ({m.key}):\n" + _report(program, m, t, c)


# ---------------------------------------------------------------- the machinery

def test_identical_program_matches(engines):
    p = _program(("t1 = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)", "create:tensor"),
                 ("v2 = (t1 * 2).sum(1, keepdim=True)", "reduce:sum"),
                 ("v2.sum().backward()", "autograd:sum().backward()"),
                 ("t1.grad", "autograd:.grad"),
                 ("t1.T.view(4)", "view:view"),
                 ("torch.ones(2) @ torch.ones(3)", "matmul:@"))
    t, c = engines.run(p.sources)
    assert classify(p, t, c) is None
    assert t["results"][4]["exc"][0] == "RuntimeError"          # view of a transpose: compared, and the same
    assert t["results"][5]["exc"] == c["results"][5]["exc"]
    assert "tensor([[2.],\n        [2.]])" not in t["results"][3]["out"]
    assert t["results"][3]["out"] == "tensor([[2., 2.],\n        [2., 2.]])\n"


def test_a_difference_is_found_and_shrunk(engines):
    """cat with a legacy empty 1-D operand that requires grad (a difference the fuzzer found, still open): found among
    other statements, shrunk to the ones that show it."""
    p = _program(("t1 = torch.tensor([], requires_grad=True)", "create:tensor"),
                 ("t2 = torch.arange(6).reshape(2, 3)", "create:arange"),
                 ("v3 = t2 * 2", "binary:*"),
                 ("v4 = torch.cat([torch.zeros(0, 2), t1])", "shape:cat"),
                 ("v5 = v3.sum(0)", "reduce:sum"),
                 ("v6 = v3.t()", "view:t"))
    t, c = engines.run(p.sources)
    m = classify(p, t, c)
    assert m is not None and m.kind == "grad_fn name" and m.index == 3 and not m.expected
    small, st, sc = reduce_program(p, engines, budget=60)
    assert [s.op for s in small.stmts] == ["create:tensor", "shape:cat"]
    assert classify(small, st, sc).key == m.key
    assert "CatBackward0" in st["results"][-1]["out"]


def test_messages_and_warnings_are_compared(engines):
    p = _program(("t1 = torch.ones(2, 3)", "create:ones"),
                 ("t1.norm((2,))", "reduce:norm(tuple dim)"))
    t, c = engines.run(p.sources)
    m = classify(p, t, c)
    assert m is not None and m.kind == "message" and m.index == 1
    assert t["results"][1]["exc"] == ["TypeError", "linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                                                    "not tuple"]
    p = _program(("t1 = torch.ones(2, 3, 4)", "create:ones"), ("t1.T.shape", "view:T"))
    t, c = engines.run(p.sources)
    assert t["results"][1]["warn"][0][0] == "UserWarning"
    assert "Triggered internally at" in t["results"][1]["warn"][0][1]     # compared as it is, not stripped


def test_each_program_starts_fresh(engines):
    """Grad mode, the default dtype and once-per-process warnings do not leak from one program to the next."""
    first = _program(("torch.set_grad_enabled(False); torch.set_default_dtype(torch.float64)", "misc"),
                     ("torch.ones(2, 3, 4).T.shape", "view:T"))
    engines.run(first.sources)
    again, _ = engines.run(first.sources)
    assert again["results"][1]["warn"], "the x.T warning is once per process: a fresh process shows it again"
    t, _ = engines.run(["torch.is_grad_enabled()", "torch.get_default_dtype()"])
    assert [r["out"] for r in t["results"]] == ["True\n", "torch.float32\n"]


def test_crash_and_hang_are_reported(engines):
    t, c = engines.run(["import os; os._exit(3)"])
    assert "runner_error" in t and "runner_error" in c
    assert classify(_program(("import os; os._exit(3)", "misc")), t, c) is None       # the same on both sides


def _digest(dtype, values, shape=None):
    return {"dtype": dtype, "shape": shape or [len(values)], "values": values, "requires_grad": False,
            "grad_fn": None}


def test_last_bits_and_signed_zeros():
    one = float.hex(1.0)
    next_up = float.hex(1.0 + 2.0 ** -23)                            # one float32 ulp above 1
    assert ulp_distance(_digest("torch.float32", [one]), _digest("torch.float32", [next_up])) == 1
    assert ulp_distance(_digest("torch.float64", [one]), _digest("torch.float64", [next_up])) == 2 ** 29
    zero, neg_zero = float.hex(0.0), float.hex(-0.0)
    assert ulp_distance(_digest("torch.float32", [zero]), _digest("torch.float32", [neg_zero])) == float("inf")
    assert ulp_distance(_digest("torch.float32", ["nan"]), _digest("torch.float32", ["nan"])) == 0
    assert ulp_distance(_digest("torch.float32", [one]), _digest("torch.float32", ["nan"])) == float("inf")
    assert state_distance({"x": _digest("torch.float16", [one])}, {"x": _digest("torch.float16", [float.hex(
        1.0 + 2.0 ** -10)])}) == (1, "torch.float16")
    assert state_distance({"x": 0.5}, {"y": 0.5})[0] == float("inf")


def _answer(out, state, exc=None):
    return {"out": out, "exc": exc, "warn": [], "shown": [state["v"]], "state": state}


def test_classification_of_a_last_bit_difference():
    p = _program(("v = torch.tensor([0.3]).sin()", "unary:sin"), ("w = v * 10000", "binary:*"))
    a = _digest("torch.float32", [float.hex(0.29552021622657776)])
    b = _digest("torch.float32", [float.hex(0.2955202460289001)])        # one float32 ulp away
    a10, b10 = _digest("torch.float32", [float.hex(2955.2021)]), _digest("torch.float32", [float.hex(2955.2024)])
    t = {"results": [_answer("tensor([0.2955])\n", {"v": a}),
                     _answer("tensor([2955.2021])\n", {"v": a10})], "final": {}}
    c = {"results": [_answer("tensor([0.2955])\n", {"v": b}),
                     _answer("tensor([2955.2024])\n", {"v": b10})], "final": {}}
    m = classify(p, t, c)
    assert (m.kind, m.index, m.origin, m.family, m.expected) == ("value", 1, 0, "vectorised transcendental kernel",
                                                                  True)
    assert m.key == "last bit [vectorised transcendental kernel] at sin"
    p2 = _program(("v = torch.tensor([0.3]) * 3", "binary:*"), ("w = v * 10000", "binary:*"))
    m2 = classify(p2, t, c)
    assert (m2.family, m2.expected) == ("unexpected", False)                 # mul is exact: a real mismatch


def test_known_classes_are_matched():
    m = Mismatch("message", 1, "reduce:norm(tuple dim)")
    tr = {"exc": ["TypeError", "linalg_vector_norm(): argument 'ord' (position 2) must be Number, not tuple"]}
    cr = {"exc": ["TypeError", "float() argument must be a string or a real number, not 'tuple'"]}
    assert known_issue(m, tr, cr)
    fixed = Mismatch("message", 1, "reduce:argmax(tuple dim)")         # issue 17's, fixed: no longer known
    assert not known_issue(fixed, {"exc": ["TypeError", "argmax(): argument 'dim' must be int, not tuple"]},
                           {"exc": ["TypeError", "argmax(): argument 'dim' (position 1) must be int, not tuple"]})
    assert not known_issue(Mismatch("value", 1, "binary:+"), {"exc": None}, {"exc": None})
