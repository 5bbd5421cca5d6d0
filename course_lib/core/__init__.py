"""The teaching core of course_lib: a tensor, broadcasting and autograd, and nothing else.

Read it in this order (``README.md`` says more about each file):

==============  =================================================================================
``layout.py``   strides, the view rule, broadcasting and summing a gradient back to a shape
``dtypes.py``   the nine dtypes and PyTorch's type promotion
``tensor.py``   the Tensor: memory seen through shape, strides and offset; requires_grad, grad, version
``graph.py``    nodes and edges of the backward graph, what forward saved, the Op base class
``dispatch.py`` running an op: operands, forward, recording the node; views; in-place writes
``engine.py``   backward: dependencies, the ready queue, accumulating gradients
``grad_mode.py`` no_grad / enable_grad / set_grad_enabled
``ops.py``      the ops the chapters use most: + - * /, relu, sum, mm and the views
``backend.py``  the array library behind each device (NumPy; CuPy on a GPU)
``hooks.py``    where the layers around the core attach PyTorch's numerics and checks
==============  =================================================================================

The core imports only the standard library and NumPy, and runs on its own::

    import numpy as np
    from course_lib.core import dispatch, ops, tensor
    x = tensor.wrap(np.array([1.0, 2.0, 3.0])).requires_grad_()
    y = dispatch.record(ops.Sum, (x,), (x._data,))      # torch.sum(x) without argument checks
    y.backward()                                        # x.grad: ones
"""

from . import engine  # noqa: F401 - attaches Tensor.backward
