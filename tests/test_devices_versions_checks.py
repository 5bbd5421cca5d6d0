# ruff: noqa: E501 - snippet corpora: one PyTorch snippet per line
"""torch.device, torch.version / accelerator / deterministic flags, read-only Tensor attributes,
device errors of a CPU-only build, in-place error names, random-argument checks, small mismatches.

Each snippet runs with course_lib and with real PyTorch (skipped without it): printed output,
exception type and message, and warnings must be the same.  Snippets whose PyTorch answer
depends on having no GPU are skipped when course_lib has one (CuPy or the simulated device);
the simulated device is checked separately against what PyTorch does with a GPU.
"""

import subprocess
import sys

import pytest
from torch_compare import assert_same, cases, outcome

import course_lib


def _same(code):
    assert_same(code)
    exc = outcome(code, course_lib)[1]
    assert exc is None or exc[0] != "NameError", exc


DEVICE = cases(r"""
torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1'), torch.device('cuda', 2), torch.device('mps')
torch.device(type='cpu', index=0), torch.device('cpu', index=None), torch.device(device='cuda:1')
torch.device(torch.device('cuda', 1)), torch.device('cpu', np.int64(1)), str(torch.device('meta', 3))
torch.device('cuda', -1)
torch.device('cpu', 'a')
torch.device('cpu', index='a')
torch.device('cpu', True)
torch.device('cpu', 1.0)
torch.device(-1)
torch.device('cuda0')
torch.device('float32')
torch.device('a1')
torch.device('cuda:')
torch.device('cuda:-1')
torch.device('cuda:01')
torch.device('cuda:00')
torch.device('cuda: 1')
torch.device(' cpu')
torch.device('cuda:1:2')
torch.device(':0')
torch.device('')
torch.device('CPU')
torch.device('foo')
torch.device('cuda:99999999999')
torch.device('cuda:1', 1)
torch.device('cuda:1', None)
torch.device(None)
torch.device(1.0)
torch.device(True)
torch.device()
torch.device('cpu', 0, 0)
torch.device(torch.device('cpu'), 1)
torch.device(1.0, 1)
torch.device(index=1)
torch.device(type=None)
torch.device('cpu', foo=1)
# a device equals only a device
x = torch.zeros(2); print(x.device == 'cpu', 'cpu' == x.device, x.device != 'cpu', x.device == torch.device('cpu'))
x = torch.zeros(2); print(x.device.type == 'cpu', x.device in ('cpu', 'cuda'), str(x.device) == 'cpu', x.device == None)
print(torch.device('cpu') == torch.device('cpu', 0), torch.device('cuda') == torch.device('cuda', 0))
[hash(torch.device(t)) for t in ['cpu', 'cuda', 'ipu', 'xpu', 'hip', 've', 'xla', 'lazy', 'mps', 'meta', 'hpu', 'mtia']]
[hash(torch.device(t, 3)) for t in ['cpu', 'cuda', 'mps', 'meta']]
{torch.device('cpu'): 1}[torch.device('cpu')]
type(torch.device('cpu'))
torch.device('cpu') < torch.device('cpu')
torch.device('cpu') < 'cpu'
torch.device('cpu') >= 1
import pickle; pickle.loads(pickle.dumps(torch.device('cuda', 1)))
""")


@pytest.mark.parametrize("code", DEVICE)
def test_device_as_pytorch(code):
    _same(code)


VERSION = cases(r"""
print(torch.version.cuda, torch.version.hip, torch.version.debug)
torch.backends.mps.is_available(), torch.backends.cudnn.is_available()
torch.use_deterministic_algorithms(1)
torch.use_deterministic_algorithms(True, warn_only=1)
torch.use_deterministic_algorithms()
torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled()); torch.use_deterministic_algorithms(False); print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True, warn_only=True); print(torch.is_deterministic_algorithms_warn_only_enabled()); torch.use_deterministic_algorithms(False); print(torch.is_deterministic_algorithms_warn_only_enabled())
""")


@pytest.mark.parametrize("code", VERSION)
def test_version_and_flags_as_pytorch(code):
    _same(code)


