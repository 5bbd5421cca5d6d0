"""Indexing and assignment as PyTorch does them: ints, slices with steps, ``...``, None, negative
indices, masks, integer tensors and lists; basic indexing gives views (strides, offsets, sharing),
advanced indexing copies (and is laid out as PyTorch lays it out); ``x[...] = value`` with
broadcasting, dtype conversion, overlap rules and PyTorch's errors and warnings."""

import pytest
from torch_compare import assert_same, cases

READ = r"""
torch.arange(12).reshape(3, 4)[1]
torch.arange(12).reshape(3, 4)[1].stride()
torch.arange(12).reshape(3, 4)[1].storage_offset()
torch.arange(12).reshape(3, 4)[:, 1].stride(), torch.arange(12).reshape(3, 4)[:, 1].storage_offset()
torch.arange(12).reshape(3, 4)[::2, 1::2]
torch.arange(12).reshape(3, 4)[::2, 1::2].stride()
torch.arange(12).reshape(3, 4)[::2, 1::2].is_contiguous()
torch.arange(12).reshape(3, 4)[-1]
torch.arange(12).reshape(3, 4)[-1, -2]
torch.arange(12).reshape(3, 4)[5:]
torch.arange(12).reshape(3, 4)[5:].shape, torch.arange(12).reshape(3, 4)[5:].stride()
torch.arange(12).reshape(3, 4)[2:1]
torch.arange(12).reshape(3, 4)[-100:100]
torch.arange(12).reshape(3, 4)[..., 1]
torch.arange(12).reshape(3, 4)[1, ...]
torch.arange(12).reshape(3, 4)[None, 1, None].shape
torch.arange(12).reshape(3, 4)[None, 1, None].stride()
torch.arange(12).reshape(3, 4)[:, None].stride()
torch.arange(12).reshape(3, 4)[..., None].stride()
torch.arange(12).reshape(3, 4)[None].stride()
torch.arange(12).reshape(3, 4)[..., None, ...]
torch.arange(12).reshape(3, 4)[3]
torch.arange(12).reshape(3, 4)[-4]
torch.arange(12).reshape(3, 4)[0, 4]
torch.arange(12).reshape(3, 4)[0, 0, 0]
torch.arange(12).reshape(3, 4)[1.5]
torch.arange(12).reshape(3, 4)["a"]
torch.arange(12).reshape(3, 4)[::0]
torch.arange(12).reshape(3, 4)[::-1]
torch.arange(12).reshape(3, 4)[[0, 2]]
torch.arange(12).reshape(3, 4)[[0, 2]].stride()
torch.arange(12).reshape(3, 4)[[0, 2], [1, 3]]
torch.arange(12).reshape(3, 4)[[0, 2], 1:]
torch.arange(12).reshape(3, 4)[1:, [0, 2]]
torch.arange(12).reshape(3, 4)[:, [0, 2]].stride()
torch.arange(12).reshape(3, 4)[[[0], [2]], [1, 3]]
torch.arange(12).reshape(3, 4)[[0, 3]]
torch.arange(12).reshape(3, 4)[[0, -1]]
torch.arange(12).reshape(3, 4)[:, [4]]
torch.arange(12).reshape(3, 4)[[0.5]]
torch.arange(12).reshape(3, 4)[torch.tensor([0, 2])]
torch.arange(12).reshape(3, 4)[torch.tensor([0.0, 2])]
torch.arange(12).reshape(3, 4)[torch.tensor(1)]
torch.arange(12).reshape(3, 4)[torch.tensor(1)].stride()
torch.arange(12).reshape(3, 4)[torch.tensor(1.0)]
torch.arange(12).reshape(3, 4)[torch.tensor([True, False, True])]
torch.arange(12).reshape(3, 4)[torch.tensor([True, False])]
torch.arange(12).reshape(3, 4)[torch.tensor([[True, False, True, True]] * 3)]
torch.arange(12).reshape(3, 4)[torch.arange(12).reshape(3, 4) > 5]
torch.arange(12).reshape(3, 4)[:, torch.tensor([True, False, True, False])]
torch.arange(12).reshape(3, 4)[[True, False, True]]
torch.arange(12).reshape(3, 4)[True]
torch.arange(12).reshape(3, 4)[False]
torch.arange(12).reshape(3, 4)[None, None]
torch.arange(12).reshape(3, 4)[()]
torch.arange(12).reshape(3, 4)[1][2]
torch.arange(12).reshape(3, 4)[1][2].item()
torch.arange(12).reshape(3, 4)[1, 2].item()
torch.arange(12).reshape(3, 4)[1, 2].storage_offset()
torch.tensor(5)[()]
torch.tensor(5)[None]
torch.tensor(5)[...]
torch.tensor(5)[0]
torch.tensor(5)[:]
torch.tensor(5)[True]
torch.arange(24).reshape(2, 3, 4)[:, [0, 2], 1]
torch.arange(24).reshape(2, 3, 4)[[0, 1], :, [0, 1]]
torch.arange(24).reshape(2, 3, 4)[[0, 1], :, [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[:, [0, 1], [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[0, :, [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[..., [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[[0], ..., [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[None, [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[[0, 1], None].shape
torch.arange(24).reshape(2, 3, 4)[:, None, [0, 1]].shape
torch.arange(24).reshape(2, 3, 4)[[1, 0], [0, 1], [2, 3]]
torch.arange(24).reshape(2, 3, 4)[[1, 0], [0, 1, 2]]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([[1, 0]])].shape
torch.arange(24).reshape(2, 3, 4)[torch.ones(2, 3, dtype=torch.bool)].shape
torch.arange(24).reshape(2, 3, 4)[torch.ones(2, 3, dtype=torch.bool), 1].shape
torch.arange(24).reshape(2, 3, 4)[1, torch.ones(3, 4, dtype=torch.bool)].shape
torch.arange(24).reshape(2, 3, 4)[torch.ones(2, 4, dtype=torch.bool)]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([1, 0], dtype=torch.uint8)]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([1, 0], dtype=torch.int32)].shape
torch.arange(24).reshape(2, 3, 4)[torch.tensor([1, 0], dtype=torch.int8)].shape
torch.arange(5)[torch.tensor([], dtype=torch.int64)]
torch.arange(5)[[]]
torch.arange(5)[torch.tensor([])]
torch.arange(5)[[True, False, True, False, True]]
torch.arange(5)[[1, True]]
torch.arange(5)[(1, 2)]
torch.arange(5)[[1, 2]]
torch.arange(5)[[[1, 2]]]
torch.arange(10).reshape(2, 5)[(0, 1),]
torch.arange(5)[1:3][0].storage_offset()
torch.zeros(2, 0)[1]
torch.zeros(2, 0)[:, 0]
torch.zeros(0, 3)[0]
torch.zeros(0, 3)[:, 1]
torch.zeros(0, 3)[:, 1].stride()
torch.zeros(0, 3)[1:].stride()
torch.zeros(4, 3)[4:].stride()
torch.zeros(4, 3)[4:].storage_offset()
torch.zeros(4, 3)[2:2].storage_offset()
torch.zeros(4, 3)[:, 3:].storage_offset()
torch.zeros(4, 3)[4:].is_contiguous()
torch.zeros(2, 3)[:, ::2].clone().stride()
torch.zeros(2, 3, 4).permute(2, 0, 1)[::2].clone().stride()
torch.zeros(2, 3).t()[[0, 1]].stride()
torch.zeros(2, 3).t()[torch.tensor([True, False, True])].stride()
torch.zeros(2, 3).permute([1, 0]).shape
x = torch.arange(24).reshape(2, 3, 4); m = torch.ones(2, 3, dtype=torch.bool); x[m, 1].shape, x[m, :].shape
x = torch.arange(24).reshape(2, 3, 4); m = torch.ones(2, 3, dtype=torch.bool); x[1, m[0]].shape
x = torch.arange(24).reshape(2, 3, 4); x[[0,1], :, [0,1]].shape, x[:, [0,1], [0, 1]].shape, x[:, [0, 1], 1].shape
x = torch.arange(24).reshape(2, 3, 4); x[[0], 1, [2]], x[[0,1], 1:, [0,1]].shape, x[None, [0,1], :, [0,1]].shape
x = torch.arange(24).reshape(2, 3, 4); m = torch.ones(2, 3, dtype=torch.bool); x[m[0], [0, 1, 2]]
x = torch.arange(24).reshape(2, 3, 4); x[torch.ones(3,4,dtype=torch.bool)[0], 1]
x = torch.arange(24).reshape(2, 3, 4); x[:, [0, 2]].stride(), x[[0, 1]].stride(), x[:, :, [1, 3]].stride()
x = torch.arange(24).reshape(2, 3, 4); x[[0, 1], :, [1, 2]].stride()
x = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1); x[[0, 1]].stride(), x[:, [1, 0]].stride()
x = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1); x[..., [2, 0]].stride(), x[[0, 1], :, [1, 0]].stride()
x = torch.arange(24).reshape(2, 3, 4).transpose(1, 2); x[:, [0, 2]].stride(), x[x > 5].stride()
x = torch.arange(24).reshape(2, 3, 4).transpose(1, 2); x[[[0], [1]], [[1, 2]]].stride()
x = torch.arange(12).reshape(3, 4); print(x[:, [0, 2]].stride(), x.t()[[0, 1]].stride(), x[[[0, 1], [1, 2]]].stride())
x = torch.arange(12).reshape(3, 4); x[torch.tensor([[0, 1], [2, 0]])].stride()
x = torch.arange(12).reshape(3, 4); x[:, torch.tensor([[0, 1], [2, 0]])].stride()
torch.zeros(2, 3, 4)[:, :, [9]]
torch.zeros(2, 3, 4)[[5], :, :]
torch.zeros(2, 3, 4)[:, [1], [9]]
torch.zeros(2, 3, 4)[0, :, [9]]
torch.zeros(2, 3, 4)[[-3]]
torch.zeros(2, 3, 4)[torch.tensor([[0, 5]])]
torch.zeros(2, 3, 4)[0, 5]
torch.zeros(2, 3, 4)[0, :, 5]
torch.zeros(2, 3, 4)[..., 5]
torch.zeros(2, 3, 4)[None, 0, None, 5]
torch.zeros(2, 3, 4)[0, ..., 0, ...].shape
torch.zeros(2, 3, 4)[..., 0, ...].shape
torch.zeros(2, 3, 4)[..., ...].shape
torch.zeros(2, 3, 4)[..., ..., 0].shape
torch.zeros(2, 3, 4)[0, 0, 0, ...].shape
torch.zeros(2, 3, 4)[0, 0, 0, None].shape
torch.zeros(2, 3, 4)[0, 0, 0, 0]
torch.zeros(2, 3, 4)[..., 0, 0, 0, 0]
torch.zeros(2, 3, 4)[0, None, 0, 0, 0]
torch.zeros(2, 3)[[1e30]]
torch.zeros(2, 3)[[0.7, 1.2]]
torch.zeros(2, 3)[np.array([0.7, 1.2])]
torch.zeros(2, 3)[np.array([1, 0], dtype=np.int32)]
torch.zeros(2, 3)[np.array([True, False])]
torch.zeros(2, 3)[np.array([1, 0], dtype=np.uint8)]
torch.zeros(2, 3)[[True, False]]
torch.zeros(2, 3)[[1, True]]
torch.zeros(2, 3)[[[True, False, True], [True, True, True]]]
torch.zeros(2, 3)[(0, 1)]
torch.zeros(2, 3)[[0, slice(None)]]
torch.zeros(2, 3)[[0, None]]
torch.zeros(2, 3)[range(2)]
torch.zeros(2, 3)[np.int64(1)]
torch.zeros(2, 3)[np.bool_(True)]
torch.zeros(2, 3)[1.0]
torch.zeros(2, 3)[None, 1.0]
torch.zeros(2, 3)[{}]
torch.zeros(2, 3)[torch.tensor([1.0])]
torch.zeros(2, 3)[torch.tensor([1], dtype=torch.int16)]
torch.zeros(2, 3)[torch.tensor([1], dtype=torch.int32)]
torch.zeros(2, 3)[torch.tensor(1, dtype=torch.int32)]
torch.zeros(2, 3)[torch.tensor(1, dtype=torch.uint8)]
torch.zeros(2, 3)[torch.tensor(1.0)]
torch.zeros(2, 3)[torch.tensor(True)].shape
torch.zeros(2, 3)[torch.tensor([[0, 1]])].shape
torch.zeros(2, 3)[torch.tensor([True, True]), torch.tensor([0, 2])]
torch.zeros(2, 3)[torch.tensor([True, True, False])]
torch.zeros(2, 3)[:, torch.tensor([True, True])]
torch.zeros(2, 3)[torch.ones(2, 3, 1, dtype=torch.bool)]
torch.zeros(2, 3)[[0, 1], [0, 1], [0, 1]]
torch.zeros(2, 3)[..., [0, 1], [0, 1]]
torch.zeros(2, 3)[0, 0, ...]
torch.zeros(0, 3)[[0]]
torch.zeros(0, 3)[[]]
torch.zeros(2, 0)[:, [0]]
torch.zeros(2, 3)[:5:2, 1:]
torch.zeros(2, 3)[torch.tensor(0):torch.tensor(1)]
torch.zeros(2, 3)[0.5:1]
torch.zeros(2, 3)[:None:None]
torch.arange(12).reshape(3, 4)[[0, 2]][:, [1, 3]]
torch.arange(12).reshape(3, 4).select(0, 5)
torch.arange(12).reshape(3, 4).select(2, 0)
torch.arange(12).reshape(3, 4).select(1, -5)
torch.arange(12).reshape(3, 4).narrow(1, 3, 2)
torch.arange(12).reshape(3, 4).narrow(1, -1, 1)
torch.arange(12).reshape(3, 4).narrow(1, 1, -1)
torch.tensor(5).select(0, 0)
torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([0, 3]))
torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([0, 4]))
torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([-1]))
torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([[0]]))
torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([0.0]))
torch.tensor([[1, 2], [3, 4]]).gather(1, torch.tensor([[0], [1]]))
torch.tensor([1.0, 2]).masked_fill(torch.tensor([True, False]), 9)
torch.tensor([1.0, 2]).masked_select(torch.tensor([True, False]))
torch.tensor([[1, 2], [3, 4]]).nonzero(), torch.nonzero(torch.tensor([0, 1, 1]))
torch.tensor([[1, 2], [3, 4]]).narrow(1, 1, 1), torch.tensor([[1, 2], [3, 4]]).select(1, 0)
x = torch.arange(6); y = x[::2]; print(y.stride(), y.storage_offset(), y.is_contiguous())
x = torch.arange(6); y = x[[0, 2]]; y[0] = 100; print(x)
x = torch.arange(6); y = x[x > 2]; y[0] = 100; print(x)
x = torch.arange(6); y = x[1:4]; y[0] = 100; print(x, y.data_ptr() - x.data_ptr())
x = torch.arange(6); y = x[...]; y[0] = 100; print(x, y is x)
x = torch.arange(6); y = x[:]; print(y is x, y.data_ptr() == x.data_ptr())
"""

