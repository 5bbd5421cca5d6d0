"""Grade one submission: run it in a fresh, limited kernel, collect observations, judge them here.

    python -m course_lib.grading._worker SUBMISSION.ipynb --result OUT.json [options]

The batch grader (``grader.py``) starts one worker process per submission, so
one submission can never disturb another, and kills a worker that overruns.
This process never runs learner code itself: the learner's cells run in the
kernel (nbclient), and what comes back is plain JSON that is judged here.

What happens, in order:

1. read the notebook (an empty file, invalid JSON or a non-notebook gets a
   score of 0 and a reason);
2. find its chapter (``--chapter``, the notebook's ``metadata.course_lib.chapter``,
   or a chapter stem in the file name);
3. start a kernel whose launcher sets ``RLIMIT_AS``/``RLIMIT_CPU`` (``_kernel.py``),
   with a watchdog here that kills it if its memory still grows past the limit;
4. run a preamble (fingerprint of course_lib), every code cell of the
   notebook with a per-cell timeout, a second fingerprint, one observing cell
   per question with a per-question timeout, and a last fingerprint;
   a cell that times out or kills the kernel is recorded, the kernel is
   restarted and the notebook replayed without that cell;
5. judge each question from its observation with the trusted tests, and
   write the report as JSON.
"""

import argparse
import json
import os
import pathlib
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time

from . import chapters
from ._harvest import MIME

__all__ = ["grade_submission", "Settings", "serve", "main"]

KERNEL_NAME = "course-lib-grader"
MAX_ATTEMPTS = 4              # kernel starts per submission (the first run plus restarts)
LOUD_CELL = 1_000_000         # characters of output after which a cell is mentioned in the report


class Settings:
    """Limits for one submission (seconds, megabytes); ``chapter`` overrides detection."""

    def __init__(self, cell_timeout=30, question_timeout=10, memory_mb=2048, chapter=None):
        self.cell_timeout = cell_timeout
        self.question_timeout = question_timeout
        self.memory_mb = memory_mb
        self.chapter = chapter

    def as_dict(self):
        """Plain data (stored in the report)."""
        return {"cell_timeout": self.cell_timeout, "question_timeout": self.question_timeout,
                "memory_mb": self.memory_mb}


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def read_submission(path):
    """``(notebook, None)`` or ``(None, Chinese reason)`` for a file that is not a readable notebook."""
    import nbformat
    path = pathlib.Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        return None, f"无法读取文件：{e}"
    if not raw.strip():
        return None, "文件是空的：这不是一个 Jupyter 笔记本（保存时出错了吗？）"
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError) as e:
        return None, f"文件不是合法的 JSON，不是一个能打开的 Jupyter 笔记本：{str(e)[:200]}"
    if not isinstance(data, dict) or "cells" not in data:
        return None, "文件是 JSON，但不是 Jupyter 笔记本（没有 cells）"
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as e:  # noqa: BLE001 - any reader failure is the submission's problem
        return None, f"无法按 Jupyter 笔记本格式读取：{str(e)[:200]}"
    return nb, None


def detect_chapter(nb, path, override=None):
    """The chapter stem of a submission, or None."""
    if override:
        return chapters.stem_of(override)
    meta = nb.metadata.get("course_lib", {}) if nb is not None else {}
    chapter = meta.get("chapter") if isinstance(meta, dict) else None
    if isinstance(chapter, str) and chapter in chapters.STEMS:
        return chapter
    return chapters.stem_of(pathlib.Path(path).name)


# ---------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------

