"""Run a program under PyTorch and under course_lib (two worker processes) and classify the difference.

``Engines`` holds the two workers (``worker.py torch`` and ``worker.py
course_lib``); ``Engines.run(program)`` sends the program to both at once and
returns both answers.  ``classify(program, torch_side, course_side)`` returns
``None`` when the two agree on every statement (printed output, exception
type and message, warnings) and on the final state (each tensor's ``repr``
and each leaf's gradient), else a ``Mismatch``.

A mismatch is first judged at the first statement whose printed output,
exception or warnings differ.  Its ``kind`` says how:

``course_lib raises``      PyTorch runs the statement, course_lib raises
``course_lib accepts``     PyTorch raises, course_lib runs it
``exception type``         both raise, different exception types
``message``                same type, different message
``dtype``, ``shape``       the printed value has another dtype / shape
``value``                  other values
``grad_fn name``           the printed values differ only in their ``grad_fn=<...>``
``text``                   same values (bit for bit), other text (a grad_fn name, a repr)
``warning``                other warnings
``final state``            every statement agreed; a tensor or gradient differs at the end
``runner``                 a crash or a timeout on one side

Last bits.  Each answer also holds the exact bits of every tensor after every
statement.  The first statement after which the bits differ is the *origin*.
When the origin's values are within ``ULPS`` units in the last place of each
other (same dtype, shape, NaN/inf pattern), the difference is a last-bit one,
and a visible value difference at or after it (or at the end) is put in the
origin operation's last-bit family (``LAST_BIT_FAMILIES``): PyTorch sums and
multiplies matrices in another order, its vectorised kernels for ``exp``,
``sin``, ``sigmoid``, ``pow``... are not correctly rounded, it fuses
multiply-adds.  These are documented, expected classes; a last-bit difference
in an operation outside those families (``mul``, ``neg``, a view) is a real
mismatch and is classed as such (``last bit, unexpected``), and so is any
float16 one (PyTorch computes float16 in float32 and rounds once).
"""

import json
import math
import os
import re
import select
import subprocess
import sys
from dataclasses import dataclass

import numpy as np

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
ULPS = 4

# operation (the part of a Stmt.op after "family:", without its "(...)" variant) -> documented last-bit family
_ORDER = "summation / BLAS order"
_KERNEL = "vectorised transcendental kernel"
_FMA = "fused multiply-add"
_NORMAL = "normal sampler"
LAST_BIT_FAMILIES = {}
for _op in ("sum", "mean", "std", "var", "norm", "logsumexp", "softmax", "log_softmax", "cumsum", "prod", "cumprod",
            "@", "matmul", "mm", "mv", "dot", "bmm", "inner", "einsum", "rmatmul", "allclose", "isclose"):
    LAST_BIT_FAMILIES[_op] = _ORDER
for _op in ("exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "expm1", "log1p", "log2", "erf", "atan", "asin",
            "acos", "rsqrt", "reciprocal", "**", "pow", "pow_", "exp_", "sigmoid_", "tanh_", "sin_", "log_", "sqrt",
            "sqrt_"):
    LAST_BIT_FAMILIES[_op] = _KERNEL
for _op in ("add(alpha)", "sub(alpha)", "rsub(alpha)", "add_", "sub_"):
    LAST_BIT_FAMILIES[_op] = _FMA
for _op in ("randn", "randn_like", "normal_"):
    LAST_BIT_FAMILIES[_op] = _NORMAL


def op_name(tag):
    """``"binary:add(alpha)"`` -> ``"add(alpha)"``; ``"unary:exp under grad_mode:no_grad"`` -> ``"exp"``."""
    tag = tag.split(" under ", 1)[0]
    name = tag.split(":", 1)[-1]
    return name if name in LAST_BIT_FAMILIES else re.sub(r"\(.*\)$", "", name)


def class_op(tag):
    """The operation of a class: a statement's op tag without the grad mode around it, and for indexing the kind of
    index only (``"setitem:[[0, 0]](tensor)"`` -> ``"setitem:list index(tensor)"``)."""
    tag = tag.split(" under ", 1)[0]
    m = re.match(r"(index|setitem):\[(.*)\](.*)$", tag)
    if not m:
        return tag
    index = m.group(2)
    kind = ("tensor index" if "torch.tensor" in index else "list index" if index.startswith("[") else
            "bool index" if index in ("True", "False") else "slice" if ":" in index else
            "None/Ellipsis" if index in ("None", "...", "()", "..., None") else "int index")
    return f"{m.group(1)}:{kind}{m.group(3)}"


