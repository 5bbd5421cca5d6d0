"""The batch grader's plumbing: reading any file, what is loaded where the functions are tested,
the sandbox's copy of the tests, the report folder, resuming after the grader was killed, a dead
worker, the fallback without namespaces, and the grader's memory under an output flood.
"""

import copy
import csv
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import nbformat
import psutil
import pytest

from course_lib.grading import _definitions, _observe, _sandbox, _view, _worker, chapters
from course_lib.grading import grader as batch

sys.path.insert(0, str(pathlib.Path(__file__).parent / "fixtures"))
import attacks  # noqa: E402
import submissions as fixtures  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
SANDBOX = _sandbox.probe()[0]
GRADE = [sys.executable, "-m", "course_lib.grading", "grade"]


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def test_an_nbformat3_notebook_is_upgraded(tmp_path):
    nb = fixtures.filled_exercise()
    path = tmp_path / "v3.ipynb"
    path.write_text(nbformat.writes(nbformat.convert(copy.deepcopy(nb), 3), version=3), encoding="utf-8")
    assert "worksheets" in json.loads(path.read_text(encoding="utf-8"))
    read, problem = _worker.read_submission(path)
    assert problem is None and read.nbformat == 4
    assert [c.source for c in read.cells if c.cell_type == "code"] == \
        [c.source for c in nb.cells if c.cell_type == "code"]
    assert _worker.detect_chapter(read, path) == "05_broadcasting"


def test_bytes_that_are_not_utf8_cost_only_their_cell(tmp_path):
    nb = fixtures.filled_exercise()
    fixtures.answer_cell(nb, "q3").source = "# BAD\n" + fixtures.answer_cell(nb, "q3").source
    path = tmp_path / "bytes.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + nbformat.writes(nb).encode().replace(b"# BAD", b"# \xff bad"))
    read, problem = _worker.read_submission(path)
    assert problem is None
    bad = _worker.unencodable_cells(read)
    assert [read.cells[i].source.splitlines()[1] for i in bad] == \
        [fixtures.answer_cell(nb, "q3").source.splitlines()[1]]


def test_a_notebook_whose_metadata_names_another_chapter_than_its_file_name_says_so():
    nb = fixtures.filled_exercise()
    nb.metadata["course_lib"]["chapter"] = "01_tensor_creation"
    stem = _worker.detect_chapter(nb, "alice/05_broadcasting.ipynb")
    assert stem == "01_tensor_creation"
    assert "05_broadcasting" in _worker.chapter_note(nb, "alice/05_broadcasting.ipynb", stem)
    assert _worker.chapter_note(nb, "alice/05_broadcasting.ipynb", "05_broadcasting", "05") is None
    assert _worker.chapter_note(nb, "alice/homework.ipynb", stem) is None


@pytest.mark.parametrize("text, words", [("", "空"), ("{", "JSON"), ("[1, 2]", "cells"), ('{"a": 1}', "cells"),
                                         ('{"cells": 3, "nbformat": 4}', "")])
def test_files_that_are_not_notebooks_get_a_reason(tmp_path, text, words):
    path = tmp_path / "x.ipynb"
    path.write_text(text, encoding="utf-8")
    nb, problem = _worker.read_submission(path)
    assert nb is None and problem and words in problem


# ---------------------------------------------------------------------------
# What is loaded where the functions are tested
# ---------------------------------------------------------------------------

def _plan(source, until=None):
    plan = _definitions.plan_cell(source, until)
    tree = __import__("ast").parse(source)
    return [type(tree.body[i]).__name__ for i in plan["run"]], [s["why"] for s in plan["skipped"]]


def test_definitions_imports_and_plain_assignments_are_loaded():
    source = ("import course_lib as torch\nfrom course_lib.grading import checker\n"
              "check, check_all = checker('05_broadcasting')\n"
              "x = torch.arange(6).view(2, 3)\nanswers = {'a': (2, 3), 'b': torch.float32, 'c': x.shape}\n"
              "n: int = 3\nn += 1\n'''a docstring'''\n"
              "@torch.no_grad()\ndef f(a, b=2):\n    return a\n"
              "class F(torch.autograd.Function):\n    '''doc'''\n    @staticmethod\n    def forward(ctx, x):\n"
              "        return x\n"
              "try:\n    import numpy as np\nexcept ImportError:\n    pass\n"
              "if True:\n    y = 1\n")
    kinds, skipped = _plan(source)
    assert kinds == ["Import", "ImportFrom", "Assign", "Assign", "Assign", "AnnAssign", "AugAssign", "Expr",
                     "FunctionDef", "ClassDef", "Try", "If"]
    assert skipped == []


