"""Matrix products: ``dot``, ``mv``, ``mm``, ``bmm``, and ``matmul`` (the ``@`` operator) built on them.

``matmul`` follows PyTorch's rules by operand dimensions, and is composed
of the same primitives PyTorch uses, so its ``grad_fn`` chain matches:

=========  ======================  =====================================
a.dim()    b.dim()                 computed as
=========  ======================  =====================================
1          1                       ``dot`` (a 0-d result)
2          1                       ``mv``
1          2                       ``unsqueeze(0)``, ``mm``, ``squeeze(0)``
2          2                       ``mm``
>=3        1 or 2                  fold the batch into rows: ``mm``/``mv``
1 or 2     >=3                     fold ``b.mT``: ``mv``, or ``mm`` transposed back
any        >=3 (or 1-2 with >=3)   broadcast the batch dims, ``bmm``
=========  ======================  =====================================

The folds follow PyTorch's ``should_fold``: when the smaller operand requires grad, or when the batched one
views as a matrix without a copy (never for 2-D @ batch otherwise); ``(1, n, k) @ (b, k, m)`` with a
requiring-grad batch of one is squeezed into 2-D @ 3-D first.
"""

import math

from ..core.backend import backend_of
from ..core.graph import Op
from ..core.layout import broadcast_shape, element_strides
from ..core.ops import Mm
from ..core.tensor import Tensor
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import wrong_arguments
from . import _dispatch as D
from . import views as V
from .reduction import sum as _sum

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "outer", "inner", "einsum"]


def _short(t):
    return t.dtype._short_name


def _check_not_bool(a, name):
    if a._data.dtype.kind == "b":
        raise NotImplementedError(f'"{name}" not implemented for \'Bool\'')


class Dot(Op):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        # + 0: PyTorch's dot adds the products to a sum that starts at +0., so [-0.] . [1.] is 0. (NumPy: -0.)
        return D.as_array(backend_of(a).dot(a, b) + a.dtype.type(0))

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if b is not None else None, grad * a if a is not None else None)


class Mv(Op):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    def forward(ctx, m, v):
        need_m, need_v = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(m if need_v else None, v if need_m else None)
        return m @ v

    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        xp = backend_of(grad)
        return (xp.outer(grad, v) if v is not None else None, m.T @ grad if m is not None else None)


class Bmm(Op):
    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return a @ b

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad @ b.swapaxes(1, 2) if b is not None else None,
                a.swapaxes(1, 2) @ grad if a is not None else None)


def dot(input, other):
    """Inner product of two 1-D tensors: a 0-d tensor. Mirrors ``torch.dot``.

    Raises:
        RuntimeError: not 1-D, different lengths or dtypes (PyTorch's messages).
    """
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        raise wrong_arguments("dot", input, other)
    D.check_devices("dot", (("self", input), ("tensor", other)))
    a, b = input._data, other._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_short(input)} and "
                           f"{_short(other)}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
                           f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
                           "respectively")
    _check_not_bool(input, "dot")
    return D.record(Dot, (input, other), (a, b))


def mv(input, vec):
    """Matrix-vector product ``(n, m) @ (m,) -> (n,)``. Mirrors ``torch.mv``.

    Raises:
        RuntimeError: wrong dimensions, sizes or dtypes (PyTorch's messages).
    """
    if not (isinstance(input, Tensor) and isinstance(vec, Tensor)):
        raise wrong_arguments("mv", input, vec)
    D.check_devices("mv", (("self", input), ("vec", vec)))
    m, v = input._data, vec._data
    if m.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if m.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.ndim}, {v.ndim}")
    if m.shape[1] != v.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({m.shape[0]}), mat ({m.shape[0]}x{m.shape[1]}), "
                           f"vec ({v.shape[0]})")
    if m.dtype != v.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_short(vec)}, "
                           f"{_short(input)}, and {_short(vec)}")
    if m.size:                                  # (an empty product never reaches the kernel)
        _check_not_bool(input, "addmv_impl_cpu")
    return D.record(Mv, (input, vec), (m, v))


