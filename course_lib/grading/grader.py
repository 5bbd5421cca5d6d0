"""The batch grader: grade a folder of submitted exercise notebooks.

    python -m course_lib.grading grade submissions/ --out report/ [--jobs N] [--sandbox auto|none]

Every ``*.ipynb`` under ``submissions/`` (recursively) is graded by a worker process
(``_worker.py``, several at a time), each submission in sandboxes of its own (``_sandbox.py``).
As soon as a submission's result is known it is written, atomically, to
``report/<submission>.json``, and ``report/grades.csv`` is rebuilt from the results that exist.
Running the same command again after the grader was stopped (or killed) grades only what has no
result yet (or whose file or settings changed).  Whatever a submission does, the batch goes on:
a worker that overruns its time or dies is killed with everything it started, and the
submission gets a reason instead of a score.

Where bubblewrap cannot sandbox (``_sandbox.probe``), submissions are graded one at a time and
a warning says that they run with the grader's rights.
"""

import argparse
import csv
import hashlib
import io
import json
import os
import pathlib
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import _sandbox, chapters

__all__ = ["find_submissions", "grade_folder", "write_reports", "report_name", "main", "GRADER_VERSION"]

GRADER_VERSION = 2            # part of every result's key: results of an older grader are regraded
WORKER_MEMORY_MB = 3072       # address space of a worker (it never runs learner code; bounded messages)
TMP_PREFIX = "clg-"


def find_submissions(root):
    """The notebooks to grade under ``root`` (a folder, searched recursively, or one file), sorted."""
    root = pathlib.Path(root)
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and p.is_file() and not p.is_symlink())


MAX_NAME_BYTES = 100          # of the readable part of a report's file name (file names hold 255 bytes)
_HASHED = re.compile(r"-[0-9a-f]{16}$")


