"""Pictures inside widgets: natural size, shrinking with a narrow window only while their text stays readable.

A widget shows its matplotlib figure as a PNG in an ``ipywidgets.Image``.
Stretched to the output's width, the PNG would be upscaled (blurry); shrunk
without limit (a 900 px window with the file browser open), its labels fall
to 6 px.  So the picture keeps its natural size, may shrink to fit the
output, but never below the scale at which its smallest text is
``MIN_TEXT_PX`` pixels; past that, its frame scrolls sideways instead.

    image = picture()                    # an Image with CSS class cl-picture, in a scrolling frame:
    frame = framed(image)                #   put ``frame`` into the widget's box
    show(image, fig)                     # draw ``fig`` into it (PNG bytes, minimum width)

``smallest_text_px(fig)`` is what the tests check for every course figure.
"""

import io
import math
import struct

__all__ = ["MIN_TEXT_PX", "smallest_text_px", "png_size", "figure_png", "picture", "framed", "show"]

MIN_TEXT_PX = 10        # the smallest text a reader should have to read, in CSS pixels


def smallest_text_px(fig):
    """The size in pixels (at the figure's dpi) of the smallest non-empty visible text of a Figure, or None.

    Counts titles, labels, tick labels, legend entries and ``ax.text``: every
    ``matplotlib.text.Text`` artist of ``fig`` that is visible and not blank.
    The figure is drawn first (tick labels exist only after drawing).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text
    if fig.canvas is None or not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes) * fig.dpi / 72 if sizes else None


def png_size(png):
    """(width, height) in pixels of PNG bytes, read from the IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def figure_png(fig):
    """PNG bytes of a Figure at its own dpi, without a timestamp (the saved notebook stays the same)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, metadata={"Software": None})
    return buf.getvalue()


def picture(css_class=None):
    """An ``ipywidgets.Image`` for a figure: natural size, left-aligned, at most the output's width."""
    import ipywidgets as widgets
    image = widgets.Image(format="png", layout=widgets.Layout(align_self="flex-start", max_width="100%",
                                                              height="auto"))
    image.add_class("cl-picture")
    if css_class:
        image.add_class(css_class)
    return image


def framed(image):
    """A box around ``image`` that scrolls sideways when the picture may not shrink any further."""
    import ipywidgets as widgets
    frame = widgets.Box([image], layout=widgets.Layout(overflow="auto", max_width="100%"))
    frame.add_class("cl-picture-frame")
    return frame


def show(image, fig, png=None):
    """Put ``fig`` (or its already made ``png``) into ``image``; returns the PNG bytes.

    The image's minimum width is the PNG's width times ``MIN_TEXT_PX /
    smallest_text_px(fig)`` (at most the full width): it shrinks with the
    window until its smallest text is ``MIN_TEXT_PX`` pixels, then stops.
    """
    png = figure_png(fig) if png is None else png
    image.value = png
    width = png_size(png)[0]
    smallest = smallest_text_px(fig)
    scale = 1.0 if not smallest else min(1.0, MIN_TEXT_PX / smallest)
    image.layout.min_width = f"{math.ceil(width * scale)}px"
    return png


def clear(image):
    """Show no picture (e.g. after an error)."""
    image.value = b""
    image.layout.min_width = None