def _kernelspec_dir(settings, root):
    """Write the grader's kernelspec under ``root`` (used through JUPYTER_PATH)."""
    spec_dir = pathlib.Path(root) / "kernels" / KERNEL_NAME
    spec_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "course_lib.grading._kernel", "-f", "{connection_file}"],
        "display_name": "course_lib grader",
        "language": "python",
        "interrupt_mode": "signal",
        "env": {
            "COURSE_LIB_GRADER_MEMORY_MB": str(settings.memory_mb),
            "COURSE_LIB_GRADER_CPU_S": str(int(settings.cell_timeout * 40 + settings.question_timeout * 20 + 60)),
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "MPLBACKEND": "agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        },
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")


def _client_class():
    from nbclient import NotebookClient

    class QuietClient(NotebookClient):
        """NotebookClient that keeps only errors and the grader's own payloads.

        The learner's printed text and pictures are counted, not stored: grading
        needs none of them, and a cell that prints gigabytes cannot fill the
        grader's memory.
        """

        def output(self, outs, msg, display_id, cell_index):
            content = msg.get("content", {})
            if msg.get("msg_type") == "error" or MIME in content.get("data", {}):
                return super().output(outs, msg, display_id, cell_index)
            size = len(str(content.get("text", ""))) + sum(len(str(v)) for v in content.get("data", {}).values())
            self.output_sizes[cell_index] = self.output_sizes.get(cell_index, 0) + size
            return None

    return QuietClient


class _Watchdog(threading.Thread):
    """Kill the kernel when its resident memory passes the limit (where RLIMIT_AS does not hold)."""

    def __init__(self, pid, limit_mb):
        super().__init__(daemon=True)
        self.pid, self.limit = pid, limit_mb * 1024 * 1024
        self.fired = False
        self.stop = threading.Event()

    def run(self):
        try:
            import psutil
            proc = psutil.Process(self.pid)
        except Exception:  # noqa: BLE001 - no psutil or no process: nothing to watch
            return
        while not self.stop.wait(0.2):
            try:
                rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
            except Exception:  # noqa: BLE001 - the process is gone
                return
            if rss > self.limit:
                self.fired = True
                try:
                    for c in proc.children(recursive=True):
                        c.kill()
                    proc.kill()
                except Exception:  # noqa: BLE001
                    pass
                return


def _grader_cell(kind, nonce, cell_timeout, **args):
    import nbformat
    source = pathlib.Path(__file__).with_name("_harvest.py").read_text(encoding="utf-8")
    payload = dict(args, kind=kind, nonce=nonce)
    # builtins by their module, so that a notebook that defines its own `exec` or `compile` does not matter
    b = "__import__('builtins')"
    code = (f"{b}.exec({b}.compile({source!r}, '<course_lib grader>', 'exec'), "
            f"{{'__name__': '_course_lib_grader', '_user_ns': {b}.globals(), '_args': {payload!r}}})")
    cell = nbformat.v4.new_code_cell(code)
    cell.metadata["grader"] = {"kind": kind, "timeout": cell_timeout}
    return cell


def _read_payload(cell, nonce, kind):
    """The last grader payload of ``kind`` with the right nonce in ``cell``'s outputs, or None."""
    found = None
    for out in cell.get("outputs", []):
        text = out.get("data", {}).get(MIME) if out.get("output_type") == "display_data" else None
        if not isinstance(text, str):
            continue
        try:
            payload = json.loads(text)
        except ValueError:
            continue
        if isinstance(payload, dict) and payload.get("nonce") == nonce and payload.get("kind") == kind:
            found = payload
    return found


def _cell_error(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return f"{out.get('ename', 'Error')}: {str(out.get('evalue', ''))[:300]}"
    return None


class _Restart(Exception):
    pass


def run_notebook(nb, stem, settings, workdir):
    """Execute ``nb``'s code cells plus the grader's cells; return the raw records (see :func:`grade_submission`)."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    module = chapters.load(stem)
    questions = module.QUESTIONS
    nonce = secrets.token_hex(16)
    learner = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.strip()]
    bad_cells = {}          # notebook index -> "timeout" | "kernel_died" | "memory"
    bad_questions = {}      # question name -> "timeout" | "kernel_died" | "memory"
    notes = []
    Client = _client_class()
    records = None
    for _attempt in range(MAX_ATTEMPTS):
        run_nb = nbformat.v4.new_notebook()
        cells = [_grader_cell("preamble", nonce, 60, module=module.__name__)]
        origin = [("grader", "preamble")]
        for i, c in learner:
            if i in bad_cells:
                continue
            cells.append(nbformat.v4.new_code_cell(c.source))
            origin.append(("learner", i))
        cells.append(_grader_cell("fingerprint", nonce, 60))
        origin.append(("grader", "before"))
        for q in questions:
            if q.name in bad_questions:
                continue
            cells.append(_grader_cell("question", nonce, settings.question_timeout + 15, module=module.__name__,
                                      question=q.name, timeout=settings.question_timeout, **{"class": q.__name__}))
            origin.append(("question", q.name))
        cells.append(_grader_cell("fingerprint", nonce, 60))
        origin.append(("grader", "after"))
        run_nb.cells = cells
        client = Client(run_nb, kernel_name=KERNEL_NAME, timeout=settings.cell_timeout, allow_errors=True,
                        interrupt_on_timeout=False, record_timing=False, shutdown_kernel="immediate",
                        iopub_timeout=5, resources={"metadata": {"path": str(workdir)}},
                        timeout_func=lambda cell: cell.metadata.get("grader", {}).get("timeout",
                                                                                     settings.cell_timeout))
        client.output_sizes = {}
        records = {"cells": {}, "payloads": {}, "origin": origin, "loud": {}}
        position = 0
        watchdog = None
        try:
            import subprocess
            with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
                try:
                    pid = client.km.provisioner.process.pid
                    watchdog = _Watchdog(pid, settings.memory_mb)
                    watchdog.start()
                except Exception:  # noqa: BLE001 - no pid: run without the watchdog
                    watchdog = None
                for position, cell in enumerate(cells):
                    try:
                        client.execute_cell(cell, position)
                    except (CellTimeoutError, DeadKernelError, TimeoutError, RuntimeError) as e:
                        what = "timeout" if isinstance(e, (CellTimeoutError, TimeoutError)) else "kernel_died"
                        if watchdog is not None and watchdog.fired:
                            what = "memory"
                        kind, key = origin[position]
                        if kind == "learner":
                            bad_cells[key] = what
                        elif kind == "question":
                            bad_questions[key] = what
                        else:
                            raise RuntimeError(f"the grader's {key} cell failed ({what}): {e}") from e
                        raise _Restart() from e
                    kind, key = origin[position]
                    if kind == "learner":
                        records["cells"][key] = cell
                    elif kind == "question":
                        records["payloads"][key] = _read_payload(cell, nonce, "question")
                        records["cells"][("question", key)] = cell
                    else:
                        records["payloads"][key] = _read_payload(cell, nonce,
                                                                 "preamble" if key == "preamble" else "fingerprint")
                        records["cells"][("grader", key)] = cell
            records["loud"] = {origin[i][1]: n for i, n in client.output_sizes.items()
                               if origin[i][0] == "learner" and n > LOUD_CELL}
            break
        except _Restart:
            notes.append("restart")
            continue
        finally:
            if watchdog is not None:
                watchdog.stop.set()
    else:
        notes.append("gave_up")
    records["bad_cells"], records["bad_questions"], records["notes"] = bad_cells, bad_questions, notes
    records["learner"] = [i for i, _ in learner]
    return records


# ---------------------------------------------------------------------------
# Judging
# ---------------------------------------------------------------------------

_WHAT = {"timeout": "运行超时", "kernel_died": "让内核退出或崩溃了", "memory": "占用内存超过上限"}


def _changed(before, after):
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ["(无法读取)"]
    return sorted(k for k, v in before.items() if after.get(k) != v)


def _describe_cell(nb_index, what, settings):
    if what == "timeout":
        return f"第 {nb_index + 1} 个单元格运行超过 {settings.cell_timeout} 秒，被跳过"
    if what == "memory":
        return f"第 {nb_index + 1} 个单元格占用的内存超过 {settings.memory_mb} MB，被跳过"
    if what == "kernel_died":
        return f"第 {nb_index + 1} 个单元格让内核退出了（例如 os._exit、exit() 或崩溃），被跳过"
    return f"第 {nb_index + 1} 个单元格：{what}"


_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](q\d+)["']\s*\)""")


def question_of_cells(nb):
    """``{cell index: question name}`` for the cells that belong to a question (others are left out).

    A generated exercise tags every cell of a question (``metadata.course_lib.question``).  A cell
    without the tag (one the learner added, or a notebook whose metadata was lost) is placed by what
    it is and where it is: a ``check("qN")`` cell belongs to qN, a ``check_all()`` cell to
    ``"check_all"`` (all questions); in a tagged notebook another cell belongs to the question of the
    tagged cell before it (a scratch cell inside or right after a question), and in a notebook without
    tags to the question of the next ``check("qN")`` cell.  Cells before the first question (the
    set-up cell) belong to none.
    """
    tags = {}
    for i, cell in enumerate(nb.cells):
        meta = cell.metadata.get("course_lib", {})
        if isinstance(meta, dict) and isinstance(meta.get("question"), str):
            tags[i] = meta["question"]
    out = dict(tags)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and i not in tags]
    checks = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            m = _CHECK_CALL.search(cell.source)
            if m:
                checks[i] = m.group(1)
    for i in code:
        source = nb.cells[i].source
        if i in checks:
            out[i] = checks[i]
        elif re.search(r"\bcheck_all\(\s*\)", source):
            out[i] = "check_all"
        elif "checker(" in source:
            continue
        elif tags:
            before = [j for j in tags if j < i]
            if before:
                out[i] = tags[max(before)]
        else:
            after = [j for j in checks if j > i]
            if after:
                out[i] = checks[min(after)]
    return out


