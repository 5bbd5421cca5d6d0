"""Sphinx configuration of the course's static website (built by ``website/build.py``; see website/README.md).

Sphinx + MyST-NB renders the committed notebooks without running them; Furo gives the table of
contents, previous/next links and search.  Everything a page loads is inside the site: MathJax 3
comes from the sphinx-mathjax-offline package, the Chinese font is a subset made at build time,
and the ipywidgets JavaScript (which would come from a CDN) is switched off: a widget cell shows
the PNG that the widget saved next to its live view.
"""

import pathlib

project = "PyTorch 基础：动手学张量与自动微分"
author = "课程作者"
copyright = "课程作者；代码 MIT，课程文字 CC BY-SA 4.0"
language = "zh_CN"                       # Sphinx's Chinese UI strings; search splits words with jieba

extensions = ["myst_nb", "sphinx-mathjax-offline"]

root_doc = "index"
exclude_patterns = ["**/.ipynb_checkpoints"]
templates_path = ["_templates"]

# --- notebooks: shown as saved, never executed ---------------------------------------------------
nb_execution_mode = "off"
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
# A widget's live view needs a kernel (or the widget manager from a CDN): drop that MIME type, so
# the output's next choice, the image/png the widget saved, is what the page shows.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}                    # no require.js / html-manager scripts from a CDN
nb_merge_streams = True

# --- HTML ---------------------------------------------------------------------------------------
html_theme = "furo"
html_title = "PyTorch 基础"
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_copy_source = False                 # no _sources/ copies of the notebooks
html_show_sourcelink = False
html_last_updated_fmt = None
html_permalinks_icon = "#"

_CJK = '"Course CJK"'
html_theme_options = {
    "light_css_variables": {
        "font-stack": f'{_CJK}, -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif',
        "font-stack--monospace": f'"SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace, {_CJK}',
        "font-stack--headings": f'{_CJK}, -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif',
    },
    "navigation_with_keys": True,
}

# the search index: Chinese words cut with jieba (sphinx.search.zh)
html_search_language = "zh"
# the result snippets would be fetched with fetch(), which a page opened from disk (file://) may not do:
# every result would log an error.  Titles and section names are shown without it.
html_show_search_summary = False

# Furo's UI strings that Sphinx's zh_CN catalog lacks ("Next", "On this page", ...)
# (an absolute path: Sphinx would read a relative one against the staged sources)
locale_dirs = [str(pathlib.Path(__file__).resolve().parent / "locale")]
html_show_sphinx = False

try:                                     # jieba prints its dictionary loading at DEBUG level
    import logging

    import jieba
    jieba.setLogLevel(logging.WARNING)
except ImportError:
    pass


def setup(app):
    # Sphinx 9.0's Chinese search ships the English stemmer (for the Latin words in Chinese text) but
    # names it "ChineseStemmer" in language_data.js, an undefined name that breaks search.html; name
    # the class that the file defines.  Harmless where Sphinx already gets it right.
    from sphinx.search import zh
    if zh.SearchChinese.js_stemmer_rawcode == "english-stemmer.js":
        zh.SearchChinese.language_name = "English"
    return {"parallel_read_safe": True}
