"""Habits a learner brings from PyTorch code: iteration, keyword aliases, class names, errors.

Each snippet runs with course_lib and with real PyTorch (skipped without it):
printed output, exception type and message, and warnings must be the same.
"""

import pytest
from torch_compare import assert_same, cases, outcome

import course_lib


def _same(code):
    """course_lib prints, raises and warns as PyTorch does, and the snippet itself is sound (no NameError)."""
    assert_same(code)
    exc = outcome(code, course_lib)[1]
    assert exc is None or exc[0] != "NameError", exc

SNIPPETS = {
    # iterating a tensor is iter(t.unbind(0)), as in PyTorch
    "iter_rows_grad_fn": "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); "
                         "print([r.grad_fn.name() for r in x]); print([r for r in x])",
    "iter_rows_backward": "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); "
                          "sum(r * r for r in x).sum().backward(); x.grad",
    "iter_rows_inplace_error": "x = torch.ones(2, 2, requires_grad=True); y = x * 1\nfor r in y: r += 1",
    "iter_rows_inplace_no_grad": "z = torch.zeros(2, 2)\nfor r in z: r += 1\nprint(z)",
    "iter_rows_inplace_under_no_grad": "w = torch.ones(2, 2, requires_grad=True)\nwith torch.no_grad():\n"
                                       "    for r in w: r -= 1\nprint(w)",
    "iter_0d": "for v in torch.tensor(3.): pass",
    "iter_empty": "list(torch.zeros(0, 3))",
    "iter_1d_leaves": "[(v, v.is_leaf) for v in torch.arange(3)]",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_as_pytorch(name):
    _same(SNIPPETS[name])


TYPE_SNIPPETS = {
    # dtype, device and Size print as PyTorch's; the tensor class is course_lib.Tensor (normalised)
    "type_names": "x = torch.ones(2); print(type(x), type(x.dtype), type(x.device), type(x.shape))",
    "parameter_type": "print(type(torch.nn.Parameter(torch.ones(1))).__name__, torch.Tensor.__qualname__)",
    "device_pickle_copy": "import pickle, copy; d = torch.device('cuda', 1)\n"
                          "print(pickle.loads(pickle.dumps(d)) == d, copy.copy(d), copy.deepcopy(d), "
                          "pickle.loads(pickle.dumps(torch.device('cpu'))))",
    "tensor_pickle": "import pickle; x = torch.tensor([1., 2.], requires_grad=True)\n"
                     "p = torch.nn.Parameter(torch.ones(2))\n"
                     "print(pickle.loads(pickle.dumps(x)), pickle.loads(pickle.dumps(p)))",
    # copy.copy rebuilds from the same storage: shared memory, a leaf, requires_grad kept, no grad
    "copy_shares_memory": "import copy; z = torch.arange(4.); c = copy.copy(z); c[0] = 9; print(z, c.is_leaf)",
    "copy_of_view": "import copy; z = torch.arange(4.); c = copy.copy(z[1:])\n"
                    "print(c, c.storage_offset(), c.data_ptr() == z[1:].data_ptr())",
    "copy_of_non_leaf": "import copy; x = torch.tensor([1., 2.], requires_grad=True); c = copy.copy(x * 2)\n"
                        "print(c, c.grad_fn, c.is_leaf)",
    "copy_drops_grad": "import copy; x = torch.ones(2, requires_grad=True); x.grad = torch.ones(2)\n"
                       "c = copy.copy(x); print(c.grad, c.requires_grad)",
    "copy_version": "import copy; x = torch.ones(2); x.add_(1); c = copy.copy(x); c.add_(1); "
                    "print(x._version, c._version, x)",
    "copy_parameter": "import copy; p = torch.nn.Parameter(torch.ones(2)); c = copy.copy(p)\n"
                      "print(type(c).__name__, c is p, c.data_ptr() == p.data_ptr(), c)",
    "deepcopy_non_leaf": "import copy; x = torch.ones(2, requires_grad=True); copy.deepcopy(x * 2)",
}


@pytest.mark.parametrize("name", sorted(TYPE_SNIPPETS))
def test_types_and_copies_as_pytorch(name):
    _same(TYPE_SNIPPETS[name])


def test_type_names():
    """One rule for class paths (README.md, "Class names"): course_lib, then the rest of PyTorch's path."""
    import course_lib
    assert repr(course_lib.Tensor) == "<class 'course_lib.Tensor'>"
    assert repr(course_lib.nn.Parameter) == "<class 'course_lib.nn.parameter.Parameter'>"
    assert repr(type(course_lib.ones(1).device)) == "<class 'course_lib.device'>"


def _self_operand(op, operand="y", base="a * 2"):
    return (f"a = torch.tensor([1., 2.], requires_grad=True); y = {base}; y.{op}({operand})\n"
            "print(y.grad_fn.name(), y._version); y.sum().backward(); print(a.grad)")


INPLACE_SNIPPETS = {
    # the operand of y.op_(y) is saved as y itself: the write makes it one version newer
    "mul_self": _self_operand("mul_"),
    "div_self": _self_operand("div_"),
    "pow_self": _self_operand("pow_"),
    "add_self": _self_operand("add_"),
    "sub_self": _self_operand("sub_"),
    "mul_self_after_exp": _self_operand("mul_", base="a.exp()"),
    "mul_self_after_sigmoid": _self_operand("mul_", base="a.sigmoid()"),
    "mul_self_view": _self_operand("mul_", operand="y[:]"),
    "mul_self_detached": _self_operand("mul_", operand="y.detach()"),
    "imul_self": "a = torch.tensor([1., 2.], requires_grad=True); y = a * 2; y *= y; y.sum().backward()",
    "mul_other_tensor": "a = torch.tensor([1., 2.], requires_grad=True)\n"
                        "b = torch.tensor([3., 4.], requires_grad=True)\n"
                        "y = a * 2; y.mul_(b); y.sum().backward(); print(a.grad, b.grad)",
    "mul_self_no_grad": "b = torch.tensor([1., 2.]); b.mul_(b); b",
}


@pytest.mark.parametrize("name", sorted(INPLACE_SNIPPETS))
def test_inplace_with_itself_as_pytorch(name):
    _same(INPLACE_SNIPPETS[name])


ALIAS_SNIPPETS = cases("""
# NumPy's names that PyTorch accepts: axis= for dim=, keepdims= for keepdim=
t = torch.arange(6.).view(2, 3); print(t.sum(axis=1), t.mean(axis=0), torch.sum(t, 1, keepdims=True))
t = torch.arange(6.).view(2, 3); print(t.prod(axis=1), t.amax(axis=1, keepdims=True), t.amin(axis=0))
t = torch.arange(6.).view(2, 3); print(t.max(axis=1), torch.min(t, axis=1, keepdims=True))
t = torch.arange(6.).view(2, 3); print(t.argmax(axis=1), t.argmin(axis=0, keepdims=True))
t = torch.arange(6.).view(2, 3); print(t.std(axis=1, keepdims=True), t.var(axis=1, correction=0))
t = torch.arange(6.).view(2, 3); print(t.all(axis=1), t.any(axis=0, keepdims=True), t.count_nonzero(axis=1))
t = torch.arange(6.).view(2, 3); print(t.logsumexp(axis=1), t.cumsum(axis=1), torch.cumsum(t, axis=0))
t = torch.arange(6.).view(2, 3); print(t.unsqueeze(axis=0).shape, t[None].squeeze(axis=0).shape)
t = torch.arange(6.).view(2, 3); print(torch.cat([t, t], axis=1).shape, torch.stack([t, t], axis=1).shape)
t = torch.tensor([[3., 1, 2], [0, 5, 4]]); print(t.sort(axis=0), torch.argsort(t, axis=0), t.topk(1, axis=0))
t = torch.tensor([[3., 1, 2], [0, 5, 4]]); print(t.unbind(axis=1), t.chunk(3, axis=1), t.log_softmax(axis=0))
t = torch.ones(2, 3, requires_grad=True); t.sum(axis=1, keepdims=True).sum().backward(); print(t.grad)
torch.ones(2, 3).sum(dim=1, axis=1)
torch.ones(2, 3).mean(1, keepdim=True, keepdims=True)
torch.cat([torch.ones(2)], dim=0, axis=0)
torch.stack([torch.ones(2)], axis=0, dim=0)
torch.ones(2, 3).cumsum()
torch.cumsum(torch.ones(2, 3))
torch.ones(2, 3).logsumexp()
torch.ones(2, 3).unsqueeze()
# size= for factories, start=/end=/step= for arange, low=/high= for randint
print(torch.zeros(size=(2, 3)), torch.ones(size=[2]), torch.empty(size=(0,)).shape)
print(torch.zeros(size=(2, 3), dtype=torch.int64), torch.zeros(size=torch.Size([2])))
print(torch.rand(size=(2, 3)).shape, torch.randn(size=[2, 1], dtype=torch.float64).dtype)
torch.zeros(2, size=(2,))
torch.zeros(size=2)
torch.rand(size=2)
torch.rand(2, size=(2,))
torch.full(size=(2, 3), fill_value=1.5)
print(torch.arange(start=1, end=5, step=2), torch.arange(end=3), torch.arange(1, end=5), torch.arange(0, 5, step=2))
torch.arange(end=2.5)
torch.arange(start=2)
torch.arange(end=5, step=2)
torch.arange(1, start=1, end=5)
print(torch.randint(low=0, high=3, size=(2,)).shape, torch.randint(high=3, size=(2,)).shape)
print(torch.randint(0, high=3, size=(2,)).shape, torch.randint(high=3, size=(2,), low=0).dtype)
torch.randint(low=1, size=(2,))
torch.randint(high=3)
torch.randint(low=0, high=0, size=(2,))
""")


@pytest.mark.parametrize("code", ALIAS_SNIPPETS)
def test_keyword_aliases_as_pytorch(code):
    _same(code)


OUT_SNIPPETS = cases("""
t = torch.ones(2, 2); o = torch.empty(2, 2); r = torch.mm(t, t + 1, out=o); print(r is o, o)
t = torch.ones(2, 3); o = torch.empty(2, 2); r = torch.matmul(t, t.T, out=o); print(r is o, o)
t = torch.ones(2, 2); o = torch.empty(0); torch.mm(t, t, out=o); print(o)
t = torch.ones(2, 2); o = torch.empty(3); torch.matmul(t, t, out=o); print(o)
t = torch.ones(2, 2); torch.mm(t, t, out=torch.empty(2, 2, dtype=torch.int64))
t = torch.ones(2, 2); torch.matmul(t, t, out=torch.empty(2, 2, dtype=torch.float64))
r = torch.ones(2, 2, requires_grad=True); torch.mm(r, r, out=torch.empty(2, 2))
r = torch.ones(2, 2, requires_grad=True); torch.matmul(r, r, out=torch.empty(2, 2))
t = torch.ones(2, 2); torch.mm(t, t, out=torch.empty(2, 2, requires_grad=True))
r = torch.ones(2, 2, requires_grad=True); torch.add(r, 1, out=torch.empty(2, 2))
r = torch.ones(2, 2, requires_grad=True); torch.mul(r, 2, out=torch.empty(2, 2))
t = torch.ones(2, 2); o = torch.empty(3); torch.add(t, 1, out=o); print(o)
t = torch.ones(2, 2); o = torch.zeros(2, 2, dtype=torch.int64); torch.add(t, 1, out=o)
t = torch.ones(2, 2, dtype=torch.int64); o = torch.zeros(2, 2); torch.add(t, 1, out=o); print(o)
""")


OUT_SNIPPETS.append("r = torch.ones(2, 2, requires_grad=True); o = torch.empty(2, 2)\n"
                    "with torch.no_grad(): torch.mm(r, r, out=o)\nprint(o)")


@pytest.mark.parametrize("code", OUT_SNIPPETS)
def test_out_as_pytorch(code):
    _same(code)


ERROR_SNIPPETS = cases("""
# cat of 0-d tensors, gather's index checks, ranges and tensors too large to exist
torch.cat([torch.tensor(1.), torch.tensor(2.)])
torch.cat([torch.ones(2), torch.tensor(1.)])
torch.cat([torch.ones(2), torch.ones(2, 2), torch.tensor(1.)])
torch.cat([torch.tensor(1.)], dim=5)
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[0], [3]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[-1], [0]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 0, torch.tensor([[2, 0, 0]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[0.]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([0]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[0, 0, 0, 0]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[0, 1], [1, 0], [0, 0]]))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.tensor([[0, 1]], dtype=torch.int32))
t = torch.tensor([[1, 2, 3], [4, 5, 6]]); torch.gather(t, 1, torch.zeros(0, dtype=torch.long).view(0, 1))
print(torch.gather(torch.tensor(5.), 0, torch.tensor(0)), torch.gather(torch.tensor(5.), 0, torch.tensor([0, 0])))
torch.gather(torch.tensor(5.), 0, torch.tensor(1))
x = torch.arange(6.).view(2, 3).requires_grad_(); y = x.gather(1, torch.tensor([[2, 0]])); y.sum().backward(); y, x.grad
torch.arange(0, 1e20, 1)
torch.arange(1e19)
torch.arange(0, 10**19)
torch.arange(0, 2**62, 1)
torch.arange(0, 1e18, 1)
torch.zeros(2**62)
torch.zeros(2**40, 2**40)
torch.ones(10**15)
torch.full((10**15,), 2.)
torch.rand(10**15)
torch.randn(2**62)
# inf and nan come silently, as in PyTorch (no NumPy RuntimeWarning)
print(torch.tensor([1., 0., -1.]) / 0, torch.tensor(0.) / torch.tensor(0.), torch.tensor([1.]) // 0)
print(torch.tensor([1.]) % 0, torch.tensor([10.]) ** 1000, torch.log(torch.tensor([0., -1.])))
print(torch.tensor([1e38, 1e38]).prod(), torch.tensor([[1e38, 1e38]]).prod(1), torch.tensor([1e38]) * 10)
print(torch.tensor([]).mean(), torch.zeros(0, 3).mean(0), torch.tensor([2**62]) * 4, torch.tensor([1e3]).exp())
inf = torch.tensor([float('inf')]); print(inf - inf, inf * 0, torch.tensor([-8.]) ** 0.5, torch.tensor([-1.]).sqrt())
print(torch.tensor([7e4]).half(), torch.tensor([1e300], dtype=torch.float64).float(), torch.tensor([0.]).reciprocal())
x = torch.tensor([0., 1.], requires_grad=True); (x ** 0.5).sum().backward(); print(x.grad)
x = torch.tensor([0.], requires_grad=True); x.log().sum().backward(); print(x.grad)
""")


@pytest.mark.parametrize("code", ERROR_SNIPPETS)
def test_errors_and_silent_inf_as_pytorch(code):
    _same(code)


NUMPY_SNIPPETS = cases("""
# NumPy arrays of a non-native byte order, or of types PyTorch has no dtype for
torch.from_numpy(np.zeros(2, dtype='>f4'))
torch.tensor(np.zeros(2, dtype='>i8'))
torch.as_tensor(np.zeros(2, dtype='>f8'))
torch.Tensor(np.zeros(2, dtype='>f4'))
torch.from_numpy(np.array([1, 'a'], dtype=object))
torch.tensor(np.zeros(2, dtype='U3'))
torch.Tensor(np.zeros(2, dtype='U3'))
torch.Tensor(np.zeros(2, dtype='datetime64[s]'))
torch.Tensor(np.zeros(2, dtype=np.longdouble))
torch.Tensor(np.zeros(2, dtype='S2'))
# torch.Tensor converts the types course_lib lacks (uint16 ...) to float32, as PyTorch does
torch.Tensor(np.arange(3, dtype=np.uint16))
torch.Tensor(np.array([1 + 2j, 3 - 1j]))
""")


@pytest.mark.parametrize("code", NUMPY_SNIPPETS)
def test_numpy_dtypes_as_pytorch(code):
    _same(code)


@pytest.mark.parametrize("np_dtype", ["uint16", "uint32", "uint64", "complex64", "complex128"])
@pytest.mark.parametrize("factory", ["from_numpy", "tensor", "as_tensor"])
def test_dtypes_pytorch_has_and_course_lib_lacks_are_named(np_dtype, factory):
    import numpy as np

    import course_lib
    with pytest.raises(TypeError) as info:
        getattr(course_lib, factory)(np.zeros(2, dtype=np_dtype))
    message = str(info.value)
    assert message.startswith(f"course_lib does not support NumPy arrays of type numpy.{np_dtype} "
                              f"(PyTorch gives torch.{np_dtype}).")
    assert "float64, float32, float16, int64, int32, int16, int8, uint8 and bool" in message
    with pytest.raises(TypeError, match=f"numpy.{np_dtype}"):
        course_lib.tensor(np.zeros(2, dtype=np_dtype)[0])


MODULE_SNIPPETS = cases("""
print(torch.backends.mps.is_available(), torch.backends.mps.is_built(), torch.backends.cudnn.is_available())
print(torch.backends.cudnn.version(), torch.backends.cudnn.enabled, torch.backends.cudnn.deterministic)
torch.backends.cudnn.benchmark = True; print(torch.backends.cudnn.benchmark)
device = 'cuda' if torch.cuda.is_available() else 'mps' if torch.backends.mps.is_available() else 'cpu'; device
torch.ones(2, 3).max(1).shape
print(hasattr(torch, 'no_such_function'), getattr(torch, 'no_such_function', 'absent'))
""")


@pytest.mark.parametrize("code", MODULE_SNIPPETS)
def test_modules_as_pytorch(code):
    _same(code)


def test_missing_names_say_course_lib_is_a_subset():
    import course_lib
    for module, name, torch_name in [(course_lib, "fft", "torch.fft"),
                                     (course_lib.nn, "Transformer", "torch.nn.Transformer")]:
        with pytest.raises(AttributeError) as info:
            getattr(module, name)
        assert str(info.value) == (
            f"module '{module.__name__}' has no attribute '{name}'. Note: course_lib implements only the part of "
            f"PyTorch this course uses, so {torch_name} may exist in real PyTorch although course_lib lacks it.")
    with pytest.raises(AttributeError, match=r"^module 'course_lib' has no attribute '__wrapped__'$"):
        getattr(course_lib, "__wrapped__")  # noqa: B009
    with pytest.raises(ImportError):
        from course_lib import no_such_name  # noqa: F401


SOFTMAX_SNIPPETS = cases("""
x = torch.tensor([[1., 2, 3], [1, 1, 1]]).requires_grad_(); y = torch.softmax(x, 1); print(y, y.grad_fn.name())
x = torch.tensor([[1., 2, 3], [1, 1, 1]]).requires_grad_(); (x.softmax(1) * torch.arange(3.)).sum().backward(); x.grad
x = torch.tensor([[1., 2, 3], [1, 1, 1]]).requires_grad_(); z = x.log_softmax(dim=-1); print(z, z.grad_fn.name())
# (PyTorch's backward kernel uses a faster, less exact exp: its gradients differ in the last bits)
x = torch.tensor([[1., 2, 3], [1, 1, 1]]).requires_grad_(); (x.log_softmax(1) * torch.arange(3.)).sum().backward()
x = torch.tensor([[1., 2, 3], [1, 1, 1]]).requires_grad_(); (x.log_softmax(0) * torch.arange(3.)).sum().backward()
print(torch.tensor([[1., 2, 3], [1, 1, 1]]).log_softmax(0), torch.tensor([[1., 5, 3], [-1, 1, 7]]).log_softmax(1))
x = torch.tensor([[1., 2., 3.], [1., 1., 1.]]); print(torch.nn.functional.softmax(x, dim=0))
torch.nn.functional.softmax(torch.tensor([[1., 2., 3.], [1., 1., 1.]]))
torch.nn.functional.log_softmax(torch.ones(3))
torch.nn.functional.softmax(torch.ones(2, 2, 2)).shape
torch.softmax(torch.ones(2, 3))
torch.ones(2, 3).softmax()
torch.softmax(torch.tensor([1, 2]), 0)
torch.softmax(torch.tensor([[1, 2]]), 0)
torch.log_softmax(torch.tensor([[1, 2]]), 0)
torch.log_softmax(torch.tensor([[1, 2]]), 1)
torch.softmax(torch.tensor([True]), 0)
torch.softmax(torch.tensor([1, 2]), 0, dtype=torch.float64)
torch.softmax(torch.ones(2, 3), 2)
torch.softmax([1.], 0)
torch.softmax(torch.ones(2), 0.5)
torch.softmax(torch.ones(2), dim=None)
print(torch.softmax(torch.tensor(2.), 0), torch.log_softmax(torch.tensor(2.), 0))
a = torch.tensor(2., requires_grad=True); torch.softmax(a, 0).backward(); a.grad
torch.softmax(torch.tensor([[1., 2., 3.]]).half(), 1)
torch.softmax(torch.tensor([[1., 2., 3.]], requires_grad=True), dim=1, dtype=torch.float16)
torch.nn.functional.softmax(torch.ones(2, 3), 1, dtype=torch.int64)
torch.softmax(torch.zeros(0, 3), 1)
torch.ones(2, 3).softmax(axis=1)
print(torch.softmax(torch.tensor([1000., 0., -1000.]), 0), torch.log_softmax(torch.tensor([1000., 0., -1000.]), 0))
torch.softmax(torch.tensor([float('-inf'), float('-inf')]), 0)
torch.softmax(torch.tensor([1., 2.], requires_grad=True), 0, dtype=torch.float64).grad_fn.next_functions[0][0].name()
""")


@pytest.mark.parametrize("code", SOFTMAX_SNIPPETS)
def test_softmax_as_pytorch(code):
    if code.endswith(".backward()"):
        code += "; print(x.grad.mul(1000).round().div(1000))"
    _same(code)


def test_functional_all_lists_its_functions():
    """course_lib.nn.functional.__all__ names what it exports (PyTorch's module has no __all__)."""
    import course_lib.nn.functional as F
    assert {"linear", "relu", "mse_loss", "softmax", "log_softmax", "cross_entropy"} <= set(F.__all__)
    assert all(callable(getattr(F, name)) for name in F.__all__)
    with pytest.raises(AttributeError, match=r"^module 'course_lib.nn.functional' has no attribute 'conv2d'. "
                                             r"Note: .*torch.nn.functional.conv2d may exist"):
        getattr(F, "conv2d")  # noqa: B009


REPEAT_SNIPPETS = cases("""
x = torch.tensor([[1., 2], [3, 4]], requires_grad=True); y = x.repeat(2, 1, 3); print(y.shape, y)
x = torch.tensor([[1., 2], [3, 4]], requires_grad=True); (x.repeat(2, 1, 3) * torch.arange(6.)).sum().backward(); x.grad
print(torch.tensor([1, 2, 3]).repeat(2, 2), torch.tensor([1, 2]).repeat(torch.Size([2, 2])), torch.tensor(3).repeat(2))
x = torch.ones(2, 2); print(x.repeat((2, 2)).shape, x.repeat([2, 1]).shape, x.repeat(repeats=(1, 2)).shape)
torch.ones(2, 2, requires_grad=True).repeat(0, 2)
torch.ones(2, 2).repeat(2)
torch.ones(2, 2).repeat()
torch.ones(2, 2).repeat(-1, 2)
torch.ones(2, 2).repeat(-1, -3)
torch.ones(2, 2).repeat(2, 2, dim=1)
a = torch.tensor(2., requires_grad=True); a.repeat(3).sum().backward(); a.grad
x = torch.tensor([[1., 2], [3, 4]], requires_grad=True); y = torch.tile(x, (2,)); print(y, y.grad_fn.name())
x = torch.tensor([[1., 2], [3, 4]]).requires_grad_(); (x.tile((1, 3)) * torch.arange(6.)).sum().backward(); x.grad
x = torch.ones(2, 2); print(x.tile(2, 1, 1).shape, x.tile([2]).shape, x.tile(dims=(2,)).shape)
print(torch.tile(torch.ones(2, 2), dims=[1, 2]).shape)
print(torch.tile(torch.tensor(3.), (2,)), torch.tile(torch.arange(3), (2, 2)))
torch.ones(2, 2).tile()
torch.tile(torch.ones(2, 2))
torch.ones(2, 2).tile(-1)
torch.tile(torch.ones(2, 2), 2)
""")


@pytest.mark.parametrize("code", REPEAT_SNIPPETS)
def test_repeat_as_pytorch(code):
    _same(code)


SORT_SNIPPETS = cases("""
x = torch.tensor([[3., 1, 2, 1]], requires_grad=True); r = x.sort(descending=True); print(r, r.values.grad_fn.name())
x = torch.tensor([[3., 1, 2, 1]], requires_grad=True); (x.sort(1, True)[0] * torch.arange(4.)).sum().backward(); x.grad
x = torch.tensor([[3., 1, 2, 1]], requires_grad=True); t = x.topk(2); print(t); (t.values * 5).sum().backward(); x.grad
v, i = torch.sort(torch.tensor([5, 3, 9])); print(v, i)
torch.tensor([[3., 1, 2, 1]]).topk(5)
torch.tensor([[3., 1, 2, 1]]).topk(-1)
torch.topk(torch.tensor([[3., 1, 2, 1]]), 2, dim=0)
torch.sort(torch.tensor([[3., 1, 2, 1]]), dim=2)
torch.topk(torch.tensor([3., 1]), k=2.0)
torch.sort([1, 2])
x = torch.tensor([[3., 1, 2, 1]]); print(torch.argsort(x, descending=True), x.argsort(stable=True))
torch.tensor([3., 1]).sort(True)
print(torch.tensor([2., float('nan'), 1.]).sort(), torch.tensor([2., float('nan'), 1.]).sort(descending=True))
print(torch.tensor([1, 3, 2]).sort(), torch.tensor([True, False]).sort())
print(torch.tensor(3.).sort(), torch.tensor(3.).topk(1))
print(torch.tensor([[3., 1, 2, 1]], requires_grad=True).topk(0), torch.tensor([[3., 1, 2, 1]]).topk(2, largest=False))
x = torch.tensor([[3., 1, 2, 1]], requires_grad=True); print(torch.sort(x, stable=True, dim=1), torch.sort(x, 1, True))
print(torch.tensor([[3, 1], [0, 5]]).sort(0), torch.tensor([[3, 1], [0, 5]]).argsort(dim=0, descending=True))
print(torch.tensor([4., 1, 4, 2]).sort(descending=True), type(torch.tensor([1.]).sort()).__name__)
a = torch.tensor(2., requires_grad=True); a.sort().values.backward(); a.grad
""")


@pytest.mark.parametrize("code", SORT_SNIPPETS)
def test_sort_as_pytorch(code):
    _same(code)


SMALL_SNIPPETS = cases("""
# number % tensor has no derivative in PyTorch: a NotImplemented node that raises in backward
x = torch.tensor([1.5, 2.5], requires_grad=True); y = 2 % x; print(y, y.grad_fn.name(), len(y.grad_fn.next_functions))
x = torch.tensor([1.5, 2.5], requires_grad=True); torch.remainder(2, x).sum().backward()
x = torch.tensor([1.5, 2.5], requires_grad=True); (2 % x).sum().backward()
x = torch.tensor([1.5, 2.5], requires_grad=True); print((x // 2).grad_fn.name(), (2 // x).grad_fn.name())
print(2 % torch.tensor([3, 4]), 2.5 % torch.tensor([3, 4]), 2 % torch.tensor([3., -4.]), -7 % torch.tensor([3, 4]))
x = torch.tensor([1.5, 2.5], requires_grad=True); y = torch.remainder(2, x.detach()); print(y, y.requires_grad)
x = torch.tensor([1.5, 2.5], requires_grad=True); (x % 2).sum().backward(); x.grad
# requires_grad takes a bool only
a = torch.ones(2); a.requires_grad = 1
a = torch.ones(2, requires_grad=True); a.requires_grad = 0
a = torch.ones(2); a.requires_grad = None
b = torch.ones(2, requires_grad=True) * 2; b.requires_grad = 1
torch.ones(2).requires_grad_(1)
torch.ones(2).requires_grad_(None)
a = torch.ones(2); a.requires_grad = True; a.requires_grad_(False); print(a.requires_grad)
# .H is for matrices; to(int) means an accelerator
torch.ones(3).H
torch.ones(2, 3, 4).H
torch.tensor(1.).H
print(torch.arange(6.).view(2, 3).H, torch.ones(2, 3, requires_grad=True).H.grad_fn.name())
torch.ones(2).to(5)
torch.ones(2).to(device=0)
torch.ones(2).to(0, torch.float64)
""")


@pytest.mark.parametrize("code", SMALL_SNIPPETS)
def test_small_mismatches_as_pytorch(code):
    _same(code)


@pytest.mark.parametrize("engine", ["torch", "course_lib"])
def test_float_of_a_tensor_requiring_grad_warns_once(engine):
    """``float(t)`` (and ``complex(t)``) of a tensor requiring grad warns once per session, as PyTorch does;
    ``int(t)``, ``t.item()`` and formatting do not warn.  Run in a fresh interpreter for each engine."""
    import subprocess
    import sys
    if engine == "torch":
        pytest.importorskip("torch")
    code = f"""
import warnings
import {engine} as torch
x = torch.tensor(2.5, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    values = [int(x), x.item(), f"{{x:.1f}}", float(x * 2), float(x), complex(x)]
print(values)
print([str(w.message) for w in caught])
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "[2, 2.5, '2.5', 5.0, 2.5, (2.5+0j)]",
        "['Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\\nConsider "
        "using tensor.detach() first. (Triggered internally at "
        "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)']"]


TRIANGLE_SNIPPETS = cases("""
x = torch.arange(9.).view(3, 3).requires_grad_(); y = x.tril(); print(y, y.grad_fn.name())
x = torch.arange(9.).view(3, 3).requires_grad_(); (torch.triu(x, 1) * torch.arange(3.)).sum().backward(); x.grad
x = torch.arange(9.).view(3, 3); print(torch.triu(x, 1), torch.tril(x, diagonal=-1), torch.ones(2, 3, 4).triu().shape)
print(torch.tril(torch.ones(2, 3, dtype=torch.int64)), torch.triu(torch.ones(2, 2, dtype=torch.bool), 1))
print(torch.tril(torch.ones(2, 5), 2), torch.triu(torch.ones(4, 2), -1))
torch.tril(torch.ones(3))
torch.triu(torch.tensor(1.))
torch.tril(torch.ones(3, 3), 1.5)
torch.tril([1])
""")


@pytest.mark.parametrize("code", TRIANGLE_SNIPPETS)
def test_tril_triu_as_pytorch(code):
    _same(code)

