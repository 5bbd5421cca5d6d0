"""The learner's reference pages say what PyTorch does: their claims run, with course_lib and with PyTorch.

``notebooks/cheatsheet.md`` (速查表):

* every ```python block runs, top to bottom in one namespace (as pasted into one notebook), with ``torch``
  bound to course_lib and then to PyTorch (the page's ``import course_lib as torch`` line is skipped);
* a top-level line ``code  # → expected，说明`` is a claim: ``expected`` is the printable-ASCII text after the
  arrow (the note starts at the first Chinese character).  An expression's ``repr`` must equal it; an expected
  ``SomeError: message`` means the line raises that exception with that message (a message ending in ``...``
  is a prefix); a note that names ``UserWarning`` means the line warns;
* the view-or-copy table: each code of a row's first column is run on ``x = arange(6.).reshape(2, 3)`` (a
  NumPy array ``a``) and must be what the second column says (view: shares x's storage; copy: does not; 本身:
  returns x itself; ...), judged by storage pointers and ``np.shares_memory``.

Links: every relative link of README.md and the two reference pages points at a file of the repository.
"""

import pathlib
import re
import warnings

import numpy as np
import pytest

import course_lib
from tests.conftest import HAVE_TORCH

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHEATSHEET = ROOT / "notebooks" / "cheatsheet.md"
TO_PYTORCH = ROOT / "notebooks" / "from_course_lib_to_pytorch.md"
README = ROOT / "README.md"

ENGINES = [pytest.param("course_lib", id="course_lib"),
           pytest.param("torch", id="torch",
                        marks=pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed"))]


def _engine(name):
    if name == "course_lib":
        return course_lib
    import torch  # noqa: PLC0415 - optional reference, imported only for its parameter
    return torch


def _python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


# ---------------------------------------------------------------- claims in code blocks

_CLAIM = re.compile(r"^(?P<code>\S.*?)\s+# → (?P<rest>.*)$")
_EXCEPTION = re.compile(r"^(?P<type>[A-Z][A-Za-z]*(Error|Exception|Warning)): (?P<message>.*)$")


def _claim(line):
    """``(code, expected, note)`` of a claim line, or None."""
    m = _CLAIM.match(line)
    if not m:
        return None
    rest = m["rest"]
    expected = re.match(r"[\x20-\x7e]*", rest).group().rstrip()
    return m["code"], expected, rest[len(expected):]


def _check_claim(code, expected, note, ns):
    """None when the line does what its comment says, else a description of the difference."""
    try:
        compiled, is_expression = compile(code, "<claim>", "eval"), True
    except SyntaxError:
        compiled, is_expression = compile(code, "<claim>", "exec"), False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = eval(compiled, ns) if is_expression else exec(compiled, ns)
            got = repr(value) if is_expression else "(no exception)"
        except Exception as e:  # noqa: BLE001 - the exception is what the claim is about
            got = f"{type(e).__name__}: {e}"
    wanted = _EXCEPTION.match(expected)
    if expected.endswith("...") and wanted:
        ok = got.startswith(expected[:-3].rstrip())
    else:
        ok = got == expected
    if not ok:
        return f"{code!r}: page says {expected!r}, got {got!r}"
    if "UserWarning" in note and not any(issubclass(w.category, UserWarning) for w in caught):
        return f"{code!r}: page says it warns (UserWarning); no warning"
    return None


def _run_page(text, engine):
    """Run every python block of ``text``; return the list of claims that do not hold, and the number checked."""
    ns = {"torch": engine, "np": np, "__name__": "cheatsheet"}
    engine.set_grad_enabled(True)
    problems, checked = [], 0
    for block in _python_blocks(text):
        pending = []
        for line in block.splitlines():
            if line.strip() in ("import course_lib as torch", "import torch") or \
                    line.startswith("import course_lib as torch "):
                continue
            claim = _claim(line)
            if claim is None:
                pending.append(line)
                continue
            exec("\n".join(pending), ns)
            pending = []
            checked += 1
            problem = _check_claim(*claim, ns)
            if problem:
                problems.append(problem)
        exec("\n".join(pending), ns)
    engine.set_grad_enabled(True)
    return problems, checked


@pytest.mark.parametrize("engine_name", ENGINES)
def test_cheatsheet_code_runs_and_every_claim_holds(engine_name):
    problems, checked = _run_page(CHEATSHEET.read_text(encoding="utf-8"), _engine(engine_name))
    assert checked >= 55, f"only {checked} claims found: has the '# →' format changed?"
    assert problems == []


def test_a_wrong_claim_is_caught():
    page = "```python\nx = torch.tensor([1, 2])\nx.dtype       # → torch.float32，错的\n" \
           "x.mean()      # → RuntimeError: mean(): something else\nx.float()  # → tensor([1., 2.])\n```\n"
    problems, checked = _run_page(page, course_lib)
    assert checked == 3
    assert problems == [
        "'x.dtype': page says 'torch.float32', got 'torch.int64'",
        "'x.mean()': page says 'RuntimeError: mean(): something else', got 'RuntimeError: mean(): could not infer "
        "output dtype. Input dtype must be either a floating point or complex dtype. Got: Long'"]


def test_a_claimed_warning_must_come():
    page = "```python\nx = torch.ones(2)\nx.sum().item()   # → 2.0，并警告 UserWarning\n```\n"
    assert _run_page(page, course_lib)[0] == ["'x.sum().item()': page says it warns (UserWarning); no warning"]


# ---------------------------------------------------------------- the view-or-copy table

def _table_rows(text, heading):
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.append((re.findall(r"`([^`]+)`", cells[0]), cells[1]))
    return rows


def _as_numpy(obj):
    return obj if isinstance(obj, np.ndarray) else obj.numpy()


def _shares(result, base):
    if isinstance(result, np.ndarray) or isinstance(base, np.ndarray):
        return np.shares_memory(_as_numpy(result), _as_numpy(base))
    return result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()


def _fixtures(engine, contiguous=True):
    x = engine.arange(6.).reshape(2, 3) if contiguous else engine.arange(6.).reshape(3, 2).t()
    return {"torch": engine, "np": np, "x": x, "a": np.array([1.0, 2.0, 3.0])}


def _verdict_holds(engine, code, verdict):
    """Run ``code`` on fresh fixtures and check ``verdict``; returns a list of problems."""
    cases = {"视图或副本": [(True, "视图"), (False, "副本")], "本身或副本": [(True, "本身"), (False, "副本")]}
    problems = []
    for contiguous, kind in cases.get(verdict, [(True, verdict)]):
        ns = _fixtures(engine, contiguous)
        x, a = ns["x"], ns["a"]
        before = x.clone()
        try:
            result = exec(code, ns) if kind == "原地修改" else eval(code, ns)
        except Exception as e:  # noqa: BLE001 - reported as the row's problem
            problems.append(f"{code} ({'contiguous' if contiguous else 'non-contiguous'} x): {type(e).__name__}: {e}")
            continue
        if kind == "原地修改":
            ok = ns["x"] is x and not engine.equal(x, before)
        else:
            parts = result if isinstance(result, tuple) else (result,)
            base = a if "(a" in code else x
            if kind == "视图":
                ok = all(p is not x and _shares(p, x) for p in parts)
            elif kind == "副本":
                ok = all(not _shares(p, base) for p in parts)
            elif kind == "本身":
                ok = result is x
            elif kind == "共享内存":
                ok = _shares(result, base)
            else:
                raise AssertionError(f"unknown verdict {kind!r} for {code!r}")
        if not ok:
            problems.append(f"{code} ({'contiguous' if contiguous else 'non-contiguous'} x): not {kind}")
    return problems


@pytest.mark.parametrize("engine_name", ENGINES)
def test_view_or_copy_table(engine_name):
    engine = _engine(engine_name)
    rows = _table_rows(CHEATSHEET.read_text(encoding="utf-8"), "## 视图还是副本")
    codes = [code for codes, _ in rows for code in codes]
    assert len(codes) >= 35 and "x.view(3, 2)" in codes and "torch.from_numpy(a)" in codes
    problems = [p for codes, verdict in rows for code in codes for p in _verdict_holds(engine, code, verdict)]
    assert problems == []


def test_a_wrong_verdict_is_caught():
    assert _verdict_holds(course_lib, "x.clone()", "视图") == ["x.clone() (contiguous x): not 视图"]
    assert _verdict_holds(course_lib, "x.t()", "本身或副本") == ["x.t() (contiguous x): not 本身",
                                                             "x.t() (non-contiguous x): not 副本"]
    assert _verdict_holds(course_lib, "torch.tensor(a)", "共享内存") == ["torch.tensor(a) (contiguous x): not 共享内存"]
    assert _verdict_holds(course_lib, "x + 0", "原地修改") == ["x + 0 (contiguous x): not 原地修改"]
    [problem] = _verdict_holds(course_lib, "x.view(-1)", "视图或副本")
    assert problem.startswith("x.view(-1) (non-contiguous x): RuntimeError: view size is not compatible")


# ---------------------------------------------------------------- links

def _relative_links(path):
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)          # code blocks hold no links
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"^[a-z]+:", target) and not target.startswith("#"):
            yield target.split("#", 1)[0]