class Engines:
    """The two worker processes; ``run(sources)`` -> ``(torch answer, course_lib answer)``."""

    def __init__(self, timeout=60.0):
        self.timeout = timeout
        self.procs = {}

    def _start(self, engine):
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                   PYTHONHASHSEED="0")
        self.procs[engine] = subprocess.Popen([sys.executable, WORKER, engine], stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                              text=True, bufsize=1)

    def _ask(self, engine, line):
        if engine not in self.procs or self.procs[engine].poll() is not None:
            self._start(engine)
        self.procs[engine].stdin.write(line)
        self.procs[engine].stdin.flush()

    def _answer(self, engine):
        proc = self.procs[engine]
        ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
        line = proc.stdout.readline() if ready else ""
        if not line:
            self.close(engine)
            return {"runner_error": "the worker did not answer"}
        return json.loads(line)

    def run(self, sources):
        line = json.dumps({"stmts": list(sources)}) + "\n"
        for engine in ("torch", "course_lib"):         # both run at once
            self._ask(engine, line)
        return self._answer("torch"), self._answer("course_lib")

    def close(self, engine=None):
        for name in [engine] if engine else list(self.procs):
            proc = self.procs.pop(name, None)
            if proc is not None:
                proc.kill()
                proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class Mismatch:
    kind: str
    index: int                 # statement index (len(program) for the final state)
    op: str                    # the statement's op tag ("final" for the final state)
    family: str = ""           # the last-bit family, if the difference is a last-bit one
    origin: int = -1           # the statement where bits first differ (-1: none)
    origin_op: str = ""
    ulps: float = 0.0          # at the origin

    @property
    def expected(self):
        """A documented last-bit class (not a real mismatch)."""
        return self.family in (_ORDER, _KERNEL, _FMA, _NORMAL)

    @property
    def key(self):
        """The class: what kind of difference, in which operation (``class_op``)."""
        if self.family:
            return f"last bit [{self.family}] at {op_name(self.origin_op)}"
        return f"{self.kind} at {class_op(self.op)}"


# ---------------------------------------------------------------- exact values

def _floats(values):
    out = []
    for v in values:
        if isinstance(v, str):
            out.append(float("nan") if v.endswith("nan") else float.fromhex(v))
        elif isinstance(v, bool):
            out.append(float(v))
        else:
            out.append(float(v))
    return np.array(out, dtype=np.float64)


_NP_DTYPE = {"torch.float16": np.float16, "torch.float32": np.float32, "torch.float64": np.float64}


def ulp_distance(a, b):
    """Largest distance in units in the last place between two digests of the same float tensor; inf if not."""
    if not (isinstance(a, dict) and isinstance(b, dict)) or "values" not in a or "values" not in b:
        return math.inf
    if a["dtype"] != b["dtype"] or a["shape"] != b["shape"] or len(a["values"]) != len(b["values"]):
        return math.inf
    dtype = _NP_DTYPE.get(a["dtype"])
    if dtype is None:
        return 0.0 if a["values"] == b["values"] else math.inf
    x, y = _floats(a["values"]).astype(dtype), _floats(b["values"]).astype(dtype)
    if not np.array_equal(np.isnan(x), np.isnan(y)) or not np.array_equal(x[np.isinf(x)], y[np.isinf(y)]) or \
            not np.array_equal(np.isinf(x), np.isinf(y)):
        return math.inf
    zeros = (x == 0) & (y == 0)
    if not np.array_equal(np.signbit(x[zeros]), np.signbit(y[zeros])):
        return math.inf                              # -0. against 0.: printed differently, not a last-bit matter
    finite = np.isfinite(x)
    x, y = x[finite], y[finite]
    if x.size == 0:
        return 0.0
    width = 8 * np.dtype(dtype).itemsize
    bits = {16: np.int16, 32: np.int32, 64: np.int64}[width]
    magnitude = np.int64((1 << (width - 1)) - 1)
    ix, iy = x.view(bits).astype(np.int64), y.view(bits).astype(np.int64)
    ix = np.where(ix < 0, -(ix & magnitude), ix)     # ordered integers (-0. and 0. are both 0)
    iy = np.where(iy < 0, -(iy & magnitude), iy)
    return float(np.max(np.abs(ix - iy)))


