"""``nn.DataParallel``: one module run on several GPUs, each on a slice of the batch (``torch.nn.parallel``).

Without a GPU, PyTorch's ``DataParallel`` keeps ``device_ids`` empty and just calls the wrapped module; so does
course_lib.  With CUDA (CuPy, or ``torch.cuda.simulate()``) course_lib has one GPU: the module is moved to ``cuda:0``
and called on the inputs moved there, which is what PyTorch does with one GPU.  Its parameters are the module's,
named ``module.weight`` and so on, as in PyTorch.  For real multi-process training see chapter 10
(``course_lib.parallel``, which runs PyTorch's ``DistributedDataParallel``).
"""

from .. import cuda
from ..torch_compat.device import device as _device_cls
from .module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Wrap ``module`` to split each batch along ``dim`` across ``device_ids``. Mirrors ``torch.nn.DataParallel``."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if not cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(cuda.device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_index(d) for d in device_ids]
        self.output_device = _index(output_device)
        self.src_device_obj = _device_cls("cuda", self.device_ids[0])
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(f"module must have its parameters and buffers on device {self.src_device_obj} "
                                   f"(device_ids[0]) but found one of them on device: {t.device}")
        inputs = tuple(x.to(self.src_device_obj) if hasattr(x, "to") else x for x in inputs)
        return self.module(*inputs, **kwargs)


def _index(d):
    return d if isinstance(d, int) else _device_cls(d).index