def judge_records(nb, stem, records, settings):
    """Turn the raw records of :func:`run_notebook` into the per-question report (no learner code runs here)."""
    from .core import Verdict, judge_question
    module = chapters.load(stem)
    question_of = question_of_cells(nb)
    # problems in the learner's cells
    cell_reports = []
    for i in records["learner"]:
        what = records["bad_cells"].get(i)
        if what:
            cell_reports.append({"cell": i + 1, "question": question_of.get(i), "status": what,
                                 "error": _describe_cell(i, what, settings)})
            continue
        cell = records["cells"].get(i)
        err = _cell_error(cell) if cell is not None else None
        if err:
            status = "memory" if err.startswith("MemoryError") else "error"
            if status == "memory":
                err = f"MemoryError：内存用量超过了 {settings.memory_mb} MB 的上限"
            cell_reports.append({"cell": i + 1, "question": question_of.get(i), "status": status, "error": err})
    payloads = records["payloads"]
    tampered = []
    preamble = payloads.get("preamble")
    if preamble is None:
        base = None
    else:
        base = preamble.get("ids")
    for key in ("before", "after"):
        snap = payloads.get(key)
        if base is not None and snap is not None:
            tampered += [k for k in _changed(base, snap.get("ids")) if k not in tampered]
        elif base is not None and snap is None and ("grader", key) in records["cells"]:
            tampered.append(f"(第{'一' if key == 'before' else '二'}次检查没有结果)")
    verdicts = []
    for Q in module.QUESTIONS:
        q = Q()
        own = [c for c in cell_reports if c["question"] == q.name]
        if tampered:
            v = Verdict(q, "tampered", False,
                        "course_lib 或 numpy 在笔记本里被修改了（monkey-patch）："
                        + "、".join(tampered[:5]) + ("……" if len(tampered) > 5 else "")
                        + "。为了公平，所有题目都不计分；请删掉修改库的代码后重新提交。")
        elif q.name in records["bad_questions"]:
            what = records["bad_questions"][q.name]
            v = Verdict(q, "timeout" if what == "timeout" else "error", False,
                        f"运行这道题的测试时{_WHAT.get(what, what)}（超过 {settings.question_timeout} 秒的时限，"
                        "或者内核退出了）：代码里是不是有死循环？")
        else:
            payload = payloads.get(q.name)
            if payload is None:
                cell = records["cells"].get(("question", q.name))
                err = _cell_error(cell) if cell is not None else None
                reason = "没有收到这道题的测试结果" + (f"（{err}）" if err else "") + "。"
                if "gave_up" in records["notes"]:
                    reason += "笔记本里超时或让内核退出的单元格太多，内核重启几次后批改停止了。"
                v = Verdict(q, "error", False, reason)
            else:
                try:
                    v = judge_question(q, payload.get("observed"))
                except Exception as e:  # noqa: BLE001 - malformed observations are the submission's problem
                    v = Verdict(q, "error", False, f"测试结果的格式不对，无法判分（{type(e).__name__}）。")
        if own and not v.passed and v.status != "tampered":
            v.reason += "\n笔记本里这道题的单元格：" + "；".join(c["error"] for c in own[:3])
        verdicts.append(v)
    notes = []
    restarts = records["notes"].count("restart")
    if restarts:
        notes.append(f"内核重启了 {restarts} 次（跳过了超时或让内核退出的单元格后重新运行）")
    if "gave_up" in records["notes"]:
        notes.append("重启次数过多，没有运行完")
    for i, size in sorted(records["loud"].items()):
        notes.append(f"第 {i + 1} 个单元格输出了约 {size / 1e6:.1f} 百万个字符（批改时不保存输出，不影响判分）")
    for c in cell_reports:
        if c["question"] in (None, "check_all"):
            notes.append(c["error"] if c["status"] != "error" else f"第 {c['cell']} 个单元格出错：{c['error']}")
    return verdicts, cell_reports, notes, tampered


