"""The array libraries behind the devices (README.md, 9).

A tensor's elements live in a NumPy array on the CPU, a CuPy array (NumPy's API) on a CUDA GPU; its
device is read off its array's type, and operations compute with the library that owns their
operands.  ``course_lib/devices`` registers CuPy (or the simulated device) and sets :data:`probe`.

In PyTorch the device's dispatch key (``c10/core/DispatchKey.h``) decides which kernel runs.
"""

import numpy as np

__all__ = ["arrays", "libraries", "register", "backend_of", "device_of", "module_for", "to_numpy", "address",
           "writeable"]

arrays = {np.ndarray: (np, "cpu")}      # array type -> (its library, the device its arrays are on)
libraries = {"cpu": np}                 # device type -> the library that makes new arrays there

probe = None    # hook: probe(device_type) is called when new arrays are asked for on an unregistered device type


def register(array_type, module, device, device_type=None):
    """Arrays of ``array_type`` are computed with ``module`` and live on ``device``; with ``device_type``
    (e.g. ``"cuda"``), ``module`` also makes the new arrays there."""
    arrays[array_type] = (module, device)
    if device_type is not None:
        libraries[device_type] = module


def backend_of(array):
    """The library (``numpy`` or ``cupy``) that owns ``array``."""
    return arrays[array.__class__][0]


def device_of(array):
    """The device ``array`` lives on."""
    return arrays[array.__class__][1]


def module_for(device_type):
    """The library that makes new arrays on ``device_type``; None if there is none."""
    if device_type not in libraries and probe is not None:
        probe(device_type)
    return libraries.get(device_type)


def to_numpy(array):
    """``array`` as a NumPy array (copied to the host if it lives elsewhere)."""
    return array if array.__class__ is np.ndarray else array.get()


def address(array):
    """The memory address of ``array``'s first element."""
    if array.__class__ is np.ndarray:
        return array.__array_interface__["data"][0]
    return array.data.ptr


def writeable(array):
    """False for a read-only NumPy array (NumPy's broadcast views); other libraries have no such flag."""
    return array.__class__ is not np.ndarray or array.flags.writeable
