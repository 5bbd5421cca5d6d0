"""Shortcuts a question forbids are found, said in Chinese, and score zero until they are gone.

One test per forbidden shortcut, each with course_lib and (where installed) real PyTorch; then the
shortcuts the questions allow, which must pass.  The answers are written as a learner writes them,
in a notebook namespace (``exec``), so the checker sees them exactly as in a notebook.
"""

import json

import pytest

from course_lib.grading import chapters, run_check
from course_lib.grading.core import judge_question, observe_question
from tests.conftest import HAVE_TORCH

LIBS = ["course_lib"] + (["torch"] if HAVE_TORCH else [])


def namespace(lib, code):
    ns = {"__name__": "__main__"}
    head = "import torch\n" if lib == "torch" else "import course_lib as torch\n"
    exec(head + "import numpy as np\n" + code, ns)
    return ns


def verdict(lib, chapter, name, code):
    return run_check(chapter, name, namespace(lib, code))


def assert_shortcut(v, *words):
    assert (v.status, v.passed, v.points) == ("shortcut", False, 0), v.render()
    assert v.reason.startswith("这道题先记 0 分：") and v.reason.endswith("去掉这个捷径，再运行一次检查。")
    for word in words:
        assert word in v.reason, (word, v.reason)


# ---------------------------------------------------------------------------
# Forbidden: one test per shortcut
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("lib", LIBS)
def test_05_q1_broadcast_shapes_is_found(lib):
    v = verdict(lib, "05", "q1", "def broadcast_shape(a, b):\n    return tuple(torch.broadcast_shapes(a, b))")
    assert_shortcut(v, "用到了题目不允许的 broadcast_shapes", "按题目里的三条规则自己实现")
    # NumPy's, an alias made in another cell, and a name put together at run time
    for code in ("def broadcast_shape(a, b):\n    return tuple(np.broadcast_shapes(a, b))",
                 "from torch import broadcast_shapes as bs\ndef broadcast_shape(a, b):\n    return tuple(bs(a, b))",
                 "def broadcast_shape(a, b):\n    return tuple(getattr(torch, 'broadcast_' + 'shapes')(a, b))"):
        assert_shortcut(verdict(lib, "05", "q1", code), "broadcast_shapes")


@pytest.mark.parametrize("lib", LIBS)
def test_05_q1_tensors_made_to_try_the_shapes_are_found(lib):
    code = "def broadcast_shape(a, b):\n    return tuple((torch.ones(a) + torch.ones(b)).shape)"
    assert_shortcut(verdict(lib, "05", "q1", code), "代码用到了 torch：这道题不允许创建张量")
    code = "def broadcast_shape(a, b):\n    return (np.empty(a) + np.empty(b)).shape"
    assert_shortcut(verdict(lib, "05", "q1", code), "np", "不允许创建张量（或 NumPy 数组）")


@pytest.mark.parametrize("lib", LIBS)
def test_03_q2_strides_of_an_empty_tensor_are_found(lib):
    v = verdict(lib, "03", "q2", "def row_major_strides(shape):\n    return torch.empty(shape).stride()")
    assert_shortcut(v, "代码用到了 torch", "自己算出步幅")
    v = verdict(lib, "03", "q2", "def row_major_strides(shape):\n"
                                 "    return tuple(s // 8 for s in np.empty(shape).strides)")
    assert_shortcut(v, "np")


@pytest.mark.parametrize("lib", LIBS)
def test_03_q3_is_contiguous_of_a_strided_tensor_is_found(lib):
    code = ("def is_contiguous_layout(shape, stride):\n"
            "    return torch.zeros(100).as_strided(shape, stride).is_contiguous()")
    assert_shortcut(verdict(lib, "03", "q3", code), "代码用到了 torch")


@pytest.mark.parametrize("lib", LIBS)
def test_03_q4_the_notebooks_try_view_helper_is_found(lib):
    code = ("def try_view(shape, stride, new_shape):\n    try:\n"
            "        torch.zeros(100).as_strided(shape, stride).view(new_shape)\n        return True\n"
            "    except RuntimeError:\n        return False\n\n"
            "def can_view(shape, stride, new_shape):\n    return try_view(shape, stride, new_shape)\n")
    assert_shortcut(verdict(lib, "03", "q4", code), "（包括它用到的 try_view）用到了 torch", "不要调用 try_view")