def test_version_is_course_libs_own():
    """``torch.__version__`` stays course_lib's version (it is not PyTorch); ``torch.version`` agrees."""
    import course_lib.version
    assert course_lib.__version__ == course_lib.version.__version__ == "0.1.0"


NO_GPU = cases(r"""
torch.device(0)
torch.device(np.int64(1))
torch.device(device=0)
torch.ones(2).to(0)
torch.ones(2).to(-1)
torch.ones(2).to(device=0)
torch.ones(2, device=0)
torch.ones(2).cuda(0)
torch.ones(2).cuda()
torch.ones(2).cuda('cuda')
torch.ones(2).cuda('cpu')
torch.ones(2).cuda(torch.device('cpu'))
torch.ones(2).cuda('mps')
torch.ones(2).to('cuda0')
torch.ones(2).to('float32')
torch.ones(2).to('cuda:')
torch.ones(2).to('cuda')
torch.ones(2).to('cuda:1')
torch.ones(2).to('mps')
torch.ones(2).to(torch.device('mps'))
torch.ones(2).to('xla')
torch.ones(2).to('hip')
torch.ones(2).to('ipu')
torch.ones(2).to('vulkan')
torch.ones(2).to('xpu')
torch.ones(2).to('mtia')
torch.ones(2).to('hpu')
torch.ones(2).to('cpu:1'), torch.ones(2, device='cpu:0')
torch.ones(2).pin_memory()
torch.ones(2).is_pinned()
torch.tensor([1]).type('torch.cuda.FloatTensor')
torch.tensor([1]).type(torch.cuda.FloatTensor)
torch.cuda.get_device_properties(0)
torch.cuda.get_device_properties()
torch.cuda.FloatTensor([1.])
torch.cuda.LongTensor([1])
torch.cuda.FloatTensor, torch.cuda.FloatTensor.dtype, isinstance(torch.ones(2), torch.cuda.FloatTensor)
torch.cuda.init()
torch.cuda.set_device(0)
torch.accelerator.is_available(), torch.accelerator.current_accelerator(), torch.accelerator.device_count()
""")


@pytest.mark.parametrize("code", NO_GPU)
def test_device_errors_without_gpu_as_pytorch(code):
    if course_lib.cuda.is_available():
        pytest.skip("course_lib has a GPU here; PyTorch's CPU build answers as without one")
    _same(code)


def test_simulated_gpu_answers_as_pytorch_with_a_gpu():
    """With a GPU, ``device(0)``, ``to(0)``, ``cuda(0)`` mean cuda:0; pin_memory copies on the host."""
    torch = course_lib
    with torch.cuda.simulate():
        assert repr(torch.device(0)) == "device(type='cuda', index=0)"
        assert str(torch.ones(2).to(0).device) == str(torch.ones(2).cuda(0).device) == "cuda:0"
        assert str(torch.ones(2, device=0).device) == "cuda:0"
        x = torch.tensor([1., 2.])
        p = x.pin_memory()
        assert p.is_pinned() and not x.is_pinned() and p.device.type == "cpu" and p.tolist() == [1., 2.]
        assert p.pin_memory() is p
        with pytest.raises(RuntimeError, match="^cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be "
                                               "pinned$"):
            x.cuda().pin_memory()
        with pytest.raises(RuntimeError, match="^Invalid device, must be cuda device$"):
            x.cuda("cpu")
        y = torch.cuda.FloatTensor([1., 2.])
        assert isinstance(y, torch.cuda.FloatTensor) and not isinstance(y, torch.FloatTensor)
        assert str(y.device) == "cuda:0" and y.dtype == torch.float32
        assert x.type("torch.cuda.DoubleTensor").dtype == torch.float64
        assert x.type(torch.cuda.IntTensor).device.type == "cuda"
        props = torch.cuda.get_device_properties(0)
        assert props.name == torch.cuda.get_device_name() and repr(props).startswith("_CudaDeviceProperties(name=")
        with pytest.raises(AssertionError, match="^Invalid device id$"):
            torch.cuda.get_device_properties(1)
        torch.cuda.init()
        torch.cuda.set_device(0)
        assert torch.cuda.is_initialized()
        assert torch.accelerator.is_available() and torch.accelerator.device_count() == 1
        assert repr(torch.accelerator.current_accelerator()) == "device(type='cuda')"
        assert x.cuda().device == torch.device("cuda", 0) and x.cuda().device != "cuda:0"