def grade_submission(path, settings=None, name=None):
    """Grade the notebook at ``path``; return the report (plain data, see ``README.md``)."""
    settings = settings or Settings()
    start = time.monotonic()
    report = {"submission": name or pathlib.Path(path).name, "chapter": None, "status": "graded", "score": 0,
              "max_score": 0, "questions": [], "cells": [], "notes": [], "settings": settings.as_dict()}
    nb, problem = read_submission(path)
    stem = detect_chapter(nb, path, settings.chapter)
    report["chapter"] = stem
    if stem is not None:
        qs = chapters.load(stem).QUESTIONS
        report["max_score"] = sum(q.points for q in qs)
    if problem or stem is None:
        from .core import Verdict
        report["status"] = "unreadable" if problem else "unknown_chapter"
        reason = problem or ("无法判断这是哪一章的练习：笔记本里没有 course_lib 元数据，文件名里也没有章节名"
                             f"（{', '.join(chapters.STEMS)}）；批改时可以用 --chapter 指定")
        report["notes"].append(reason)
        if stem is not None:
            report["questions"] = [Verdict(q(), report["status"], False, reason).as_dict() for q in qs]
        report["seconds"] = round(time.monotonic() - start, 2)
        return report
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="course_lib_grade_"))
    jupyter_root = workdir / "jupyter"
    try:
        _kernelspec_dir(settings, jupyter_root)
        os.environ["JUPYTER_PATH"] = str(jupyter_root)
        os.environ["JUPYTER_RUNTIME_DIR"] = str(workdir / "runtime")
        run_dir = workdir / "run"
        run_dir.mkdir()
        try:
            records = run_notebook(nb, stem, settings, run_dir)
        except Exception as e:  # noqa: BLE001 - report, never crash the batch
            from .core import Verdict
            report["status"] = "kernel_error"
            reason = f"无法运行这个笔记本：{type(e).__name__}: {str(e)[:300]}"
            report["notes"].append(reason)
            report["questions"] = [Verdict(q(), "error", False, reason).as_dict() for q in qs]
            return report
        verdicts, cells, notes, tampered = judge_records(nb, stem, records, settings)
        report["questions"] = [v.as_dict() for v in verdicts]
        report["score"] = sum(v.points for v in verdicts)
        report["cells"] = cells
        report["notes"] += notes
        if tampered:
            report["status"] = "tampered"
            report["tampered"] = tampered
        return report
    finally:
        report["seconds"] = round(time.monotonic() - start, 2)
        shutil.rmtree(workdir, ignore_errors=True)


