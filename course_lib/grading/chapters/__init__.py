"""The tests of each chapter's exercises: one module per chapter, ``ch<stem>``.

``QUESTIONS`` in each module lists the question classes in notebook order.
:func:`load` finds a chapter by its stem (``"05_broadcasting"``) or number (``"05"``).
"""

import importlib

__all__ = ["STEMS", "load", "module_name", "stem_of"]

STEMS = (
    "01_tensor_creation",
    "02_dtypes_devices_numpy",
    "03_views_and_copies",
    "04_operations_and_shapes",
    "05_broadcasting",
    "06_autograd",
    "07_gradient_descent",
    "08_training_a_network",
    "09_engine_internals",
    "10_gpu_and_parallel",
)


def stem_of(text):
    """The chapter stem named by ``text`` (a stem, a number like ``"05"``, or a file name holding one), or None."""
    text = str(text)
    for stem in STEMS:
        if stem in text:
            return stem
    for stem in STEMS:
        if text == stem[:2] or text == stem[:2].lstrip("0"):
            return stem
    return None


def module_name(stem):
    """``"05_broadcasting"`` -> ``"course_lib.grading.chapters.ch05_broadcasting"``."""
    return f"{__name__}.ch{stem}"


def load(chapter):
    """The test module of ``chapter`` (a stem or a number).

    Raises:
        KeyError: when no chapter has that stem or number.
    """
    stem = stem_of(chapter)
    if stem is None:
        raise KeyError(f"no exercises for chapter {chapter!r}; chapters: {', '.join(STEMS)}")
    return importlib.import_module(module_name(stem))
