"""The mismatch classes known today, so that the bounded fuzz test in ``make test`` fails only on new ones.

Each entry names the difference (``issue 17: ...`` for those the issue lists,
``fuzz: ...`` for those the differential fuzzer found; ``FINDINGS.md`` has a
minimal program for each), a regular expression that the class
(``Mismatch.key``) must match, and optionally a test on the two sides'
statement results (``{"out", "exc", "warn"}``) that pins the difference down,
so that another difference in the same operation is not taken for a known one.
When a difference is fixed, its entry can go; the strict xfails of
``tests/test_pytorch_differences.py`` say when.
"""

import re


def _exc(row):
    return (row or {}).get("exc") or ["", ""]


def _t_msg(pattern):
    return lambda t, c: re.search(pattern, _exc(t)[1]) is not None


def _c_msg(pattern):
    return lambda t, c: re.search(pattern, _exc(c)[1]) is not None


def _outs(pattern_t, pattern_c=None):
    return lambda t, c: re.search(pattern_t, (t or {}).get("out", "")) is not None and \
        (pattern_c is None or re.search(pattern_c, (c or {}).get("out", "")) is not None)


def _same_after(fix):
    """Both sides printed the same once ``fix`` (text -> text) is applied, and differently before."""
    def test(t, c):
        a, b = (t or {}).get("out", ""), (c or {}).get("out", "")
        return a != b and re.sub(r"\s+", "", fix(a)) == re.sub(r"\s+", "", fix(b))
    return test


def _signed_zero(t, c):
    """The outputs differ in the sign of a zero (and perhaps a grad_fn name besides)."""
    a, b = (t or {}).get("out", ""), (c or {}).get("out", "")
    zeros = re.compile(r"(?<![\d.])-(0\.0*(?:e[+-]0+)?)(?![\d.])")          # -0., -0.0000, -0.0000e+00
    return (len(zeros.findall(a)) != len(zeros.findall(b)) and
            _same_after(lambda s: zeros.sub(r"\1", re.sub(r",?\s*grad_fn=<\w+>", "", s)))(t, c))


KNOWN = [
    # ---- issue 17: every item is fixed (tests/test_pytorch_differences.py holds them as passing differential tests);
    # what remains of its themes is listed below, with the fuzzer's own findings.
    ("issue 17 (remaining): the sign of zero where PyTorch's kernels pick between -0. and 0. otherwise (amax/amin keep "
     "the first of the two, maximum/minimum and tensor-bound clamp differ between their vector body and scalar tail)",
     r"^(value|final state) at (unary:(clamp|clip)|binary:(maximum|minimum)|reduce:(amax|amin)|final)", _signed_zero),
    ("remaining: log_softmax of float16 (PyTorch's reduced-float kernel rounds otherwise than float32 then float16; "
     "not worked out)", r"^last bit \[float16 computed in float16\] at log_softmax", None),
    # ---- found by the fuzzer (tests/fuzz/FINDINGS.md)
    ("fuzz: random_ on an expanded tensor: PyTorch's overlap error", r"^course_lib accepts at inplace:random_",
     _t_msg(r"more than one element of the written-to tensor")),
    ("fuzz: cat with a legacy empty 1-D operand that requires grad: the result does not require grad",
     r"^grad_fn name at shape:cat", None),
    ("fuzz: a view taken before its base's requires_grad_() does not follow it (PyTorch: requires_grad=True)",
     r"^final state at final", _same_after(lambda s: s.replace(", requires_grad=True", ""))),
    ("fuzz: stack: a dim out of range is reported after the sizes (PyTorch: the dim first)",
     r"^exception type at shape:stack", _t_msg(r"Dimension out of range")),
    ("fuzz: random_ on a non-contiguous tensor fills the elements in another order", r"^value at inplace:random_",
     None),
    ("fuzz: rsub of an integer tensor with a float alpha is accepted", r"^course_lib accepts at binary:rsub",
     _t_msg(r"alpha must not be a floating point")),
    ("fuzz: a negative alpha or number with an unsigned tensor: NumPy's OverflowError",
     r"^course_lib raises at binary:",
     _c_msg(r"Python integer -?\d+ out of bounds for uint8")),
    ("fuzz: norm with a tuple p: another message", r"^(message|exception type) at reduce:norm\(tuple dim\)",
     _t_msg(r"argument 'ord'")),
]


def known_issue(mismatch, torch_row, course_row):
    """The label of the known difference that ``mismatch`` is (with both sides' results of the statement), or None."""
    key = mismatch.key
    for label, pattern, test in KNOWN:
        if re.search(pattern, key) and (test is None or test(torch_row, course_row)):
            return label
    return None
