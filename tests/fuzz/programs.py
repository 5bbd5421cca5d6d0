"""Random programs over the common PyTorch API, drawn by hypothesis.

A program is a short list of statements (Python source using the name
``torch``): one to three tensors are created, then one to seven statements
apply operations to them and to earlier results: scalar and broadcast
arithmetic, comparisons, unary math, reductions with ``dim``/``keepdim``,
views and shape functions, indexing and assignment, the matmul family,
in-place methods, dtype conversions, autograd (``backward``, ``.grad``,
``detach``, ``autograd.grad``) and grad modes (``no_grad``, ``enable_grad``,
``set_grad_enabled``, ``inference_mode``).  Most statements are valid; some
are deliberately wrong (a dim out of range, shapes that do not broadcast, an
integer tensor that requires grad, a second backward), since error messages
are compared too.

The generator keeps a rough model of each variable (shape, dtype, whether it
requires grad) only to choose plausible operands; where the model is wrong the
statement fails on both sides, which is a comparison like any other.

Determinism: programs use only the seeded generator (each program starts with
``torch.manual_seed(0)``), ``rand``/``randint`` (which course_lib reproduces)
and ``randn`` of fewer than 16 values (16 or more take PyTorch's vectorised
normal sampler, whose last bits course_lib does not reproduce, a documented
difference).  No addresses, no timings, no uninitialised memory.

``Program.script()`` is a runnable script that prints what the fuzzer compares.
"""

from dataclasses import dataclass, field

from hypothesis import strategies as st

FLOATS = ("float32", "float64", "float16")
INTS = ("int64", "int32", "int16", "int8", "uint8")
DTYPES = FLOATS + INTS + ("bool",)
_RANK = {"bool": 0, "uint8": 1, "int8": 1, "int16": 2, "int32": 3, "int64": 4,
         "float16": 5, "float32": 6, "float64": 7}


@dataclass(frozen=True)
class Stmt:
    src: str
    op: str    # the template and operation, e.g. "reduce:sum", "binary:* under grad_mode:no_grad" (classes use it)


@dataclass(frozen=True)
class Program:
    stmts: tuple

    @property
    def sources(self):
        return [s.src for s in self.stmts]

    @property
    def ops(self):
        return [s.op for s in self.stmts]

    def script(self):
        """The program as a script that prints what the fuzzer compares (``show`` prints an expression's value)."""
        import ast

        from .worker import shown_names
        lines = ["def show(value):", "    if value is not None:", "        print(repr(value))", "",
                 "torch.manual_seed(0)"]
        for src in self.sources:
            body = ast.parse(src).body
            if len(body) == 1 and isinstance(body[0], ast.Expr):
                lines.append(f"show({src})")
                continue
            lines.append(src)
            for node in body:
                for name in shown_names(node):
                    lines.append(f"print(repr({name}))")
        return "\n".join(lines)

    def __repr__(self):
        return "Program:\n" + "\n".join("    " + line for line in self.script().splitlines())


@dataclass
class Var:
    name: str
    shape: tuple | None          # None: unknown
    dtype: str | None
    grad: bool = False           # requires grad (as far as the generator knows)


@dataclass
class Env:
    vars: list = field(default_factory=list)
    count: int = 0
    grad_enabled: bool = True

    def new_name(self, prefix="v"):
        self.count += 1
        return f"{prefix}{self.count}"

    def tensors(self):
        return [v for v in self.vars if v.shape is not None]


# ---------------------------------------------------------------- helpers

def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def broadcast(a, b):
    if a is None or b is None:
        return None
    out = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + tuple(a)), reversed((1,) * (len(a) - len(b)) + tuple(b))):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(reversed(out))


def promote(a, b):
    if a is None or b is None:
        return a or b
    return a if _RANK[a] >= _RANK[b] else b


def float_of(dtype):
    return dtype if dtype in FLOATS else "float32"


