"""website/pages.py: notebooks added later join the site's table of contents by their file names alone."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "website"))
import pages  # noqa: E402


def _touch(root, *names):
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}")


def test_new_chapters_exercises_and_reference_pages_are_listed_in_order(tmp_path):
    _touch(tmp_path, "notebooks/00_start.ipynb", "notebooks/10_gpu.ipynb", "notebooks/08_training.ipynb",
           "notebooks/glossary.ipynb", "notebooks/cheatsheet.md", "exercises/08_training.ipynb",
           "exercises/01_creation.ipynb", "notebooks/.ipynb_checkpoints/00_start-checkpoint.ipynb", "README.md")
    assert pages.sections(tmp_path) == [
        ("课程", ["notebooks/00_start.ipynb", "notebooks/08_training.ipynb", "notebooks/10_gpu.ipynb"]),
        ("参考", ["notebooks/glossary.ipynb", "notebooks/cheatsheet.md"]),
        ("练习（只读）", ["exercises/01_creation.ipynb", "exercises/08_training.ipynb"]),
    ]


def test_empty_sections_are_left_out(tmp_path):
    _touch(tmp_path, "notebooks/00_start.ipynb")
    assert pages.sections(tmp_path) == [("课程", ["notebooks/00_start.ipynb"])]
