"""course_lib on a real NVIDIA GPU (CuPy).  Every test carries the ``gpu`` marker and is skipped without one.

On the GPU machine (see ../shared/device/README.md)::

    python3 -m pytest -q -m gpu tests

Where PyTorch with CUDA is importable too, the printed tensors and the error
messages are compared with PyTorch's own on the same GPU.  No timings are
asserted here (``gpu_bench.py`` measures speed).
"""

import importlib.util
import warnings

import numpy as np
import pytest
from cuda_cases import cases, run_case

import course_lib as ct
from course_lib import nn

REAL_GPU = ct.cuda.is_available() and not ct.cuda.is_simulated()

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not REAL_GPU, reason="needs an NVIDIA GPU with CuPy")]


def _torch_cuda():
    if importlib.util.find_spec("torch") is None:
        return None
    import torch
    return torch if torch.cuda.is_available() else None


@pytest.fixture
def torch_cuda():
    t = _torch_cuda()
    if t is None:
        pytest.skip("PyTorch with CUDA is not importable here")
    t.backends.cuda.matmul.allow_tf32 = False
    return t


def outcome(fn):
    try:
        value = fn()
    except BaseException as e:  # noqa: BLE001 - compared
        return None, (type(e).__name__, str(e))
    return (value if isinstance(value, (str, bool, int, float, type(None))) else repr(value)), None


# ---------------------------------------------------------------------------
# The device
# ---------------------------------------------------------------------------

def test_device_queries():
    assert ct.cuda.device_count() >= 1 and ct.cuda.current_device() == 0
    assert "NVIDIA" in ct.cuda.get_device_name()
    before = ct.cuda.memory_allocated()
    x = ct.zeros(1024, 1024, device="cuda")
    assert ct.cuda.memory_allocated() >= before + x.nbytes
    ct.cuda.synchronize()
    assert type(x._data).__module__.startswith("cupy")
    assert x.device == ct.device("cuda", 0) and x.is_cuda and x.get_device() == 0


def test_moving_and_host_copies():
    x = ct.arange(6.0).reshape(2, 3)
    g = x.to("cuda")
    assert g.to("cuda") is g and g.cuda() is g and g.cpu().tolist() == x.tolist()
    assert g[1, 2].item() == 5.0 and float(g.sum()) == 15.0
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy"):
        g.numpy()
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy"):
        np.asarray(g)
    assert (g * ct.tensor(2.0)).is_cuda                       # a 0-d CPU tensor may mix
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        g + x


# ---------------------------------------------------------------------------
# Every operation and backward: the GPU gives what the CPU gives
# ---------------------------------------------------------------------------

CASES = cases(ct)


@pytest.mark.parametrize("name", sorted(CASES))
def test_operation_and_backward_on_the_gpu_match_the_cpu(name):
    cpu = run_case(ct, CASES[name], "cpu")
    gpu = run_case(ct, CASES[name], "cuda")
    assert gpu["device"] == "cuda:0"
    assert (gpu["dtype"], gpu["grad_fn"]) == (cpu["dtype"], cpu["grad_fn"])
    np.testing.assert_allclose(gpu["value"], cpu["value"], rtol=1e-5, atol=1e-5)
    for key in ("grad_a", "grad_b"):
        assert (gpu.get(key) is None) == (cpu.get(key) is None)
        if cpu.get(key) is not None:
            assert gpu[key][1] == "cuda:0"
            np.testing.assert_allclose(gpu[key][0], cpu[key][0], rtol=1e-5, atol=1e-5)


def test_erf_uses_cupyx():
    x = ct.linspace(-2, 2, 5, device="cuda", requires_grad=True)
    y = ct.erf(x)
    y.sum().backward()
    ref = ct.erf(x.detach().cpu())
    np.testing.assert_allclose(y.detach().cpu().numpy(), ref.numpy(), rtol=1e-6)
    assert x.grad.is_cuda


def test_training_with_nn_and_sgd_on_the_gpu_matches_the_cpu():
    def train(device):
        ct.manual_seed(0)
        model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
        opt = ct.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
        x = ct.linspace(-1, 1, 256).reshape(32, 8).to(device)
        y = x.sum(1, keepdim=True).sin()
        losses = []
        for _ in range(10):
            opt.zero_grad()
            loss = nn.MSELoss()(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, model
    cpu_losses, _ = train("cpu")
    gpu_losses, model = train("cuda")
    assert all(p.is_cuda and p.grad.is_cuda for p in model.parameters())
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-4)
    assert gpu_losses[-1] < gpu_losses[0]