def _out(name, out, inputs, compute):
    """``mm(a, b, out=c)``, ``matmul(a, b, out=c)``: the product written into ``c`` (same dtype required)."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    D.check_out_grad(name, out, inputs)
    result = compute(*inputs)._data
    if result.dtype != out._data.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_c_name(result)}, but got {_c_name(out._data)} "
                           "instead")
    if out._data.shape != result.shape:
        D.resize_out(out, result.shape, stacklevel=4)
    out._data[...] = result
    out._bump()
    return out


def mm(input, mat2, *, out=None):
    """Matrix product ``(n, k) @ (k, m) -> (n, m)``. Mirrors ``torch.mm``.

    Raises:
        RuntimeError: "self must be a matrix", "mat2 must be a matrix",
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", dtype mismatch;
            with ``out=``: something requiring grad, an ``out`` of another dtype.
    """
    if out is not None:
        return _out("mm", out, (input, mat2), mm)
    if not (isinstance(input, Tensor) and isinstance(mat2, Tensor)):
        raise wrong_arguments("mm", input, mat2)
    a, b = input._data, mat2._data
    if a.__class__ is not b.__class__:
        D.check_devices("mm", (("self", input), ("mat2", mat2)))
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_c_name(a)} != {_c_name(b)}")
    if a.dtype.kind == "b" and a.size and b.size:   # (an empty product never reaches the kernel)
        _check_not_bool(input, "addmm_impl_cpu_")
    return D.record(Mm, (input, mat2), (a, b))




def _c_name(a):
    return _dtype.DEMANGLED_NAMES[_dtype.from_numpy_dtype(a.dtype)]


def bmm(input, mat2):
    """Batched matrix product ``(b, n, k) @ (b, k, m) -> (b, n, m)``. Mirrors ``torch.bmm``.

    Raises:
        RuntimeError: not 3-D, or mismatched batch / inner sizes, or dtypes.
    """
    if not (isinstance(input, Tensor) and isinstance(mat2, Tensor)):
        raise wrong_arguments("bmm", input, mat2)
    D.check_devices("bmm", (("self", input), ("mat2", mat2)))
    a, b = input._data, mat2._data
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if not (a.size and b.size):                 # nothing to multiply: PyTorch's kernel returns zeros (or nothing)
        return D.record(Bmm, (input, mat2), (a.astype(b.dtype, copy=False), b))     # in mat2's dtype, unchecked
    _check_not_bool(input, "bmm")               # (the kernel runs in self's dtype: bool first)
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_short(input)} but found {_short(mat2)}")
    return D.record(Bmm, (input, mat2), (a, b))


def matmul(input, other, *, out=None):
    """Matrix product with PyTorch's rules for 1-D, 2-D and batched operands (the ``@`` operator).

    See the module docstring for how each case is computed.  Batch
    dimensions broadcast: ``(5, 1, 2, 3) @ (4, 3, 2)`` is ``(5, 4, 2, 2)``.
    Mirrors ``torch.matmul``.

    Raises:
        RuntimeError: a 0-d operand, or sizes that do not fit (the messages
            of the primitive PyTorch would call); with ``out=``: something requiring grad, an ``out`` of
            another dtype.
    """
    if out is not None:
        return _out("matmul", out, (input, other), matmul)
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        raise wrong_arguments("matmul", input, other)
    if not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    d1, d2 = input._data.ndim, other._data.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return dot(input, other)
    if d1 == 2 and d2 == 1:
        return mv(input, other)
    if d1 == 2 and d2 == 2:
        return mm(input, other)
    if d1 == 1 and d2 == 2:                  # (mm checks the shapes, then the dtypes)
        return V.view_op(V.SqueezeMatmul, mm(V.unsqueeze(input, 0), other), {"axes": (0,)})
    if _should_fold(input, other):
        return _folded_matmul(input, other)
    if d1 == 3 and d2 == 3 and input._data.shape[0] != other._data.shape[0]:
        # a batch of one that requires grad is squeezed to go the folded way (PyTorch: no expanded gradient)
        if input._data.shape[0] == 1 and input.requires_grad:
            return matmul(V.squeeze(input, 0), other)
        if other._data.shape[0] == 1 and other.requires_grad:
            return matmul(input, V.squeeze(other, 0))
    return _batched_matmul(input, other)


def _foldable(x, transposed):
    """Whether ``x`` (``x.mT`` if ``transposed``) views as one matrix ``(-1, x.size(-1))`` without a copy."""
    if x.size == 0:
        return True
    shape, strides = list(x.shape), list(element_strides(x))
    if transposed:
        shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _should_fold(a, b):
    """PyTorch's ``should_fold``: a batched operand times a vector or matrix computed as one ``mm``/``mv`` on the
    batched one (``b.mT`` when ``b`` is the batched one) viewed as a matrix: when the small operand requires grad
    (its gradient then comes from one mm, not a sum of a bmm), else when the view needs no copy."""
    d1, d2 = a._data.ndim, b._data.ndim
    larger = d1 >= d2
    if not ((d1 if larger else d2) >= 3 and (d2 if larger else d1) <= 2):
        return False
    if (b if larger else a).requires_grad:
        return True
    if d1 == 2:
        return False
    return _foldable(a._data if larger else b._data, not larger)


def _folded_matmul(a, b):
    """PyTorch's folded matmul: the batch of the larger operand merged into the rows of one matrix, then ``mm`` or
    ``mv`` and an ``_unsafe_view`` (for ``matrix @ batch``: ``b.mT`` folded times ``a.t()``, transposed back)."""
    transpose = b._data.ndim > a._data.ndim
    t1 = V.transpose(b, -2, -1) if transpose else a
    t2 = (V.t(a) if a._data.ndim == 2 else a) if transpose else b
    sizes = t1._data.shape
    shape = sizes[:-1]
    folded = V.reshape(t1, math.prod(shape), sizes[-1])
    if t2._data.ndim == 2:
        out = mm(folded, t2)
        out = D.record(V.UnsafeView, (out,), (out._data,), {"shape": shape + (t2._data.shape[1],)})
        return V.contiguous(V.transpose(out, -2, -1)) if transpose else out
    out = mv(folded, t2)
    return D.record(V.UnsafeView, (out,), (out._data,), {"shape": shape})


def _batched_matmul(a, b):
    """PyTorch's matmul of batches: both operands expanded to the broadcast batch, reshaped to 3-D, ``bmm``
    (a vector ``b`` as a column: reshaped, ``unsqueeze(2)``, then ``squeeze(-1)``), and an ``_unsafe_view``."""
    x, y = a._data, b._data
    d1, d2 = x.ndim, y.ndim
    n = x.shape[-2] if d1 > 1 else 1
    m1 = x.shape[-1]
    m2 = y.shape[-2] if d2 > 1 else y.shape[0]
    p = y.shape[-1] if d2 > 1 else 1
    batch = broadcast_shape(x.shape[:max(d1 - 2, 0)], y.shape[:max(d2 - 2, 0)])
    size = math.prod(batch)
    a3 = V.reshape(V.expand(a, batch + (n, m1)), size, n, m1)
    if d2 == 1:
        b3 = V.unsqueeze(V.reshape(V.expand(b, batch + (m2,)), size, m2), 2)
    else:
        b3 = V.reshape(V.expand(b, batch + (m2, p)), size, m2, p)
    out = bmm(a3, b3)
    if d2 == 1:
        out = V.squeeze(out, -1)
    shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    return D.record(V.UnsafeView, (out,), (out._data,), {"shape": shape})


def outer(input, vec2):
    """Outer product of two vectors: ``(n,)`` and ``(m,)`` give ``(n, m)``. Mirrors ``torch.outer``.

    Computed as PyTorch does, ``input.reshape(-1, 1) * vec2``.

    Raises:
        RuntimeError: an argument that is not 1-D (PyTorch's message).
    """
    if not (isinstance(input, Tensor) and isinstance(vec2, Tensor)):
        raise wrong_arguments("outer", input, vec2)
    for name, t in (("self", input), ("vec2", vec2)):
        if t._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    return V.reshape(input, -1, 1) * vec2


def inner(input, other):
    """Inner product over the last dimension. Mirrors ``torch.inner``."""
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        raise wrong_arguments("inner", input, other)
    x, y = input._data, other._data
    if x.ndim == 0 or y.ndim == 0:                  # a scalar: an element-wise product, as in PyTorch
        return input * other
    if x.shape[-1] != y.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                           f"[{', '.join(map(str, x.shape))}] and [{', '.join(map(str, y.shape))}]")
    if x.dtype != y.dtype:                   # PyTorch's inner is a tensordot, which checks this
        raise RuntimeError("both inputs should have same dtype")
    return _tensordot_last(input, other)


def _tensordot_last(a, b):
    """PyTorch's ``tensordot(a, b, -1, -1)``, which its ``inner`` is: a last dim of size 1 summed first
    (``SumBackward1``), both operands permuted (the contracted dim last in ``a``, first in ``b``), reshaped to
    matrices, ``mm`` (``dot`` of the flattened operands when both have one row), reshaped to the result."""
    x, y = a._data, b._data
    if y.shape[-1] == 1:                         # a size-1 contracted dim is a broadcast: summed right away
        a = _sum(a, -1, True, dtype=a.dtype)
    elif x.shape[-1] == 1:
        b = _sum(b, -1, True, dtype=b.dtype)
    csize = x.shape[-1] if x.shape[-1] != 1 and y.shape[-1] != 1 else 1
    rsizes = a.shape[:-1] + b.shape[:-1]
    size1, size2 = math.prod(a.shape[:-1]), math.prod(b.shape[:-1])
    t1 = V.permute(a, *range(a.ndim))
    t2 = V.permute(b, b.ndim - 1, *range(b.ndim - 1))
    if size1 == 1 and size2 == 1:
        return V.reshape(dot(V.flatten(t1), V.flatten(t2)), rsizes)
    return V.reshape(mm(V.reshape(t1, size1, csize), V.reshape(t2, csize, size2)), rsizes)


# ---------------------------------------------------------------------------
# einsum
# ---------------------------------------------------------------------------

def _label_key(c):
    return (c.islower(), c)         # PyTorch numbers 'A'-'Z' before 'a'-'z'


def _parse_equation(equation, ndims):
    """The operands' subscripts and the output's, one character per dimension; the dims of ``...`` get
    characters of their own (outside a-zA-Z), right-aligned across operands as broadcasting aligns them."""
    arrow_at = equation.find("->")
    for i, c in enumerate(equation):
        if not (c.isascii() and c.isalpha() or c in ", ." or arrow_at >= 0 and i in (arrow_at, arrow_at + 1)):
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, subscripts "
                               "must be in [a-zA-Z]")
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) > len(ndims):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(inputs) < len(ndims):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    n_ell = [max(0, n - len(labels) + 3) if "..." in labels else 0 for labels, n in zip(inputs, ndims)]
    ellipsis = "".join(chr(0x100 + k) for k in range(max(n_ell, default=0)))
    inputs = [labels.replace("...", ellipsis[len(ellipsis) - k:]) for labels, k in zip(inputs, n_ell)]
    letters = "".join(inputs)
    if arrow:
        for c in rhs.replace("...", ""):
            if rhs.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if c not in letters:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   "operand")
        out = rhs.replace("...", ellipsis)
    else:
        out = ellipsis + "".join(sorted((c for c in set(letters) if c.isascii() and letters.count(c) == 1),
                                        key=_label_key))
    return inputs, out


def einsum(equation, *operands):
    """Sums of products named by index letters: ``einsum('ij,jk->ik', a, b)`` is ``a @ b``,
    ``'i,i->'`` a dot product, ``'bij,bjk->bik'`` ``bmm``, ``'ii->i'`` the diagonal, ``'ij->ji'`` the
    transpose, ``'i,j->ij'`` the outer product. Mirrors ``torch.einsum`` (operands may also be one list).

    Composed of differentiable ops as PyTorch composes it (diagonal / unsqueeze and permute of each
    operand, then mul, sum, or permute-reshape-bmm-view), so the result's ``grad_fn`` is PyTorch's
    (``ViewBackward0`` after a contraction of two operands, ``MulBackward0``, ``SumBackward1``,
    ``PermuteBackward0``) and so are, for the usual forms, the nodes inside. ``...`` stands for the
    leading dimensions, broadcast across operands.

    Raises:
        RuntimeError: operands and subscripts that do not agree, an unknown or repeated output subscript,
            sizes that do not match (PyTorch's messages); operands of different dtypes only where a contraction
            reaches ``bmm`` (a product without a sum promotes, as ``*`` does; an empty one returns).
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(op).__name__}")
    inputs, out = _parse_equation(equation, [op.ndim for op in operands])
    sizes = {}
    for k, (labels, op) in enumerate(zip(inputs, operands)):
        if len(labels) != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(labels)}) does not match "
                               f"the number of dimensions ({op.ndim}) for operand {k} and no ellipsis was given")
        for c, n in zip(labels, op.shape):
            seen = sizes.get(c)
            if seen is not None and seen != n and seen != 1 and n != 1:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not broadcast "
                                   f"with previously seen size {seen}")
            if seen is None or seen == 1:
                sizes[c] = n
    contracted = sorted((c for c in sizes if c not in out), key=_label_key)
    order = out + "".join(contracted)
    permuted = [_to_order(op, labels, order) for op, labels in zip(operands, inputs)]
    return _contract(permuted, len(out))