def literal(value):
    """Python source of a number: nan and inf as float('nan'), float('inf')."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, float):
        if value != value:
            return "float('nan')"
        if value in (float("inf"), float("-inf")):
            return "float('inf')" if value > 0 else "-float('inf')"
    return repr(value)


def nested(values, shape):
    """Source of a nested list literal of ``values`` (flat) in ``shape``."""
    if not shape:
        return literal(values[0])
    if shape[0] == 0:
        return "[]"
    step = numel(shape[1:])
    return "[" + ", ".join(nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


SPECIAL_FLOATS = [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1e-3, 1e4, 65504.0, 1e-8, 100000.0]
PLAIN_FLOATS = [1.0, -1.0, 0.5, 2.0, -2.5, 3.0, 0.25, -0.75, 1.5, 4.0, 0.1, 10.0, -3.0, 2.75, 0.3]


@st.composite
def float_value(draw):
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(SPECIAL_FLOATS))
    return draw(st.sampled_from(PLAIN_FLOATS))


@st.composite
def value_of(draw, dtype):
    if dtype in FLOATS or dtype is None:
        return draw(float_value())
    if dtype == "bool":
        return draw(st.booleans())
    if draw(st.integers(0, 14)) == 0:
        return draw(st.sampled_from([127, 255, -128, 300, 2 ** 31, -1]))
    return draw(st.integers(-3, 5) if dtype != "uint8" else st.integers(0, 6))


SHAPES = [(), (), (), (1,), (2,), (3,), (4,), (2, 3), (3, 2), (2, 2), (1, 3), (3, 1), (2, 1), (2, 3, 2), (2, 1, 3),
          (1, 2, 2), (0,), (2, 0), (3, 4)]


@st.composite
def shape_of(draw):
    return draw(st.sampled_from(SHAPES))


def dtype_src(dtype):
    return f"torch.{dtype}"


def pick(draw, env, pred=lambda v: True):
    candidates = [v for v in env.tensors() if pred(v)]
    if not candidates:
        candidates = env.vars
    return draw(st.sampled_from(candidates))


def result(env, expr, op, shape, dtype, grad=False):
    """A statement ``vN = expr`` whose value the model knows roughly."""
    name = env.new_name()
    env.vars.append(Var(name, shape, dtype, grad and env.grad_enabled and (dtype in FLOATS)))
    return Stmt(f"{name} = {expr}", op)


def dim_in(draw, shape, allow_bad=True):
    """A dim for ``shape``: usually valid (sometimes negative), now and then out of range."""
    n = len(shape)
    if n == 0 or (allow_bad and draw(st.integers(0, 11)) == 0):
        return draw(st.sampled_from([0, -1, n, -n - 1, 3]))
    d = draw(st.integers(0, n - 1))
    return d - n if draw(st.booleans()) else d


def reduce_shape(shape, dims, keepdim):
    n = len(shape)
    if n == 0:
        return ()
    norm = set()
    for d in dims:
        if not -n <= d < n:
            return None
        norm.add(d % n)
    return tuple((1 if keepdim else None) if i in norm else s for i, s in enumerate(shape) if keepdim or i not in norm)


# ---------------------------------------------------------------- creation

@st.composite
def create(draw, env):
    kind = draw(st.sampled_from(["literal"] * 6 + ["factory"] * 3 + ["arange"] * 2 + ["random", "linspace", "like"]))
    name = env.new_name("t")
    if kind == "like" and env.tensors():
        src = pick(draw, env)
        fn = draw(st.sampled_from(["zeros_like", "ones_like", "full_like", "rand_like", "randn_like"]))
        extra = ", 2.5" if fn == "full_like" else ""
        if draw(st.booleans()):
            extra += f", dtype={dtype_src(draw(st.sampled_from(DTYPES)))}"
        if fn == "randn_like" and src.shape is not None and numel(src.shape) >= 16:
            fn = "rand_like"
        env.vars.append(Var(name, src.shape, src.dtype))
        return Stmt(f"{name} = torch.{fn}({src.name}{extra})", f"create:{fn}")
    shape = draw(shape_of())
    dtype = draw(st.sampled_from(DTYPES + FLOATS * 3))
    grad = dtype in FLOATS and draw(st.integers(0, 2)) == 0
    if draw(st.integers(0, 30)) == 0:
        grad = True                         # an integer tensor that requires grad: PyTorch's error
    explicit = draw(st.booleans()) or dtype not in ("float32", "int64", "bool")
    kw = f", dtype={dtype_src(dtype)}" if explicit else ""
    rg = ", requires_grad=True" if grad else ""
    if kind == "literal":
        values = [draw(value_of(dtype)) for _ in range(max(1, numel(shape)))]
        if not explicit and dtype == "float32":
            values = [float(v) for v in values]
        text = nested(values, shape)
        expr = f"torch.tensor({text}{kw}{rg})"
        op = "create:tensor"
    elif kind == "factory":
        fn = draw(st.sampled_from(["zeros", "ones", "full", "eye"]))
        if fn == "eye":
            shape = draw(st.sampled_from([(2, 2), (3, 3), (2, 3)]))
            args = ", ".join(map(str, shape if shape[0] != shape[1] else shape[:1]))
        elif fn == "full":
            args = f"{tuple(shape)!r}, {literal(draw(value_of(dtype)))}"
        else:
            args = ", ".join(map(str, shape)) if shape and draw(st.booleans()) else repr(tuple(shape))
        expr = f"torch.{fn}({args}{kw}{rg})"
        op = f"create:{fn}"
    elif kind == "arange":
        n = max(1, numel(shape))
        if shape and draw(st.booleans()):
            expr = f"torch.arange({n}{kw}{rg}).reshape{tuple(shape)!r}" if len(shape) > 1 else \
                f"torch.arange({n}{kw}{rg})"
            op = "create:arange"
        else:
            start, step = draw(st.sampled_from([(0, 1), (1, 2), (-2, 0.5), (0.5, 0.25), (5, -1), (0, 0.1)]))
            end = start + step * draw(st.integers(0, 6))
            expr = f"torch.arange({start!r}, {end!r}, {step!r}{kw}{rg})"
            shape = None
            op = "create:arange(start,end,step)"
    elif kind == "linspace":
        a, b = draw(st.sampled_from([(0, 1), (-1, 1), (0.0, 2.5), (1, 10), (-3, 3)]))
        n = draw(st.integers(0, 7))
        expr = f"torch.linspace({a!r}, {b!r}, {n}{kw}{rg})"
        shape = (n,)
        op = "create:linspace"
    else:
        fn = draw(st.sampled_from(["rand", "randn", "randint"]))
        if fn == "randn" and numel(shape) >= 16:
            shape = (3, 4)
        if fn == "randint":
            hi = draw(st.sampled_from([2, 5, 10]))
            expr = f"torch.randint(0, {hi}, {tuple(shape)!r}{kw})"
            grad = False
        else:
            expr = f"torch.{fn}({', '.join(map(str, shape)) or '()'}{kw}{rg})"
        op = f"create:{fn}"
    env.vars.append(Var(name, shape, dtype, grad and dtype in FLOATS))
    return Stmt(f"{name} = {expr}", op)


# ---------------------------------------------------------------- arithmetic

UNARY = {
    # name: result dtype rule ("float": integer inputs give the default float dtype, "same", "bool")
    "neg": "same", "abs": "same", "exp": "float", "log": "float", "sqrt": "float", "sin": "float", "cos": "float",
    "tanh": "float", "sigmoid": "float", "relu": "same", "sign": "same", "floor": "same", "ceil": "same",
    "round": "same", "trunc": "same", "square": "same", "reciprocal": "float", "log1p": "float", "expm1": "float",
    "rsqrt": "float", "erf": "float", "isnan": "bool", "isinf": "bool", "isfinite": "bool", "logical_not": "bool",
    "bitwise_not": "same", "log2": "float", "tan": "float", "atan": "float", "asin": "float", "acos": "float",
    "clone": "same", "positive": "same",
}
# functions whose last bits PyTorch's vectorised kernels may compute differently (see compare.LAST_BIT_FAMILIES)


@st.composite
def unary(draw, env):
    x = pick(draw, env)
    name = draw(st.sampled_from(sorted(UNARY)))
    rule = UNARY[name]
    dtype = {"same": x.dtype, "bool": "bool", "float": float_of(x.dtype)}[rule]
    if name == "square" and x.dtype in INTS + ("bool",):
        dtype = "int64" if x.dtype == "bool" else x.dtype
    style = draw(st.sampled_from(["method", "function"]))
    if name == "positive":
        expr = f"+{x.name}"
    elif name == "neg" and draw(st.booleans()):
        expr = f"-{x.name}"
    elif name == "bitwise_not" and draw(st.booleans()):
        expr = f"~{x.name}"
    elif style == "method":
        expr = f"{x.name}.{name}()"
    else:
        expr = f"torch.{name}({x.name})"
    return result(env, expr, f"unary:{name}", x.shape, dtype, x.grad)


@st.composite
def clamp(draw, env):
    x = pick(draw, env)
    lo, hi = draw(st.sampled_from([(0, None), (None, 1), (-1, 1), (-0.5, 0.5), (0.0, 0.0), (2, 1), (None, None),
                                   (0, 2.5)]))
    fn = draw(st.sampled_from(["clamp", "clip", "clamp_min", "clamp_max"]))
    if fn == "clamp_min":
        args = literal(lo if lo is not None else 0)
    elif fn == "clamp_max":
        args = literal(hi if hi is not None else 0)
    elif draw(st.booleans()):
        args = ", ".join(f"{k}={literal(v)}" for k, v in (("min", lo), ("max", hi)) if v is not None)
    else:
        args = f"{literal(lo)}, {literal(hi)}"
    dtype = x.dtype if not any(isinstance(b, float) for b in (lo, hi)) else promote(x.dtype, "float32")
    return result(env, f"{x.name}.{fn}({args})", f"unary:{fn}", x.shape, dtype, x.grad)


BINARY_OPS = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "&", "|", "^", "<<", ">>"]
BINARY_FUNCS = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "remainder", "fmod", "eq", "lt", "ge",
                "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "floor_divide",
                "true_divide", "rsub", "isclose", "allclose", "equal"]


@st.composite
def scalar(draw, dtype=None):
    kind = draw(st.sampled_from(["int", "int", "float", "float", "bool", "special"]))
    if kind == "int":
        return draw(st.sampled_from([0, 1, 2, 3, -1, -2, 5]))
    if kind == "float":
        return draw(st.sampled_from([0.5, 2.0, -1.5, 0.0, 1.0, 3.25, 0.1]))
    if kind == "bool":
        return draw(st.booleans())
    return draw(st.sampled_from([float("nan"), float("inf"), -0.0, 2 ** 31, 1e-3, 100]))


@st.composite
def other_operand(draw, env, x):
    """A second operand for ``x``: another variable (often broadcastable), a scalar, or an inline tensor."""
    kind = draw(st.sampled_from(["var", "var", "scalar", "scalar", "inline", "zerod"]))
    if kind == "var":
        y = pick(draw, env, lambda v: broadcast(v.shape, x.shape) is not None)
        return y.name, y.shape, y.dtype, y.grad
    if kind == "scalar":
        s = draw(scalar())
        return literal(s), (), None, False
    if kind == "zerod":
        dtype = draw(st.sampled_from(DTYPES))
        v = draw(value_of(dtype))
        return f"torch.tensor({literal(v)}, dtype={dtype_src(dtype)})", (), dtype, False
    shape = x.shape if x.shape is not None else (2,)
    if shape and draw(st.booleans()):
        shape = shape[-1:]                    # broadcast along the last dim
    dtype = draw(st.sampled_from(DTYPES + ("float32",) * 4))
    values = [draw(value_of(dtype)) for _ in range(max(1, numel(shape)))]
    return f"torch.tensor({nested(values, shape)}, dtype={dtype_src(dtype)})", shape, dtype, False


@st.composite
def binary(draw, env):
    x = pick(draw, env)
    ysrc, yshape, ydtype, ygrad = draw(other_operand(env, x))
    shape = broadcast(x.shape, yshape)
    dtype = promote(x.dtype, ydtype)
    grad = x.grad or ygrad
    if draw(st.integers(0, 2)):
        op = draw(st.sampled_from(BINARY_OPS))
        if draw(st.integers(0, 5)) == 0 and yshape == ():
            expr = f"{ysrc} {op} {x.name}"       # number first: Tensor.__r<op>__
        else:
            expr = f"{x.name} {op} {ysrc}"
        tag = f"binary:{op}"
        if op in ("==", "!=", "<", "<=", ">", ">="):
            dtype = "bool"
        elif op == "/":
            dtype = float_of(dtype)
    else:
        fn = draw(st.sampled_from(BINARY_FUNCS))
        extra = ""
        if fn in ("add", "sub", "rsub") and draw(st.booleans()):
            extra = f", alpha={literal(draw(st.sampled_from([2, -1, 0.5, 0.1, -0.01, 3])))}"
            fn_tag = f"{fn}(alpha)"
        elif fn == "div" and draw(st.booleans()):
            extra = f", rounding_mode={draw(st.sampled_from(['floor', 'trunc', 'round']))!r}"
            fn_tag = "div(rounding_mode)"
        else:
            fn_tag = fn
        form = draw(st.sampled_from(["function", "method"])) if fn not in ("allclose", "equal", "rsub") else "function"
        expr = f"torch.{fn}({x.name}, {ysrc}{extra})" if form == "function" else f"{x.name}.{fn}({ysrc}{extra})"
        tag = f"binary:{fn_tag}"
        if fn in ("eq", "lt", "ge", "logical_and", "logical_or", "logical_xor", "isclose"):
            dtype = "bool"
        elif fn in ("div", "true_divide") and not extra:
            dtype = float_of(dtype)
        elif fn in ("allclose", "equal"):
            shape = None
    return result(env, expr, tag, shape, dtype, grad)


@st.composite
def where(draw, env):
    x = pick(draw, env)
    ysrc, yshape, ydtype, ygrad = draw(other_operand(env, x))
    cond = draw(st.sampled_from([f"{x.name} > 0", f"{x.name} == {x.name}", f"{x.name} < 1"]))
    return result(env, f"torch.where({cond}, {x.name}, {ysrc})", "binary:where", broadcast(x.shape, yshape),
                  promote(x.dtype, ydtype), x.grad or ygrad)


# ---------------------------------------------------------------- reductions

REDUCTIONS = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var", "all", "any",
              "count_nonzero", "cumsum", "cumprod", "norm", "logsumexp", "median", "softmax", "log_softmax"]
_NEEDS_DIM = {"cumsum", "cumprod", "softmax", "log_softmax", "logsumexp"}
_SAME_SHAPE = {"cumsum", "cumprod", "softmax", "log_softmax"}


@st.composite
def reduction(draw, env):
    x = pick(draw, env)
    fn = draw(st.sampled_from(REDUCTIONS))
    shape = x.shape if x.shape is not None else ()
    variant = draw(st.sampled_from(["all", "dim", "dim", "dim_kw", "keepdim", "tuple"]))
    if fn in _NEEDS_DIM and variant == "all" and draw(st.integers(0, 3)):
        variant = "dim"
    args = []
    dims = None
    keepdim = False
    if variant == "dim":
        d = dim_in(draw, shape)
        args.append(str(d))
        dims = [d]
    elif variant == "dim_kw":
        d = dim_in(draw, shape)
        args.append(f"dim={d}")
        dims = [d]
    elif variant == "keepdim":
        d = dim_in(draw, shape)
        args += [str(d), "keepdim=True"]
        dims = [d]
        keepdim = True
    elif variant == "tuple":
        n = len(shape)
        dims = sorted(set(draw(st.lists(st.integers(-max(n, 1), max(n, 1) - 1), min_size=1, max_size=2))))
        args.append(f"dim={tuple(dims)!r}" if draw(st.booleans()) else repr(tuple(dims)))
        if draw(st.booleans()):
            args.append("keepdim=True")
            keepdim = True
    if fn in ("std", "var") and draw(st.integers(0, 2)) == 0:
        args.append(draw(st.sampled_from(["unbiased=False", "correction=0", "correction=2"])))
    if fn in ("sum", "mean", "prod", "cumsum") and draw(st.integers(0, 4)) == 0:
        args.append(f"dtype={dtype_src(draw(st.sampled_from(['float64', 'int64', 'float32'])))}")
    form = draw(st.sampled_from(["method", "method", "function"]))
    arglist = ", ".join(args)
    expr = f"{x.name}.{fn}({arglist})" if form == "method" else \
        f"torch.{fn}({x.name}{', ' if arglist else ''}{arglist})"
    if fn in _SAME_SHAPE:
        out_shape = shape
    elif dims is None:
        out_shape = ()
    else:
        out_shape = reduce_shape(shape, dims, keepdim)
    if fn in ("max", "min", "median") and dims is not None:
        out_shape = None                     # a (values, indices) pair
    dtype = {"argmax": "int64", "argmin": "int64", "count_nonzero": "int64", "all": "bool", "any": "bool"}.get(fn)
    if dtype is None:
        dtype = x.dtype if fn in ("max", "min", "amax", "amin", "median", "cumsum", "prod", "sum") else \
            float_of(x.dtype)
    return result(env, expr, f"reduce:{fn}" + ("(tuple dim)" if variant == "tuple" else ""), out_shape, dtype,
                  x.grad)


# ---------------------------------------------------------------- views and shapes

@st.composite
def view_op(draw, env):
    x = pick(draw, env)
    shape = x.shape if x.shape is not None else (2,)
    n = len(shape)
    fn = draw(st.sampled_from(["view", "reshape", "transpose", "t", "T", "mT", "permute", "squeeze", "unsqueeze",
                               "flatten", "expand", "contiguous", "narrow", "select", "unbind", "chunk", "split",
                               "flip", "movedim", "repeat", "roll", "diag", "tril", "triu", "view_as", "swapaxes",
                               "detach", "unflatten", "tile", "diagonal", "expand_as"]))
    d0, d1 = dim_in(draw, shape), dim_in(draw, shape)
    out = None
    if fn in ("view", "reshape"):
        total = numel(shape)
        cands = [(-1,), (total,), (1, total), (total, 1), (-1, 1)]
        cands += [(a, total // a) for a in (2, 3) if total % a == 0]
        cands.append((5,))                              # usually impossible: PyTorch's message
        new = draw(st.sampled_from(cands))
        expr = f"{x.name}.{fn}({', '.join(map(str, new))})"
        out = tuple(total if s == -1 and len(new) == 1 else s for s in new) if -1 not in new or len(new) == 1 \
            else None
        if new == (5,) and total != 5:
            out = None
    elif fn == "transpose":
        expr = f"{x.name}.transpose({d0}, {d1})"
        if n and -n <= d0 < n and -n <= d1 < n:
            s = list(shape)
            s[d0], s[d1] = s[d1], s[d0]
            out = tuple(s)
        elif n == 0:
            out = ()
    elif fn in ("t", "T", "mT"):
        expr = f"{x.name}.{fn}" + ("()" if fn == "t" else "")
        out = tuple(reversed(shape)) if fn != "mT" else (shape[:-2] + shape[-2:][::-1] if n >= 2 else None)
    elif fn == "permute":
        perm = list(draw(st.permutations(list(range(n))))) if n else []
        if draw(st.integers(0, 6)) == 0:
            perm = perm[:-1] if perm else [0]
        expr = f"{x.name}.permute({', '.join(map(str, perm))})"
        out = tuple(shape[p] for p in perm) if len(perm) == n else None
    elif fn == "squeeze":
        if draw(st.booleans()):
            expr = f"{x.name}.squeeze()"
            out = tuple(s for s in shape if s != 1)
        else:
            expr = f"{x.name}.squeeze({d0})"
            out = tuple(s for i, s in enumerate(shape) if not (i == d0 % max(n, 1) and s == 1)) if n else ()
    elif fn == "unsqueeze":
        d = draw(st.integers(-n - 1, n)) if draw(st.integers(0, 8)) else n + 2
        expr = f"{x.name}.unsqueeze({d})"
        if -n - 1 <= d <= n:
            s = list(shape)
            s.insert(d if d >= 0 else d + n + 1, 1)
            out = tuple(s)
    elif fn == "flatten":
        if draw(st.booleans()) or n < 2:
            expr = f"{x.name}.flatten()"
            out = (numel(shape),)
        else:
            expr = f"{x.name}.flatten(1)"
            out = shape[:1] + (numel(shape[1:]),)
    elif fn == "expand":
        new = tuple(2 if s == 1 else s for s in shape)
        if draw(st.booleans()):
            new = (2,) + new
        if draw(st.integers(0, 5)) == 0:
            new = tuple(s + 1 for s in shape) or (3,)
        expr = f"{x.name}.expand({', '.join(map(str, new)) or '()'})"
        out = new
    elif fn == "expand_as":
        y = pick(draw, env)
        expr = f"{x.name}.expand_as({y.name})"
        out = y.shape
    elif fn == "contiguous":
        expr = f"{x.name}.contiguous()"
        out = shape
    elif fn == "narrow":
        length = draw(st.integers(0, 2))
        expr = f"{x.name}.narrow({d0}, {draw(st.integers(0, 1))}, {length})"
    elif fn == "select":
        expr = f"{x.name}.select({d0}, {draw(st.integers(-1, 2))})"
    elif fn in ("unbind", "chunk", "split"):
        arg = "" if fn == "unbind" else f"{draw(st.integers(1, 3))}, "
        expr = f"{x.name}.{fn}({arg}{d0})" if fn != "unbind" else f"{x.name}.unbind({d0})"
    elif fn == "flip":
        expr = f"{x.name}.flip({d0})" if draw(st.booleans()) else f"torch.flip({x.name}, ({d0},))"
        out = shape
    elif fn == "movedim":
        expr = f"torch.movedim({x.name}, {d0}, {d1})" if draw(st.booleans()) else f"{x.name}.movedim({d0}, {d1})"
        out = shape if n < 2 else None
    elif fn in ("repeat", "tile"):
        reps = draw(st.sampled_from([(2,), (1, 2), (2, 1), (2, 1, 1)]))
        expr = f"{x.name}.{fn}({', '.join(map(str, reps))})"
    elif fn == "roll":
        expr = f"{x.name}.roll(1, {d0})" if draw(st.booleans()) else f"{x.name}.roll(-1)"
        out = shape
    elif fn in ("diag", "tril", "triu", "diagonal"):
        k = draw(st.sampled_from([0, 0, 1, -1]))
        expr = f"{x.name}.{fn}({k})" if k else f"{x.name}.{fn}()"
        out = shape if fn in ("tril", "triu") else None
    elif fn == "view_as":
        y = pick(draw, env)
        expr = f"{x.name}.view_as({y.name})"
        out = y.shape
    elif fn == "swapaxes":
        expr = f"{x.name}.swapaxes({d0}, {d1})"
    elif fn == "unflatten":
        expr = f"{x.name}.unflatten(0, (1, -1))"
        out = ((1, shape[0]) + shape[1:]) if n else None
    else:  # detach
        expr = f"{x.name}.detach()"
        out = shape
        return result(env, expr, "autograd:detach", out, x.dtype, False)
    return result(env, expr, f"view:{fn}", out, x.dtype, x.grad)


@st.composite
def inspect(draw, env):
    """Attributes and conversions to Python values."""
    x = pick(draw, env)
    form = draw(st.sampled_from([
        "{x}.shape", "{x}.size()", "{x}.size(-1)", "{x}.dtype", "{x}.dim()", "{x}.numel()", "{x}.stride()",
        "{x}.is_contiguous()", "{x}.storage_offset()", "{x}.item()", "{x}.tolist()", "float({x})", "int({x})",
        "bool({x})", "len({x})", "{x}.requires_grad", "{x}.is_leaf", "{x}.grad_fn is None", "{x}.type()",
        "{x}.is_floating_point()", "{x}.element_size()", "list({x})", "{x}.data_ptr() == {y}.data_ptr()",
        "{x}.numpy()", "{x}.device", "type({x}.grad_fn).__name__", "{x}.untyped_storage().nbytes()",
        "{x}.grad_fn.next_functions", "{x}._version", "{x}.nelement()", "repr({x}.dtype)", "{x}.ndim",
    ]))
    y = pick(draw, env)
    return Stmt(form.format(x=x.name, y=y.name), f"inspect:{form.format(x='x', y='y')}")


@st.composite
def convert(draw, env):
    x = pick(draw, env)
    dtype = draw(st.sampled_from(DTYPES))
    form = draw(st.sampled_from(["to", "type", "method", "method", "to_kw", "as_tensor", "tensor_of_tensor"]))
    short = {"float32": "float", "float64": "double", "float16": "half", "int64": "long", "int32": "int",
             "int16": "short", "int8": "char", "uint8": "byte", "bool": "bool"}[dtype]
    expr = {"to": f"{x.name}.to({dtype_src(dtype)})", "type": f"{x.name}.type({dtype_src(dtype)})",
            "method": f"{x.name}.{short}()", "to_kw": f"{x.name}.to(dtype={dtype_src(dtype)})",
            "as_tensor": f"torch.as_tensor({x.name}, dtype={dtype_src(dtype)})",
            "tensor_of_tensor": f"torch.tensor({x.name})"}[form]
    if form == "tensor_of_tensor":
        dtype = x.dtype
    return result(env, expr, f"convert:{form}", x.shape, dtype, x.grad and form != "tensor_of_tensor")


# ---------------------------------------------------------------- indexing

def _index(draw, shape):
    n = len(shape) if shape is not None else 1
    forms = ["0", "-1", "1", "1:", ":1", "::2", "..., 0", "None", ":, 0", "0, 0", "[0, 0]", "[True]", "5", "1:0",
             "..., None", ":, 1:", "-1:", "torch.tensor([1, 0])", "torch.tensor(0)", "()",
             "0, ..., -1", "[0, -1]"]
    if n == 0:
        forms += ["...", "None", "()", "True", "False"]
    return draw(st.sampled_from(forms))


@st.composite
def getitem(draw, env):
    x = pick(draw, env)
    if draw(st.integers(0, 3)) == 0:
        mask = draw(st.sampled_from([f"{x.name} > 0", f"{x.name} != {x.name}", f"{x.name} >= 1"]))
        return result(env, f"{x.name}[{mask}]", "index:mask", None, x.dtype, x.grad)
    idx = _index(draw, x.shape)
    return result(env, f"{x.name}[{idx}]", f"index:[{idx}]", None, x.dtype, x.grad)


@st.composite
def setitem(draw, env):
    x = pick(draw, env)
    if draw(st.integers(0, 3)) == 0:
        target = f"{x.name}[{x.name} > 0]"
        op = "setitem:mask"
    else:
        idx = _index(draw, x.shape)
        target = f"{x.name}[{idx}]"
        op = f"setitem:[{idx}]"
    kind = draw(st.sampled_from(["scalar", "scalar", "var", "aug"]))
    if kind == "scalar":
        value = literal(draw(scalar()))
        return Stmt(f"{target} = {value}", op)
    if kind == "aug":
        return Stmt(f"{target} {draw(st.sampled_from(['+=', '*=', '-=']))} {literal(draw(scalar()))}", op + "(aug)")
    y = pick(draw, env)
    return Stmt(f"{target} = {y.name}", op + "(tensor)")


# ---------------------------------------------------------------- matmul family

@st.composite
def matmul(draw, env):
    x = pick(draw, env, lambda v: len(v.shape) in (1, 2, 3))
    shape = x.shape if x.shape is not None else (2,)
    fn = draw(st.sampled_from(["@", "matmul", "mm", "mv", "dot", "bmm", "outer", "inner", "einsum", "rmatmul"]))
    k = shape[-1] if shape else 2
    if draw(st.integers(0, 7)) == 0:
        k += 1                                           # mismatched inner size: PyTorch's message
    want = {"mm": (k, 2), "mv": (k,), "dot": (k,), "bmm": (shape[0] if shape else 1, k, 2), "outer": (3,),
            "inner": (k,), "einsum": (k, 2)}.get(fn)
    if want is None:
        want = draw(st.sampled_from([(k,), (k, 2), (2, k, 3) if len(shape) < 3 else (shape[0], k, 1)]))
    ydtype = draw(st.sampled_from([x.dtype or "float32"] * 4 + list(DTYPES)))
    same = [v for v in env.tensors() if v.shape == want and v is not x]
    if same and draw(st.booleans()):
        ysrc, ydtype = same[0].name, same[0].dtype
    else:
        values = [draw(value_of(ydtype)) for _ in range(max(1, numel(want)))]
        ysrc = f"torch.tensor({nested(values, want)}, dtype={dtype_src(ydtype)})"
    if fn == "@":
        expr = f"{x.name} @ {ysrc}"
    elif fn == "rmatmul":
        expr = f"{ysrc} @ {x.name}"
    elif fn == "einsum":
        expr = f"torch.einsum('ij,jk->ik', {x.name}, {ysrc})"
    elif draw(st.booleans()):
        expr = f"torch.{fn}({x.name}, {ysrc})"
    else:
        expr = f"{x.name}.{fn}({ysrc})"
    return result(env, expr, f"matmul:{fn}", None, promote(x.dtype, ydtype), x.grad)


# ---------------------------------------------------------------- in-place

INPLACE = ["add_", "sub_", "mul_", "div_", "clamp_", "zero_", "fill_", "neg_", "abs_", "exp_", "relu_", "pow_",
           "sqrt_", "sigmoid_", "t_", "unsqueeze_", "squeeze_", "copy_", "masked_fill_", "requires_grad_",
           "+=", "-=", "*=", "/=", "floor_", "tanh_", "clamp_min_", "uniform_", "normal_", "random_", "detach_",
           "retain_grad", "sin_", "log_", "resize_"]


@st.composite
def inplace(draw, env):
    x = pick(draw, env)
    fn = draw(st.sampled_from(INPLACE))
    if fn in ("+=", "-=", "*=", "/="):
        ysrc, *_ = draw(other_operand(env, x))
        return Stmt(f"{x.name} {fn} {ysrc}", f"inplace:{fn}")
    if fn in ("add_", "sub_", "mul_", "div_", "copy_", "pow_"):
        ysrc, *_ = draw(other_operand(env, x))
        extra = ", alpha=2" if fn in ("add_", "sub_") and draw(st.integers(0, 3)) == 0 else ""
        args = ysrc + extra
    elif fn == "clamp_":
        args = draw(st.sampled_from(["min=0", "-1, 1", "max=0.5", "0.0, 0.0"]))
    elif fn == "clamp_min_":
        args = "0"
    elif fn == "fill_":
        args = literal(draw(scalar())) if draw(st.integers(0, 8)) else "'a'"
    elif fn == "masked_fill_":
        args = f"{x.name} > 0, {literal(draw(scalar()))}"
    elif fn == "unsqueeze_":
        args = "0"
    elif fn == "uniform_":
        args = draw(st.sampled_from(["", "-1, 1"]))
    elif fn == "normal_":
        if x.shape is None or numel(x.shape) >= 16:
            fn, args = "uniform_", ""
        else:
            args = ""
    elif fn == "random_":
        args = draw(st.sampled_from(["0, 10", "5"]))
    elif fn == "requires_grad_":
        args = draw(st.sampled_from(["", "False"]))
    elif fn == "resize_":
        args = "0"                    # (growing would show uninitialised memory in PyTorch)
    else:
        args = ""
    if fn in ("requires_grad_",):
        x.grad = args == "" and x.dtype in FLOATS
    stmt = f"{x.name}.{fn}({args})"
    if draw(st.integers(0, 3)) == 0 and fn not in ("retain_grad",):
        name = env.new_name()
        env.vars.append(Var(name, x.shape, x.dtype, x.grad))
        stmt = f"{name} = {stmt}"
    return Stmt(stmt, f"inplace:{fn}")


# ---------------------------------------------------------------- autograd and grad modes

@st.composite
def autograd(draw, env):
    x = pick(draw, env, lambda v: v.grad) if any(v.grad for v in env.vars) else pick(draw, env)
    leaves = [v for v in env.vars if v.name.startswith("t")] or [x]
    leaf = draw(st.sampled_from(leaves))
    form = draw(st.sampled_from(["sum_backward"] * 4 + [
        "backward", "backward_ones", "mean_backward_retain", "grad", "grad", "grad_zero", "autograd_grad",
        "grad_none", "retain_then_backward", "backward_twice", "detach_rg", "item_of_grad", "grad_fn_name",
        "requires_grad_attr", "backward_gradient_wrong",
    ]))
    if form == "sum_backward":
        return Stmt(f"{x.name}.sum().backward()", "autograd:sum().backward()")
    if form == "backward":
        return Stmt(f"{x.name}.backward()", "autograd:backward()")
    if form == "backward_ones":
        return Stmt(f"{x.name}.backward(torch.ones_like({x.name}))", "autograd:backward(ones)")
    if form == "backward_gradient_wrong":
        return Stmt(f"{x.name}.backward(torch.ones(7))", "autograd:backward(wrong shape)")
    if form == "mean_backward_retain":
        return Stmt(f"{x.name}.mean().backward(retain_graph=True)", "autograd:mean().backward(retain_graph)")
    if form == "backward_twice":
        return Stmt(f"_s = {x.name}.sum(); _s.backward(); _s.backward()", "autograd:backward twice")
    if form == "grad":
        return Stmt(f"{leaf.name}.grad", "autograd:.grad")
    if form == "grad_none":
        return Stmt(f"{x.name}.grad", "autograd:.grad (any)")
    if form == "grad_zero":
        return Stmt(f"{leaf.name}.grad.zero_()", "autograd:.grad.zero_()")
    if form == "item_of_grad":
        return Stmt(f"{leaf.name}.grad.sum().item()", "autograd:.grad.sum().item()")
    if form == "autograd_grad":
        return Stmt(f"torch.autograd.grad({x.name}.sum(), [{leaf.name}])", "autograd:autograd.grad")
    if form == "retain_then_backward":
        return Stmt(f"{x.name}.retain_grad(); {x.name}.sum().backward(); print({x.name}.grad)",
                    "autograd:retain_grad")
    if form == "detach_rg":
        name = env.new_name()
        env.vars.append(Var(name, x.shape, x.dtype, x.dtype in FLOATS))
        return Stmt(f"{name} = {x.name}.detach().requires_grad_()", "autograd:detach().requires_grad_()")
    if form == "grad_fn_name":
        return Stmt(f"{x.name}.grad_fn.name() if {x.name}.grad_fn else None", "autograd:grad_fn.name()")
    return Stmt(f"({x.name}.requires_grad, {x.name}.is_leaf)", "autograd:requires_grad/is_leaf")


@st.composite
def grad_mode(draw, env):
    form = draw(st.sampled_from(["no_grad", "no_grad", "enable_inside", "set_false", "set_true", "inference",
                                 "is_enabled", "set_ctx", "decorator"]))
    if form == "set_false":
        env.grad_enabled = False
        return Stmt("torch.set_grad_enabled(False)", "grad_mode:set_grad_enabled(False)")
    if form == "set_true":
        env.grad_enabled = True
        return Stmt("torch.set_grad_enabled(True)", "grad_mode:set_grad_enabled(True)")
    if form == "is_enabled":
        return Stmt("torch.is_grad_enabled()", "grad_mode:is_grad_enabled")
    saved = env.grad_enabled
    env.grad_enabled = form == "enable_inside"
    inner = draw(st.sampled_from([unary, binary, reduction, view_op]))(env)
    body = draw(inner)
    env.grad_enabled = saved
    if form == "decorator":
        return Stmt(f"_f = torch.no_grad()(lambda: {body.src.split(' = ', 1)[1]})\n{body.src.split(' = ', 1)[0]} = "
                    f"_f()", f"{body.op} under grad_mode:no_grad decorator")
    head = {"no_grad": "torch.no_grad()", "enable_inside": "torch.no_grad()", "inference": "torch.inference_mode()",
            "set_ctx": "torch.set_grad_enabled(False)"}[form]
    if form == "enable_inside":
        src = f"with {head}:\n    with torch.enable_grad():\n        {body.src}"
    else:
        src = f"with {head}:\n    {body.src}"
    return Stmt(src, f"{body.op} under grad_mode:{form}")


@st.composite
def cat_stack(draw, env):
    x = pick(draw, env)
    y = pick(draw, env)
    fn = draw(st.sampled_from(["cat", "stack", "cat", "hstack", "vstack", "broadcast_tensors"]))
    d = dim_in(draw, x.shape if x.shape is not None else (1,))
    if fn == "broadcast_tensors":
        expr = f"torch.broadcast_tensors({x.name}, {y.name})"
    elif fn in ("hstack", "vstack"):
        expr = f"torch.{fn}([{x.name}, {y.name}])"
    else:
        expr = f"torch.{fn}([{x.name}, {y.name}], {'dim=' if draw(st.booleans()) else ''}{d})"
    return result(env, expr, f"shape:{fn}", None, promote(x.dtype, y.dtype), x.grad or y.grad)


@st.composite
def printing(draw, env):
    form = draw(st.sampled_from(["torch.set_printoptions(precision=2)", "torch.set_printoptions(sci_mode=False)",
                                 "torch.set_printoptions(precision=6)", "torch.set_default_dtype(torch.float64)",
                                 "torch.get_default_dtype()", "print({x})", "str({x}.dtype)", "torch.manual_seed(1)",
                                 "torch.promote_types({x}.dtype, torch.int32)", "torch.is_tensor({x})",
                                 "torch.result_type({x}, 1.0)"]))
    x = pick(draw, env)
    return Stmt(form.format(x=x.name), f"misc:{form.format(x='x')}")


# weighted: each entry once per unit of weight
OPS = ([binary] * 8 + [unary] * 5 + [clamp] * 2 + [where] + [reduction] * 7 + [view_op] * 6 + [getitem] * 3 +
       [setitem] * 3 + [matmul] * 3 + [inplace] * 4 + [autograd] * 6 + [grad_mode] * 2 + [inspect] * 3 +
       [convert] * 2 + [cat_stack] + [create] + [printing])


@st.composite
def programs(draw, max_ops=7):
    """A random program (``Program``): 1-3 tensors created, then 1-``max_ops`` statements."""
    env = Env()
    stmts = [draw(create(env)) for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, max_ops))):
        template = draw(st.sampled_from(OPS))
        stmts.append(draw(template(env)))
    return Program(tuple(stmts))