def test_a_training_step_does_not_synchronise():
    """CuPy's sync detector (deprecated, still present in CuPy 14) around steps of gpu_bench's MLP workload."""
    cupyx = pytest.importorskip("cupyx")
    if not hasattr(cupyx, "allow_synchronize"):
        pytest.skip("this CuPy has no allow_synchronize")
    rng = np.random.default_rng(0)
    f = np.float32
    X = ct.from_numpy(rng.standard_normal((512, 256), dtype=f)).to("cuda")
    Y = ct.from_numpy(rng.standard_normal((512, 10), dtype=f)).to("cuda")
    W1 = ct.from_numpy(rng.standard_normal((256, 128), dtype=f) * 0.01).to("cuda").requires_grad_(True)
    W2 = ct.from_numpy(rng.standard_normal((128, 10), dtype=f) * 0.01).to("cuda").requires_grad_(True)

    def step():
        loss = (((X @ W1).clamp(min=0) @ W2 - Y) ** 2).mean()
        loss.backward()
        with ct.no_grad():
            W1.sub_(0.01 * W1.grad)
            W2.sub_(0.01 * W2.grad)
            W1.grad.zero_()
            W2.grad.zero_()
        return loss

    first = step().item()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cupyx.allow_synchronize(False):
            for _ in range(3):
                loss = step()
    assert loss.item() < first


# ---------------------------------------------------------------------------
# The same texts as PyTorch on the same GPU
# ---------------------------------------------------------------------------

SNIPPETS = [
    "repr(T.tensor([1.0, 2.0], device='cuda'))", "repr(T.tensor([1, 2], device='cuda'))",
    "repr(T.tensor([1.5], device='cuda', dtype=T.float64))", "repr(T.tensor(2.5, device='cuda'))",
    "repr(T.ones(2, device='cuda', requires_grad=True) * 2)", "repr(T.zeros(0, device='cuda'))",
    "repr(T.ones(2, 3).cuda().device)", "str(T.ones(1).cuda().device)", "T.ones(1).cuda().type()",
    "T.ones(2, device='cuda').numpy()", "T.ones(2, device='cuda', requires_grad=True).numpy()",
    "T.tensor([3.5], device='cuda').item()", "T.ones(2, device='cuda').item()",
    "T.ones(2, device='cuda') + T.ones(2)", "T.ones(2) + T.ones(2, device='cuda')",
    "T.ones(2) + T.tensor(1.0, device='cuda')", "repr(T.ones(2, device='cuda') * T.tensor(3.0))",
    "T.ones(2, 2, device='cuda') @ T.ones(2, 2)", "T.ones(2, 2) @ T.ones(2, 2, device='cuda')",
    "T.mm(T.ones(2, 2, device='cuda'), T.ones(2, 2))", "T.ones(2, device='cuda').dot(T.ones(2))",
    "T.cat([T.ones(2, device='cuda'), T.ones(2)])", "T.where(T.ones(2, device='cuda') > 0, T.ones(2), 0.0)",
    "T.zeros(1, device='cuda:1')", "T.ones(1).to('cuda:1')",
    "T.nn.Linear(3, 2).cuda()(T.ones(4, 3))", "T.nn.Linear(3, 2)(T.ones(4, 3, device='cuda'))",
    "T.nn.Linear(3, 2, bias=False).cuda()(T.ones(4, 3))", "T.nn.Linear(3, 2).cuda()(T.ones(3))",
    "T.nn.functional.mse_loss(T.ones(2, device='cuda'), T.ones(2))",
    "T.nn.functional.mse_loss(T.ones(2, dtype=T.int64, device='cuda'), T.ones(2, dtype=T.int64, device='cuda'))",
    "repr(T.nn.Parameter(T.ones(2, device='cuda')))",
    "T.ones(2, device='cuda').index_select(0, T.tensor([0]))", "repr(T.arange(4.0, device='cuda')[[0, 2]])",
    "repr(T.arange(4.0, device='cuda')[T.tensor([0, 2])])", "T.arange(4.0)[T.tensor([0, 2], device='cuda')]",
    "repr(T.arange(4.0, device='cuda')[T.tensor([True, False, True, False])])",
    "T.gather(T.arange(4.0, device='cuda'), 0, T.tensor([1]))",
    "T.arange(4.0, device='cuda').masked_fill(T.tensor([True, False, True, False]), 0.0)",
    "repr(T.ones(2, device='cuda').copy_(T.tensor([5.0, 6.0])))", "repr(T.ones(2).copy_(T.tensor([5.0, 6.0]).cuda()))",
    "T.ones(2, device='cuda').mv(T.ones(2))", "T.bmm(T.ones(1, 2, 2, device='cuda'), T.ones(1, 2, 2))",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_texts_like_pytorch_cuda(torch_cuda, code):
    ours = outcome(lambda: eval(code, {"T": ct}))
    theirs = outcome(lambda: eval(code, {"T": torch_cuda}))
    assert ours == theirs