def _contract(ops, n_out):
    """PyTorch's einsum on operands permuted to (output dims, contracted dims): each contracted dim is summed
    out, or squeezed, as soon as no later operand has it (with a size above 1)."""
    nd = ops[0].ndim
    if len(ops) == 1:                        # one operand: one sum over all contracted dims
        return _sum(ops[0], tuple(range(n_out, nd))) if nd > n_out else ops[0]
    last = [0] * nd                          # the last operand with size != 1 in each dim
    for i, op in enumerate(ops[1:], 1):
        for d, n in enumerate(op.shape):
            if n != 1:
                last[d] = i
    result = ops[0]
    dim = n_out
    for d in range(n_out, nd):
        if last[d] == 0:
            result = V.squeeze(result, dim) if result.shape[dim] == 1 else _sum(result, dim)
        else:
            dim += 1
    for i, op in enumerate(ops[1:], 1):
        sum_dims = []
        dim = n_out
        for d in range(n_out, nd):
            if last[d] < i:
                op = V.squeeze(op, dim)
            elif last[d] == i:
                if result.shape[dim] == 1:
                    op = _sum(op, dim)
                    result = V.squeeze(result, dim)
                else:
                    sum_dims.append(dim)
                    dim += 1
            else:
                dim += 1
        result = _sum_product(result, op, sum_dims) if sum_dims else result * op
    return V.view(result, result.shape[:n_out]) if nd > n_out else result


