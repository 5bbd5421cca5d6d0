"""The catalogue: every public operation (``torch.add``, ``x.view``, ``torch.randn`` ...), one module per family.

Each module defines its operations as ``Op`` subclasses (``course_lib/core/graph.py``: forward and
backward side by side) and the public functions that check their arguments as PyTorch does, then run
the Op through ``_dispatch.py`` (the core's dispatch plus PyTorch's operand checks, ``out=`` and the fast
paths).  ``course_lib/__init__.py`` re-exports the functions, ``course_lib/_methods.py`` makes them
Tensor methods.  This layer imports the core, torch_compat and devices, nothing above them.

===================  ==================================================================================
``_dispatch.py``     run an op: operands, ``out=``, in-place writes, fast paths (read it with core/dispatch)
``creation.py``      ``tensor``, ``zeros``, ``arange``, ``linspace``, ``from_numpy`` ...
``conversion.py``    ``Tensor.to``: dtype and device changes
``arithmetic.py``    ``+ - * / ** % //``, comparisons, bitwise and logical operators
``math.py``          element-wise functions: ``exp``, ``sqrt``, ``clamp``, ``where``, ``lerp`` ...
``reduction.py``     ``sum``, ``mean``, ``max``, ``std``, ``norm``, ``cumsum`` ...
``views.py``         ``view``, ``reshape``, ``transpose``, ``cat`` ... (views and the copies beside them)
``indexing.py``      ``x[...]``, ``x[...] = v``, ``gather``, ``scatter``, ``index_select`` ...
``linalg.py``        ``dot``, ``mv``, ``mm``, ``bmm``, ``matmul`` (``@``)
``softmax.py``       ``softmax``, ``log_softmax``
``sorting.py``       ``sort``, ``argsort``, ``topk``, ``unique``
``triangular.py``    ``tril``, ``triu``
``random.py``        ``rand``, ``randn``, ``randint``, ``normal`` ... (PyTorch's generator)
``loss.py``          the loss nodes of ``nn.functional`` (``NllLoss``, ``BinaryCrossEntropy`` ...)
===================  ==================================================================================
"""
