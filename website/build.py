"""Build the course's static website: ``python website/build.py`` (what ``make site`` runs).

1. Stage the pages listed by ``website/pages.py`` into ``_build/site-src/`` (same relative paths,
   so the notebooks' links to each other keep working), with a generated ``index.md`` holding the
   table of contents; exercise pages get a note that the site shows them read-only.
2. Sphinx + MyST-NB (theme Furo) renders them into ``_build/site/`` without executing anything:
   the committed outputs are what the pages show.
3. The Chinese font: the characters the site uses, cut out of the Noto Sans CJK SC file that
   mplfonts ships (fontTools), saved as ``_static/fonts/course-cjk.woff2``, so Chinese renders
   on a machine without a CJK font and nothing is fetched from outside the site.
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import pages  # noqa: E402 - the page list, next to this file

FONT_NAME = "course-cjk.woff2"
READ_ONLY_NOTE = (
    "```{{note}}\n本页是练习的**只读版本**，代码单元格不能在网页上运行。要作答，请在 JupyterLab 中打开 "
    "`{path}`（在课程目录里运行 `make lab`），写完一题后运行 `check(\"q1\")` 查看反馈。\n```\n"
)

INDEX = """\
# PyTorch 基础：动手学张量与自动微分

这是一门用 Jupyter 笔记本讲授 PyTorch 基础的动手课程：张量（tensor）的创建、数据类型与设备、
视图与副本、运算与形状、广播机制、自动微分、梯度下降，以及 GPU 与并行计算。

本网站是课程的只读版本：每一章都带着运行后保存的输出，交互控件（widget）显示为保存时的图片。
要运行代码、拖动控件、做练习，请在本地克隆课程后运行 `make lab`，在 JupyterLab 中打开同一章。

{toctrees}
"""


def stage(src):
    """Copy the listed pages into ``src`` and write its ``index.md``; returns the sections."""
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    sections = pages.sections(ROOT)
    toctrees = []
    for title, files in sections:
        for rel in files:
            target = src / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if title in pages.READ_ONLY and rel.endswith(".ipynb"):
                _write_read_only(ROOT / rel, target, rel)
            else:
                shutil.copyfile(ROOT / rel, target)
        entries = "\n".join(rel.rsplit(".", 1)[0] for rel in files)
        toctrees.append(f"```{{toctree}}\n:caption: {title}\n:maxdepth: 1\n\n{entries}\n```\n")
    (src / "index.md").write_text(INDEX.format(toctrees="\n".join(toctrees)), encoding="utf-8")
    return sections


def _write_read_only(path, target, rel):
    nb = json.loads(path.read_text(encoding="utf-8"))
    note = {"cell_type": "markdown", "metadata": {}, "source": READ_ONLY_NOTE.format(path=rel)}
    cells = nb["cells"]
    # after the title cell, so the page's title stays the notebook's own
    at = 1 if cells and cells[0]["cell_type"] == "markdown" and cells[0]["source"] else 0
    if cells and "id" in cells[0]:
        note["id"] = "site-read-only-note"
    cells.insert(at, note)
    target.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")


def sphinx(src, out, strict):
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(HERE), str(src), str(out),
           "-d", str(src.parent / "site-doctrees")]
    if strict:
        cmd += ["-W", "--keep-going"]
    subprocess.run(cmd, check=True)


def site_characters(out):
    """Every non-ASCII character of the built site's HTML and JavaScript (page text, search index, UI strings)."""
    chars = set()
    for path in out.rglob("*"):
        if path.suffix in {".html", ".js"} and "mathjax" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="ignore")
            # the search index and translations hold \\uXXXX escapes
            text += "".join(chr(int(h, 16)) for h in re.findall(r"\\u([0-9a-fA-F]{4})", text))
            chars.update(c for c in text if ord(c) > 0x7F)
    return chars


def subset_font(out, chars):
    """Cut ``chars`` out of Noto Sans CJK SC into ``_static/fonts/course-cjk.woff2``; returns its size in bytes."""
    from fontTools import subset

    from course_lib.viz.fonts import chinese_font_path
    font = chinese_font_path()
    if font is None:
        raise SystemExit("make site needs the CJK font of mplfonts (the lab extra)")
    target = out / "_static" / "fonts" / FONT_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.desc = False
    loaded = subset.load_font(font, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(loaded)
    subset.save_font(loaded, str(target), options)
    return target.stat().st_size


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "_build" / "site"), help="output folder (default _build/site)")
    ap.add_argument("--strict", action="store_true", help="turn Sphinx warnings into errors")
    args = ap.parse_args(argv)
    out = pathlib.Path(args.out).resolve()
    src = out.parent / "site-src"
    start = time.perf_counter()
    sections = stage(src)
    shutil.rmtree(out, ignore_errors=True)
    sphinx(src, out, args.strict)
    shutil.rmtree(out / "_sources", ignore_errors=True)      # empty: html_copy_source is off
    chars = site_characters(out)
    size = subset_font(out, chars)
    n = sum(len(files) for _, files in sections)
    print(f"site: {n} pages + index in {out} ({len(chars)} characters in the CJK font subset, "
          f"{size // 1024} KiB), {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