@pytest.mark.parametrize("lib", LIBS)
def test_04_q1_matmul_on_made_tensors_is_found(lib):
    code = "def matmul_shape(a, b):\n    return tuple(torch.matmul(torch.ones(a), torch.ones(b)).shape)"
    assert_shortcut(verdict(lib, "04", "q1", code), "代码用到了 torch")


LOOPS = {
    "for": "def batch_outer(a, b):\n    out = torch.zeros(a.shape[0], a.shape[1], b.shape[1])\n"
           "    for k in range(a.shape[0]):\n        out[k] = a[k].unsqueeze(1) * b[k]\n    return out",
    "comprehension": "def batch_outer(a, b):\n    return torch.stack([a[k].outer(b[k]) for k in range(len(a))])",
    "while": "def batch_outer(a, b):\n    rows, k = [], 0\n    while k < len(a):\n"
             "        rows.append(a[k].unsqueeze(1) * b[k])\n        k += 1\n    return torch.stack(rows)",
    "map": "def batch_outer(a, b):\n    return torch.stack(list(map(lambda p: p[0].outer(p[1]), zip(a, b))))",
    "reduce": "import functools\ndef batch_outer(a, b):\n    first = (a[0].unsqueeze(1) * b[0]).unsqueeze(0)\n"
              "    return functools.reduce(lambda acc, k: torch.cat([acc, (a[k].unsqueeze(1) * b[k]).unsqueeze(0)]),"
              " range(1, len(a)), first)",
    "recursion": "def batch_outer(a, b):\n    if len(a) == 1:\n        return (a[0].unsqueeze(1) * b[0]).unsqueeze(0)\n"
                 "    return torch.cat([batch_outer(a[:1], b[:1]), batch_outer(a[1:], b[1:])])",
    "helper": "def outer(u, v):\n    return torch.stack([u[i] * v for i in range(len(u))])\n\n"
              "def batch_outer(a, b):\n    return torch.stack([outer(a[0], b[0])]) if len(a) == 1 else torch.cat("
              "[torch.stack([outer(a[0], b[0])]), batch_outer(a[1:], b[1:])])",
}


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("kind", sorted(LOOPS))
def test_04_q4_python_loops_are_found(lib, kind):
    v = verdict(lib, "04", "q4", LOOPS[kind])
    assert_shortcut(v, "Python 循环", "这道题不允许写循环")
    # every one of these answers is right otherwise: it is the loop alone that costs the points
    q = chapters.load("04").QUESTIONS[3]
    ns = namespace(lib, LOOPS[kind])
    observed = observe_question(q(), ns)
    observed["shortcuts"] = {"functions": [], "names": [], "libraries": {}, "loops": [], "recursive": [], "calls": []}
    assert judge_question(q(), observed).passed


@pytest.mark.parametrize("lib", LIBS)
def test_05_q3_loops_and_cdist_are_found(lib):
    code = ("def pairwise_sq_dist(a, b):\n"
            "    return torch.stack([((a - b[j]) ** 2).sum(dim=1) for j in range(len(b))], dim=1)")
    assert_shortcut(verdict(lib, "05", "q3", code), "pairwise_sq_dist 里有 Python 循环")
    if lib == "torch":      # course_lib has no cdist: the name alone is enough
        code = "def pairwise_sq_dist(a, b):\n    return torch.cdist(a, b) ** 2"
        assert_shortcut(verdict(lib, "05", "q3", code), "用到了题目不允许的 cdist")
    code = ("def pairwise_sq_dist(a, b):\n    if len(a) > 100:\n        return torch.cdist(a, b) ** 2\n"
            "    return ((a.unsqueeze(1) - b.unsqueeze(0)) ** 2).sum(dim=-1)")
    assert_shortcut(verdict(lib, "05", "q3", code), "cdist")      # found in the code, even where no case runs it


