"""course_lib: a small, readable tensor + autograd engine with PyTorch's names and behaviour.

``import course_lib as torch`` runs the PyTorch code of the course with the same printed output and
the same error messages.  The package is built in layers; each imports only the ones below it
(``tests/test_layers.py`` holds them to it):

=====================================  ================================================================
``core/``                              the engine's ideas: tensor, views, broadcasting, dtypes, the graph,
                                       dispatch, backward, grad modes, the most used ops (read it first)
``torch_compat/``                      PyTorch's particulars: argument parsing and messages, printing,
                                       random numbers, summation order, float16 math, result layouts
``devices/``                           the CPU and CUDA backends (CuPy, or the simulated device)
``ops/``                               every public operation (``torch.add``, ``x.view``, ...)
``_tensor.py``, ``_methods.py``,       the rest of the Tensor API, the operations as methods, the
``legacy.py``, ``autograd/``, ...      legacy constructors, ``torch.autograd``, ``torch.cuda``, ...
``nn/``, ``optim/``, ``utils/``,       the library: layers, optimizers, data loading, distributions,
``distributions/``, ``serialization``  ``save`` / ``load`` in PyTorch's own file format
``viz/``, ``grading/``, ...            the course's widgets, exercise checker and grader
=====================================  ================================================================

This module only re-exports names.  A name it lacks raises AttributeError with a note: course_lib is
the part of PyTorch the course uses, and ``torch.X`` may exist although ``course_lib.X`` does not.
"""

from math import e, inf, nan, pi

from . import _methods, accelerator, autograd, backends, cuda, linalg, nn, optim, utils, version
from ._tensor import seal_properties as _seal_properties
from .autograd import (
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from .core.tensor import Tensor
from .devices import get_default_device, set_default_device
from .legacy import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    set_default_tensor_type,
)
from .ops.arithmetic import (
    add,
    allclose,
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    div,
    divide,
    eq,
    equal,
    floor_divide,
    fmod,
    ge,
    gt,
    isclose,
    le,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    maximum,
    minimum,
    mul,
    multiply,
    ne,
    neg,
    negative,
    positive,
    pow,
    reciprocal,
    remainder,
    rsub,
    square,
    sub,
    subtract,
    true_divide,
)
from .ops.creation import (
    arange,
    as_tensor,
    asarray,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    scalar_tensor,
    tensor,
    zeros,
    zeros_like,
)
from .ops.indexing import (
    gather,
    index_add,
    index_fill,
    index_select,
    masked_fill,
    masked_select,
    nonzero,
    repeat_interleave,
    scatter,
    scatter_add,
    take,
)
from .ops.linalg import bmm, dot, einsum, inner, matmul, mm, mv, outer
from .ops.math import (
    abs,
    absolute,
    acos,
    arccos,
    arcsin,
    arctan,
    asin,
    atan,
    ceil,
    clamp,
    clamp_max,
    clamp_min,
    clip,
    cos,
    erf,
    exp,
    expm1,
    floor,
    isfinite,
    isinf,
    isnan,
    lerp,
    log,
    log1p,
    log2,
    log10,
    relu,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    tan,
    tanh,
    trunc,
    where,
)
from .ops.random import (
    bernoulli,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
)
from .ops.reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    count_nonzero,
    cumprod,
    cumsum,
    logsumexp,
    max,
    mean,
    median,
    min,
    norm,
    prod,
    return_types,
    std,
    sum,
    trace,
    var,
)
from .ops.softmax import log_softmax, softmax
from .ops.sorting import argsort, sort, topk, unique
from .ops.triangular import tril, triu
from .ops.views import (
    as_strided,
    broadcast_shapes,
    broadcast_tensors,
    cat,
    chunk,
    clone,
    concat,
    concatenate,
    contiguous_format,
    diag,
    diagonal,
    flatten,
    flip,
    fliplr,
    flipud,
    hstack,
    moveaxis,
    movedim,
    narrow,
    preserve_format,
    roll,
    select,
    split,
    squeeze,
    stack,
    swapaxes,
    swapdims,
    t,
    tensor_split,
    transpose,
    unbind,
    unflatten,
    unsqueeze,
    view_as,
    vstack,
)

# the function forms take the sizes as one tuple: torch.reshape(x, (2, 3)), x.reshape(2, 3)
from .ops.views import torch_broadcast_to as broadcast_to
from .ops.views import torch_permute as permute
from .ops.views import torch_reshape as reshape
from .ops.views import torch_tile as tile
from .torch_compat import dtypes as _dtype
from .torch_compat.arguments import missing_attribute as _missing_attribute
from .torch_compat.arguments import tensor_expected as _tensor_expected
from .torch_compat.device import AcceleratorError, device
from .torch_compat.dtypes import (
    bfloat16,
    bool,
    can_cast,
    cdouble,
    cfloat,
    chalf,
    complex32,
    complex64,
    complex128,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .torch_compat.inference import is_inference_mode_enabled
from .torch_compat.printing import get_printoptions, set_printoptions
from .torch_compat.random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .torch_compat.size import Size
from .version import __version__  # course_lib's own version, not PyTorch's

_seal_properties()        # x.shape = ...: "attribute 'shape' of 'torch._C.TensorBase' objects is not writable"

from . import distributed, distributions, serialization  # noqa: E402, F401 - torch.distributed, ...
from ._tensor import strided  # noqa: E402
from .serialization import load, save  # noqa: E402 - torch.save / torch.load in PyTorch's file format


def is_inference(input):
    """``input.is_inference()``. Mirrors ``torch.is_inference``."""
    return input.is_inference()


def is_tensor(obj):
    """True if ``obj`` is a Tensor. Mirrors ``torch.is_tensor``."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """True if ``input`` has a floating dtype. Mirrors ``torch.is_floating_point``."""
    if not isinstance(input, Tensor):
        raise _tensor_expected("is_floating_point", input)
    return input.is_floating_point()


def numel(input):
    """Number of elements of ``input``. Mirrors ``torch.numel``."""
    if not isinstance(input, Tensor):
        raise _tensor_expected("numel", input)
    return input.numel()


def result_type(tensor1, tensor2):
    """The dtype of an arithmetic op on the two operands (tensors or numbers). Mirrors ``torch.result_type``."""
    return _dtype.result_type(tensor1, tensor2)


def get_num_threads():
    """Threads NumPy's BLAS may use (reported as 1 when unknown)."""
    return 1


def set_num_threads(n):
    """Accepted for compatibility; course_lib leaves BLAS threading to NumPy."""
    return None


_deterministic = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms. course_lib's are deterministic already (NumPy/CuPy, seeded
    random numbers), so this only records the flags. Mirrors ``torch.use_deterministic_algorithms``.

    Raises:
        TypeError: a flag that is not a bool, with PyTorch's message.
    """
    for name, flag, position in (("mode", mode, " (position 1)"), ("warn_only", warn_only, "")):
        if flag is not True and flag is not False:
            raise TypeError(f"_set_deterministic_algorithms(): argument '{name}'{position} must be bool, not "
                            f"{type(flag).__name__}")
    _deterministic.update(mode=mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled():
    """The ``mode`` last given to ``use_deterministic_algorithms`` (False at first)."""
    return _deterministic["mode"]


def is_deterministic_algorithms_warn_only_enabled():
    """The ``warn_only`` last given to ``use_deterministic_algorithms`` (False at first)."""
    return _deterministic["warn_only"]


def __getattr__(name):                   # only for names the module does not have
    raise _missing_attribute("course_lib", name)
