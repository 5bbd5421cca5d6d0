"""The array libraries behind the devices.

A tensor's elements live in one array of an array library: a NumPy ``ndarray`` on the CPU, a CuPy
array (CuPy copies NumPy's API) on a CUDA GPU.  A tensor's device is read off the type of its array,
and every operation computes with the library that owns its operands, so one piece of code serves
both devices.

In PyTorch the same choice is made by the tensor's *dispatch key* (``c10/core/DispatchKey.h``): the
device decides which kernel runs.

The registry starts with NumPy alone.  ``course_lib/devices`` registers CuPy (or the simulated CUDA
device) through :func:`register`, and sets :data:`probe` so that CuPy is imported only the first time
someone asks for CUDA.
"""

import numpy as np

__all__ = ["register", "unregister", "registered", "backend_of", "device_of", "module_for", "to_numpy",
           "address", "writeable"]

_arrays = {np.ndarray: (np, "cpu")}      # array type -> (its library, the device its arrays are on)
_modules = {"cpu": np}                   # device type -> the library that makes new arrays there

probe = None    # hook: called once, the first time a device type other than "cpu" is asked for


def register(array_type, module, device, device_type=None):
    """Arrays of ``array_type`` are computed with ``module`` and live on ``device``.

    ``device_type`` (e.g. ``"cuda"``) also makes ``module`` the library that creates new arrays there.
    """
    _arrays[array_type] = (module, device)
    if device_type is not None:
        _modules[device_type] = module


def unregister(device_type):
    """New arrays can no longer be made on ``device_type`` (existing ones keep working)."""
    _modules.pop(device_type, None)


def registered():
    """A copy of the registry, for code that switches backends and must put them back."""
    return dict(_arrays), dict(_modules)


def backend_of(array):
    """The library (``numpy`` or ``cupy``) that owns ``array``."""
    return _arrays[array.__class__][0]


def device_of(array):
    """The device ``array`` lives on."""
    return _arrays[array.__class__][1]


def module_for(device_type):
    """The library that makes new arrays on ``device_type``; None if there is none."""
    global probe
    if device_type not in _modules and probe is not None:
        run, probe = probe, None
        run()
    return _modules.get(device_type)


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
