"""The batch grader: grade a folder of submitted exercise notebooks.

    python -m course_lib.grading grade submissions/ --out report/

Every ``*.ipynb`` under ``submissions/`` (recursively) is graded in its own
worker process (``_worker.py``) with a fresh kernel, several at a time.  The
report folder gets ``grades.csv`` (one row per submission, one column per
question, the total) and one JSON report per submission.  Whatever a
submission does, the batch goes on: a worker that overruns its time is
killed (with its kernel) and the submission gets a reason instead of a score.
"""

import argparse
import csv
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

from . import chapters

__all__ = ["find_submissions", "grade_folder", "write_reports", "main"]


def find_submissions(root):
    """The notebooks to grade under ``root`` (a folder, searched recursively, or one file), sorted."""
    root = pathlib.Path(root)
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and p.is_file())


def _kill_tree(pid):
    """Kill a process and all its descendants (the worker and the kernel it started)."""
    try:
        import psutil
        proc = psutil.Process(pid)
        family = proc.children(recursive=True) + [proc]
    except Exception:  # noqa: BLE001 - psutil missing or process gone
        family = []
    for p in family:
        try:
            p.kill()
        except Exception:  # noqa: BLE001
            pass
    if not family:
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def _fallback(name, status, reason, seconds):
    return {"submission": name, "chapter": chapters.stem_of(name), "status": status, "score": 0, "max_score": 0,
            "questions": [], "cells": [], "notes": [reason], "seconds": round(seconds, 2)}


class _Slot:
    """One worker process (``_worker.py --serve``) that grades submissions one after another.

    If a submission overruns its deadline, or the worker dies, the worker and
    everything it started (the kernel) are killed, the submission gets a
    fallback report, and a new worker takes the next submission.
    """

    def __init__(self, tmp):
        self.tmp = pathlib.Path(tmp)
        self.proc = None
        self.lines = None
        self.log = None

    def _start(self):
        import queue
        import threading
        self.log = open(self.tmp / f"worker-{id(self)}-{time.monotonic_ns()}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "course_lib.grading._worker", "--serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True, encoding="utf-8")
        self.lines = queue.Queue()
        out, lines = self.proc.stdout, self.lines

        def pump():
            for line in out:
                lines.put(line.strip())
            lines.put(None)
        threading.Thread(target=pump, daemon=True).start()

    def _stop(self, kill):
        if self.proc is None:
            return
        if kill:
            _kill_tree(self.proc.pid)
        else:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _kill_tree(self.proc.pid)
            self.proc.wait()
        self.log.close()
        self.proc = None

    def grade(self, path, name, settings, deadline):
        """Grade one submission; always returns a report dict."""
        import queue
        start = time.monotonic()
        if self.proc is None or self.proc.poll() is not None:
            self._stop(kill=True)
            self._start()
        result = self.tmp / f"result-{time.monotonic_ns()}.json"
        job = {"path": str(path), "result": str(result), "name": name, "settings": settings}
        try:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            line = self.lines.get(timeout=deadline)
        except queue.Empty:
            self._stop(kill=True)
            return _fallback(name, "timeout", f"整个笔记本的批改超过 {deadline:.0f} 秒，被终止",
                             time.monotonic() - start)
        except OSError as e:
            line = f"worker died: {e}"
        if line == "DONE" and result.exists():
            try:
                return json.loads(result.read_text(encoding="utf-8"))
            except ValueError:
                pass
        self._stop(kill=True)
        return _fallback(name, "grader_error", f"批改程序出错：{line}", time.monotonic() - start)

    def close(self):
        """Let the worker finish and exit."""
        self._stop(kill=False)


