"""The CUDA code path without a GPU: course_lib's simulated device (``torch.cuda.simulate()``).

The simulated device (``course_lib/devices/simulated.py``) has NumPy's API but its
arrays are a class of their own that refuses to mix with host arrays, has
CuPy's missing names and keywords, and counts every host-device copy.  So
these tests exercise course_lib's CUDA path (device reporting, printing,
``to``/``cuda``/``cpu``, every operation, backward, nn/optim) and prove that
it makes no hidden copies; ``tests/test_cuda.py`` repeats the essentials on
a real GPU.  The fixture switches the simulation off again, so no other test
sees a CUDA device.
"""

import importlib.util
import sys
import types
import warnings

import numpy as np
import pytest
from cuda_cases import cases, run_case

import course_lib as torch
from course_lib import devices as _device
from course_lib import nn as cnn
from course_lib.devices import simulated as _cuda_sim
from course_lib.nn import functional as F

HAVE_TORCH = importlib.util.find_spec("torch") is not None
requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed (pip install torch==2.13.0)")

REAL_CUDA = torch.cuda.is_available() and not torch.cuda.is_simulated()


@pytest.fixture
def sim():
    """The simulated CUDA device, on for one test; the previous backend (none, here) comes back after."""
    before = torch.cuda.is_available()
    with torch.cuda.simulate() as s:
        s.stats.reset()
        yield s
    assert torch.cuda.is_available() is before and not torch.cuda.is_simulated()


def err(fn):
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - the type is part of what is compared
        return type(e).__name__, str(e)
    return None


# ---------------------------------------------------------------------------
# No CUDA at all: PyTorch's CPU-build errors
# ---------------------------------------------------------------------------

NO_CUDA = ("AssertionError", "Torch not compiled with CUDA enabled")


@pytest.mark.skipif(REAL_CUDA, reason="a real GPU is present")
@pytest.mark.parametrize("code", [
    "torch.zeros(2, device='cuda')", "torch.ones(2).cuda()", "torch.ones(2).to('cuda')",
    "torch.tensor([1.0], device='cuda:0')", "torch.cuda.synchronize()", "torch.cuda.get_device_name()",
    "torch.cuda.current_device()", "torch.nn.Linear(2, 1).cuda()", "torch.randn(2, device=torch.device('cuda'))",
])
def test_without_cuda_asking_for_it_raises_pytorchs_cpu_build_error(code):
    assert err(lambda: eval(code, {"torch": torch})) == NO_CUDA
    if HAVE_TORCH:
        import torch as real
        if not real.cuda.is_available():
            assert err(lambda: eval(code, {"torch": real})) == NO_CUDA


@pytest.mark.skipif(REAL_CUDA, reason="a real GPU is present")
def test_without_cuda_queries_answer_like_a_cpu_build():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert torch.cuda.memory_allocated() == 0
    assert torch.cuda.is_simulated() is False
    x = torch.ones(2)
    assert x.device == torch.device("cpu") and x.is_cuda is False and x.get_device() == -1
    assert x.to("cpu") is x and x.cpu() is x


def test_a_cupy_without_a_gpu_is_no_cuda(monkeypatch):
    """CuPy installed but no driver: not available, and PyTorch's no-driver error."""
    fake = types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(
        getDeviceCount=lambda: (_ for _ in ()).throw(RuntimeError("cudaErrorNoDevice")))))
    saved = _device.cuda_backend_state()
    monkeypatch.setitem(sys.modules, "cupy", fake)
    _device.forget_cuda()
    try:
        assert torch.cuda.is_available() is False
        kind, msg = err(lambda: torch.zeros(1, device="cuda"))
        assert kind == "RuntimeError" and msg.startswith("Found no NVIDIA driver on your system.")
    finally:
        _device.restore_cuda_backend(saved)


def test_cupy_is_found_through_the_import(monkeypatch):
    """``cuda_backend()`` imports ``cupy`` and registers it: here the simulation stands in for the package."""
    saved = _device.cuda_backend_state()
    monkeypatch.setitem(sys.modules, "cupy", _cuda_sim.module)
    _device.forget_cuda()
    try:
        assert torch.cuda.is_available() and torch.cuda.device_count() == 1
        assert torch.ones(2, device="cuda").device == torch.device("cuda", 0)
    finally:
        _device.restore_cuda_backend(saved)
    assert torch.cuda.is_available() is REAL_CUDA


# ---------------------------------------------------------------------------
# Devices, moving, printing
# ---------------------------------------------------------------------------

