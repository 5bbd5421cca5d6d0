"""The batch grader against submissions that attack it (``tests/fixtures/attacks.py``).

One batch, graded once per session by the real command line with two workers: every attack of
issue 15, each next to an honest victim that runs at the same time (``attack_X_victim`` sorts
right after ``attack_X``), honest solutions and an untouched exercise.  For every attacker: no
more than its honest score; for everyone else: exactly its honest score; afterwards nothing of
the batch is running and nothing was written outside the report folder.

Where bubblewrap cannot sandbox (``SANDBOX`` is None), the attacks that only namespaces defeat or
that would harm the machine without them are left out (``attacks.SANDBOX_ONLY``), and the
fallback's own guarantees are checked (one submission at a time, a warning).
"""

import csv
import hashlib
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

import nbformat
import psutil
import pytest

from course_lib.grading import _sandbox, chapters

sys.path.insert(0, str(pathlib.Path(__file__).parent / "fixtures"))
import attacks  # noqa: E402
import submissions as fixtures  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
SANDBOX = _sandbox.probe()[0]
VICTIMS = ("connection_files", "signal_siblings", "worker_pipe", "delete_grader_tmp", "detached_rewriter",
           "many_processes")
HONEST_SOLUTIONS = ("05_broadcasting", "06_autograd")


def _tree_digest(folder):
    h = hashlib.sha256()
    for p in sorted(pathlib.Path(folder).rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def _marked(marker):
    found = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in a for a in p.info["cmdline"] or []):
                found.append(p.pid)
        except (psutil.Error, TypeError):
            pass
    return found


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """Grade the attack batch; return a namespace of what the tests look at."""
    base = tmp_path_factory.mktemp("attacks")
    root, out = base / "submissions", base / "report"
    marker = f"course-lib-attack-{os.getpid()}-{os.urandom(4).hex()}"
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.5)
    connections = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                connections.append(server.accept())
            except OSError:
                pass
    threading.Thread(target=accept, daemon=True).start()
    targets = attacks.Targets(out, root, marker, server.getsockname()[1])
    names = [n for n in attacks.ATTACKS if SANDBOX or n not in attacks.SANDBOX_ONLY]
    honest = attacks.build(root, targets, names)
    for name in VICTIMS:
        if name in names:
            nbformat.write(fixtures.filled_exercise(), root / f"attack_{name}_victim.ipynb")
            honest[f"attack_{name}_victim.ipynb"] = attacks.FULL
    (root / "solutions").mkdir()
    for stem in HONEST_SOLUTIONS:
        shutil.copy(ROOT / "solutions" / f"{stem}.ipynb", root / "solutions")
        honest[f"solutions/{stem}.ipynb"] = sum(q.points for q in chapters.load(stem).QUESTIONS)
    shutil.copy(ROOT / "exercises" / "05_broadcasting.ipynb", root / "untouched_05_broadcasting.ipynb")
    # symbolic links (to a folder, to a notebook) are not graded: no row, no report
    os.symlink(root / "solutions", root / "linked_solutions")
    os.symlink(ROOT / "solutions" / "05_broadcasting.ipynb", root / "linked_05_broadcasting.ipynb")
    honest["untouched_05_broadcasting.ipynb"] = 0
    before = _tree_digest(root)
    tmp_before = set(pathlib.Path(tempfile.gettempdir()).glob("clg-*"))
    proc = subprocess.run(
        [sys.executable, "-m", "course_lib.grading", "grade", str(root), "--out", str(out), "--jobs", "2",
         "--cell-timeout", "20", "--question-timeout", "5", "--memory-mb", "1500"],
        capture_output=True, text=True, timeout=1200, cwd=ROOT)
    stop.set()
    server.close()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reports = {}
    for path in out.glob("*.json"):
        r = json.loads(path.read_text(encoding="utf-8"))
        reports[r["submission"]] = r
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    return type("Batch", (), dict(
        reports=reports, rows=rows, honest=honest, out=out, root=root, marker=marker, proc=proc,
        submissions_unchanged=before == _tree_digest(root), connections=connections,
        tmp_left=set(pathlib.Path(tempfile.gettempdir()).glob("clg-*")) - tmp_before))


def _attackers(batch):
    return [n for n in batch.honest if n.startswith("attack_") and not n.endswith("_victim.ipynb")]


def test_every_submission_has_a_report_and_a_row(batch):
    assert set(batch.reports) == set(batch.honest) == set(batch.rows)
    for name, row in batch.rows.items():
        assert int(row["total"]) == batch.reports[name]["score"]


def test_no_attacker_gets_more_than_its_honest_score(batch):
    for name in _attackers(batch):
        report = batch.reports[name]
        assert report["score"] <= batch.honest[name], (name, report["status"], report["questions"])