def report_name(submission):
    """The JSON file name of a submission's result: ``alice/05.ipynb`` -> ``alice__05.json``.

    Different submissions never share a name: when the plain form could be ambiguous (characters
    outside ``[A-Za-z0-9_.-]``, ``__`` in the path, a name as long as 100 bytes, or one that ends
    like a hashed name), 16 hex digits of the path's SHA-256 are added to a shortened readable form,
    and a plain name never ends that way.  A name (and the temporary name it is written under)
    stays well below the 255 bytes of a file name.
    """
    stem = submission[:-len(".ipynb")] if submission.endswith(".ipynb") else submission
    plain = stem.replace("/", "__")
    if re.fullmatch(r"[A-Za-z0-9_.-]+", plain) and "__" not in stem and not plain.startswith(".") \
            and plain.lower() != "grades" and len(plain) <= MAX_NAME_BYTES and not _HASHED.search(plain):
        return plain + ".json"
    digest = hashlib.sha256(submission.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    readable = re.sub(r"[^\w.-]+", "_", plain).lstrip(".")
    readable = readable.encode("utf-8", "replace")[:MAX_NAME_BYTES].decode("utf-8", "ignore")
    return f"{readable}-{digest}.json"


def _key(path, settings):
    """What a result depends on: the file's bytes, the settings, the grader's version."""
    h = hashlib.sha256()
    with open(path, "rb") as f:                       # in pieces: a submission may be gigabytes
        for block in iter(lambda: f.read(2**20), b""):
            h.update(block)
    h.update(json.dumps(settings, sort_keys=True).encode())
    h.update(str(GRADER_VERSION).encode())
    return h.hexdigest()


def _fallback(name, status, reason, seconds):
    return {"submission": name, "chapter": chapters.stem_of(name), "status": status, "score": 0, "max_score": 0,
            "questions": [], "cells": [], "notes": [reason], "seconds": round(seconds, 2)}


def _valid(report, name):
    """Whether ``report`` (read back from a worker or from the report folder) is a well-formed result of ``name``."""
    if not isinstance(report, dict) or report.get("submission") != name:
        return False
    if not isinstance(report.get("status"), str) or not isinstance(report.get("questions"), list):
        return False
    if not all(isinstance(report.get(k), int) for k in ("score", "max_score")):
        return False
    return all(isinstance(q, dict) and isinstance(q.get("question"), str) and isinstance(q.get("points"), int)
               for q in report["questions"])


# ---------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------

class _Slot:
    """One worker process (``_worker.py --serve``) that grades submissions one after another.

    If a submission overruns its deadline, or the worker dies, the worker and everything it started
    are killed, the submission gets a fallback report, and a new worker takes the next submission.
    The worker's answer is read from a file in the grader's private folder, announced on the
    worker's stdout with the job's random token (nothing else is accepted).
    """

    def __init__(self, tmp, grader):
        self.tmp = pathlib.Path(tmp)
        self.grader = grader
        self.proc = None
        self.lines = None

    def _start(self):
        env = dict(os.environ)
        env.pop("COURSE_LIB_GRADER_SANDBOX", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "course_lib.grading._worker", "--serve",
                                      "--worker-memory-mb", str(WORKER_MEMORY_MB), "--parent", str(os.getpid())],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, encoding="utf-8", env=env, cwd=self.tmp)
        self.grader.workers.add(self.proc.pid)
        self.lines = queue.Queue()
        out, lines = self.proc.stdout, self.lines

        def pump():
            try:
                for line in out:
                    lines.put(line.strip()[:200])
            except (OSError, ValueError):
                pass
            lines.put(None)
        threading.Thread(target=pump, daemon=True).start()

    def _stop(self, kill):
        if self.proc is None:
            return
        pid = self.proc.pid
        if kill:
            _sandbox.kill_descendants(pid)
            try:
                self.proc.kill()
            except OSError:
                pass
        else:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _sandbox.kill_descendants(pid)
            self.proc.kill()
            self.proc.wait()
        self.grader.workers.discard(pid)
        self.grader.reap_orphans()
        self.proc = None

    def grade(self, path, name, settings, deadline):
        """Grade one submission; always returns a report dict."""
        start = time.monotonic()
        if self.proc is None or self.proc.poll() is not None:
            self._stop(kill=True)
            self._start()
        token = secrets.token_hex(16)
        result = self.tmp / f"result-{token}.json"
        job = {"path": str(path), "result": str(result), "name": name, "settings": settings, "token": token}
        line = None
        try:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            end = start + deadline
            while True:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
                if line is None or line == f"DONE {token}":
                    break
        except queue.Empty:
            self._stop(kill=True)
            return _fallback(name, "timeout", f"整个笔记本的批改超过 {deadline:.0f} 秒，被终止",
                             time.monotonic() - start)
        except OSError as e:
            line = f"worker died: {e}"
        try:
            if line == f"DONE {token}":
                report = json.loads(result.read_text(encoding="utf-8"))
                if _valid(report, name):
                    return report
                line = "the worker's result is malformed"
        except (OSError, ValueError) as e:
            line = f"cannot read the worker's result: {e}"
        finally:
            try:
                result.unlink()
            except OSError:
                pass
        self._stop(kill=True)
        return _fallback(name, "grader_error", f"批改程序出错：{line or '批改进程意外结束'}", time.monotonic() - start)

    def close(self):
        """Let the worker finish and exit."""
        self._stop(kill=False)


class _Grader:
    """What the slots share: the live workers (to tell orphans from workers) and a lock."""

    def __init__(self, reap=False):
        self.workers = set()
        self.lock = threading.Lock()
        self.reap = reap

    def reap_orphans(self):
        """Kill descendants of the grader that belong to no live worker (a dead worker's leftovers).

        Only where the grader is its own process (the command line): there, every descendant that is
        not a worker is a leftover, since the grader is a subreaper.
        """
        if not self.reap:
            return
        with self.lock:
            keep = set(self.workers)
            for w in list(self.workers):
                keep.update(_sandbox.descendants(w))
            for pid in _sandbox.descendants():
                if pid not in keep:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass


# ---------------------------------------------------------------------------
# The report folder
# ---------------------------------------------------------------------------