def test_device_attribute_and_queries(sim):
    assert torch.cuda.is_available() and torch.cuda.is_simulated()
    assert torch.cuda.device_count() == 1 and torch.cuda.current_device() == 0
    assert torch.cuda.get_device_name() == _cuda_sim.DEVICE_NAME
    torch.cuda.synchronize()
    x = torch.tensor([1.0, 2.0], device="cuda")
    assert repr(x.device) == "device(type='cuda', index=0)" and str(x.device) == "cuda:0"
    assert x.is_cuda and not x.is_cpu and x.get_device() == 0
    assert x.type() == "torch.cuda.FloatTensor"
    assert x.device == torch.device("cuda:0") == torch.device("cuda", 0)
    assert torch.device("cuda") != torch.device("cuda:0")        # as in PyTorch: index None vs 0


@pytest.mark.parametrize("make, expected", [
    (lambda: torch.tensor([1.0, 2.0], device="cuda"), "tensor([1., 2.], device='cuda:0')"),
    (lambda: torch.tensor([1, 2], device="cuda"), "tensor([1, 2], device='cuda:0')"),
    (lambda: torch.tensor([1.5], device="cuda", dtype=torch.float64),
     "tensor([1.5000], device='cuda:0', dtype=torch.float64)"),
    (lambda: torch.tensor(2.5, device="cuda"), "tensor(2.5000, device='cuda:0')"),
    (lambda: torch.ones(2, device="cuda", requires_grad=True), "tensor([1., 1.], device='cuda:0', requires_grad=True)"),
    (lambda: torch.ones(2, device="cuda", requires_grad=True) * 2,
     "tensor([2., 2.], device='cuda:0', grad_fn=<MulBackward0>)"),
    (lambda: torch.zeros(0, device="cuda"), "tensor([], device='cuda:0')"),
    (lambda: torch.ones(2, 2).cuda(), "tensor([[1., 1.],\n        [1., 1.]], device='cuda:0')"),
])
def test_repr_shows_the_device(sim, make, expected):
    assert repr(make()) == expected


def test_to_cuda_cpu_and_identity(sim):
    x = torch.arange(3.0)
    y = x.to("cuda")
    assert y.device.type == "cuda" and y is not x
    assert y.to("cuda") is y and y.cuda() is y and y.to("cuda:0") is y and y.to(torch.device("cuda")) is y
    assert x.cuda(0).device == y.device and x.to(device="cuda").device == y.device
    z = y.cpu()
    assert z.device.type == "cpu" and z.tolist() == [0.0, 1.0, 2.0]
    assert z.data_ptr() != x.data_ptr()                        # a copy, not the same memory
    w = x.to("cuda", torch.float64)
    assert w.dtype == torch.float64 and w.is_cuda
    assert x.to(torch.ones(1, device="cuda", dtype=torch.int32)).dtype == torch.int32
    # the copy to the device is differentiable: the gradient comes back to the CPU leaf
    leaf = torch.ones(2, requires_grad=True)
    out = (leaf.cuda() * 3).sum()
    assert out.grad_fn.name() == "SumBackward0" and out.is_cuda
    out.backward()
    assert leaf.grad.device.type == "cpu" and leaf.grad.tolist() == [3.0, 3.0]


def test_cuda_index_one_is_invalid_on_one_gpu(sim):
    kind, msg = err(lambda: torch.zeros(1, device="cuda:1"))
    assert kind == "AcceleratorError" and isinstance(torch.AcceleratorError("x"), RuntimeError)
    assert msg.startswith("CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough "
                          "GPUs?")
    assert err(lambda: torch.ones(1).to("cuda:1"))[0] == "AcceleratorError"


def test_creation_on_the_device(sim):
    torch.manual_seed(0)
    made = [torch.zeros(2, 3, device="cuda"), torch.ones(2, device="cuda", dtype=torch.int64),
            torch.full((2,), 7.0, device="cuda"), torch.eye(2, device="cuda"), torch.arange(4, device="cuda"),
            torch.linspace(0, 1, 3, device="cuda"), torch.rand(2, device="cuda"), torch.randn(2, device="cuda"),
            torch.randint(0, 5, (2,), device="cuda"), torch.empty(2, device="cuda"),
            torch.zeros_like(torch.ones(2, device="cuda")), torch.tensor([[1, 2]], device="cuda")]
    assert all(t.device == torch.device("cuda", 0) for t in made)
    assert made[4].tolist() == [0, 1, 2, 3] and made[3].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    # a seed gives the same numbers on both devices (course_lib draws on the CPU and copies)
    torch.manual_seed(1)
    a = torch.randn(3)
    torch.manual_seed(1)
    assert torch.randn(3, device="cuda").cpu().tolist() == a.tolist()