def _to_order(op, labels, order):
    """``op`` with one dimension per label of ``order`` (diagonals for repeated labels, size 1 for absent
    ones), permuted into that order."""
    dims = {}
    for c in labels:
        j = len(dims)
        if c in dims:                                   # 'ii': the diagonal, moved where i first was
            op = V.movedim(V.diagonal(op, 0, dims[c], j), -1, dims[c])
        else:
            dims[c] = j
    perm = []
    for c in order:
        if c not in dims:
            op = V.unsqueeze(op, -1)
            dims[c] = op.ndim - 1
        perm.append(dims[c])
    return V.permute(op, *perm)


def _sum_product(left, right, summed):
    """``(left * right).sum(summed)`` by PyTorch's permute-reshape-bmm-view-permute (same-rank operands)."""
    ls, rs = left.shape, right.shape
    nd = len(ls)
    lro = [d for d in range(nd) if d not in summed and ls[d] != 1 and rs[d] != 1]
    lo = [d for d in range(nd) if d not in summed and d not in lro and ls[d] != 1]
    ro = [d for d in range(nd) if d not in summed and d not in lro + lo and rs[d] != 1]
    ones = [d for d in range(nd) if d not in summed + lro + lo + ro]

    def size(dims, shape):
        return math.prod(shape[d] for d in dims)

    a = left.permute(tuple(lro + lo + summed + ro + ones)).reshape(size(lro, ls), size(lo, ls), size(summed, ls))
    b = right.permute(tuple(lro + summed + ro + lo + ones)).reshape(size(lro, rs), size(summed, rs), size(ro, rs))
    kept = lro + lo + ro + ones
    r = V.view(bmm(a, b), [ls[d] for d in lro + lo] + [rs[d] for d in ro] + [1] * len(ones))
    remaining = [d for d in range(nd) if d not in summed]
    return r.permute(tuple(kept.index(d) for d in remaining))