def grade_folder(root, jobs=None, cell_timeout=30, question_timeout=10, memory_mb=2048, chapter=None,
                 submission_timeout=None, progress=None):
    """Grade every submission under ``root``; return the reports, in file order."""
    import queue
    import threading
    root = pathlib.Path(root)
    paths = find_submissions(root)
    settings = {"cell_timeout": cell_timeout, "question_timeout": question_timeout, "memory_mb": memory_mb,
                "chapter": chapter}
    if submission_timeout is None:
        submission_timeout = 120 + 4 * cell_timeout + 12 * question_timeout
    names = [p.relative_to(root).as_posix() if root.is_dir() else p.name for p in paths]
    jobs = max(1, min(len(paths), jobs or os.cpu_count() or 1))
    reports = [None] * len(paths)
    todo = queue.Queue()
    for i in range(len(paths)):
        todo.put(i)
    lock = threading.Lock()
    done = [0]

    def work(tmp):
        slot = _Slot(tmp)
        try:
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                report = slot.grade(paths[i], names[i], settings, submission_timeout)
                with lock:
                    reports[i] = report
                    done[0] += 1
                    if progress:
                        progress(f"[{done[0]}/{len(paths)}] {report['submission']}: {report['score']}/"
                                 f"{report['max_score']} ({report['status']}, {report.get('seconds', 0):.1f} s)")
        finally:
            slot.close()

    with tempfile.TemporaryDirectory(prefix="course_lib_grader_") as tmp:
        threads = [threading.Thread(target=work, args=(tmp,)) for _ in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return reports


def _natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _report_name(submission):
    stem = submission[:-len(".ipynb")] if submission.endswith(".ipynb") else submission
    return re.sub(r"[^\w.-]+", "__", stem) + ".json"


def write_reports(reports, out):
    """Write ``grades.csv`` and one ``<submission>.json`` per report into folder ``out``; return the CSV path."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    columns = sorted({q["question"] for r in reports for q in r.get("questions", [])}, key=_natural)
    csv_path = out / "grades.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["submission", "chapter", "status", *columns, "total", "max_total", "notes"])
        for r in reports:
            points = {q["question"]: q["points"] for q in r.get("questions", [])}
            w.writerow([r["submission"], r.get("chapter") or "", r["status"],
                        *[points.get(c, "") for c in columns], r.get("score", 0), r.get("max_score", 0),
                        " | ".join(r.get("notes", []))[:500]])
    for r in reports:
        (out / _report_name(r["submission"])).write_text(json.dumps(r, ensure_ascii=False, indent=1) + "\n",
                                                          encoding="utf-8")
    return csv_path


def main(argv=None):
    """``python -m course_lib.grading grade SUBMISSIONS --out OUT [options]``; returns the exit status."""
    ap = argparse.ArgumentParser(prog="python -m course_lib.grading", description="Grade exercise notebooks.")
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade every *.ipynb under SUBMISSIONS")
    g.add_argument("submissions", help="a folder of submitted notebooks (searched recursively) or one notebook")
    g.add_argument("--out", required=True, help="folder for grades.csv and the JSON reports")
    g.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: CPU count)")
    g.add_argument("--cell-timeout", type=float, default=30, help="seconds per notebook cell (default 30)")
    g.add_argument("--question-timeout", type=float, default=10, help="seconds for one question's tests (default 10)")
    g.add_argument("--memory-mb", type=int, default=2048, help="memory limit of a submission's kernel (default 2048)")
    g.add_argument("--submission-timeout", type=float, default=None,
                   help="seconds for a whole submission before its worker is killed")
    g.add_argument("--chapter", help="grade every submission as this chapter (stem or number)")
    args = ap.parse_args(argv)
    root = pathlib.Path(args.submissions)
    if not root.exists():
        print(f"{root} does not exist", file=sys.stderr)
        return 2
    if args.chapter and chapters.stem_of(args.chapter) is None:
        print(f"unknown chapter {args.chapter!r}; chapters: {', '.join(chapters.STEMS)}", file=sys.stderr)
        return 2
    if not find_submissions(root):
        print(f"no *.ipynb found under {root}", file=sys.stderr)
        return 1
    start = time.monotonic()
    reports = grade_folder(root, args.jobs, args.cell_timeout, args.question_timeout, args.memory_mb,
                           args.chapter, args.submission_timeout, progress=lambda s: print(s, flush=True))
    csv_path = write_reports(reports, args.out)
    print(f"graded {len(reports)} submissions in {time.monotonic() - start:.1f} s; wrote {csv_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