# ---------------------------------------------------------------------------
# Host copies: numpy(), item(), tolist()
# ---------------------------------------------------------------------------

NUMPY_ON_CUDA = ("TypeError", "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the "
                 "tensor to host memory first.")


def test_numpy_on_cuda_raises_pytorchs_typeerror(sim):
    x = torch.ones(2, device="cuda")
    assert err(x.numpy) == NUMPY_ON_CUDA
    assert err(lambda: np.asarray(x)) == NUMPY_ON_CUDA
    # the device check comes before the requires_grad one, as in PyTorch
    assert err(torch.ones(2, device="cuda", requires_grad=True).numpy) == NUMPY_ON_CUDA
    assert x.cpu().numpy().tolist() == [1.0, 1.0]
    assert x.numpy(force=True).tolist() == [1.0, 1.0]


def test_item_and_friends_copy_one_value_to_the_host(sim):
    x = torch.tensor([1.5, 2.5], device="cuda")
    sim.stats.reset()
    value = x[1].item()
    assert value == 2.5 and isinstance(value, float)
    assert sim.stats.device_to_host == 1 and sim.stats.host_to_device == 0
    assert float(x[0]) == 1.5 and int(x[1]) == 2 and bool(x[0] > 1)
    assert x.tolist() == [1.5, 2.5] and f"{x.sum():.1f}" == "4.0"
    assert err(lambda: x.item()) == ("RuntimeError", "a Tensor with 2 elements cannot be converted to Scalar")


# ---------------------------------------------------------------------------
# Mixing devices
# ---------------------------------------------------------------------------

MIXED = ("RuntimeError", "Expected all tensors to be on the same device, but found at least two devices, "
                         "cuda:0 and cpu!")


@pytest.mark.parametrize("code", [
    "g + c", "c + g", "g * c", "torch.maximum(g, c)", "torch.where(g > 0, g, c)", "g == c", "g.add_(c)",
    "torch.cat([g, c])", "F.mse_loss(g, c)", "torch.lerp(g, c, 0.5)", "torch.lerp(g, g, c)", "g.lerp_(c, 0.5)",
])
def test_mixing_devices_raises_pytorchs_error(sim, code):
    g = torch.ones(3, device="cuda")
    c = torch.ones(3)
    kind, msg = err(lambda: eval(code, {"torch": torch, "g": g, "c": c, "F": F}))
    assert kind == "RuntimeError"
    assert msg.startswith("Expected all tensors to be on the same device, but "), msg
    if code in ("g + c", "c + g", "g * c", "g == c", "F.mse_loss(g, c)"):
        assert (kind, msg) == MIXED


def test_a_zero_dim_cpu_tensor_may_mix_with_cuda(sim):
    g = torch.tensor([1.0, 2.0], device="cuda")
    for r in (g * torch.tensor(3.0), torch.tensor(3.0) * g, g + torch.tensor(1), g.add_(torch.tensor(0.0))):
        assert r.device.type == "cuda"
    assert (g * torch.tensor(3.0)).tolist() == [3.0, 6.0]
    # ... but a 0-d CUDA tensor does not make a CPU vector movable
    assert err(lambda: torch.ones(2) + torch.tensor(1.0, device="cuda")) == MIXED


def test_matrix_product_across_devices_is_refused(sim):
    kind, msg = err(lambda: torch.ones(2, 2, device="cuda") @ torch.ones(2, 2))
    assert kind == "RuntimeError" and msg.startswith("Expected all tensors to be on the same device")


def test_linear_layer_and_input_on_different_devices(sim):
    layer = cnn.Linear(3, 2).cuda()
    assert err(lambda: layer(torch.ones(4, 3))) == (
        "RuntimeError", "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other "
        "tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)")
    nobias = cnn.Linear(3, 2, bias=False)
    assert err(lambda: nobias(torch.ones(4, 3, device="cuda"))) == (
        "RuntimeError", "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other "
        "tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)")


# ---------------------------------------------------------------------------
# Every operation and backward: CUDA gives what the CPU gives
# ---------------------------------------------------------------------------

