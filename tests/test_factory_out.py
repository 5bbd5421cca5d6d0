"""The factories' ``out=`` argument (``torch.zeros(2, 3, out=t)``), the legacy constructors' ``device=`` and the
other details chapters 01-03 and 10 show in executed cells (``set_printoptions(sci_mode=False)``,
``eye(2, 3, 4)``, an integer tensor's ``div_``, ``Tensor.gpu``), compared with PyTorch: printed values, the
object returned, version counters, errors and warnings."""

import pytest
from torch_compare import assert_same, cases

import course_lib as torch

OUT_CASES = r"""
# the result is out itself, written in place (version counter bumped once), in out's dtype
t = torch.empty(2, 3); r = torch.zeros(2, 3, out=t); print(r is t, t._version, t)
t = torch.empty(2, 3, dtype=torch.int64); print(torch.ones(2, 3, out=t), t.dtype)
t = torch.empty(2, 3, dtype=torch.float64); print(torch.full((2, 3), 7, out=t))
t = torch.zeros(1, dtype=torch.uint8); print(torch.full((2,), 0.5, out=t), torch.full((2,), 2.5, out=t))
t = torch.zeros(2, 3, dtype=torch.bool); print(torch.eye(2, 3, out=t), t._version)
t = torch.zeros(2, 3, dtype=torch.int64); print(torch.eye(2, out=t), t.shape, t.stride())
t = torch.zeros(0); print(torch.arange(5, out=t), t.dtype)
t = torch.zeros(0, dtype=torch.int64); print(torch.arange(0, 5, 1.5, out=t))
t = torch.zeros(0, dtype=torch.float64); print(torch.arange(0, 1, 0.25, out=t))
t = torch.zeros(0, dtype=torch.uint8); print(torch.arange(0, 1, 0.25, out=t))
t = torch.zeros(0, dtype=torch.int64); print(torch.linspace(0, 10, 5, out=t))
t = torch.zeros(4, dtype=torch.float64); print(torch.linspace(0, 1, 5, out=t))
# shapes: out is resized to the result's shape (no warning), arange warns, arange/linspace keep a shape of
# the right size
t = torch.zeros(5); print(torch.zeros(2, 3, out=t).shape, t.stride())
t = torch.zeros(2, 3); torch.rand(3, 2, out=t); print(t.shape, t.stride())
t = torch.zeros(2, 3); print(torch.arange(5, out=t))
t = torch.zeros(5, 1); print(torch.arange(5, out=t))
t = torch.zeros(5, 1); print(torch.linspace(0, 1, 5, out=t))
t = torch.zeros(2, 3); print(torch.linspace(0, 1, 5, out=t).shape)
t = torch.zeros(5, 1, dtype=torch.int64); torch.manual_seed(0); print(torch.randperm(5, out=t))
# a non-contiguous out of the right shape is written through its strides; a view writes into its base
b = torch.zeros(2, 4); torch.ones(2, 2, out=b[:, 1:3]); print(b)
t = torch.zeros(3, 2).t(); torch.ones(2, 3, out=t); print(t, t.stride())
t = torch.zeros(3, 2).t(); torch.ones(6, out=t); print(t, t.stride())
base = torch.zeros(4, 3); torch.arange(5, out=base[1:3]); print(base)
base = torch.zeros(10); v = base[2:4]; torch.zeros(3, out=v); print(base, v.storage_offset(), v.stride())
t = torch.zeros(2); a = t[:]; torch.ones(2, out=t); print(a, t._version, a._version)
# empty writes nothing and counts a version only when it resizes
t = torch.ones(2, 3); print(torch.empty(2, 3, out=t), t._version)
t = torch.ones(5); torch.empty(2, 3, out=t); print(t.shape, t._version)
# random factories draw what the dtype= form draws
t = torch.empty(0, dtype=torch.float64); torch.manual_seed(0); print(torch.rand(2, 3, out=t))
t = torch.empty(0, dtype=torch.float64); torch.manual_seed(0); print(torch.randn(2, 3, out=t))
t = torch.empty(0); torch.manual_seed(0); print(torch.randint(0, 10, (2, 3), out=t))
t = torch.empty(0, dtype=torch.int32); torch.manual_seed(0); print(torch.randint(5, (4,), out=t))
t = torch.zeros(2); torch.manual_seed(0); print(torch.randperm(3, out=t))
t = torch.empty(0); torch.manual_seed(0); print(torch.normal(2.0, 3.0, size=(3,), out=t))
t = torch.empty(0); torch.manual_seed(0); print(torch.rand(2, generator=None, out=t))
# requires_grad: out's flag becomes the requires_grad given (False by default)
t = torch.zeros(2, 3); r = torch.zeros(2, 3, out=t, requires_grad=True); print(r.requires_grad, t.is_leaf, t.grad_fn)
torch.zeros(2, out=torch.empty(2, dtype=torch.int64), requires_grad=True)
with torch.no_grad(): t = torch.zeros(2, requires_grad=True); print(torch.full((3,), 1.0, out=t), t.requires_grad)
with torch.no_grad(): t = torch.zeros(2, requires_grad=True); print(torch.rand(2, out=t).requires_grad)
# errors: out that requires grad, dtype or device other than out's, out not a tensor, bad dtypes for the kernel
torch.zeros(2, 3, out=torch.zeros(2, 3, requires_grad=True))
torch.ones(2, out=torch.zeros(4, requires_grad=True)[:2])
torch.full((2,), 1.0, out=torch.zeros(2, requires_grad=True))
torch.eye(2, out=torch.zeros(2, requires_grad=True))
torch.arange(3, out=torch.zeros(2, requires_grad=True))
torch.linspace(0, 1, 3, out=torch.zeros(2, requires_grad=True))
torch.rand(2, out=torch.zeros(2, requires_grad=True))
torch.randint(0, 3, (2,), out=torch.zeros(2, requires_grad=True))
torch.randperm(2, out=torch.zeros(2, requires_grad=True))
torch.normal(0.0, 1.0, size=(2,), out=torch.zeros(2, requires_grad=True))
torch.empty(2, 3, out=torch.zeros(2, 3, requires_grad=True))
torch.randn(2, out=torch.zeros(2, requires_grad=True))
with torch.no_grad(): torch.empty(2, out=torch.zeros(2, requires_grad=True))
torch.zeros(2, 3, out=torch.empty(2, 3), dtype=torch.int64)
torch.ones(2, out=torch.empty(2, dtype=torch.int64), dtype=torch.float32)
torch.empty(2, out=torch.empty(2), dtype=torch.float64)
torch.full((2,), 7, out=torch.empty(2), dtype=torch.int64)
torch.eye(2, out=torch.empty(2), dtype=torch.bool)
torch.arange(3, out=torch.empty(2), dtype=torch.int64)
torch.linspace(0, 1, 3, out=torch.empty(2), dtype=torch.float64)
torch.rand(2, out=torch.zeros(2), dtype=torch.float64)
torch.zeros(2, out=torch.empty(2), device="cuda")
torch.zeros(2, out=torch.empty(2), device="cpu")
torch.zeros(2, out=torch.empty(2), dtype=torch.float32, device=torch.device("cpu"))
torch.zeros(2, 3, out=[1, 2])
torch.ones(2, out=3)
torch.empty(2, out="t")
torch.full((2,), 1, out=3)
torch.eye(2, 3, out=[1])
torch.arange(0, 1, 0.25, out=[1])
torch.linspace(0, 1, 5, out=[1])
torch.rand(2, out=[1])
torch.randint(3, (2,), out=[1])
torch.randperm(3, out=[1])
torch.full((2,), 300, out=torch.empty(0, dtype=torch.uint8))
torch.arange(5, out=torch.zeros(1, dtype=torch.bool))
torch.linspace(0, 1, 5, out=torch.zeros(1, dtype=torch.bool))
torch.linspace(0, 1, 1, out=torch.zeros(1, dtype=torch.bool))
torch.rand(2, out=torch.zeros(2, dtype=torch.int64))
torch.eye(-1, out=torch.empty(0))
torch.zeros(-1, out=torch.empty(0))
torch.ones(2, -3, out=torch.empty(0))
torch.full((-1,), 1.0, out=torch.empty(3))
torch.empty(-1, out=torch.empty(0))
torch.rand(-1, out=torch.empty(0))
torch.randn(-1, out=torch.empty(0))
torch.randint(0, 3, (-1,), out=torch.empty(0))
torch.randint(3, 1, (2,), out=torch.empty(0))
torch.randperm(-1, out=torch.empty(0))
torch.normal(0.0, 1.0, size=(-1,), out=torch.empty(0))
torch.zeros(-1, out=torch.empty(0), dtype=torch.int64)
torch.linspace(0, 1, -1, out=torch.empty(0))
torch.arange(0, 1, -1, out=torch.empty(0))
torch.ones(2, out=None)
torch.tensor([1], out=torch.empty(1))
# linspace and logspace have no bool kernel (0 or 1 values need none)
torch.linspace(0, 1, 5, dtype=torch.bool)
torch.linspace(0, 1, 1, dtype=torch.bool)
torch.linspace(0, 1, 0, dtype=torch.bool)
torch.logspace(0, 1, 5, dtype=torch.bool)
torch.logspace(0, 1, 1, dtype=torch.bool)
"""