@pytest.mark.parametrize("lib", LIBS)
def test_05_q5_sum_to_size_and_autograd_are_found(lib):
    if lib == "torch":
        code = "def sum_to_shape(grad, shape):\n    return grad.sum_to_size(shape)"
        assert_shortcut(verdict(lib, "05", "q5", code), "sum_to_size")
    code = ("def sum_to_shape(grad, shape):\n    w = torch.zeros(shape, requires_grad=True)\n"
            "    (w * torch.ones(grad.shape)).backward(grad)\n    return w.grad")
    assert_shortcut(verdict(lib, "05", "q5", code), "backward", "不要借助自动微分")


@pytest.mark.parametrize("lib", LIBS)
def test_06_q5_autograd_is_found(lib):
    code = ("def numeric_grad(f, x, eps=1e-6):\n    x = x.detach().requires_grad_()\n    f(x).backward()\n"
            "    return x.grad")
    assert_shortcut(verdict(lib, "06", "q5", code), "backward", "requires_grad_", "有限差分")
    # autograd through torch.autograd.grad, and through a tensor told to require grad by attribute
    code = ("def numeric_grad(f, x, eps=1e-6):\n    x = x.detach().clone()\n    x.requires_grad = True\n"
            "    return torch.autograd.grad(f(x), x)[0]")
    assert_shortcut(verdict(lib, "06", "q5", code), "autograd")
    code = ("def helper(y):\n    y.requires_grad = True\n    return y\n\n"
            "def numeric_grad(f, x, eps=1e-6):\n    y = helper(x.detach().clone())\n    out = f(y)\n"
            "    out.grad_fn  # an autograd answer without a forbidden name\n"
            "    return torch.zeros_like(x)")
    v = verdict(lib, "06", "q5", code)
    assert v.status == "failed" and "f 收到了需要梯度的张量" in v.reason


@pytest.mark.parametrize("lib", LIBS)
def test_07_q2_mse_loss_is_found(lib):
    code = "def mse(pred, target):\n    return torch.nn.functional.mse_loss(pred, target)"
    assert_shortcut(verdict(lib, "07", "q2", code), "mse_loss", "自己写出均方误差")
    code = "def mse(pred, target):\n    return torch.nn.MSELoss()(pred, target)"
    assert_shortcut(verdict(lib, "07", "q2", code), "MSELoss")


@pytest.mark.parametrize("lib", LIBS)
def test_code_run_by_exec_is_not_hidden(lib):
    # the call made inside exec'd code is seen as it runs
    code = ("def broadcast_shape(a, b):\n    out = {}\n"
            "    exec('import torch; r = tuple(torch.broadcast_shapes(a, b))', {'a': a, 'b': b}, out)\n"
            "    return out['r']")
    assert_shortcut(verdict(lib, "05", "q1", code), "torch.broadcast_shapes")
    # a loop inside exec'd code cannot be read: exec itself is the shortcut then
    code = ("def batch_outer(a, b):\n    out = {'a': a, 'b': b, 'torch': torch}\n"
            "    exec('r = torch.stack([a[k].outer(b[k]) for k in range(len(a))])', out)\n"
            "    return out['r']")
    assert_shortcut(verdict(lib, "04", "q4", code), "用 exec 运行了另一段代码")


@pytest.mark.parametrize("lib", LIBS)
def test_once_the_shortcut_is_gone_the_question_passes(lib):
    right = ("def broadcast_shape(a, b):\n    n = max(len(a), len(b))\n"
             "    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)\n    out = []\n"
             "    for x, y in zip(a, b):\n        if x != y and 1 not in (x, y):\n"
             "            raise RuntimeError('no')\n        out.append(y if x == 1 else x)\n    return tuple(out)")
    assert verdict(lib, "05", "q1", right).passed
    assert_shortcut(verdict(lib, "05", "q1", right.replace("return tuple(out)",
                                                           "return tuple(torch.broadcast_shapes(a, b))")))


def test_shortcut_facts_are_plain_data_judged_outside():
    """The batch grader ships the observation as JSON: the verdict made from it is the same."""
    q = chapters.load("03").QUESTIONS[1]()
    ns = namespace("course_lib", "def row_major_strides(shape):\n    return torch.empty(shape).stride()")
    observed = observe_question(q, ns)
    shipped = json.loads(json.dumps(observed))
    assert shipped == observed and "torch" in shipped["shortcuts"]["libraries"]
    assert judge_question(q, shipped).status == "shortcut"
    assert any(c.endswith(".empty") for c in shipped["shortcuts"]["calls"])


