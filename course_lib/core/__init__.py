"""The teaching core of course_lib: a tensor, broadcasting and autograd, and nothing else.

``README.md`` gives the reading order: ``layout``, ``dtypes``, ``tensor``, ``graph``, ``dispatch``,
``engine``, ``grad_mode``, ``ops``, ``backend``, ``hooks``.  The core imports only the standard library
and NumPy, and runs on its own::

    import numpy as np
    from course_lib.core import dispatch, engine, ops, tensor
    x = tensor.wrap(np.array([1.0, 2.0, 3.0])).requires_grad_()
    y = dispatch.record(ops.Sum, (x,), (x._data,))      # torch.sum(x), without PyTorch's argument checks
    engine.run_backward((y,), (np.array(1.0),))         # y.backward(): x.grad is [1., 1., 1.]
"""