def _scalar_ulps(a, b):
    """Distance of two Python floats (float.hex strings), in the last place of the narrowest float type holding both
    (``.item()`` of a float32 tensor is a float32 number)."""
    x, y = _floats([a, b])
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return 0.0 if (math.isnan(x) and math.isnan(y)) or x == y else math.inf
    for dtype in (np.float16, np.float32, np.float64):
        if float(dtype(x)) == x and float(dtype(y)) == y:
            digest = {"dtype": f"torch.{np.dtype(dtype).name}", "shape": [], "values": [a, b]}
            return ulp_distance(dict(digest, values=[a]), dict(digest, values=[b]))
    return math.inf


def _distance(a, b):
    """The worst last-bit distance between two digests (tensors, their grads, tuples); inf if not float-close."""
    if a == b:
        return 0.0
    if isinstance(a, str) and isinstance(b, str):
        return _scalar_ulps(a, b)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return math.inf
        return max((_distance(x, y) for x, y in zip(a, b)), default=0.0)
    if isinstance(a, dict) and isinstance(b, dict):
        if {k: v for k, v in a.items() if k not in ("values", "grad")} != \
                {k: v for k, v in b.items() if k not in ("values", "grad")}:
            return math.inf
        d = ulp_distance(a, b) if a.get("values") != b.get("values") else 0.0
        if a.get("grad") != b.get("grad"):
            d = max(d, _distance(a.get("grad"), b.get("grad")))
        return d
    return math.inf


def _differing_dtype(a, b):
    """The dtype of the first tensor (or gradient) whose values differ between two digests."""
    if isinstance(a, list) and isinstance(b, list):
        return next((d for d in (_differing_dtype(x, y) for x, y in zip(a, b) if x != y) if d), None)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.get("values") != b.get("values"):
            return a.get("dtype")
        return _differing_dtype(a.get("grad"), b.get("grad"))
    if isinstance(a, str) and isinstance(b, str):
        return "python float"
    return None


def state_distance(sa, sb):
    """``(distance, dtype)`` between two states (name -> digest): the worst distance, and the dtype of the first
    tensor that differs (float16 differences are a class of their own)."""
    if set(sa) != set(sb):
        return math.inf, None
    worst, dtype = 0.0, None
    for name in sa:
        if sa[name] != sb[name]:
            worst = max(worst, _distance(sa[name], sb[name]))
            dtype = dtype or _differing_dtype(sa[name], sb[name])
    return worst, dtype


# ---------------------------------------------------------------- classification

def _exc_kind(te, ce):
    if te is None:
        return "course_lib raises"
    if ce is None:
        return "course_lib accepts"
    if te[0] != ce[0]:
        return "exception type"
    return "message"


_NUMBER = re.compile(r"[-+]?(\d+\.?\d*(e[-+]?\d+)?|inf|nan)")


def _without_grad_fn(text):
    return re.sub(r"\s+", " ", re.sub(r",?\s*grad_fn=<\w+>", "", text))


def _value_kind(tr, cr):
    """dtype / shape / value / text for two statements that printed differently."""
    t_out, c_out = tr["out"], cr["out"]
    if re.findall(r"dtype=torch\.\w+", t_out) != re.findall(r"dtype=torch\.\w+", c_out):
        return "dtype"
    if _without_grad_fn(t_out) == _without_grad_fn(c_out):
        return "grad_fn name"
    tn, cn = [m.group(0) for m in _NUMBER.finditer(t_out)], [m.group(0) for m in _NUMBER.finditer(c_out)]
    if tn == cn and tr["shown"] == cr["shown"]:
        return "text"
    if "tensor(" in t_out and "tensor(" in c_out and (len(tn) != len(cn) or t_out.count("[") != c_out.count("[")):
        return "shape"
    if not tr["shown"] or tr["shown"] == cr["shown"] or not any(isinstance(v, (dict, str, int, float))
                                                                 for v in tr["shown"]):
        return "text"
    return "value"


