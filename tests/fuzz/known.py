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


_TUPLE = r"must be int, not tuple|got \(.*tuple|\(position \d\) must be int, not tuple"
_LEAF = r"leaf Variable that requires grad is being used in an in-place operation"
_OVERLAP = r"refer to a single memory location"


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
    # ---- issue 17
    ("issue 17: count_nonzero(dim, keepdim=True): PyTorch's invalid-combination message",
     r"^message at reduce:count_nonzero", _t_msg(r"count_nonzero\(\) received an invalid combination")),
    ("issue 17: a tuple dim for argmax/argmin/min/max/prod/cumsum/softmax...: PyTorch's message (no \"(position 1)\","
     " position 2 in the function form, \"got (dim=tuple, )\", the dim error before keepdim's)",
     r"^message at reduce:\w+\(tuple dim\)$", _t_msg(_TUPLE)),
    ("issue 17: matmul checks dtypes before shapes", r"^message at matmul:", _t_msg(r"shapes cannot be multiplied|"
                                                                                    r"Expected size for first")),
    ("issue 17: fill_('a'): another message", r"^(message|exception type) at inplace:fill_",
     _t_msg(r"fill_\(\) received an invalid combination")),
    ("issue 17: median is missing", r"^(course_lib raises|exception type) at reduce:median",
     _c_msg(r"no attribute 'median'")),
    ("issue 17: linspace(dtype=torch.bool) is accepted", r"^course_lib accepts at create:linspace",
     _t_msg(r"not implemented for 'Bool'")),
    ("issue 17: sign(nan) is nan (PyTorch 0)", r"^(value|final state) at (unary:sign|final)",
     lambda t, c: "nan" in (c or {}).get("out", "") and "nan" not in (t or {}).get("out", "")),
    ("issue 17: neg_() on a bool tensor: NumPy's TypeError", r"^exception type at inplace:neg_",
     _c_msg(r"numpy boolean negative")),
    ("issue 17: float16 computed in float16 (PyTorch: in float32, rounded once; a 0-d tensor operand as a float32 "
     "number)", r"^last bit \[float16 computed in float16\]", None),
    ("issue 17: the sign of zero (relu, clamp, matmul results, cumsum)",
     r"^(value|final state) at (unary:(clamp|clip|relu)|matmul:|reduce:cumsum|final)", _signed_zero),
    ("issue 17: 0-d tensors: .T/.mT (PyTorch: identity with a deprecation warning), movedim, max(0)/min(0) grad_fn",
     r"^(warning at view:(T|mT)|course_lib raises at view:(mT|movedim)|grad_fn name at reduce:(max|min)|"
     r"grad_fn name at view:transpose)",
     None),
    ("issue 17: class paths (set_grad_enabled's repr names course_lib's class, PyTorch shows "
     "torch.autograd.grad_mode.set_grad_enabled(mode=...))", r"^text at grad_mode:set_grad_enabled", None),
    ("issue 17: the leaf / view-of-leaf in-place error comes after shape and dtype checks (copy_, -=, setitem...)",
     r"^(message|exception type) at (inplace:|setitem:)", _t_msg(_LEAF)),
    ("issue 17: t << 1 on float (and: shifts are missing, see fuzz)", r"^exception type at binary:(<<|>>)",
     _t_msg(r"shift_cpu\" not implemented")),
    # ---- found by the fuzzer (tests/fuzz/FINDINGS.md)
    ("fuzz: << and >> are missing", r"^course_lib raises at binary:(<<|>>)", _c_msg(r"unsupported operand")),
    ("fuzz: a Python number where a tensor is required (logical_and, minimum, maximum, isclose...): \"(position 2)\"",
     r"^message at binary:", lambda t, c: "(position 1)" in _exc(t)[1] and "(position 2)" in _exc(c)[1]),
    ("fuzz: grad_fn names: clamp_min/clamp_max (ClampMinBackward0/ClampMaxBackward0), rsub (RsubBackward0), inner and "
     "matmul's broadcast paths (ViewBackward0, TransposeBackward0, CloneBackward0), prod(dim, dtype) (ProdBackward1)",
     r"^(grad_fn name|value) at (unary:clamp_m|inplace:clamp_m|binary:rsub|matmul:|reduce:prod)", None),
    ("fuzz: matmul's dtype messages on its vector and batched paths (PyTorch names addmv, m1 and m2, bmm)",
     r"^message at matmul:",
     _t_msg(r"addmv input tensors must have the same dtype|expected scalar type|bmm|expected m1 and m2 to have")),
    ("fuzz: inner's messages (dtypes, bool)", r"^message at matmul:inner",
     _t_msg(r"both inputs should have same dtype|\"dot\" not implemented")),
    ("fuzz: linspace with an integer dtype gives other values", r"^value at create:linspace", None),
    ("fuzz: writing a tensor into itself through an index (t[mask] = t, t[[0, 0]] = t): PyTorch's overlap error",
     r"^(message|exception type|course_lib accepts) at setitem:", _t_msg(_OVERLAP)),
    ("fuzz: random_ on an expanded tensor: PyTorch's overlap error", r"^course_lib accepts at inplace:random_",
     _t_msg(r"more than one element of the written-to tensor")),
    ("fuzz: an empty tensor of a dtype the kernel lacks (randn/normal_ of ints, log_softmax of ints, einsum of mixed "
     "dtypes): PyTorch returns the empty result", r"^course_lib raises at (create:randn|inplace:normal_|"
                                                  r"reduce:log_softmax|reduce:softmax|matmul:einsum)",
     lambda t, c: "size=(" in (t or {}).get("out", "") or "tensor([]" in (t or {}).get("out", "")),
    ("fuzz: einsum of mixed dtypes where the contracted dim has size 1 (PyTorch multiplies, promoting) or the result "
     "is empty: PyTorch computes, course_lib raises", r"^course_lib raises at matmul:einsum",
     _c_msg(r"expected scalar type")),
    ("fuzz: batched matmul / einsum of bool tensors: PyTorch's \"bmm\" not implemented message",
     r"^exception type at matmul:(einsum|matmul|@|rmatmul|bmm)", _t_msg(r"\"bmm\" not implemented for 'Bool'")),
    ("fuzz: matmul of a vector with a batch (1-D @ 3-D): PyTorch's mv-path message", r"^message at matmul:",
     _t_msg(r"size mismatch, got input")),
    ("fuzz: randint(low, high, dtype=torch.bool) with high > 2 is accepted", r"^course_lib accepts at create:randint",
     _t_msg(r"out of bounds for bool")),
    ("fuzz: roll on a 0-d tensor: NumPy's AxisError", r"^exception type at view:roll", _c_msg(r"out of bounds for "
                                                                                             r"array of dimension")),
    ("fuzz: true division of an integer tensor by a 0-d integer tensor of another dtype: the 0-d one is cast to the "
     "tensor's dtype first (wraps: 1 / 300 gives 1 / 44 in int8, 0 / -2 gives 0. in uint8)",
     r"^value at binary:(true_divide|div|/)$", None),
    ("fuzz: cumprod of float16 overflowing: NumPy's RuntimeWarning reaches the learner", r"^warning at reduce:cum",
     lambda t, c: any("overflow encountered" in w[1] for w in (c or {}).get("warn", []))),
    ("fuzz: cat with a legacy empty 1-D operand that requires grad: the result does not require grad",
     r"^grad_fn name at shape:cat", None),
    ("fuzz: a view taken before its base's requires_grad_() does not follow it (PyTorch: requires_grad=True)",
     r"^final state at final", _same_after(lambda s: s.replace(", requires_grad=True", ""))),
    ("fuzz: stack: a dim out of range is reported after the sizes (PyTorch: the dim first)",
     r"^exception type at shape:stack", _t_msg(r"Dimension out of range")),
    ("fuzz: random_ on a non-contiguous tensor fills the elements in another order", r"^value at inplace:random_",
     None),
    ("fuzz: sum/prod/cumsum(dtype=torch.int64) of a tensor that requires grad: PyTorch raises \"Autograd not support "
     "dtype\"", r"^course_lib accepts at reduce:(sum|prod|cumsum|mean)", _t_msg(r"Autograd not support dtype")),
    ("fuzz: rsub of an integer tensor with a float alpha is accepted", r"^course_lib accepts at binary:rsub",
     _t_msg(r"alpha must not be a floating point")),
    ("fuzz: a negative alpha or number with an unsigned tensor: NumPy's OverflowError",
     r"^course_lib raises at binary:",
     _c_msg(r"Python integer -?\d+ out of bounds for uint8")),
    ("fuzz: unary + on a bool tensor is accepted", r"^course_lib accepts at unary:positive", None),
    ("fuzz: unflatten on a 0-d tensor: tuple index out of range", r"^exception type at view:unflatten", None),
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