def _atomic_write(path, data):
    """Write ``data`` (bytes) to ``path`` so that readers see the old file or the new one, never a part."""
    path = pathlib.Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _cell_text(value):
    """A CSV cell that a spreadsheet does not read as a formula."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv_bytes(reports):
    columns = sorted({q["question"] for r in reports for q in r.get("questions", [])}, key=_natural)
    f = io.StringIO()
    w = csv.writer(f)
    w.writerow(["submission", "chapter", "status", *columns, "total", "max_total", "notes"])
    for r in reports:
        points = {q["question"]: q["points"] for q in r.get("questions", [])}
        w.writerow([_cell_text(r["submission"]), r.get("chapter") or "", r["status"],
                    *[points.get(c, "") for c in columns], r.get("score", 0), r.get("max_score", 0),
                    _cell_text(" | ".join(str(n) for n in r.get("notes", []))[:500])])
    return f.getvalue().encode("utf-8", "replace")


def _json_bytes(report):
    return (json.dumps(report, ensure_ascii=False, indent=1) + "\n").encode("utf-8", "replace")


def write_report(report, out):
    """Write one result (atomically) as ``out/<report_name>``."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _atomic_write(out / report_name(report["submission"]), _json_bytes(report))


def write_csv(reports, out):
    """Rebuild ``out/grades.csv`` (atomically) from ``reports``; return its path."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "grades.csv"
    _atomic_write(path, _csv_bytes([r for r in reports if r is not None]))
    return path


def write_reports(reports, out):
    """Write ``grades.csv`` and one ``<submission>.json`` per report into folder ``out``; return the CSV path."""
    for r in reports:
        if r is not None:
            try:
                write_report(r, out)
            except OSError as e:         # one result that cannot be written must not cost the others theirs
                print(f"cannot write the report of {r['submission']}: {e}", file=sys.stderr, flush=True)
    return write_csv(reports, out)


def _clean_partial_writes(out):
    """Remove the temporary files of writes that a killed grader did not finish."""
    for p in pathlib.Path(out).glob(".*.tmp"):
        if p.is_file():
            try:
                p.unlink()
            except OSError:
                pass


def _previous(out, name, key):
    """The result of ``name`` already in ``out`` for the same ``key``, or None."""
    path = pathlib.Path(out) / report_name(name)
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if _valid(report, name) and report.get("key") == key and report.get("status") != "grader_error":
        return report
    return None


def _clean_stale_tmp():
    """Remove the private folders and cgroups of graders that were killed (a dead process's pid in their name)."""
    _sandbox.Cgroup.remove_stale()
    base = pathlib.Path(tempfile.gettempdir())
    for d in base.glob(TMP_PREFIX + "*"):
        try:
            pid = int((d / "grader.pid").read_text())
        except (OSError, ValueError):
            continue
        try:
            os.kill(pid, 0)
            continue
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except OSError:
            continue


# ---------------------------------------------------------------------------
# Grading a folder
# ---------------------------------------------------------------------------

def grade_folder(root, jobs=None, cell_timeout=30, question_timeout=10, memory_mb=2048, chapter=None,
                 submission_timeout=None, progress=None, out=None, sandbox="auto", warn=None, reap=False):
    """Grade every submission under ``root``; return the reports, in file order.

    With ``out``, each result is written there as soon as it is known, ``grades.csv`` is rebuilt
    after each, and results already there (same file, same settings) are reused, not regraded.
    ``sandbox="none"`` grades without namespaces (one submission at a time).  ``reap=True`` (the
    command line) makes this process a subreaper that kills every leftover descendant.
    """
    root = pathlib.Path(root)
    paths = find_submissions(root)
    names = [p.relative_to(root).as_posix() if root.is_dir() else p.name for p in paths]
    mode, why = _sandbox.probe(sandbox)
    if mode is None:
        message = (f"warning: no sandbox: {why}. Submissions are graded one at a time and run with this user's "
                   "rights (they can read and change your files). Install bubblewrap to sandbox them.")
        (warn or (lambda m: print(m, file=sys.stderr, flush=True)))(message)
        jobs = 1
    settings = {"cell_timeout": cell_timeout, "question_timeout": question_timeout, "memory_mb": memory_mb,
                "chapter": chapter}
    if submission_timeout is None:
        submission_timeout = 120 + 4 * cell_timeout + 12 * question_timeout
    reports = [None] * len(paths)
    keys = [None] * len(paths)
    todo = queue.Queue()
    if out is not None:
        pathlib.Path(out).mkdir(parents=True, exist_ok=True)
        _clean_partial_writes(out)
    for i, path in enumerate(paths):
        try:
            keys[i] = _key(path, dict(settings, sandbox=mode or "none"))
        except OSError:
            keys[i] = None
        if out is not None and keys[i] is not None:
            reports[i] = _previous(out, names[i], keys[i])
        if reports[i] is None:
            todo.put(i)
    reused = len(paths) - todo.qsize()
    if progress and reused:
        progress(f"{reused} submissions already graded in {out}: kept")
    jobs = max(1, min(todo.qsize() or 1, jobs or os.cpu_count() or 1))
    lock = threading.Lock()
    done = [reused]
    grader = _Grader(reap)
    if reap:
        _sandbox._prctl(_sandbox.PR_SET_CHILD_SUBREAPER, 1)
    _clean_stale_tmp()
    tmp = tempfile.mkdtemp(prefix=TMP_PREFIX)
    (pathlib.Path(tmp) / "grader.pid").write_text(str(os.getpid()))
    view = _sandbox.build_view(os.path.join(tmp, "view")) if mode else None
    job_settings = dict(settings, sandbox=mode, view=view, tmp=tmp, owner=os.getpid())

    def finish(i, report):
        report["key"] = keys[i]
        with lock:
            reports[i] = report
            done[0] += 1
            if out is not None:
                try:
                    write_report(report, out)
                    write_csv(reports, out)
                except OSError as e:
                    print(f"cannot write the report of {names[i]}: {e}", file=sys.stderr, flush=True)
            if progress:
                progress(f"[{done[0]}/{len(paths)}] {report['submission']}: {report['score']}/"
                         f"{report['max_score']} ({report['status']}, {report.get('seconds', 0):.1f} s)")

    def work():
        slot = _Slot(tmp, grader)
        try:
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    os.makedirs(tmp, exist_ok=True)
                    report = slot.grade(paths[i], names[i], job_settings, submission_timeout)
                except Exception as e:  # noqa: BLE001 - one submission must not stop the batch
                    report = _fallback(names[i], "grader_error", f"批改程序出错：{type(e).__name__}: {e}", 0)
                finish(i, report)
        finally:
            slot.close()

    try:
        threads = [threading.Thread(target=work, daemon=True) for _ in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    finally:
        if reap:
            _sandbox.kill_descendants()
        _sandbox.Cgroup.remove_stale(owner=os.getpid())   # those of workers that were killed
        shutil.rmtree(tmp, ignore_errors=True)
    if out is not None:
        # every result again, from memory: without a sandbox, a submission could have changed the files
        write_reports(reports, out)
    return reports


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
    g.add_argument("--memory-mb", type=int, default=2048,
                   help="memory limit of a submission's processes, MB (default 2048)")
    g.add_argument("--submission-timeout", type=float, default=None,
                   help="seconds for a whole submission before its worker is killed")
    g.add_argument("--chapter", help="grade every submission as this chapter (stem or number)")
    g.add_argument("--sandbox", choices=["auto", "none"], default="auto",
                   help="auto: bubblewrap where it works, else one at a time without it; none: never")
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
    out = pathlib.Path(args.out).resolve()
    if root.is_dir() and (out == root.resolve() or root.resolve() in out.parents):
        print("--out must not be inside the submissions folder", file=sys.stderr)
        return 2

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    start = time.monotonic()
    try:
        reports = grade_folder(root, args.jobs, args.cell_timeout, args.question_timeout, args.memory_mb,
                               args.chapter, args.submission_timeout, progress=lambda s: print(s, flush=True),
                               out=out, sandbox=args.sandbox, reap=True)
    except KeyboardInterrupt:
        print(f"stopped; the results so far are in {out} (run the same command again to finish)", file=sys.stderr)
        return 130
    print(f"graded {len(reports)} submissions in {time.monotonic() - start:.1f} s; wrote {out / 'grades.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