def _exact(r):
    """What a statement left, exactly: the tensors held and the values shown."""
    return dict(r["state"], **{"<shown>": r["shown"]})


def classify(program, t, c):
    """``None`` if PyTorch's answer ``t`` and course_lib's ``c`` agree, else the ``Mismatch``."""
    if "runner_error" in t or "runner_error" in c:
        if t == c:
            return None
        return Mismatch("runner", -1, "runner")
    ops = program.ops
    origin, origin_ulps, origin_dtype = -1, 0.0, None
    for i, (tr, cr) in enumerate(zip(t["results"], c["results"])):
        if origin < 0 and _exact(tr) != _exact(cr):
            origin = i
            origin_ulps, origin_dtype = state_distance(_exact(tr), _exact(cr))
        visible = tr["out"] != cr["out"] or tr["exc"] != cr["exc"] or tr["warn"] != cr["warn"]
        if not visible:
            continue
        if tr["exc"] != cr["exc"]:
            kind = _exc_kind(tr["exc"], cr["exc"])
        elif tr["out"] != cr["out"]:
            kind = _value_kind(tr, cr)
        else:
            kind = "warning"
        return _with_origin(Mismatch(kind, i, ops[i]), ops, origin, origin_ulps, origin_dtype)
    if t["final"] != c["final"]:
        return _with_origin(Mismatch("final state", len(ops), "final"), ops, origin, origin_ulps, origin_dtype)
    return None


def _with_origin(m, ops, origin, ulps, dtype):
    if origin < 0:
        return m
    m.origin, m.origin_op, m.ulps = origin, ops[origin], ulps
    if m.kind in ("value", "final state") and ulps <= ULPS:
        if dtype == "torch.float16":
            m.family = "float16 computed in float16"
        else:
            m.family = LAST_BIT_FAMILIES.get(op_name(ops[origin]), "unexpected")
            if m.family == "unexpected" and op_name(ops[origin]) in ("backward()", "sum().backward()",
                                                                     "backward(ones)", "autograd.grad",
                                                                     "mean().backward(retain_graph)", "retain_grad"):
                # a backward pass: last bits come from the ops of the graph (tanh's 1 - y*y, ...)
                if any(op_name(o) in LAST_BIT_FAMILIES for o in ops[:origin]):
                    m.family = LAST_BIT_FAMILIES[next(op_name(o) for o in ops[:origin]
                                                      if op_name(o) in LAST_BIT_FAMILIES)]
    return m


def rows_at(m, t, c):
    """Both sides' results (``{"out", "exc", "warn"}``) where ``m`` was found; for the final state, its text."""
    def row(answer):
        if "runner_error" in answer:
            return {"out": "", "exc": ["runner", answer["runner_error"]], "warn": []}
        if 0 <= m.index < len(answer["results"]):
            return answer["results"][m.index]
        return {"out": "\n".join(answer["final"].values()), "exc": None, "warn": []}
    return row(t), row(c)


def hidden_last_bits(t, c):
    """True when the two answers differ only in bits that no statement showed."""
    if "runner_error" in t or "runner_error" in c:
        return False
    return any(_exact(tr) != _exact(cr) for tr, cr in zip(t["results"], c["results"]))


def side_by_side(program, t, c, upto=None):
    """Both sides' outputs, statement by statement, for a report."""
    rows = []
    if "runner_error" in t or "runner_error" in c:
        return [{"torch": t.get("runner_error"), "course_lib": c.get("runner_error")}]
    n = len(program.stmts) if upto is None else upto + 1
    for s, tr, cr in zip(program.stmts[:n], t["results"], c["results"]):
        rows.append({"stmt": s.src, "op": s.op,
                     "torch": {"out": tr["out"], "exc": tr["exc"], "warn": tr["warn"]},
                     "course_lib": {"out": cr["out"], "exc": cr["exc"], "warn": cr["warn"]}})
    if upto is None or upto >= len(program.stmts):
        rows.append({"stmt": "<final state>", "torch": t["final"], "course_lib": c["final"]})
    return rows
