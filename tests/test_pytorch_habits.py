"""Habits a learner brings from PyTorch code: iteration, keyword aliases, class names, errors.

Each snippet runs with course_lib and with real PyTorch (skipped without it):
printed output, exception type and message, and warnings must be the same.
"""

import pytest
from torch_compare import assert_same

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
    assert_same(SNIPPETS[name])
