"""The glossary (notebooks/glossary.md) and one term per concept in everything a learner reads.

* Every chapter, solution and exercise notebook, the checkers' texts (course_lib/grading/chapters) and the
  widgets' labels (course_lib/viz) use the glossary's term, not a rejected synonym (``VARIANTS``): stride is
  步幅 (步长 is only a step: ``arange``'s ``step``, a slice's step, a step size), a leaf is a 叶节点, and so
  on.  A rejected synonym may appear where the text names it on purpose ("也叫叶子节点").
* The glossary names each preferred term, and links each term to a chapter that exists and uses the term.
* Every chapter ends with a 自测 section after its 小结 (2-3 questions, each answer in a
  ``<details><summary>答案</summary>`` block), then links to its exercise notebook (where there is one) and to
  another chapter.
"""

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "notebooks" / "glossary.md"

# (rejected synonym (regex), the glossary's term, where the synonym is allowed (regex on the text around it)).
# "around" is the 60 characters either side; "before" the 12 characters before the match.
NAMED = r"(也叫|也称|又称|旧称|俗称|译作|有的资料[^。]{0,20})\S{0,8}$"       # an explicit mention, in "before"
STEP_WORDS = r"arange|linspace|切片|step|学习率|\\eta|\$h\$|Adam|自适应|range"
STRIDE_WORDS = r"stride|步幅|连续|行优先|存储偏移"
VARIANTS = [
    # 步长 means a step; said of strides it is wrong (the course's word for stride is 步幅)
    ("步长", "步幅", lambda before, around: bool(re.search(STEP_WORDS, around))
     and not re.search(STRIDE_WORDS, around)),
    ("叶子", "叶节点", None),
    ("叶张量", "叶节点", None),
    ("逐元素", "按元素运算", None),
    ("原地运算", "原地操作", None),
    ("就地操作", "原地操作", None),
    ("梯度累积", "梯度累加", None),
    ("前向计算", "前向传播", None),
    ("反向计算", "反向传播", None),
    ("批次", "小批量", None),
    ("小批次", "小批量", None),
    ("迭代周期", "轮次", None),
    ("自动求导", "自动微分", None),
    ("学习速率", "学习率", None),
    ("代价函数", "损失函数", None),
    ("激励函数", "激活函数", None),
    ("隐含层", "隐藏层", None),
    ("丢弃法", "暂退法", None),
    ("矢量", "向量", None),
    ("纯量", "标量", None),
    ("跨度", "步幅", None),
]


def _notebook_text(path):
    """The sources of a notebook's cells (what a learner reads and runs; outputs come from them)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(cell["source"]) for cell in cells)


def _sources():
    for folder in ("notebooks", "solutions", "exercises"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            yield path, _notebook_text(path)
    for path in sorted((ROOT / "notebooks").glob("*.md")):
        if path != GLOSSARY:                     # the glossary names the rejected synonyms on purpose
            yield path, path.read_text(encoding="utf-8")
    for folder in ("course_lib/grading/chapters", "course_lib/viz"):
        for path in sorted((ROOT / folder).glob("*.py")):
            yield path, path.read_text(encoding="utf-8")


def violations(text, variants=VARIANTS):
    """``[(synonym, preferred term, the text around it), ...]`` for each rejected synonym used in ``text``."""
    found = []
    for pattern, preferred, allowed in variants:
        for m in re.finditer(pattern, text):
            before = text[max(0, m.start() - 12):m.start()]
            around = text[max(0, m.start() - 60):m.end() + 60]
            if re.search(NAMED, before) or allowed is not None and allowed(before, around):
                continue
            found.append((m.group(), preferred, text[max(0, m.start() - 25):m.end() + 25].replace("\n", " ")))
    return found


def test_the_check_finds_rejected_synonyms_and_spares_allowed_uses():
    bad = ("形状、步长（stride）与连续性", "最后一维的步长是 1，每往前一维就乘上长度。", "叶子张量的 .grad",
           "x 不再是叶子", "逐元素相乘", "`-=` 是原地运算", "每个批次的梯度", "梯度累积")
    for text in bad:
        assert violations(text), text
    good = ("`torch.arange(start, end, step)` 的步长", "浮点步长的 `arange`", "带步长的切片",
            "其中步长 $\\eta$ 叫作学习率", "叫作叶节点（leaf node），也叫叶子节点或叶子张量", "步幅（stride）",
            "有的资料把 stride 译作“步长”", "按元素运算", "原地操作")
    for text in good:
        assert not violations(text), (text, violations(text))


@pytest.mark.parametrize("path", [p for p, _ in _sources()], ids=lambda p: str(p.relative_to(ROOT)))
def test_one_term_per_concept(path):
    text = dict(_sources())[path]
    found = violations(text)
    assert not found, "\n".join(f"“{s}” -> “{t}”: …{ctx}…" for s, t, ctx in found)


def _glossary_rows():
    """``[(Chinese term, English, chapter file), ...]`` from the glossary's table rows."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and line.startswith("|") and not set(cells[0]) <= set("-: "):
            link = re.search(r"\]\(([^)#]+)(#[^)]*)?\)", cells[2])
            if link:
                rows.append((cells[0], cells[1], link.group(1)))
    return rows


