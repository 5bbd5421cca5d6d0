"""A Chinese font for matplotlib, from the ``mplfonts`` package (no system install, no network).

Matplotlib's default font has no Chinese characters: labels become boxes
and every figure warns "Glyph ... missing".  ``use_chinese_font()``
registers the Noto Sans CJK SC file that ``mplfonts`` ships and puts it
first in ``font.sans-serif``.  Importing ``course_lib.viz`` calls it.
"""

import os

__all__ = ["use_chinese_font", "chinese_font_path"]

FAMILY = "Noto Sans CJK SC"


def chinese_font_path():
    """Path of the Noto Sans CJK SC font file shipped by mplfonts, or None if it is not installed."""
    try:
        import mplfonts
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(mplfonts.__file__), "fonts", "NotoSansCJKsc-Regular.otf")
    return path if os.path.exists(path) else None


def use_chinese_font():
    """Make matplotlib draw Chinese text with Noto Sans CJK SC; returns the family name (None if missing)."""
    import matplotlib
    from matplotlib import font_manager
    path = chinese_font_path()
    if path is None:
        return None
    if FAMILY not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(path)
    families = [FAMILY] + [f for f in matplotlib.rcParams["font.sans-serif"] if f != FAMILY]
    matplotlib.rcParams["font.sans-serif"] = families
    matplotlib.rcParams["font.family"] = "sans-serif"
    matplotlib.rcParams["axes.unicode_minus"] = False
    return FAMILY