@pytest.mark.parametrize("source", [
    "print(1)", "check('q1')", "torch.Tensor.mean = None", "d['k'] = 1", "for i in range(3):\n    pass",
    "_ = setattr(torch, 'x', 1)", "v = vars(torch)", "d = torch.__dict__", "c = f.__code__", "t = type(x)(1)",
    "g = getattr(torch, 'ones')", "e = exec('1')", "o = open('f')", "w = (lambda: 1)()", "x.attr += 1",
    "class A(metaclass=M):\n    pass", "class A:\n    print(1)", "def f(a=x.__class__):\n    pass",
    "@setattr\ndef f():\n    pass", "from numpy.lib.stride_tricks import as_strided",
    "a = np.lib.stride_tricks.as_strided(x, (9,), (8,))", "try:\n    y = 1\nexcept Exception:\n    pass",
    "with open('f') as f:\n    pass", "__builtins__ = {}", "ip = get_ipython()",
])
def test_other_top_level_code_is_not_loaded(source):
    kinds, skipped = _plan(source)
    assert kinds == [] and len(skipped) <= 1


def test_a_failed_cell_is_loaded_up_to_its_failing_line():
    source = "import math\ndef f():\n    return 1\nraise ValueError\ndef g():\n    return 2\n"
    assert _plan(source, until=4)[0] == ["Import", "FunctionDef"]
    assert _definitions.plan_cell("def (:")["run"] == []


def _load(source):
    plan = _definitions.plan_cell(source)
    return _observe.load([{"index": 0, "source": source, "run": plan["run"]}])


def test_the_load_guard_refuses_calls_of_the_learners_own_code_and_outside_the_libraries(tmp_path):
    import course_lib as torch
    flag = tmp_path / "ran"
    ns, report = _load(
        "import os, sys\nimport course_lib as torch\nimport course_lib.grading.core as core\n"
        "ran = []\n"
        "def helper():\n    ran.append(1)\n    return 1\n"
        f"a = helper()\nb = os.system('touch {flag}')\nc = sys.modules.update({{}})\n"
        "d = sys.path.append('/tmp')\ne = torch.grading.core.observe_question(None, None)\n"
        "f = sorted([2, 1], key=lambda v: ran.append(v))\ng = [helper() for _ in range(2)]\n"
        "class Base:\n    def __init_subclass__(cls):\n        ran.append(2)\n"
        "class Child(Base):\n    pass\n"
        "ok = torch.ones(2).sum().item()\nshape = torch.arange(6).view(2, 3).shape\n"
        "answers = {'a': torch.float32, 'b': (torch.tensor([1, 2]) + 1.5).dtype}\n"
        "import numpy as np\narr = np.arange(3) * 2\n")
    refused = {r["line"] for r in report["refused"]}
    assert refused == {8, 9, 10, 11, 12, 13, 14, 18}, report
    assert ns["ran"] == [] and not flag.exists() and "/tmp" not in sys.path[-1:]
    assert ns["ok"] == 2.0 and tuple(ns["shape"]) == (2, 3) and ns["answers"] == {"a": torch.float32,
                                                                                   "b": torch.float32}
    assert list(ns["arr"]) == [0, 2, 4] and "Child" not in ns
    assert sys.getprofile() is None