CASES = cases(torch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_operation_and_backward_on_cuda_match_the_cpu(sim, name):
    cpu = run_case(torch, CASES[name], "cpu")
    gpu = run_case(torch, CASES[name], "cuda")
    assert gpu["device"] == "cuda:0"
    assert (gpu["dtype"], gpu["grad_fn"]) == (cpu["dtype"], cpu["grad_fn"])
    np.testing.assert_allclose(gpu["value"], cpu["value"], rtol=1e-6, atol=1e-6)
    for key in ("grad_a", "grad_b"):
        assert (gpu.get(key) is None) == (cpu.get(key) is None)
        if cpu.get(key) is not None:
            assert gpu[key][1] == "cuda:0"
            np.testing.assert_allclose(gpu[key][0], cpu[key][0], rtol=1e-6, atol=1e-6)


def test_autograd_features_on_cuda(sim):
    x = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()                                       # accumulates
    assert x.grad.is_cuda and x.grad.tolist() == [4.0, 8.0, 12.0]
    kind, msg = err(y.backward)
    assert kind == "RuntimeError" and msg.startswith("Trying to backward through the graph a second time")
    with torch.no_grad():
        x -= 0.1 * x.grad
    assert x.is_leaf and x.is_cuda
    seen = []
    h = x.register_hook(lambda g: seen.append(g.device.type))
    (x * 2).sum().backward()
    h.remove()
    assert seen == ["cuda"]
    v = torch.ones(3, device="cuda", requires_grad=True)
    (v * 2).backward(gradient=torch.tensor([1.0, 0.0, 2.0], device="cuda"))
    assert v.grad.tolist() == [2.0, 0.0, 4.0]


# ---------------------------------------------------------------------------
# No hidden copies or synchronisations on the CUDA path
# ---------------------------------------------------------------------------

def _mlp_state(rng):
    f = np.float32
    return {k: torch.from_numpy(v).to("cuda") for k, v in {
        "X": rng.standard_normal((16, 12), dtype=f), "Y": rng.standard_normal((16, 3), dtype=f),
        "W1": rng.standard_normal((12, 8), dtype=f) * 0.1, "W2": rng.standard_normal((8, 3), dtype=f) * 0.1}.items()}


def test_a_training_step_makes_no_host_device_copies(sim):
    """The workload of ../shared/device/gpu_bench.py (torch API), small: no copy or sync once running."""
    d = _mlp_state(np.random.default_rng(0))
    W1 = d["W1"].clone().requires_grad_(True)
    W2 = d["W2"].clone().requires_grad_(True)

    def step():
        out = (d["X"] @ W1).clamp(min=0) @ W2
        loss = ((out - d["Y"]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            W1.sub_(0.01 * W1.grad)
            W2.sub_(0.01 * W2.grad)
            W1.grad.zero_()
            W2.grad.zero_()
        return loss

    first = step().item()
    sim.stats.reset()
    for _ in range(3):
        loss = step()
        (d["A"] if "A" in d else d["X"]) * d["X"] + d["X"]        # element-wise work too
        d["X"].sum()
    torch.cuda.synchronize()
    assert sim.stats.snapshot() == (0, 0)
    assert loss.item() < first                       # it trains
    assert sim.stats.snapshot() == (0, 1)            # item() is the one copy


def test_nn_and_sgd_on_cuda_make_no_copies_and_match_the_cpu(sim):
    def train(device):
        torch.manual_seed(0)
        model = cnn.Sequential(cnn.Linear(4, 8), cnn.ReLU(), cnn.Linear(8, 1))
        params_before = list(model.parameters())
        model.to(device)
        assert list(model.parameters()) == params_before      # the same Parameter objects, moved
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
        x = torch.linspace(-1, 1, 32).reshape(8, 4).to(device)
        y = x.sum(1, keepdim=True).sin()
        loss_fn = cnn.MSELoss()
        losses = []
        for i in range(5):
            if i == 1:
                sim.stats.reset()
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        copies = sim.stats.snapshot()
        return [l.item() for l in losses], [p.detach().cpu().numpy() for p in model.parameters()], copies, model

    cpu_losses, cpu_params, _, _ = train("cpu")
    gpu_losses, gpu_params, copies, model = train("cuda")
    assert copies == (0, 0)
    assert all(p.is_cuda and p.grad.is_cuda for p in model.parameters())
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-6)
    for a, b in zip(gpu_params, cpu_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    assert gpu_losses[-1] < gpu_losses[0]


def test_module_cuda_cpu_roundtrip_keeps_parameters_and_grads(sim):
    layer = cnn.Linear(2, 2)
    w = layer.weight
    layer(torch.ones(1, 2)).sum().backward()
    layer.cuda()
    assert layer.weight is w and w.is_cuda and w.grad.is_cuda and isinstance(w, cnn.Parameter)
    assert repr(w).startswith("Parameter containing:\ntensor(") and "device='cuda:0'" in repr(w)
    layer.cpu()
    assert w.device.type == "cpu" and w.grad.device.type == "cpu"
    state = cnn.Linear(2, 2).cuda().state_dict()
    assert all(v.is_cuda for v in state.values())
    assert repr(layer.load_state_dict(state)) == "<All keys matched successfully>"
    assert layer.weight.device.type == "cpu" and layer.weight.tolist() == state["weight"].cpu().tolist()


def test_mse_loss_of_integers_on_cuda(sim):
    a = torch.ones(2, dtype=torch.int64, device="cuda")
    assert err(lambda: F.mse_loss(a, a)) == ("NotImplementedError", "\"mse_cuda\" not implemented for 'Long'")


# ---------------------------------------------------------------------------
# The stand-in itself: it must keep CuPy's strictness, or the tests above prove nothing
# ---------------------------------------------------------------------------

def test_simulated_arrays_refuse_host_arrays_like_cupy():
    xp = _cuda_sim.module
    a = xp.arange(3.0)
    host = np.arange(3.0)
    for f in (lambda: a + host, lambda: host + a, lambda: xp.maximum(a, host), lambda: xp.concatenate([a, host])):
        kind, msg = err(f)
        assert kind == "TypeError" and "numpy.ndarray" in msg
    assert err(lambda: a.__setitem__(slice(None), host))[0] == "TypeError"


def test_simulated_arrays_behave_like_cupy_results():
    xp = _cuda_sim.module
    a = xp.ones((2, 3), dtype=np.float32)
    s = a.sum()
    assert type(s) is _cuda_sim.ndarray and s.ndim == 0          # no NumPy scalars
    assert type(a[0, 1]) is _cuda_sim.ndarray
    assert (a + 1).base is None and a[1:].base is not None and (a + 1).flags.owndata
    assert not hasattr(a.flags, "writeable")
    assert err(lambda: xp.errstate)[0] == "AttributeError" and err(lambda: xp.vectorize)[0] == "AttributeError"
    assert err(lambda: a.sum(where=True))[0] == "TypeError"
    assert err(lambda: xp.sum(a, initial=0))[0] == "TypeError"
    assert err(lambda: np.vectorize(abs)(a)) is None or True        # NumPy's vectorize does not dispatch
    with pytest.raises(TypeError):
        xp.lib.stride_tricks.as_strided(a, (2,), (4,), writeable=False)
    assert isinstance(a.data.ptr, int) and err(lambda: a.__array_interface__)[0] == "AttributeError"


def test_simulated_copies_are_counted():
    xp = _cuda_sim.module
    _cuda_sim.stats.reset()
    a = xp.asarray(np.arange(4.0))
    assert _cuda_sim.stats.snapshot() == (1, 0)
    b = xp.asarray(a)
    assert b is a and _cuda_sim.stats.snapshot() == (1, 0)
    a.get()
    xp.asnumpy(a)
    float(a[0])
    assert _cuda_sim.stats.snapshot() == (1, 3)


def test_simulation_can_be_switched_on_and_off():
    assert torch.cuda.is_simulated() is False
    s = torch.cuda.simulate()
    try:
        assert torch.cuda.is_simulated() and torch.cuda.is_available()
        x = torch.ones(1, device="cuda")
    finally:
        s.stop()
    assert torch.cuda.is_simulated() is False and torch.cuda.is_available() is REAL_CUDA
    assert repr(s) == "<course_lib simulated CUDA device>"
    # a tensor made while simulating still says where it is and still computes
    assert str(x.device) == "cuda:0" and (x + 1).tolist() == [2.0]


@requires_torch
def test_cuda_errors_and_queries_of_a_cpu_pytorch():
    """What the chapter shows without a GPU is what a CPU build of PyTorch does."""
    import torch as real
    if real.cuda.is_available():
        pytest.skip("PyTorch has CUDA here")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert real.cuda.is_available() is torch.cuda.is_available() is False
        assert real.cuda.device_count() == torch.cuda.device_count() == 0
        assert real.cuda.memory_allocated() == torch.cuda.memory_allocated() == 0
        assert err(lambda: real.ones(1).cuda()) == err(lambda: torch.ones(1).cuda()) == NO_CUDA