def test_every_read_only_attribute_as_pytorch():
    _same("x = torch.ones(2, 2, requires_grad=True)\n"
          "for n in ['shape', 'dtype', 'device', 'T', 'mT', 'H', 'ndim', 'grad_fn', 'is_leaf', 'is_cuda', 'is_cpu',\n"
          "          'layout', 'itemsize', 'nbytes', 'output_nr', 'retains_grad', '_version', 'is_sparse', 'is_meta',\n"
          "          'is_quantized']:\n"
          "    for op in (lambda: setattr(x, n, 1), lambda: delattr(x, n)):\n"
          "        try: op()\n"
          "        except AttributeError as e: print(e)\n")


READ_ONLY = cases(r"""
x = torch.arange(6); x.shape = (2, 3)
x = torch.ones(2); x.requires_grad = 1
x = torch.ones(2); x.requires_grad = 'yes'
x = torch.ones(2); del x.requires_grad
x = torch.ones(2); x.data = [1., 2.]
x = torch.ones(2); x.data = None
x = torch.ones(2); del x.data
x = torch.ones(2, requires_grad=True); x.data = torch.zeros(3); print(x, x.shape)
x = torch.ones(2, requires_grad=True); x.grad = torch.ones(2); del x.grad; print(x.grad)
x = torch.ones(2); x.note = 'mine'; print(x.note)
""")


@pytest.mark.parametrize("code", READ_ONLY)
def test_read_only_attributes_as_pytorch(code):
    _same(code)


INPLACE_NAMES = cases(r"""
x = torch.tensor([1., 2.], requires_grad=True); y = x * 1; z = y @ y; y[0] = 3; z.backward()
x = torch.tensor([1., 2.], requires_grad=True); y = x * 1; v = y[:1]; z = y @ y; v.mul_(3); z.backward()
x = torch.tensor([1., 2.], requires_grad=True); y = x.exp(); z = y * y; y.add_(1); z.sum().backward()
x = torch.tensor([1., 2.], requires_grad=True); y = x.exp(); y.add_(1); y.sum().backward()
""")


@pytest.mark.parametrize("code", INPLACE_NAMES)
def test_inplace_error_names_the_node_as_pytorch(code):
    _same(code)