def test_every_other_submission_gets_its_honest_score(batch):
    for name, honest in batch.honest.items():
        if name in _attackers(batch):
            continue
        report = batch.reports[name]
        assert report["status"] == "graded", (name, report["notes"])
        assert report["score"] == honest, (name, [(q["question"], q["reason"]) for q in report["questions"]])


@pytest.mark.parametrize("name", ["nbformat3", "lone_surrogate", "kernelspec_removed", "invalid_utf8",
                                  "cross_question_patch", "dtype_table", "output_flood", "many_processes",
                                  "load_time_escapes", "module_on_disk", "odd_values"])
def test_these_lose_no_point_they_deserve(batch, name):
    # a correct nbformat-3 notebook, one unencodable cell, a deleted kernelspec and a crash, another
    # question's patch, an edited dtype table, load-time code that escaped the guard, a module written to
    # disk, observations that are hard to read: each gets exactly what its answers deserve, no more, no less
    if f"attack_{name}.ipynb" not in batch.honest:
        pytest.skip("not in this batch (no sandbox)")
    report = batch.reports[f"attack_{name}.ipynb"]
    assert report["status"] == "graded", report["notes"]
    assert report["score"] == batch.honest[f"attack_{name}.ipynb"], report["questions"]


def test_an_unencodable_cell_is_reported_and_costs_only_itself(batch):
    surrogate = batch.reports["attack_lone_surrogate.ipynb"]
    assert [c["status"] for c in surrogate["cells"]] == ["unencodable"]
    invalid = batch.reports["attack_invalid_utf8.ipynb"]
    qs = {q["question"]: q for q in invalid["questions"]}
    assert qs["q1"]["status"] == "not_defined" and "无法编码" in qs["q1"]["reason"]
    assert all(q["passed"] for n, q in qs.items() if n != "q1")


def test_isolated_questions_a_patch_made_while_testing_q3_does_not_reach_q4(batch):
    qs = {q["question"]: q for q in batch.reports["attack_cross_question_patch.ipynb"]["questions"]}
    assert qs["q3"]["passed"] and not qs["q4"]["passed"]


def test_tampering_with_the_grader_in_the_kernel_gains_nothing(batch):
    for name in ("code_swap", "display_rewrite", "input_transformer", "post_run_hook", "expected_from_tests",
                 "reference_solutions", "read_others"):
        if f"attack_{name}.ipynb" in batch.honest:
            report = batch.reports[f"attack_{name}.ipynb"]
            assert report["score"] == 0, (name, report["questions"])
    # a replaced __code__ keeps the function's id, not its code object's: the tripwire sees it
    assert "course_lib.grading.core:observe_question" in batch.reports["attack_code_swap.ipynb"]["tampered"]


def test_load_time_tricks_are_flagged_or_refused(batch):
    report = batch.reports["attack_load_time_tricks.ipynb"]
    assert report["score"] <= batch.honest["attack_load_time_tricks.ipynb"]
    assert report["status"] == "tampered" or not {q["question"]: q for q in report["questions"]}["q4"]["passed"]


def test_nothing_of_the_batch_is_left_running(batch):
    assert _marked(batch.marker) == []
    assert batch.tmp_left == set()


def test_nothing_was_written_outside_the_report_folder(batch):
    assert batch.submissions_unchanged
    assert not pathlib.Path(tempfile.gettempdir(), f"{batch.marker}.txt").exists()
    assert not pathlib.Path("~", f"{batch.marker}.txt").expanduser().exists()
    assert not (ROOT / f"{batch.marker}.txt").exists()


def test_the_report_folder_holds_only_what_the_grader_wrote(batch):
    from course_lib.grading.grader import report_name
    expected = {"grades.csv"} | {report_name(n) for n in batch.honest}
    assert {p.name for p in batch.out.iterdir()} == expected
    text = (batch.out / "grades.csv").read_text(encoding="utf-8")
    assert "forged" not in text
    for p in batch.out.glob("*.json"):
        assert json.loads(p.read_text(encoding="utf-8"))["submission"] in batch.honest


@pytest.mark.skipif(SANDBOX is None, reason="no namespaces here: a submission shares the network")
def test_no_network(batch):
    assert batch.connections == []
    assert batch.reports["attack_network.ipynb"]["score"] == attacks.FULL


def test_the_fallback_is_announced(batch):
    if SANDBOX is None:
        assert "warning: no sandbox" in batch.proc.stderr
    else:
        assert "warning" not in batch.proc.stderr
        assert all(r["settings"]["sandbox"] == "bwrap" for r in batch.reports.values() if "settings" in r)