def serve(stdin=sys.stdin, stdout=sys.stdout):
    """Batch mode: grade the jobs read from ``stdin`` one at a time (one JSON object per line).

    A job is ``{"path", "result", "name", "settings": {...}}``; after writing the
    report to ``result`` the worker prints ``DONE`` on ``stdout``.  One worker
    grades many submissions, so the imports (nbclient, jsonschema, ...) are paid once.
    """
    for line in stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        s = job.get("settings", {})
        settings = Settings(s.get("cell_timeout", 30), s.get("question_timeout", 10), s.get("memory_mb", 2048),
                            s.get("chapter"))
        try:
            report = grade_submission(job["path"], settings, job.get("name"))
        except Exception as e:  # noqa: BLE001 - one submission must not stop the batch
            report = {"submission": job.get("name"), "chapter": None, "status": "grader_error", "score": 0,
                      "max_score": 0, "questions": [], "cells": [], "notes": [f"{type(e).__name__}: {e}"]}
        pathlib.Path(job["result"]).write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
        print("DONE", flush=True, file=stdout)


def main(argv=None):
    """Command line: grade one submission (``--result``) or serve jobs from stdin (``--serve``)."""
    ap = argparse.ArgumentParser(prog="python -m course_lib.grading._worker")
    ap.add_argument("submission", nargs="?")
    ap.add_argument("--serve", action="store_true", help="read jobs (JSON lines) from stdin")
    ap.add_argument("--result")
    ap.add_argument("--name")
    ap.add_argument("--chapter")
    ap.add_argument("--cell-timeout", type=float, default=30)
    ap.add_argument("--question-timeout", type=float, default=10)
    ap.add_argument("--memory-mb", type=int, default=2048)
    args = ap.parse_args(argv)
    if args.serve:
        serve()
        return 0
    if not args.submission or not args.result:
        ap.error("give SUBMISSION and --result, or --serve")
    settings = Settings(args.cell_timeout, args.question_timeout, args.memory_mb, args.chapter)
    report = grade_submission(args.submission, settings, args.name)
    pathlib.Path(args.result).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