RANDOM = cases(r"""
torch.empty(3).uniform_(5, 2)
torch.empty(3).uniform_(5., 2.5)
torch.empty(3).uniform_(0, float('inf'))
torch.empty(3).uniform_(float('nan'), 1)
torch.empty(3).uniform_(-1e39, 1)
torch.empty(3, dtype=torch.float16).uniform_(0, 1e6)
torch.empty(3, dtype=torch.float16).uniform_(-6e4, 6e4)
torch.empty(3, dtype=torch.float64).uniform_(0, float('inf'))
torch.empty(3).uniform_(-3e38, 3e38)
torch.empty(3, dtype=torch.int64).uniform_()
torch.empty(3, dtype=torch.int64).uniform_(5, 2)
torch.empty(3, dtype=torch.bool).uniform_()
torch.empty(3).normal_(0, -1)
torch.empty(3).normal_(0, -0.5)
torch.empty(3).normal_(0, float('nan'))
torch.empty(3, dtype=torch.int64).normal_()
torch.empty(3, dtype=torch.int64).normal_(0, -1)
torch.empty(3, dtype=torch.uint8).normal_()
torch.manual_seed(0); print(torch.empty(3).uniform_(2, 2), torch.empty(2).uniform_(0.1, 2 / 3), torch.rand(3).uniform_(torch.tensor(0.5), 1))
torch.manual_seed(0); print(torch.empty(3, dtype=torch.float64).uniform_(0, 1e300), torch.empty(2, dtype=torch.float16).uniform_(-3, 3))
torch.bernoulli(torch.tensor([2.]))
torch.bernoulli(torch.tensor([-0.1]))
torch.bernoulli(torch.tensor([float('nan')]))
torch.bernoulli(torch.tensor([0.5]), 2.)
torch.bernoulli(torch.tensor([0.5]), -1)
torch.bernoulli(torch.tensor([0.5]), float('nan'))
torch.bernoulli(torch.tensor([1, 0]))
torch.bernoulli(torch.tensor([True]))
torch.bernoulli([0.5])
torch.bernoulli(0.5)
torch.bernoulli(torch.tensor([0.5]), 'a')
torch.manual_seed(0); print(torch.bernoulli(torch.tensor([0.5, 0.2], dtype=torch.float16)), torch.bernoulli(torch.tensor([0.5]), 1), torch.bernoulli(torch.tensor([0.5]), True))
torch.normal(torch.tensor([0, 1]), 1.)
torch.normal(torch.tensor([0, 1]), -1.)
torch.normal(0., torch.tensor([1, 1]))
torch.normal(torch.tensor([0, 1]), torch.tensor([1., 1.]))
torch.normal(torch.tensor([0., 1.]), torch.tensor([-1, 1]))
torch.normal(torch.zeros(2), torch.tensor([float('nan'), 1.]))
torch.normal(torch.zeros(2), float('nan'))
torch.normal(0, 1, 5)
torch.normal(0, 1, [2.5])
torch.normal(torch.zeros(2), 1, (3,))
torch.normal('a', 1, (2,))
torch.normal(0, 'b', (2,))
torch.normal(torch.tensor([0., 1.]), 'a')
torch.manual_seed(0); print(torch.normal(torch.tensor([0., 1.]), torch.tensor([1, 1])), torch.normal(torch.zeros(2)), torch.normal(True, 1., (2,)))
torch.manual_seed(0); print(torch.normal(torch.zeros(2, dtype=torch.float64), torch.ones(2)), torch.normal(torch.zeros(2), torch.ones(2, dtype=torch.float64)))
torch.manual_seed(0); print(torch.normal(torch.zeros(2, dtype=torch.float16), 1.), torch.normal(0., torch.ones(2, dtype=torch.float64)))
torch.Generator().initial_seed()
""")


@pytest.mark.parametrize("code", RANDOM)
def test_random_checks_as_pytorch(code):
    _same(code)


def test_default_seed_is_random_per_process_as_pytorch():
    """PyTorch seeds its default generator non-deterministically: two fresh processes differ."""
    code = "import course_lib as torch; print(torch.initial_seed())"
    seeds = {int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
             for _ in range(2)}
    assert len(seeds) == 2 and 67280421310721 not in seeds and all(0 <= s < 2 ** 64 for s in seeds)


SMALL = cases(r"""
torch.tensor([]).stride(), torch.tensor([[]]).stride(), torch.zeros(0, 3).stride(), torch.tensor([], dtype=torch.int64).stride()
x = torch.ones(2); x.copy_(3.); print(x)
x = torch.ones(2, dtype=torch.int64); x.copy_(2.7); print(x)
x = torch.ones(2); x.copy_(True); print(x)
x = torch.ones(2); x.copy_(np.float64(2.5)); print(x)
x = torch.ones(2); x.copy_([1., 2.])
x = torch.ones(2, requires_grad=True); x.copy_(3.)
x = torch.ones(2, requires_grad=True); y = x * 1; y.copy_(3.); print(y)
x = torch.ones(4, requires_grad=True); print(x.view(torch.float64), x.view(torch.int32))
x = torch.ones(4, requires_grad=True); y = x.view(torch.float16); print(y.requires_grad, y.is_leaf, y.grad_fn)
x = torch.ones(4, requires_grad=True) * 1; y = x.view(torch.float32); print(y, y.requires_grad, y.grad_fn)
x = torch.ones(4, requires_grad=True); y = x.view(torch.int32); y.add_(1); print(x._version, y.data_ptr() == x.data_ptr())
x = torch.ones(4)[1:]; y = x.view(torch.int32); print(y.storage_offset(), y.stride())
torch.zeros(0).view(torch.float64), torch.zeros(0, 4).view(torch.int16)
""")


@pytest.mark.parametrize("code", SMALL)
def test_small_mismatches_as_pytorch(code):
    _same(code)