@pytest.mark.parametrize("page", [README, CHEATSHEET, TO_PYTORCH], ids=lambda p: p.name)
def test_relative_links_point_at_files(page):
    missing = []
    for target in _relative_links(page):
        resolved = (page.parent / target).resolve()
        if not resolved.exists():
            missing.append(target)
    assert missing == []


def test_readme_lists_every_chapter_and_exercise():
    readme = README.read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\(((?:notebooks|exercises)/[0-9][0-9]_[a-z_]+\.ipynb)\)", readme))
    present = {p.relative_to(ROOT).as_posix()
               for d in ("notebooks", "exercises") for p in (ROOT / d).glob("[0-9][0-9]_*.ipynb")}
    assert present <= listed, sorted(present - listed)


# ---------------------------------------------------------------- from course_lib to PyTorch

def test_last_bit_example_prints_what_the_page_says():
    """The page's example of a last-bit difference: each engine prints what its comment line says."""
    [block] = [b for b in _python_blocks(TO_PYTORCH.read_text(encoding="utf-8")) if "# PyTorch:" in b]
    code = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
    said = dict(re.findall(r"^# (PyTorch|course_lib):\s+(.*)$", block, flags=re.M))
    assert repr(eval(code, {"torch": course_lib})) == said["course_lib"]
    if HAVE_TORCH:
        assert repr(eval(code, {"torch": _engine("torch")})) == said["PyTorch"]
    assert said["course_lib"] != said["PyTorch"]


def test_page_names_the_pinned_pytorch_version():
    pin = re.search(r'"torch==([0-9.]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    text = TO_PYTORCH.read_text(encoding="utf-8")
    assert f"torch=={pin}" in text and f"`{pin}+cpu False`" in text
    assert f"PyTorch（{pin.rsplit('.', 1)[0]} 版" in text