@pytest.fixture()
def tables():
    """A library module with the kinds of tables course_lib keeps (restored afterwards), and a flag."""
    import types

    import numpy as np
    module = types.ModuleType("course_lib._clg_test_tables")
    module.TABLE, module.ITEMS, module.ARRAY = {"float64": "float64"}, [1], np.zeros(3)
    module.flag = []
    exec("def swallow(fn):\n    try:\n        fn()\n    except BaseException:\n        pass\n", module.__dict__)
    sys.modules[module.__name__] = module
    import course_lib.core.dtypes as dtypes
    saved = dict(dtypes._BY_NUMPY)
    mean = sys.modules["course_lib"].Tensor.mean
    try:
        yield module
    finally:
        del sys.modules[module.__name__]
        dtypes._BY_NUMPY.clear()
        dtypes._BY_NUMPY.update(saved)
        sys.modules["course_lib"].Tensor.mean = mean


def _untouched(module):
    import numpy as np

    import course_lib
    import course_lib.core.dtypes as dtypes
    assert module.TABLE == {"float64": "float64"} and module.ITEMS == [1] and not module.ARRAY.any()
    assert module.flag == [] and "clg_marker_module" not in sys.modules
    assert dtypes._BY_NUMPY[np.dtype("float64")] is course_lib.float64
    assert course_lib.Tensor.mean.__module__.startswith("course_lib")
    assert sys.getprofile() is None


SETUP = "import builtins, functools, itertools, operator\nimport numpy as np\nimport course_lib as torch\n" \
        "from course_lib._clg_test_tables import TABLE, ITEMS, ARRAY, flag, swallow\n" \
        "from course_lib.core.dtypes import _BY_NUMPY\n" \
        "def _evil(*args):\n    import course_lib\n    course_lib.Tensor.mean = _evil\n    flag.append(1)\n" \
        "    return list\n"


@pytest.mark.parametrize("source", [
    # in-place operators fire no call event: `|=` on a module's dict, `+=` on its list, on a numpy array
    "_BY_NUMPY |= {np.dtype('float64'): torch.float32}\nTABLE |= {'float64': 'float32'}\n"
    "ITEMS += [2]\nARRAY += 1\nfrom sys import modules\nmodules |= {'clg_marker_module': 1}\n",
    "class A:\n    t = TABLE\n    t |= {'x': 1}\n",
    # C functions called by C (map, partial, starmap) fire no c_call event; nor does a ufunc with out=
    "_ = list(map(builtins.setattr, [torch.Tensor], ['mean'], [_evil]))\n",
    "_ = list(map(TABLE.update, [{'x': 1}]))\n_ = functools.partial(dict.update, TABLE, {'x': 1})()\n",
    "_ = list(itertools.starmap(operator.setitem, [(TABLE, 'x', 1)]))\n_ = sorted([ITEMS], key=list.clear)\n",
    "_ = np.add(ARRAY, 1, out=ARRAY)\n_ = ARRAY.fill(1)\n_ = list(map(np.add, [ARRAY], [1], [ARRAY]))\n",
    # a table that reaches the callee through an iterator, which no check of the arguments opens
    "g = (t for t in [TABLE])\n_ = list(itertools.starmap(dict.update, zip(g, [{'x': 1}])))\n"
    "h = (a for a in [ARRAY])\n_ = list(map(np.copyto, h, [np.ones(3)]))\n"
    "k = (a for a in [ARRAY])\n_ = list(map(np.add, k, [1], (a for a in [ARRAY])))\n"
    "m = (i for i in [ITEMS])\n_ = list(map(operator.methodcaller('append', 2), m))\n",
    # a refusal swallowed by a finalizer (or a weakref callback) switched the guard off for the rest
    "class Dropper:\n    def __del__(self):\n        pass\n_ = [Dropper()] and _evil()\n",
    "import weakref\nclass Obj:\n    pass\n_ = [weakref.ref(Obj(), _evil)] and _evil()\n",
    # a library function that swallows the refusal (CPython switched the guard off) before the next call
    "_ = [swallow(_evil), _evil()]\n",
    "class Init:\n    def __init__(self):\n        _evil()\n_ = [swallow(_evil), Init()]\n",
    # the guard read __class__ of the learner's object (isinstance), running its property unguarded
    "class L(list):\n    @property\n    def __class__(self):\n        return _evil()\n_c = L().copy()\n",
    # a finalizer that runs after loading, when the garbage collector finds a cycle
    "class Late:\n    def __del__(self):\n        _evil()\ncycle = [Late()]\n_ = cycle.append(cycle)\ncycle = 0\n",
])
def test_load_time_code_cannot_change_the_libraries_where_the_functions_are_tested(tables, source):
    import gc
    ns, report = _load(SETUP + source)
    gc.collect()
    _untouched(tables)