LEGACY_DEVICE_CASES = r"""
torch.Tensor([1, 2], device="cpu")
torch.Tensor([1, 2], device=torch.device("cpu"))
torch.Tensor(2, 3, device="cpu").shape
torch.Tensor(device="cpu")
torch.Tensor([1, 2], device=None)
torch.LongTensor([1, 2], device="cpu")
torch.Tensor(np.array([1.0, 2.0], dtype=np.float32), device="cpu")
torch.Tensor([1, 2], device="cuda")
torch.Tensor([1, 2], device="cuda:1")
torch.Tensor(2, 3, device="cuda")
torch.Tensor(device="cuda")
torch.Tensor([1, 2], device="meta")
torch.LongTensor([1, 2], device="cuda")
torch.Tensor(np.array([1.0, 2.0], dtype=np.float32), device="cuda")
torch.Tensor([1, 2], device="gpu")
torch.Tensor([1, 2], device=0)
torch.Tensor(torch.ones(2), device="cpu")
torch.Tensor(torch.ones(2), device=None)
torch.cuda.FloatTensor([1, 2], device="cpu")
"""

# the cells chapters 01-03 and 10 run for these claims (they print what PyTorch 2.13 prints)
CHAPTER_CASES = r"""
x = torch.linspace(3, 10000000, 10); torch.set_printoptions(sci_mode=False); print(x)
x = torch.linspace(3, 10000000, 10); torch.set_printoptions(sci_mode=False); torch.set_printoptions(sci_mode=None); x
torch.set_printoptions(sci_mode=False); print(torch.tensor([1e-5, 1.0, 12345.678]))
torch.set_printoptions(sci_mode=False); torch.set_printoptions(profile="default"); torch.tensor([1e-5, 1.0])
torch.eye(2, 3, 4)
torch.eye(2, 3, out=torch.empty(0), dtype=torch.float32)
i = torch.tensor([1, 2, 3]); i.div_(3)
i = torch.tensor([1, 2, 3]); i.div_(2)
i = torch.tensor([1, 2, 3]); i.div_(3, rounding_mode="floor"); print(i, i._version)
i = torch.tensor([1, 2, 3]); i /= 3
i = torch.tensor([1, 2, 3]); print(i / 3, i.float().div_(3))
i = torch.tensor([1, 2, 3]); i.mul_(1.5)
torch.tensor([1.0]).gpu()
torch.ones(2).gpu
hasattr(torch.Tensor, "gpu"), hasattr(torch.Tensor, "cuda"), hasattr(torch.Tensor, "cpu")
"""


