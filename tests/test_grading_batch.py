"""The batch grader end to end: solutions, untouched exercises and misbehaving submissions in one run.

Everything is graded once per session by the real command line
(``python -m course_lib.grading grade``) with short timeouts, two workers at a
time; the tests then read ``grades.csv`` and the JSON reports.
"""

import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from course_lib.grading import chapters

sys.path.insert(0, str(pathlib.Path(__file__).parent / "fixtures"))
import submissions as fixtures  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
CELL_TIMEOUT, QUESTION_TIMEOUT, MEMORY_MB = 10, 4, 1500


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Grade solutions/, exercises/ and the fixtures in one batch; return (reports by name, csv rows, stdout)."""
    root = tmp_path_factory.mktemp("submissions")
    for folder in ("solutions", "exercises"):
        shutil.copytree(ROOT / folder, root / folder)
    fixtures.build_all(root / "fixtures")
    out = tmp_path_factory.mktemp("report")
    proc = subprocess.run(
        [sys.executable, "-m", "course_lib.grading", "grade", str(root), "--out", str(out), "--jobs", "2",
         "--cell-timeout", str(CELL_TIMEOUT), "--question-timeout", str(QUESTION_TIMEOUT),
         "--memory-mb", str(MEMORY_MB)],
        capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    reports = {}
    for path in out.glob("*.json"):
        r = json.loads(path.read_text(encoding="utf-8"))
        reports[r["submission"]] = r
    return reports, rows, proc.stdout


def _questions(report):
    return {q["question"]: q for q in report["questions"]}


def _max(stem):
    return sum(q.points for q in chapters.load(stem).QUESTIONS)


@pytest.mark.parametrize("stem", chapters.STEMS)
def test_every_solution_scores_full_marks(graded, stem):
    report = graded[0][f"solutions/{stem}.ipynb"]
    assert report["status"] == "graded", report["notes"]
    assert report["chapter"] == stem
    assert report["score"] == report["max_score"] == _max(stem)
    assert all(q["passed"] and q["status"] == "passed" for q in report["questions"])
    assert report["cells"] == [] and "tampered" not in report


@pytest.mark.parametrize("stem", chapters.STEMS)
def test_every_untouched_exercise_scores_zero_with_a_reason(graded, stem):
    report = graded[0][f"exercises/{stem}.ipynb"]
    assert report["status"] == "graded"
    assert report["score"] == 0 and report["max_score"] == _max(stem)
    assert [q["question"] for q in report["questions"]] == [q.name for q in chapters.load(stem).QUESTIONS]
    for q in report["questions"]:
        assert not q["passed"] and q["points"] == 0
        # an empty answer is "not answered"; a broken snippet left as it is fails with what it did
        assert q["status"] in ("not_answered", "failed"), q
        assert q["reason"].strip()
        if q["status"] == "failed":
            assert "输入：" in q["reason"] and "提示：" in q["reason"]
    assert any(q["status"] == "not_answered" and "..." in q["reason"] for q in report["questions"])


def test_filled_exercise_scores_full_marks(graded):
    report = graded[0]["fixtures/ok_filled.ipynb"]
    assert report["score"] == report["max_score"] == _max("05_broadcasting")


def _others_pass(report, *failing):
    qs = _questions(report)
    for name, q in qs.items():
        if name not in failing:
            assert q["passed"], (name, q["reason"])
    assert report["score"] == sum(q["max_points"] for n, q in qs.items() if n not in failing)


def test_infinite_loops_time_out_and_the_rest_is_graded(graded):
    report = graded[0]["fixtures/infinite_loop.ipynb"]
    qs = _questions(report)
    # the answer cell that loops is cut off at the cell timeout, skipped, and its names are missing
    assert qs["q2"]["status"] == "not_defined"
    assert f"运行超过 {float(CELL_TIMEOUT)} 秒" in qs["q2"]["reason"]
    # the function that loops when tested is stopped by the per-question timeout
    assert qs["q3"]["status"] == "timeout" and f"{float(QUESTION_TIMEOUT)} 秒" in qs["q3"]["reason"]
    assert any(c["status"] == "timeout" and c["question"] == "q2" for c in report["cells"])
    assert any("重启" in n for n in report["notes"])
    _others_pass(report, "q2", "q3")


def test_import_error_is_reported_and_does_not_stop_grading(graded):
    report = graded[0]["fixtures/import_error.ipynb"]
    assert any("ImportError" in n and "tensr" in n for n in report["notes"])
    q1 = _questions(report)["q1"]
    assert q1["status"] == "not_defined" and "ModuleNotFoundError" in q1["reason"]
    # check() was never defined, so the learner's check cells failed: grading does not need them
    assert any("NameError" in c["error"] and "check" in c["error"] for c in report["cells"])
    _others_pass(report, "q1")


def test_sys_exit_in_a_cell_costs_only_that_question(graded):
    report = graded[0]["fixtures/sys_exit.ipynb"]
    q4 = _questions(report)["q4"]
    assert q4["status"] == "not_defined" and "SystemExit" in q4["reason"] and "不想做了" in q4["reason"]
    _others_pass(report, "q4")


def test_a_dying_kernel_is_restarted_without_that_cell(graded):
    report = graded[0]["fixtures/kernel_dies.ipynb"]
    q3 = _questions(report)["q3"]
    assert q3["status"] == "not_defined" and "让内核退出了" in q3["reason"]
    assert any(c["status"] == "kernel_died" for c in report["cells"])
    assert any("内核重启了 1 次" in n for n in report["notes"])
    _others_pass(report, "q3")


def test_a_memory_blowup_hits_the_limit_and_the_kernel_survives(graded):
    report = graded[0]["fixtures/memory_hog.ipynb"]
    q4 = _questions(report)["q4"]
    assert q4["status"] == "not_defined"
    assert f"MemoryError：内存用量超过了 {MEMORY_MB} MB 的上限" in q4["reason"]
    assert any(c["status"] == "memory" for c in report["cells"])
    _others_pass(report, "q4")


def test_megabytes_of_output_are_counted_not_stored_and_graded(graded):
    report = graded[0]["fixtures/big_output.ipynb"]
    assert any("输出了约 5.6 百万个字符" in n for n in report["notes"])
    assert report["score"] == report["max_score"]


def test_a_redefined_check_fakes_nothing(graded):
    report = graded[0]["fixtures/fake_check.ipynb"]
    assert report["score"] == 0 and report["status"] == "graded"
    assert {q["status"] for q in report["questions"]} <= {"not_answered", "failed"}


def test_monkeypatching_course_lib_is_detected_and_scores_zero(graded):
    report = graded[0]["fixtures/monkeypatch.ipynb"]
    assert report["status"] == "tampered" and report["score"] == 0
    assert "course_lib:Tensor.mean" in report["tampered"]      # Tensor.__module__ is "course_lib"
    assert "course_lib.grading.core:compare" in report["tampered"]
    for q in report["questions"]:
        assert q["status"] == "tampered" and "Tensor.mean" in q["reason"]


def test_hard_coded_answers_and_always_equal_objects_fail(graded):
    report = graded[0]["fixtures/hardcoded.ipynb"]
    qs = _questions(report)
    assert qs["q1"]["status"] == "failed"
    assert "broadcast_shape((5,), (2, 1))" in qs["q1"]["reason"] and "期望：返回 (2, 5)" in qs["q1"]["reason"]
    assert qs["q3"]["status"] == "failed" and "Anything" in qs["q3"]["reason"]
    _others_pass(report, "q1", "q3")


def test_files_that_are_not_notebooks_get_a_reason(graded):
    reports = graded[0]
    bad = reports["fixtures/not_json.ipynb"]
    assert bad["status"] == "unreadable" and bad["score"] == 0 and "JSON" in bad["notes"][0]
    assert bad["chapter"] is None and bad["questions"] == []
    empty = reports["fixtures/empty_05_broadcasting.ipynb"]
    assert empty["status"] == "unreadable" and "空" in empty["notes"][0]
    assert empty["chapter"] == "05_broadcasting"
    assert {q["status"] for q in empty["questions"]} == {"unreadable"}
    unknown = reports["fixtures/homework.ipynb"]
    assert unknown["status"] == "unknown_chapter" and unknown["score"] == 0 and "--chapter" in unknown["notes"][0]


def test_grades_csv_has_one_row_per_submission_and_one_column_per_question(graded):
    reports, rows, stdout = graded
    assert len(rows) == len(reports) == 2 * len(chapters.STEMS) + len(fixtures.BUILDERS) + len(fixtures.RAW)
    assert list(rows[0])[:3] == ["submission", "chapter", "status"]
    assert [c for c in rows[0] if c.startswith("q")] == [f"q{i}" for i in range(1, 7)]
    assert list(rows[0])[-3:] == ["total", "max_total", "notes"]
    for row in rows:
        r = reports[row["submission"]]
        assert int(row["total"]) == r["score"] and int(row["max_total"]) == r["max_score"]
        for q in r["questions"]:
            assert int(row[q["question"]]) == q["points"]
        assert sum(int(row[c]) for c in row if c.startswith("q") and row[c] != "") == r["score"]
    assert f"graded {len(rows)} submissions" in stdout


def test_json_reports_have_the_documented_fields(graded):
    for r in graded[0].values():
        assert {"submission", "chapter", "status", "score", "max_score", "questions", "cells", "notes"} <= set(r)
        for q in r["questions"]:
            assert {"question", "title", "points", "max_points", "passed", "status", "reason"} <= set(q)
            assert q["points"] in (0, q["max_points"])


def test_the_command_line_rejects_bad_arguments(tmp_path):
    run = [sys.executable, "-m", "course_lib.grading", "grade"]
    missing = subprocess.run(run + [str(tmp_path / "nope"), "--out", str(tmp_path / "o")], capture_output=True,
                             text=True)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    empty = subprocess.run(run + [str(tmp_path), "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert empty.returncode == 1 and "no *.ipynb" in empty.stderr
    chapter = subprocess.run(run + [str(tmp_path), "--out", str(tmp_path / "o"), "--chapter", "99"],
                             capture_output=True, text=True)
    assert chapter.returncode == 2 and "unknown chapter" in chapter.stderr


def test_an_overrunning_submission_is_killed_with_its_kernel_and_the_batch_goes_on(tmp_path):
    import nbformat
    import psutil

    from course_lib.grading.grader import grade_folder
    marker = f"course-lib-overrun-{os.getpid()}"
    slow = fixtures.filled_exercise()
    fixtures._prepend(fixtures.answer_cell(slow, "q1"),
                      f"import subprocess, time\nsubprocess.Popen(['sh', '-c', 'sleep 300', {marker!r}])\n"
                      "time.sleep(120)\n")
    folder = tmp_path / "in"
    folder.mkdir()
    nbformat.write(slow, folder / "a_slow.ipynb")
    nbformat.write(fixtures.filled_exercise(), folder / "b_ok.ipynb")
    # the limit leaves b_ok room on a loaded 2-core machine (a whole exercise notebook in a fresh kernel)
    reports = grade_folder(folder, jobs=1, cell_timeout=300, submission_timeout=25)
    assert reports[0]["status"] == "timeout" and "25 秒" in reports[0]["notes"][0]
    assert reports[1]["status"] == "graded" and reports[1]["score"] == reports[1]["max_score"]
    assert not any(marker in " ".join(p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"]))