def test_loading_still_keeps_what_definitions_need(tables):
    ns, report = _load(SETUP + "n = 1\nn += 2\nxs = [1]\nxs += [2]\nw = torch.ones(2)\nw += 1\n"
                       "m = max([3, 1], key=abs)\nlengths = list(map(len, ['ab', 'c']))\n"
                       "net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())\n"
                       "class Net(torch.nn.Module):\n    def forward(self, x):\n        return x\nmodel = Net()\n")
    assert ns["n"] == 3 and ns["xs"] == [1, 2] and ns["w"].tolist() == [2.0, 2.0] and ns["m"] == 3
    assert ns["lengths"] == [2, 1] and "net" in ns and "model" in ns, report
    _untouched(tables)


def test_the_sandbox_copy_of_the_tests_has_no_expected_results():
    for stem in chapters.STEMS:
        source = pathlib.Path(chapters.load(stem).__file__).read_text(encoding="utf-8")
        stripped = _view.strip_expected(source)
        tree = __import__("ast").parse(stripped)
        for node in tree.body:
            if isinstance(node, __import__("ast").ClassDef):
                names = {f.name for f in node.body if hasattr(f, "name")}
                assert not names & set(_view.REMOVED_METHODS), (stem, node.name)
        namespace = {}
        exec(compile(stripped, f"<{stem}>", "exec"), dict(namespace, __name__=chapters.module_name(stem),
                                                              __package__="course_lib.grading.chapters"))
    q2 = chapters.load("05_broadcasting").Q2
    stripped = _view.strip_expected(pathlib.Path(chapters.load("05_broadcasting").__file__).read_text())
    ns = {"__name__": "course_lib.grading.chapters.ch05_broadcasting", "__package__": "course_lib.grading.chapters"}
    exec(compile(stripped, "<ch05>", "exec"), ns)
    assert set(ns["Q2"].items) == set(q2.items)
    assert {v[1] for v in ns["Q2"].items.values()} == {None}
    assert [c.label for c in ns["Q1"]().cases()] == [c.label for c in chapters.load("05_broadcasting").Q1().cases()]


def test_the_view_leaves_out_the_graders_own_modules(tmp_path):
    view = pathlib.Path(_sandbox.build_view(tmp_path / "view"))
    names = {p.name for p in view.iterdir()}
    assert {"core.py", "_observe.py", "_harvest.py", "check.py", "chapters"} <= names
    assert not {"grader.py", "_worker.py", "generate.py", "_view.py"} & names
    assert "def checker" in (view / "check.py").read_text() and "run_question" not in (view / "check.py").read_text()


# ---------------------------------------------------------------------------
# The report folder
# ---------------------------------------------------------------------------

def test_report_names_never_collide():
    names = ["a/b.ipynb", "a__b.ipynb", "a b.ipynb", "a_b.ipynb", "grades.ipynb", ".hidden.ipynb", "中文.ipynb",
             "x/../y.ipynb"]
    files = [batch.report_name(n) for n in names]
    assert len(set(files)) == len(files)
    assert batch.report_name("alice/05_broadcasting.ipynb") == "alice__05_broadcasting.json"
    assert all(f.endswith(".json") and "/" not in f and not f.startswith(".") and f != "grades.csv"
               for f in files)


def test_a_plain_name_cannot_take_the_report_name_of_a_hashed_one_and_no_name_is_too_long():
    # a student who reads report_name() names a file after another's hashed report name
    victims = ["a__b.ipynb", "中文.ipynb", "a b.ipynb"]
    for victim in victims:
        hashed = batch.report_name(victim)[:-len(".json")]
        lookalike = hashed.replace("__", "/", 1) + ".ipynb" if "__" in hashed else hashed + ".ipynb"
        assert batch.report_name(lookalike) != batch.report_name(victim), (victim, lookalike)
    # every report name (and the temporary name it is written under) fits in a file name of 255 bytes
    for name in ["x" * 200 + "/" + "y" * 200 + ".ipynb", "名" * 80 + ".ipynb", "y" * 245 + ".ipynb",
                 "a/" * 100 + "b.ipynb"]:
        assert len(batch.report_name(name).encode("utf-8")) <= 140, name


