"""The site's page list, in one place: which files become pages, in which section, in which order.

Each section is a title and a list of glob patterns (relative to the repository root).  Files are
taken in the order of the patterns, each pattern's matches sorted by name; a file matched by an
earlier pattern or section is not listed again.  So a new chapter (``notebooks/08_x.ipynb``), a new
exercise or a glossary (``notebooks/glossary.ipynb`` or ``.md``) joins the table of contents and the
previous/next chain at the next ``make site``, with no template to edit.
"""

import pathlib

SECTIONS = [
    ("课程", ["notebooks/[0-9][0-9]_*.ipynb"]),
    # everything else in notebooks/: the glossary (术语表), the cheatsheet (速查表), ...
    ("参考", ["notebooks/*.ipynb", "notebooks/*.md"]),
    ("练习（只读）", ["exercises/[0-9][0-9]_*.ipynb"]),
]

# Pages of this section get a note at the top: the site shows them read-only.
READ_ONLY = {"练习（只读）"}


def sections(root):
    """``[(title, [path relative to root, ...]), ...]`` for the files that exist now; empty sections dropped."""
    root = pathlib.Path(root)
    seen, result = set(), []
    for title, patterns in SECTIONS:
        files = []
        for pattern in patterns:
            for path in sorted(root.glob(pattern)):
                rel = path.relative_to(root).as_posix()
                if rel not in seen and ".ipynb_checkpoints" not in path.parts:
                    seen.add(rel)
                    files.append(rel)
        if files:
            result.append((title, files))
    return result
