"""What a tensor tells about itself and how it converts: shape/size/dim/numel, stride/offset/contiguity,
``item``/``tolist``/``numpy`` (which shares memory), Python's number protocol, ``len``/iteration,
``torch.Size``, devices, compared with PyTorch."""

import pytest
from torch_compare import assert_same, cases

import course_lib as torch

CASES = r"""
m = torch.zeros(2, 3, 4); print(m.shape, m.size(), m.size(1), m.size(-1), m.dim(), m.ndim, m.numel(), len(m))
m = torch.zeros(2, 3, 4); print(m.ndimension(), m.nelement(), torch.numel(m), m.shape.numel())
torch.zeros(2, 3).size(2)
torch.zeros(2, 3).size(-3)
torch.zeros(2, 3).size(1.5)
torch.zeros(2, 3).size("a")
torch.zeros(2, 3).stride(2)
torch.zeros(2, 3).stride(-3)
torch.zeros(2, 3).stride(), torch.zeros(2, 3).stride(0), torch.zeros(2, 3).stride(-1)
torch.tensor(5).stride(), torch.tensor(5).size(), torch.tensor(5).dim(), torch.tensor(5).numel()
torch.tensor(5).size(0)
torch.tensor(5).stride(-1)
torch.zeros(2, 3).storage_offset(), torch.zeros(2, 3)[1].storage_offset(), torch.zeros(2, 3)[1, 2:].storage_offset()
torch.zeros(2, 3).is_contiguous(), torch.zeros(2, 3).t().is_contiguous(), torch.zeros(2, 3)[:, ::2].is_contiguous()
torch.zeros(2, 1, 3).transpose(0, 1).is_contiguous(), torch.zeros(0, 3).t().is_contiguous()
t = torch.zeros(2, 3); print(t.data_ptr() == t[0].data_ptr(), t[1].data_ptr() - t.data_ptr())
t = torch.zeros(2, 3); print(t[:, 1].data_ptr() - t.data_ptr())
t = torch.zeros(4, dtype=torch.int16); print(t[2:].data_ptr() - t.data_ptr())
torch.zeros(0).data_ptr(), torch.zeros(4, 3)[4:].data_ptr() == 0
t = torch.zeros(2, 3); print(t.untyped_storage().data_ptr() == t.data_ptr(), t.untyped_storage().nbytes())
t = torch.zeros(2, 3); print(t[1:].untyped_storage().data_ptr() == t.data_ptr())
torch.zeros(2).device, torch.zeros(2).is_cuda, torch.zeros(2).get_device(), torch.zeros(2).is_cpu
torch.zeros(2).layout, torch.zeros(2).is_sparse, torch.zeros(2).is_quantized, torch.zeros(2).is_meta
type(torch.zeros(2)), isinstance(torch.zeros(2), torch.Tensor), torch.is_tensor(torch.zeros(2)), torch.is_tensor([1])
s = torch.zeros(2, 5).shape; print(s == (2, 5), s[0], list(s), tuple(s), isinstance(s, tuple), s[1:], s[-1])
torch.Size([]), torch.Size([2]), torch.Size((2, 3)), str(torch.Size([2, 3])), repr(torch.Size([2]))
torch.zeros(2, 3).shape + (4,), (4,) + torch.zeros(2, 3).shape, torch.zeros(2, 3).shape * 2, 2 * torch.Size([1])
torch.Size([2, 3])[::-1], torch.Size([2, 3]).numel(), torch.Size([2, 3]).count(2), torch.Size([2, 3]).index(3)
torch.Size([2, 3]) == (2, 3), torch.Size([2, 3]) == [2, 3], torch.Size([2, 3]) != (2, 3)
hash(torch.Size([2])) == hash((2,)),
torch.Size([2, 3]) + [4]
torch.Size([2.5])
torch.Size(["a"])
torch.Size([torch.tensor(2)]), torch.Size([np.int64(2)]), torch.Size([True]), torch.Size([-1])
torch.Size([torch.tensor(2.0)])
torch.Size(3)
type(torch.zeros(2, 3).shape[0]), type(torch.Size([2]))
v = torch.tensor(3.5).item(); print(v, type(v).__name__)
print(torch.tensor([[[12]]]).item(), torch.tensor([7.25]).item(), torch.tensor(True).item())
i = torch.tensor([4]).item(); print(i, type(i).__name__)
t = torch.tensor(0.1); print(t.item())
t = torch.tensor(0.1, dtype=torch.float16); print(t.item())
t = torch.tensor([[1]], dtype=torch.uint8); print(t.item(), type(t.item()))
t = torch.tensor([True]); print(t.item(), type(t.item()))
torch.tensor([1.0, 2.0, 3.0]).item()
torch.zeros(0).item()
torch.tensor([]).item()
torch.tensor([1, 2]).tolist(), type(torch.tensor([1, 2]).tolist()[0])
torch.tensor([1.5, 2]).tolist(), torch.tensor([0.1, 0.2]).tolist()
torch.tensor([0.1, 0.2], dtype=torch.float16).tolist(),
torch.tensor([True]).tolist(), torch.tensor(2.5).tolist(), torch.tensor(3).tolist(), torch.zeros(2, 0).tolist()
torch.tensor([[1, 2], [3, 4]]).tolist(), torch.tensor([[1, 2], [3, 4]]).t().tolist()
int(torch.tensor([7.9])), int(torch.tensor([-7.9])), float(torch.tensor(2)), bool(torch.tensor(0.0))
bool(torch.tensor([3])),
int(torch.tensor([1, 2]))
float(torch.tensor([1.0, 2.0]))
float(torch.tensor([]))
int(torch.tensor([]))
bool(torch.tensor([1, 2]))
bool(torch.tensor([]))
complex(torch.tensor(2.0))
[1, 2, 3][torch.tensor(1)]
[1, 2, 3][torch.tensor(1.0)]
[1, 2, 3][torch.tensor([1])]
[1, 2, 3][torch.tensor([1, 2])]
range(10)[torch.tensor(3)]
"{:.2f}".format(torch.tensor(2.5)), f"{torch.tensor(3)}", f"{torch.tensor([1, 2])}"
"{:.2f}".format(torch.tensor([2.5]))
"{:>10}".format(torch.tensor([1, 2]))
len(torch.zeros(3, 2)), len(torch.zeros(0))
len(torch.tensor(3))
list(torch.tensor([1, 2]))
list(torch.tensor(1))
[t.shape for t in torch.zeros(2, 3)]
for r in torch.arange(4).reshape(2, 2): print(r, r.storage_offset())
2 in torch.tensor([1, 2]), 5 in torch.tensor([1, 2]), torch.tensor([1, 2]) in torch.tensor([1, 2])
2.0 in torch.tensor([2]),
"a" in torch.tensor([1, 2])
t = torch.ones(2); n = t.numpy(); print(type(n), n.dtype, n)
t = torch.ones(2, dtype=torch.float16); print(t.numpy().dtype)
t = torch.ones(2, dtype=torch.bool); print(t.numpy())
t = torch.ones(2, 3).t(); print(t.numpy().strides, t.numpy().flags["C_CONTIGUOUS"])
t = torch.ones(2, requires_grad=True); print(t.detach().numpy())
t = torch.ones(2, requires_grad=True); print(t.numpy(force=True))
torch.ones(2, requires_grad=True).numpy()
t = torch.ones(2); print(np.asarray(t), np.asarray(t).dtype)
t = torch.tensor(3.5); print(t.numpy(), type(t.numpy()))
x = torch.arange(6.0); y = x.numpy(); y[0] = 10; print(x)
x = torch.arange(6.0); y = x.numpy(); x.add_(1); print(y)
x = torch.arange(6.0); y = x.numpy(); x = x + 1; print(y)
x = torch.arange(6.0).reshape(2, 3); y = x[:, 1].numpy(); y[:] = -1; print(x)
a = np.arange(3.0); t = torch.from_numpy(a); a += 1; print(t)
a = np.arange(3.0); t = torch.as_tensor(a); a += 1; print(t)
a = np.arange(3.0); t = torch.as_tensor(a, dtype=torch.float32); a += 1; print(t)
a = np.arange(3.0); t = torch.tensor(a); a += 1; print(t)
a = np.arange(3.0); t = torch.from_numpy(a); print(t.data_ptr() == a.ctypes.data)
a = np.arange(6.0).reshape(2, 3); t = torch.from_numpy(a.T); print(t.stride(), t.is_contiguous())
a = np.arange(6.0); t = torch.from_numpy(a[::2]); print(t.stride(), t)
torch.from_numpy(np.arange(6).reshape(2, 3)[:, ::-1])
torch.from_numpy(np.array(5)), torch.from_numpy(np.array(5)).shape
torch.from_numpy(np.array([1, 2], dtype=np.int16)).dtype, torch.from_numpy(np.array([True])).dtype
torch.from_numpy(np.array(["a"]))
torch.from_numpy([1, 2])
t = torch.ones(2); u = torch.tensor(t)
t = torch.ones(2); u = torch.tensor(t); u += 1; print(t)
t = torch.ones(2); u = torch.as_tensor(t); u += 1; print(t)
t = torch.ones(2); print(t.to(torch.float32) is t, t.float() is t, t.to(torch.float64) is t)
t = torch.ones(2); print(t.to("cpu") is t, t.cpu() is t, t.to(t) is t, t.contiguous() is t, t.clone() is t)
t = torch.ones(2); print(t.to(device="cuda"))
t = torch.ones(2); print(t.cuda())
t = torch.ones(2); print(t.to("cuda:0"))
torch.tensor([1.7, -1.7, 300, -300]).to(torch.int8)
torch.tensor([1.7, -1.7, 3e10]).to(torch.int32)
torch.tensor([float("nan"), 0.0, 2]).bool()
torch.tensor([300, -1]).byte(), torch.tensor([300, -1]).char()
torch.ones(2, 3).t().float().stride(), torch.ones(2, 3).t().double().stride(), torch.ones(2, 3)[:, ::2].int().stride()
torch.ones(2, 3).t().contiguous().stride(), torch.ones(2, 3).t().clone().stride()
torch.ones(2, 3).t().clone(memory_format=torch.contiguous_format).stride()
torch.ones(2, 1).expand(2, 3).clone().stride(), torch.ones(2, 3).expand(4, 2, 3).clone().stride()
torch.ones(2, 3, 4).permute(2, 0, 1)[::2].clone().stride()
x = torch.ones(2, 3); print(x.clone().data_ptr() != x.data_ptr(), x.detach().data_ptr() == x.data_ptr())
w = torch.tensor([1.0, 2.0], requires_grad=True); d = w.data; d.mul_(3); print(w, d.requires_grad, d.is_leaf)
x = torch.arange(6.0); y = x.detach(); y += 1; print(x)
x = torch.arange(6.0); y = x.clone(); y += 1; print(x)
# torch.Size and torch.dtype: PyTorch's AttributeError; a Size pickles
torch.Size([2]).shape
torch.float32.foo
s = torch.Size([2, 3]); import pickle; t = pickle.loads(pickle.dumps(s)); print(t, type(t), t == s)
"""


@pytest.mark.parametrize("code", cases(CASES))
def test_same_as_pytorch(code):
    assert_same(code)


def test_numpy_shares_memory_both_ways():
    t = torch.zeros(3)
    a = t.numpy()
    a[1] = 5.0
    assert t.tolist() == [0.0, 5.0, 0.0]
    t.mul_(2)
    assert a.tolist() == [0.0, 10.0, 0.0]
    assert a.ctypes.data == t.data_ptr()