def test_glossary_has_the_course_terms():
    terms = {row[0] for row in _glossary_rows()}
    assert len(terms) >= 60
    wanted = {"张量", "标量", "向量", "矩阵", "形状", "维度", "轴", "数据类型", "类型提升", "设备", "视图", "副本",
              "步幅", "步长", "存储偏移", "连续", "原地操作", "广播", "自动微分", "计算图", "叶节点", "梯度",
              "反向传播", "前向传播", "梯度累加", "学习率", "损失函数", "小批量", "轮次", "优化器", "激活函数",
              "模型参数"}
    wanted |= {preferred for _, preferred, _ in VARIANTS}
    assert wanted <= terms, sorted(wanted - terms)


def test_glossary_links_to_chapters_that_use_the_term():
    rows = _glossary_rows()
    assert rows
    for term, english, target in rows:
        chapter = GLOSSARY.parent / target
        assert re.fullmatch(r"\d\d_\w+\.ipynb", target) and chapter.exists(), (term, target)
        assert english, term
        text = "\n".join("".join(c["source"]) for c in json.loads(chapter.read_text(encoding="utf-8"))["cells"]
                         if c["cell_type"] == "markdown")
        assert term in text, f"{term} is not in {target}"


CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _markdown_cells(path):
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_ends_with_self_check_exercise_and_next_chapter(chapter):
    text = "\n\n".join(_markdown_cells(chapter))
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert "小结" in headings and "自测" in headings, headings
    summary, self_check = headings.index("小结"), headings.index("自测")
    assert self_check == summary + 1, headings
    tail = text[text.index("\n## 自测"):]
    answers = re.findall(r"<details>\s*<summary>答案</summary>\s*\n\n(.+?)\n\n</details>", tail, flags=re.S)
    assert 2 <= len(answers) <= 3 and tail.count("<details>") == len(answers), tail
    exercise = ROOT / "exercises" / chapter.name
    if exercise.exists():
        assert f"](../exercises/{chapter.name})" in tail
    links = re.findall(r"\]\(([0-9][0-9]_\w+\.ipynb|glossary\.md)\)", tail)
    assert any(link != chapter.name for link in links), tail


@pytest.mark.parametrize("chapter", CHAPTERS + [GLOSSARY], ids=lambda p: p.name)
def test_relative_links_point_to_files(chapter):
    text = GLOSSARY.read_text(encoding="utf-8") if chapter == GLOSSARY else "\n".join(_markdown_cells(chapter))
    for target in re.findall(r"\]\((?!https?:|#)([^)#\s]+)", text):
        path = (chapter.parent / target).resolve()
        assert path.exists(), f"{chapter.name} links to {target}"