def test_every_forbidding_question_says_so_in_its_text():
    import nbformat

    from tests.test_grading_hints import ROOT
    for stem in chapters.STEMS:
        nb = nbformat.read(ROOT / "exercises" / f"{stem}.ipynb", as_version=4)
        for Q in chapters.load(stem).QUESTIONS:
            if Q.forbid is None:
                continue
            text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown"
                             and c.metadata.get("course_lib", {}).get("question") == Q.name)
            assert "不要" in text, (stem, Q.name)
            for call in Q.forbid.calls - {"broadcast_tensors", "broadcast_to", "broadcast", "autograd",
                                          "requires_grad_", "MSELoss"}:
                assert call in text, (stem, Q.name, call)
            if Q.forbid.tensors:
                assert "不要创建张量" in text or "也不要创建张量" in text, (stem, Q.name)
            if Q.forbid.loops:
                assert "不要写 Python 循环" in text, (stem, Q.name)


# ---------------------------------------------------------------------------
# Allowed: the questions say these are fine, and they pass
# ---------------------------------------------------------------------------

ALLOWED = [
    ("01", "q4", "def filled_like(x, value):\n    return torch.full_like(x, value)"),
    ("01", "q6", "def uniform(seed, shape, low, high):\n    torch.manual_seed(seed)\n"
                 "    return torch.empty(shape).uniform_(low, high)"),
    ("02", "q3", "def as_float32(arr):\n    return torch.as_tensor(arr, dtype=torch.float32)"),
    ("04", "q3", "def normalize_last(x):\n    return torch.nn.functional.normalize(x, p=1, dim=-1)"),
    ("04", "q4", "def batch_outer(a, b):\n    return torch.matmul(a.unsqueeze(2), b.unsqueeze(1))"),
    ("04", "q4", "def batch_outer(a, b):\n    return torch.einsum('bi,bj->bij', a, b)"),
    ("07", "q1", "def sgd_step(params, lr):\n    opt = torch.optim.SGD(params, lr=lr)\n    opt.step()\n"
                 "    opt.zero_grad()"),
    ("07", "q3", "def fit_line(x, y, lr, epochs):\n    w = torch.tensor(0.0, requires_grad=True)\n"
                 "    b = torch.tensor(0.0, requires_grad=True)\n    opt = torch.optim.SGD([w, b], lr=lr)\n"
                 "    for _ in range(epochs):\n        opt.zero_grad()\n"
                 "        ((w * x + b - y) ** 2).mean().backward()\n        opt.step()\n"
                 "    return w.item(), b.item()"),
]


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("chapter, name, code", ALLOWED, ids=[f"{c}-{q}-{i}" for i, (c, q, _) in enumerate(ALLOWED)])
def test_allowed_shortcuts_pass(lib, chapter, name, code):
    v = verdict(lib, chapter, name, code)
    assert v.passed, v.render()


@pytest.mark.parametrize("lib", LIBS)
def test_a_function_made_with_other_globals_is_still_the_learners(lib):
    code = ("import types\n"
            "def _inner(a, b):\n    return tuple(torch.broadcast_shapes(a, b))\n"
            "hidden = types.FunctionType(_inner.__code__, {'torch': torch}, 'hidden')\n"
            "del _inner\n"
            "def broadcast_shape(a, b):\n    return hidden(a, b)\n")
    assert_shortcut(verdict(lib, "05", "q1", code), "broadcast_shapes")


@pytest.mark.parametrize("lib", LIBS)
def test_a_callable_object_is_read_through_its_class(lib):
    code = ("class Shape:\n    def __call__(self, a, b):\n        if len(a) > 50:\n"
            "            return tuple(torch.broadcast_shapes(a, b))\n        return ()\n\n"
            "broadcast_shape = Shape()\n")
    assert_shortcut(verdict(lib, "05", "q1", code), "broadcast_shapes")