WRITE = r"""
x = torch.zeros(5); x[[0, 1]] = torch.tensor([1, 2]); print(x)
x = torch.zeros(5, dtype=torch.int64); x[[0, 1]] = torch.tensor([1.5, 2]); print(x)
x = torch.zeros(5); x[torch.tensor([True, False, True, False, False])] = torch.tensor([1, 2]); print(x)
x = torch.zeros(5); x[[0, 1]] = torch.tensor(7); print(x)
x = torch.zeros(5); x[[0, 1]] = torch.tensor([7], dtype=torch.float64); print(x)
x = torch.zeros(5); x[x == 0] = torch.tensor(7); print(x)
x = torch.zeros(5); x[x == 0] = torch.tensor([7], dtype=torch.int64); print(x)
x = torch.zeros(5); x[1:3] = torch.tensor([1, 2], dtype=torch.float64); print(x)
x = torch.zeros(2, 3); x[[0, 1]] = torch.ones(2, 2, 3)
x = torch.zeros(2, 3); x[[0, 1]] = torch.ones(1, 2, 3); print(x)
x = torch.zeros(2, 3); x[[0, 1]] = torch.ones(3, 1)
x = torch.zeros(2, 3); x[[0, 1]] = torch.ones(2, 1); print(x)
x = torch.zeros(2, 3); x[0] = torch.ones(2, 3)
x = torch.zeros(2, 3); x[0] = torch.ones(1, 1, 3); print(x)
x = torch.zeros(2, 3); x[0] = torch.ones(3, 1)
x = torch.zeros(2, 3); x[0] = torch.ones(4)
x = torch.zeros(2, 3); x[0] = torch.ones(4, dtype=torch.int32)
x = torch.zeros(2, 3); x[0:1] = torch.ones(4)
x = torch.zeros(2, 3); x[...] = torch.ones(4)
x = torch.zeros(2, 3); x[None] = torch.ones(4)
x = torch.zeros(2, 3); x[True] = 5; print(x)
x = torch.zeros(2, 3); x[False] = 5; print(x)
x = torch.zeros(2, 3); x[False] = torch.ones(7); print(x)
x = torch.zeros(2, 3); x[0, False] = 5; print(x)
x = torch.zeros(2, 3); x[5] = 1
x = torch.zeros(2, 3); x[0][5] = 1
x = torch.zeros(2, 3); x[0, 5] = 1
x = torch.zeros(2, 3); x[[5]] = 1
x = torch.zeros(2, 3); x[0, [5]] = 1
x = torch.zeros(2, 3); x[:, [0, 5]] = 1
x = torch.zeros(2, 3); x[[0, 1], [0, 5]] = 1
x = torch.zeros(2, 3); x[[0, 1], [5, 0]] = 1
x = torch.zeros(2, 3); x[[-3]] = 1
x = torch.zeros(5); x[[5, -9]] = 1
x = torch.zeros(5); r = x[[-9, 5]]
x = torch.zeros(5); r = x[[2, -9, 7]]
x = torch.zeros(2, 3); r = x[[1, 5], [7, 0]]
x = torch.zeros(2, 3); x[0, 1] = "a"
x = torch.zeros(2, 3); x[0, 1] = [1]
x = torch.zeros(2, 3); x[0, 1] = None
x = torch.zeros(2, 3); x[0, 1] = 1+2j
x = torch.zeros(2, 3, dtype=torch.int64); x[0, 1] = 2.9; print(x)
x = torch.zeros(2, 3, dtype=torch.int64); x[0, 1] = -2.9; print(x)
x = torch.zeros(2, 3, dtype=torch.int64); x[0, 1] = float("nan")
x = torch.zeros(2, 3, dtype=torch.int64); x[0, 1] = 1e30
x = torch.zeros(2, 3, dtype=torch.int8); x[0, 1] = 200.0
x = torch.zeros(2, 3, dtype=torch.int8); x[0, 1] = -129
x = torch.zeros(2, 3, dtype=torch.uint8); x[0, 1] = -1; print(x)
x = torch.zeros(2, 3, dtype=torch.uint8); x[0, 1] = 256
x = torch.zeros(2, 3, dtype=torch.uint8); x[0, 1] = True; print(x)
x = torch.zeros(2, 3, dtype=torch.bool); x[0, 1] = 5; print(x)
x = torch.zeros(2, 3, dtype=torch.bool); x[0, 1] = 0.5; print(x)
x = torch.zeros(2, 3, dtype=torch.float16); x[0, 1] = 1e10; print(x)
x = torch.zeros(2, 3); x[0, 1] = 2**63
x = torch.zeros(2, 3); x[0, 1] = -2**63; print(x)
x = torch.zeros(2, 3); x[0, 1] = 2**64
x = torch.zeros(2, 3); x[0, 1] = np.float64(2.5); print(x)
x = torch.zeros(2, 3); x[0, 1] = np.int64(2); print(x)
x = torch.zeros(2, 3); x[0, 1] = np.array(2.5)
x = torch.zeros(2, 3); x[0, 1] = np.bool_(True)
x = torch.zeros(2, 3); x[0] = torch.tensor([1, 2, 3]); print(x)
x = torch.zeros(1).expand(3); x[0] = 1; print(x)
x = torch.zeros(1).expand(3); x[:] = 1
x = torch.zeros(1).expand(3); x[0] += 1; print(x)
x = torch.zeros(1).expand(3); x[[0, 1]] = 1; print(x)
y = torch.tensor([1., 2.]).expand(3, 2); y[0, 0] = 5; print(y)
x = torch.zeros(2, 2)[:, 0]; x += 1; print(x)
x = torch.arange(5); x[1:] = x[:-1]
x = torch.arange(5); x[:] = x; print(x)
x = torch.arange(5); x[[1, 2]] = x[[0, 1]]; print(x)
x = torch.arange(5); x[1:3] = x[0]; print(x)
x = torch.arange(4.0); x[:2] = x[2:]; print(x)
x = torch.zeros(3, requires_grad=True); x[0] = 1
x = torch.zeros(3, requires_grad=True); x[:] = 1
x = torch.zeros(3, requires_grad=True); x[...] = 1
x = torch.zeros(3, requires_grad=True); x[[0]] = 1
x = torch.zeros(3, requires_grad=True); x[x > 0] = 1
x = torch.zeros(3, requires_grad=True); x[False] = 1; print(x)
x = torch.zeros(2, 3); x[0] = 5; print(x)
x = torch.zeros(2, 3); x[:, 0] = torch.tensor([1, 2]); print(x)
x = torch.zeros(2, 3); x[:, 0] = torch.tensor([[1], [2]])
x = torch.zeros(2, 3); x[:, 0] = torch.tensor([[1, 2]]); print(x)
x = torch.zeros(2, 3); x[:] = torch.ones(1, 1, 3); print(x)
x = torch.zeros(2, 3); x[:] = torch.ones(2, 2, 3)
x = torch.zeros(2, 3); x[0] = [7, 8, 9]
x = torch.zeros(2, 3); x[0] = (7, 8, 9)
x = torch.zeros(2, 3); x[0] = np.array([1, 2, 3])
x = torch.zeros(5); x[x == 0] = 3; print(x)
x = torch.arange(5); x[x > 2] = 0; print(x)
x = torch.arange(5); x[x > 2] = torch.tensor([7, 8]); print(x)
x = torch.arange(5); x[x > 2] = torch.tensor([7, 8, 9])
x = torch.arange(5); x[[0, 2]] = 9; print(x)
x = torch.arange(5); x[[0, 2]] = torch.tensor([9, 8]); print(x)
x = torch.arange(5); x[[0, 2]] = torch.tensor([9, 8, 7])
x = torch.arange(5); x[[0, 7]] = 1
x = torch.arange(5); x[torch.tensor([0, 2])] += 10; print(x)
x = torch.arange(5); x[[True, False, True, False, False]] = -1; print(x)
x = torch.arange(6).reshape(2, 3); x[:, [0, 2]] = 0; print(x)
x = torch.arange(6).reshape(2, 3); x[x % 2 == 0] *= 10; print(x)
x = torch.arange(6).reshape(2, 3); x[1][1] = 100; print(x)
x = torch.arange(6).reshape(2, 3); x[[1]][0] = 100; print(x)
x = torch.arange(6).reshape(2, 3); x[..., 1] = -1; print(x)
x = torch.arange(6).reshape(2, 3); x[None, 0] = -1; print(x)
x = torch.arange(6).reshape(2, 3); x[0][x[0] > 0] = 0; print(x)
x = torch.arange(6).reshape(2, 3); x[:] = 0.5; print(x)
x = torch.arange(6.0).reshape(2, 3); x[x > 2] = float("nan"); print(x)
x = torch.arange(6.0).reshape(2, 3); x.t()[0] = 7; print(x)
x = torch.arange(6.0).reshape(2, 3); v = x.view(3, 2); v[0] = 7; print(x)
x = torch.arange(6.0); y = x[1:3]; y *= 10; print(x)
x = torch.zeros(3); x.copy_(torch.ones(2, 3))
x = torch.zeros(2, 3); x.copy_(torch.ones(3)); print(x)
x = torch.zeros(2, 3); x.copy_(torch.ones(1, 2, 3))
x = torch.zeros(2, 3); x.copy_(torch.tensor(5)); print(x)
x = torch.zeros(2); x.copy_(torch.ones(3))
x = torch.zeros(2, 3, dtype=torch.int64); x.copy_(torch.tensor([1.7, 2, 3])); print(x)
x = torch.zeros(1).expand(3); x.copy_(torch.ones(3))
x = torch.zeros(1).expand(3); x.fill_(torch.tensor(2.0))
x = torch.zeros(1).expand(3); x.fill_(2.0); print(x)
x = torch.zeros(3); x.fill_(torch.tensor([2.0]))
x = torch.zeros(3); x.fill_(True); print(x)
x = torch.zeros(3, dtype=torch.int32); x.fill_(2.7); print(x)
x = torch.zeros(1).expand(3); x.zero_(); print(x)
x = torch.zeros(1).expand(3); x.mul_(2)
x = torch.zeros(1).expand(3); x += 1
x = torch.arange(4.0); x.add_(x[0])
x = torch.arange(4.0); x[1:] += x[:-1]
x = torch.arange(4.0); x += x; print(x)
# a bool scalar next to a mask; index_put_ checks (index shapes, value shape, dtype, then positions; none
# for an empty result)
x = torch.arange(6.0).reshape(2, 3); print(x[x > 2, torch.tensor(True)], x[torch.tensor(True), x > 2], x[x > 2, True])
x = torch.arange(6.0).reshape(2, 3); print(x[x > 2, None], torch.zeros(0, 3)[torch.zeros(0, 3) > 2, True])
torch.arange(24).reshape(2, 3, 4)[torch.ones(2, 3) > 0, [0, 1, 2, 3, 0, 1]]
torch.arange(24).reshape(2, 3, 4)[torch.ones(2, 3) > 0, :, None].shape
torch.arange(24).reshape(2, 3, 4)[[0, 1], torch.ones(3, 4) > 0].shape
torch.zeros(0, 3)[torch.tensor([2]), []], torch.zeros(0, 3)[torch.tensor([5])]
x = torch.zeros(3, 2, dtype=torch.bool); x[torch.tensor([0, 5])] = torch.tensor([1, 2, 3])
x = torch.zeros(3, 2, dtype=torch.bool); x[torch.tensor([0, 5])] = torch.tensor([[1, 2]])
x = torch.zeros(3, 2, dtype=torch.bool); x[torch.tensor([0, 1]), torch.tensor([0, 1, 2])] = torch.tensor([1.5])
x = torch.zeros(0, 3); x[torch.tensor([5])] = torch.tensor([1.0])
x = torch.zeros(2, 3); x[torch.tensor([5])] = torch.tensor([1, 2])
x = torch.zeros(2, 3); x[torch.tensor([5])] = torch.tensor([1.0, 2.0, 3.0])
x = torch.zeros(3, 1); x[::3, True, [0, 0, 1]] = torch.tensor([1.0, 2.0])
x = torch.zeros(2, 3, 4, dtype=torch.int8); x[torch.tensor([2]), -1] = torch.arange(3)
"""


@pytest.mark.parametrize("code", cases(READ))
def test_reading_same_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("code", cases(WRITE))
def test_writing_same_as_pytorch(code):
    assert_same(code)