@pytest.mark.parametrize("code", cases(OUT_CASES))
def test_factory_out_same_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("code", cases(LEGACY_DEVICE_CASES))
def test_legacy_constructor_device_same_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("code", cases(CHAPTER_CASES))
def test_chapter_claims_same_as_pytorch(code):
    assert_same(code)


def test_out_too_small_for_its_storage_gets_new_memory():
    """Where PyTorch grows a storage that other tensors share, course_lib gives ``out`` new memory of its own
    (the one place where ``out=`` differs; see ``ops/creation.py``, ``_resize``): the base keeps its values."""
    base = torch.ones(10)
    tail = base[8:]
    result = torch.zeros(5, out=tail)
    assert result is tail and tail.tolist() == [0.0] * 5
    assert tail.storage_offset() == 0 and tail.untyped_storage().data_ptr() != base.untyped_storage().data_ptr()
    assert base.tolist() == [1.0] * 10


def test_out_on_the_simulated_gpu_stays_there():
    with torch.cuda.simulate():
        t = torch.empty(0, device="cuda")
        torch.manual_seed(0)
        r = torch.rand(2, 3, out=t)
        assert r is t and t.device.type == "cuda" and t.shape == (2, 3)
        torch.manual_seed(0)
        assert torch.equal(t.cpu(), torch.rand(2, 3))
        with pytest.warns(UserWarning, match=r"^The number of elements in the out tensor of shape \[2, 3\] is 6 "):
            torch.arange(4, out=t)
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0] and t.device.type == "cuda"
        with pytest.raises(RuntimeError, match=r"^device type cpu does not match device type of out parameter "
                                               r"\(cuda\)$"):
            torch.zeros(2, out=t, device="cpu")
        assert torch.cuda.FloatTensor([1, 2], device="cuda").device.type == "cuda"
        with pytest.raises(RuntimeError, match="^legacy constructor expects device type: cuda but device type: "
                                               "cpu was passed$"):
            torch.cuda.FloatTensor([1, 2], device="cpu")
        with pytest.raises(RuntimeError, match="^legacy constructor expects device type: cpu but device type: "
                                               "cuda was passed$"):
            torch.Tensor([1, 2], device="cuda")


def test_normal_with_tensor_mean_refuses_out():
    with pytest.raises(NotImplementedError, match="out="):
        torch.normal(torch.zeros(2), 1.0, out=torch.empty(2))
