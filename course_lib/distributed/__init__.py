"""``torch.distributed``: the names of PyTorch's multi-process API, for reading code written for several GPUs.

course_lib runs in one process and has no process group: ``is_available()`` is True (as in PyTorch's CPU build),
``is_initialized()`` False, and ``init_process_group`` (which reads ``RANK``, ``WORLD_SIZE``, ``MASTER_ADDR`` and
``MASTER_PORT`` from the environment, the ``env://`` rendezvous) raises PyTorch's ValueError when ``RANK`` is unset;
with the variables set it raises NotImplementedError (course_lib cannot join other processes).  The collective
operations (``all_reduce``, ``barrier``, ...) and ``get_rank`` raise PyTorch's "Default process group has not been
initialized" error.  Chapter 10 trains with real ``DistributedDataParallel`` through PyTorch (``course_lib.parallel``).
"""

import enum
import os
import warnings

__all__ = ["Backend", "ReduceOp", "all_reduce", "barrier", "broadcast", "destroy_process_group", "get_rank",
           "get_world_size", "init_process_group", "is_available", "is_gloo_available", "is_initialized",
           "is_nccl_available", "is_torchelastic_launched"]


class Backend(str):
    """A communication back end's name: ``Backend.GLOO == 'gloo'``, ``Backend.NCCL == 'nccl'``."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"

    def __new__(cls, name):
        return str.__new__(cls, name.lower())


class ReduceOp(enum.Enum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4

    def __repr__(self):
        return f"<RedOpType.{self.name}: {self.value}>"

    def __str__(self):
        return f"RedOpType.{self.name}"


_NOT_INITIALIZED = "Default process group has not been initialized, please make sure to call init_process_group."


def is_available():
    """True: the package is there (PyTorch's CPU build has it too)."""
    return True


def is_initialized():
    """Whether ``init_process_group`` has run: never in course_lib."""
    return False


def is_nccl_available():
    """False: NCCL is NVIDIA's library for GPUs; a CPU build has none."""
    return False


def is_gloo_available():
    return True


def is_torchelastic_launched():
    """Whether the process was started by ``torchrun`` (it sets ``TORCHELASTIC_RUN_ID``)."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Join the process group. course_lib has none to join.

    Raises:
        ValueError: PyTorch's message when the ``env://`` variables are missing (``RANK`` first).
        NotImplementedError: otherwise.
    """
    if backend is not None and str(backend).lower() == "nccl":
        warnings.warn("Attempted to get default timeout for nccl backend, but NCCL support is not compiled",
                      UserWarning, stacklevel=2)
    if init_method is None or init_method.startswith("env://"):
        for name, given in (("RANK", rank), ("WORLD_SIZE", world_size)):
            if given == -1 and name not in os.environ:
                raise ValueError("Error initializing torch.distributed using env:// rendezvous: environment "
                                 f"variable {name} expected, but not set")
        for name in ("MASTER_ADDR", "MASTER_PORT"):
            if name not in os.environ:
                raise ValueError("Error initializing torch.distributed using env:// rendezvous: environment "
                                 f"variable {name} expected, but not set")
    raise NotImplementedError("course_lib runs in one process and cannot join a process group; run multi-process "
                              "code with PyTorch (chapter 10 uses course_lib.parallel)")


def _not_initialized(*args, **kwargs):
    raise ValueError(_NOT_INITIALIZED)


def get_rank(group=None):
    """Raises PyTorch's ValueError: there is no process group."""
    _not_initialized()


def get_world_size(group=None):
    """Raises PyTorch's ValueError: there is no process group."""
    _not_initialized()


def barrier(group=None, async_op=False, device_ids=None):
    _not_initialized()


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _not_initialized()


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    _not_initialized()


def destroy_process_group(group=None):
    raise AssertionError("Process group cannot be None")