def test_long_and_lookalike_names_each_get_their_own_report_and_row(tmp_path):
    root, out = tmp_path / "subs", tmp_path / "out"
    victim = "a__b_05_broadcasting.ipynb"
    names = [victim, batch.report_name(victim)[:-len(".json")].replace("__", "/", 1) + ".ipynb",
             "x" * 200 + "/" + "y" * 200 + "_05_broadcasting.ipynb", "名" * 70 + "_05_broadcasting.ipynb",
             "z" * 235 + "_05.ipynb"]
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("", encoding="utf-8")          # unreadable: graded without a kernel
    names.append("huge_05_broadcasting.ipynb")                  # 100 MB (sparse): refused unread
    with open(root / names[-1], "wb") as f:
        f.truncate(100 * 2**20)
    proc = subprocess.run(GRADE + [str(root), "--out", str(out), "--jobs", "1"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert set(rows) == set(names) and {r["status"] for r in rows.values()} == {"unreadable"}
    huge = json.loads((out / batch.report_name(names[-1])).read_text(encoding="utf-8"))
    assert "太大" in huge["notes"][0]
    written = {json.loads(p.read_text(encoding="utf-8"))["submission"] for p in out.glob("*.json")}
    assert written == set(names) and len(list(out.glob("*.json"))) == len(names)


def test_the_csv_is_rebuilt_from_the_reports_and_never_holds_a_formula(tmp_path):
    reports = [{"submission": "=cmd|' /C calc'!A0.ipynb", "chapter": "05_broadcasting", "status": "graded",
                "score": 2, "max_score": 8, "questions": [{"question": "q1", "points": 2}], "notes": ["@x"]},
               None]
    path = batch.write_csv(reports, tmp_path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 1 and rows[0]["submission"].startswith("'=") and rows[0]["notes"] == "'@x"
    assert rows[0]["q1"] == "2" and rows[0]["total"] == "2"
    assert [p.name for p in tmp_path.iterdir()] == ["grades.csv"]


def _folder(tmp_path, n_ok=3, extra=None):
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(n_ok):
        nbformat.write(fixtures.filled_exercise(), folder / f"ok_{i}.ipynb")
    for name, nb in (extra or {}).items():
        nbformat.write(nb, folder / name)
    return folder


def _cgroups():
    cgroup = _sandbox.Cgroup.create(f"clg-{os.getpid()}-probe", 16, 2**30)
    if cgroup is None:
        return False
    cgroup.remove()
    return True


def _rows(out):
    with open(out / "grades.csv", encoding="utf-8") as f:
        return {r["submission"]: r for r in csv.DictReader(f)}


def _wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_killed_grader_leaves_its_results_and_a_rerun_finishes_without_regrading(tmp_path):
    marker = f"course-lib-resume-{os.getpid()}"
    slow = fixtures.filled_exercise()
    fixtures._prepend(fixtures.answer_cell(slow, "q1"),
                      f"import subprocess, time\nsubprocess.Popen(['sh', '-c', 'sleep 300', {marker!r}], "
                      "start_new_session=True)\ntime.sleep(3)\n")
    folder = _folder(tmp_path, 3, {"z_slow.ipynb": slow})
    out = tmp_path / "report"
    cmd = GRADE + [str(folder), "--out", str(out), "--jobs", "1", "--cell-timeout", "20"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert _wait_for(lambda: (out / "ok_1.json").exists() or proc.poll() is not None, 300)
        assert _wait_for(lambda: any(marker in " ".join(p.info["cmdline"] or [])
                                     for p in psutil.process_iter(["cmdline"])) or proc.poll() is not None, 60)
    finally:
        proc.kill()
        proc.communicate()
    done = {r["submission"] for r in _rows(out).values()}
    assert {"ok_0.ipynb", "ok_1.ipynb"} <= done and "z_slow.ipynb" not in done
    first = json.loads((out / "ok_0.json").read_text(encoding="utf-8"))

    def left():
        return any(marker in " ".join(p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"]))
    if SANDBOX:     # the workers die with the grader, and with them the sandboxes and all they started
        assert _wait_for(lambda: not left(), 30)
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "already graded" in again.stdout and f"[{len(done) + 1}/4]" in again.stdout
    if not SANDBOX and _cgroups():  # without namespaces, the next run kills what its cgroups still hold
        assert not left()
    rows = _rows(out)
    assert set(rows) == {"ok_0.ipynb", "ok_1.ipynb", "ok_2.ipynb", "z_slow.ipynb"}
    assert all(int(r["total"]) == 8 for r in rows.values())
    assert json.loads((out / "ok_0.json").read_text(encoding="utf-8")) == first          # not regraded
    assert sorted(p.name for p in out.iterdir()) == ["grades.csv", "ok_0.json", "ok_1.json", "ok_2.json",
                                                     "z_slow.json"]
    # a changed submission is graded again
    nbformat.write(nbformat.read(ROOT / "exercises" / "05_broadcasting.ipynb", as_version=4), folder / "ok_2.ipynb")
    third = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert "[4/4] ok_2.ipynb: 0/8" in third.stdout and int(_rows(out)["ok_2.ipynb"]["total"]) == 0


def test_a_dead_worker_costs_its_submission_only_and_is_regraded_next_time(tmp_path):
    slow = fixtures.filled_exercise()
    fixtures._prepend(fixtures.answer_cell(slow, "q1"), "import time\ntime.sleep(8)\n")
    folder = _folder(tmp_path, 2, {"a_slow.ipynb": slow})
    out = tmp_path / "report"
    cmd = GRADE + [str(folder), "--out", str(out), "--jobs", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)

    def worker():
        try:
            return [c for c in psutil.Process(proc.pid).children() if "course_lib.grading._worker" in
                    " ".join(c.cmdline())]
        except psutil.Error:
            return []
    assert _wait_for(lambda: worker() and any("bwrap" in " ".join(p.cmdline()) or "_kernel" in " ".join(p.cmdline())
                                               for p in worker()[0].children(recursive=True)), 120)
    time.sleep(2)
    worker()[0].send_signal(signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    rows = _rows(out)
    assert rows["a_slow.ipynb"]["status"] == "grader_error"
    assert int(rows["ok_0.ipynb"]["total"]) == int(rows["ok_1.ipynb"]["total"]) == 8
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert "[3/3] a_slow.ipynb: 8/8 (graded" in again.stdout
    assert _rows(out)["a_slow.ipynb"]["status"] == "graded"


def test_out_inside_the_submissions_is_refused(tmp_path):
    folder = _folder(tmp_path, 1)
    run = subprocess.run(GRADE + [str(folder), "--out", str(folder / "report")], capture_output=True, text=True)
    assert run.returncode == 2 and "must not be inside" in run.stderr


# ---------------------------------------------------------------------------
# Without namespaces
# ---------------------------------------------------------------------------

def test_the_fallback_grades_one_at_a_time_with_a_warning_and_still_ends_every_process(tmp_path):
    marker = f"course-lib-fallback-{os.getpid()}"
    targets = attacks.Targets(tmp_path / "report", tmp_path / "in", marker)
    folder = _folder(tmp_path, 1)
    for name in ("detached_rewriter", "code_swap", "lone_surrogate", "post_run_hook"):
        nb, _ = attacks.ATTACKS[name](targets)
        path = folder / f"attack_{name}.ipynb"
        if name == "lone_surrogate":
            path.write_text(json.dumps(nb), encoding="ascii")
        else:
            nbformat.write(nb, path)
    out = tmp_path / "report"
    run = subprocess.run(GRADE + [str(folder), "--out", str(out), "--jobs", "2", "--sandbox", "none"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "warning: no sandbox" in run.stderr and "one at a time" in run.stderr
    rows = _rows(out)
    assert {k: int(r["total"]) for k, r in rows.items()} == {
        "ok_0.ipynb": 8, "attack_detached_rewriter.ipynb": 8, "attack_code_swap.ipynb": 0,
        "attack_lone_surrogate.ipynb": 8, "attack_post_run_hook.ipynb": 0}
    assert all(json.loads(p.read_text(encoding="utf-8"))["settings"]["sandbox"] == "none"
               for p in out.glob("*.json"))
    assert "forged" not in (out / "grades.csv").read_text(encoding="utf-8")
    assert not any(marker in " ".join(p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"]))


# ---------------------------------------------------------------------------
# Memory under a flood of outputs
# ---------------------------------------------------------------------------

def test_the_graders_memory_stays_bounded_under_a_flood_of_its_own_mime_type(tmp_path):
    nb = fixtures.filled_exercise()
    nb.cells.insert(2, nbformat.v4.new_code_cell(attacks.flood_code(8, 50_000_000)))
    path = tmp_path / "flood.ipynb"
    nbformat.write(nb, path)
    script = (
        "import json, os, resource, sys, tempfile\n"
        "from course_lib.grading import _sandbox, _worker\n"
        "mode = _sandbox.probe()[0]\n"
        "with tempfile.TemporaryDirectory(prefix='clg-') as tmp:\n"
        "    view = _sandbox.build_view(os.path.join(tmp, 'view')) if mode else None\n"
        "    settings = _worker.Settings(60, 10, 2048, None, mode, view, tmp)\n"
        "    r = _worker.grade_submission(sys.argv[1], settings)\n"
        "print(json.dumps({'score': r['score'], 'notes': r['notes'],\n"
        "                  'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n")
    run = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=600,
                         cwd=ROOT)
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["score"] == 8
    assert any("400.0 百万个字符" in n for n in result["notes"]), result["notes"]
    # 8 messages of 50 MB went through: the worker held at most a few of them at a time
    assert result["peak_mb"] < 1000, result


@pytest.mark.skipif(SANDBOX is None, reason="bubblewrap cannot create namespaces here")
def test_what_a_sandboxed_process_sees(tmp_path):
    import course_lib
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    view = _sandbox.build_view(str(tmp_path / "view"))
    box = _sandbox.Sandbox(str(private), SANDBOX, view, 1024, 60)
    here = os.path.dirname(os.path.dirname(os.path.realpath(course_lib.__file__)))
    probe = (
        "import json, os, socket, tempfile\n"
        f"here = {here!r}\n"
        "def can_write(p):\n"
        "    try:\n"
        "        open(p, 'w').write('x')\n"
        "        return True\n"
        "    except OSError:\n"
        "        return False\n"
        "def net():\n"
        "    try:\n"
        "        socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
        "        return True\n"
        "    except OSError:\n"
        "        return False\n"
        "print(json.dumps({'uid': os.getuid(), 'pid': os.getpid(), 'repo': sorted(os.listdir(here)),\n"
        "    'grading': sorted(os.listdir(os.path.join(here, 'course_lib', 'grading'))),\n"
        "    'tmp': sorted(os.listdir('/tmp')), 'procs': sorted(p for p in os.listdir('/proc') if p.isdigit()),\n"
        f"    'write_course_lib': can_write(os.path.join(here, 'course_lib', 'x.py')),\n"
        f"    'write_private': can_write({str(private / 'ok')!r}), 'net': net(), 'cwd': os.getcwd()}}))\n")
    try:
        run = subprocess.run(box.command([sys.executable, "-I", "-c", probe]), capture_output=True, text=True,
                             timeout=60)
    finally:
        box.close()
    seen = json.loads(run.stdout)
    assert seen["uid"] == _sandbox.SANDBOX_UID and seen["pid"] == 2
    assert set(seen["repo"]) <= {"course_lib", ".venv"}         # no solutions/, no submissions, no report
    assert "grader.py" not in seen["grading"] and "_worker.py" not in seen["grading"]
    assert {"work", "home"} <= set(seen["tmp"]) and seen["cwd"] == "/tmp/work"
    assert not [name for name in seen["tmp"] if name.startswith("clg-")]       # no grader's folder
    assert seen["procs"] == ["1", "2"]
    assert not seen["write_course_lib"] and seen["write_private"] and not seen["net"]
    assert (private / "ok").exists()
