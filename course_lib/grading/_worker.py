"""Grade one submission: run it in a sandboxed kernel, test its definitions in a second sandbox, judge here.

    python -m course_lib.grading._worker SUBMISSION.ipynb --result OUT.json [options]
    python -m course_lib.grading._worker --serve          (the batch grader's workers)

This process never runs learner code.  What happens to a submission, in order:

1. **read** the notebook (``read_submission``): any bytes (invalid UTF-8 is kept as lone
   surrogates), nbformat 3 upgraded to 4; a cell that cannot be encoded is left out of both runs
   and costs only that cell; an empty file, invalid JSON or a non-notebook gets a reason;
2. find its **chapter** (``--chapter``, ``metadata.course_lib.chapter``, a stem in the file name);
3. **run the notebook** (``run_notebook``) in a kernel inside the submission's sandbox
   (``_sandbox.py``: private 0700 folder, own namespaces, no network, limits), started from a
   kernelspec held in memory (a submission cannot remove it), reached over ZeroMQ ``ipc``
   sockets in the private folder, with a size limit on every message.  Each cell has a timeout; a
   cell that times out or kills the kernel is recorded and the notebook replayed without it.
   Printed output is counted, not kept.  The only data taken from this kernel are the cells'
   errors and two fingerprints of course_lib (``_harvest.py``) that reveal monkey-patching;
4. **observe** (``observe``): a second, fresh sandbox (``_observe.py``, started while the
   kernel runs) loads only the notebook's definitions (``_definitions.py``) and runs each
   question's observing half in a forked child of its own, sending back plain JSON;
5. **judge** (``judge_records``) each observation here, with the full chapter module, whose
   expected results the sandboxes never see; write the report.
"""

import argparse
import json
import os
import pathlib
import queue
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from . import _definitions, _sandbox, chapters
from ._harvest import MIME

__all__ = ["grade_submission", "Settings", "read_submission", "serve", "main"]

MAX_ATTEMPTS = 4              # kernel starts per submission (the first run plus restarts)
LOUD_CELL = 1_000_000         # characters of output after which a cell is mentioned in the report
MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one message from the kernel (a larger one drops the connection)
MAX_PAYLOAD = 4 * 1024 * 1024  # characters of one grader payload kept from the kernel
MAX_LINE = 32 * 1024 * 1024   # bytes of one line from the observing process
OBSERVER_STARTS = 3           # observing processes per submission (the first plus restarts)
MAX_NOTEBOOK = 64 * 1024 * 1024  # bytes of a submitted file


class Settings:
    """Limits for one submission (seconds, megabytes); ``chapter`` overrides detection.

    ``sandbox`` is ``"bwrap"`` or ``None`` (see ``_sandbox.probe``); ``view`` the sandbox's copy of
    ``course_lib/grading`` (``_sandbox.build_view``); ``tmp`` the folder for private folders.
    """

    def __init__(self, cell_timeout=30, question_timeout=10, memory_mb=2048, chapter=None, sandbox=None,
                 view=None, tmp=None):
        self.cell_timeout = cell_timeout
        self.question_timeout = question_timeout
        self.memory_mb = memory_mb
        self.chapter = chapter
        self.sandbox, self.view, self.tmp = sandbox, view, tmp
        self.reap = False           # kill every descendant of this process after a submission (workers only)
        self.owner = None           # the grader's pid, in the names of the sandboxes' cgroups

    def as_dict(self):
        """Plain data (stored in the report)."""
        return {"cell_timeout": self.cell_timeout, "question_timeout": self.question_timeout,
                "memory_mb": self.memory_mb, "sandbox": self.sandbox or "none"}

    def cpu_seconds(self, cells=0):
        """The CPU-time limit of one sandboxed process."""
        return int(60 + self.cell_timeout * max(cells, 20) + self.question_timeout * 20)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def _encodable(text):
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def read_submission(path):
    """``(notebook, None)`` or ``(None, Chinese reason)`` for a file that is not a readable notebook.

    Bytes that are not UTF-8 become lone surrogates (``surrogateescape``), so only the cells that
    hold them are lost (see :func:`unencodable_cells`); nbformat 3 notebooks are upgraded to 4.
    """
    import nbformat
    path = pathlib.Path(path)
    try:
        if path.stat().st_size > MAX_NOTEBOOK:
            return None, f"文件太大（超过 {MAX_NOTEBOOK // 2**20} MB），不像一个练习笔记本"
        raw = path.read_bytes()
    except OSError as e:
        return None, f"无法读取文件：{e.strerror or e}"
    if not raw.strip():
        return None, "文件是空的：这不是一个 Jupyter 笔记本（保存时出错了吗？）"
    text = raw.decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        return None, f"文件不是合法的 JSON，不是一个能打开的 Jupyter 笔记本：{str(e)[:200]}"
    if not isinstance(data, dict) or not ("cells" in data or "worksheets" in data):
        return None, "文件是 JSON，但不是 Jupyter 笔记本（没有 cells）"
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as e:  # noqa: BLE001 - any reader failure is the submission's problem
        return None, f"无法按 Jupyter 笔记本格式读取：{str(e)[:200]}"
    if not isinstance(nb.get("cells"), list):
        return None, "文件是 JSON，但不是 Jupyter 笔记本（没有 cells）"
    for cell in nb.cells:
        if not isinstance(cell.get("source", ""), str):
            cell["source"] = ""
        cell.setdefault("metadata", nbformat.NotebookNode())
    return nb, None


def unencodable_cells(nb):
    """Indexes of the code cells whose source cannot be encoded as UTF-8 (lone surrogates)."""
    return [i for i, c in enumerate(nb.cells) if c.get("cell_type") == "code" and not _encodable(c.source)]


def detect_chapter(nb, path, override=None):
    """The chapter stem of a submission, or None."""
    if override:
        return chapters.stem_of(override)
    meta = nb.metadata.get("course_lib", {}) if nb is not None else {}
    chapter = meta.get("chapter") if isinstance(meta, dict) else None
    if isinstance(chapter, str) and chapter in chapters.STEMS:
        return chapter
    return chapters.stem_of(pathlib.Path(path).name)


def chapter_note(nb, path, stem, override=None):
    """A note when the file's name names another chapter than the one it is graded as (from its metadata)."""
    named = chapters.stem_of(pathlib.Path(path).name)
    if override or stem is None or named is None or named == stem:
        return None
    return (f"文件名表明这是 {named} 的练习，笔记本的元数据却写着 {stem}：按 {stem} 批改"
            "（若不对，可以用 --chapter 指定章节）")


# ---------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------

def _kernel_manager_class(sandbox, private):
    """An AsyncKernelManager for the sandboxed kernel: spec in memory, ipc sockets, bounded messages."""
    import zmq
    import zmq.asyncio
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager

    argv = sandbox.command([sys.executable, "-I", "-m", "course_lib.grading._kernel", "-f", "{connection_file}"],
                           label="kernel")
    spec = KernelSpec(argv=argv, display_name="course_lib grader", language="python", env={},
                      interrupt_mode="signal", resource_dir=str(private))

    class GraderKernelManager(AsyncKernelManager):
        def __init__(self, **kwargs):
            kwargs.pop("kernel_name", None)
            context = zmq.asyncio.Context()
            context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
            context.setsockopt(zmq.RCVHWM, 4)
            context.setsockopt(zmq.LINGER, 0)
            super().__init__(transport="ipc", ip=os.path.join(private, "k"),
                             connection_file=os.path.join(private, "kernel.json"), context=context, **kwargs)

        @property
        def kernel_spec(self):
            return spec

        def client(self, **kwargs):
            kwargs.setdefault("context", self.context)
            return super().client(**kwargs)

    return GraderKernelManager


def _client_class():
    from nbclient import NotebookClient

    class QuietClient(NotebookClient):
        """NotebookClient that keeps only (trimmed) errors and small grader payloads.

        The learner's printed text and pictures are counted, not stored: grading needs none of
        them, and a cell that prints gigabytes cannot fill the grader's memory.
        """

        def output(self, outs, msg, display_id, cell_index):
            content = msg.get("content", {})
            if msg.get("msg_type") == "error":
                trimmed = {"ename": str(content.get("ename", ""))[:200],
                           "evalue": str(content.get("evalue", ""))[:2000],
                           "traceback": [str(t)[:2000] for t in content.get("traceback", [])[:60]]}
                msg = dict(msg, content=trimmed)
                return super().output(outs, msg, display_id, cell_index)
            data = content.get("data", {}) if isinstance(content.get("data"), dict) else {}
            payload = data.get(MIME)
            if msg.get("msg_type") == "display_data" and isinstance(payload, str) and len(payload) <= MAX_PAYLOAD:
                outs[:] = [o for o in outs if MIME not in o.get("data", {})]     # the last payload only
                return super().output(outs, dict(msg, content={"data": {MIME: payload}, "metadata": {}}),
                                      display_id, cell_index)
            size = len(str(content.get("text", ""))) + sum(len(str(v)) for v in data.values())
            self.output_sizes[cell_index] = self.output_sizes.get(cell_index, 0) + size
            return None

    return QuietClient


class _Watchdog(threading.Thread):
    """Kill the kernel when the resident memory of its process tree passes the limit."""

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
                family = proc.children(recursive=True)
                rss = proc.memory_info().rss + sum(c.memory_info().rss for c in family)
            except Exception:  # noqa: BLE001 - the process is gone
                return
            if rss > self.limit:
                self.fired = True
                for p in family + [proc]:
                    try:
                        p.kill()
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


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")


def _cell_error(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return f"{out.get('ename', 'Error')}: {str(out.get('evalue', ''))[:300]}"
    return None


def _error_line(cell):
    """The line of the cell at which its error was raised (from IPython's traceback), or None."""
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            m = _CELL_LINE.search(_ANSI.sub("", "\n".join(str(t) for t in out.get("traceback", []))))
            return int(m.group(1)) if m else None
    return None


class _Restart(Exception):
    pass


def run_notebook(nb, stem, settings, sandbox, private, skip=()):
    """Execute ``nb``'s code cells (but ``skip``) and the grader's cells in a sandboxed kernel.

    Returns the raw records (see :func:`grade_submission`): the executed learner cells, the grader's
    fingerprints, the cells that timed out or killed the kernel, notes, the loud cells.
    """
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    module = chapters.load(stem)
    nonce = secrets.token_hex(16)
    learner = [(i, c) for i, c in enumerate(nb.cells)
               if c.get("cell_type") == "code" and c.source.strip() and i not in skip]
    bad_cells = {}          # notebook index -> "timeout" | "kernel_died" | "memory"
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
        run_nb.cells = cells
        client = Client(run_nb, kernel_manager_class=_kernel_manager_class(sandbox, private),
                        timeout=settings.cell_timeout, allow_errors=True,
                        interrupt_on_timeout=False, record_timing=False, shutdown_kernel="immediate",
                        iopub_timeout=5, startup_timeout=60, resources={"metadata": {"path": sandbox.cwd()}},
                        timeout_func=lambda cell: cell.metadata.get("grader", {}).get("timeout",
                                                                                     settings.cell_timeout))
        client.output_sizes = {}
        records = {"cells": {}, "payloads": {}, "origin": origin, "loud": {}}
        watchdog = None
        try:
            with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
                try:
                    watchdog = _Watchdog(client.km.provisioner.process.pid, settings.memory_mb)
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
                        else:
                            raise RuntimeError(f"the grader's {key} cell failed ({what}): {e}") from e
                        raise _Restart() from e
                    kind, key = origin[position]
                    if kind == "learner":
                        records["cells"][key] = cell
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
    records["bad_cells"], records["notes"] = bad_cells, notes
    records["learner"] = [i for i, _ in learner]
    return records


# ---------------------------------------------------------------------------
# Observing: a fresh sandbox that loads the definitions only
# ---------------------------------------------------------------------------

class _Observer:
    """The observing process of one submission (``_observe.py``), spoken to in JSON lines."""

    def __init__(self, sandbox):
        argv = sandbox.command([sys.executable, "-I", "-m", "course_lib.grading._observe"], label="observe")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=sandbox.cwd())
        self.lines = queue.Queue()
        out, lines = self.proc.stdout, self.lines

        def pump():
            try:
                while True:
                    line = out.readline(MAX_LINE)
                    if not line:
                        break
                    if not line.endswith(b"\n"):       # longer than MAX_LINE: the observer is not ours any more
                        lines.put({"error": "观察进程送回的数据太大"})
                        break
                    try:
                        msg = json.loads(line.decode("utf-8"))
                    except ValueError:
                        msg = {"error": "观察进程送回了无法读取的数据"}
                    lines.put(msg if isinstance(msg, dict) else {"error": "观察进程送回了无法读取的数据"})
            finally:
                lines.put(None)
        threading.Thread(target=pump, daemon=True).start()

    def send(self, obj):
        """Send one message; False when the process is gone."""
        try:
            self.proc.stdin.write((json.dumps(obj, ensure_ascii=True) + "\n").encode("ascii"))
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def receive(self, timeout):
        """The next message, or None when the process ended or ``timeout`` passed."""
        try:
            return self.lines.get(timeout=max(0.1, timeout))
        except queue.Empty:
            return None

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass


def plan_definitions(nb, records):
    """The cells to send to the observing process: what ran in the kernel, as Python, with the statements to load."""
    cells, skipped = [], []
    for i in records["learner"]:
        cell = records["cells"].get(i)
        if cell is None:                        # skipped (timeout, kernel died) or never reached
            continue
        source = _definitions.transform_cell(nb.cells[i].source)
        until = None
        if _cell_error(cell):
            until = _error_line(cell)
            if until is None:                   # no line (SystemExit ...): up to the first statement not loaded
                plan = _definitions.plan_cell(source)
                until = plan["skipped"][0]["line"] if plan["skipped"] else None
                if until is None:
                    until = 1
        plan = _definitions.plan_cell(source, until)
        cells.append({"index": i, "source": source, "run": plan["run"]})
        skipped += [dict(s, cell=i) for s in plan["skipped"] if s["names"]]
    return cells, skipped


def observe(nb, stem, records, settings, observer_factory, first=None):
    """Observe every question of ``stem`` in the observing process; return ``(observations, load report)``.

    ``observations`` maps a question name to ``{"observed": ...}`` or ``{"error": reason}``.  If the
    process dies (the learner's code may kill it), a new one is started for the questions left.
    """
    module = chapters.load(stem)
    cells, skipped = plan_definitions(nb, records)
    todo = [{"name": Q.name, "class": Q.__name__, "timeout": settings.question_timeout, "grace": 10}
            for Q in module.QUESTIONS]
    results, load = {}, {"errors": [], "refused": [], "skipped": skipped, "names": []}
    observer = first
    starts = 0
    try:
        while todo and starts < OBSERVER_STARTS:
            starts += 1
            if observer is None:
                observer = observer_factory()
            msg = observer.receive(120)
            if not msg or not msg.get("ready"):
                observer.close()
                observer = None
                continue
            if not observer.send({"cells": cells, "module": module.__name__, "questions": todo}):
                observer.close()
                observer = None
                continue
            msg = observer.receive(settings.cell_timeout * 4 + 60)
            if msg and "fatal" in msg:
                for q in todo:
                    results[q["name"]] = {"error": f"加载笔记本里的定义时出错：{str(msg['fatal'])[:300]}"}
                todo = []
                break
            if msg and isinstance(msg.get("loaded"), dict) and starts == 1:
                for key in ("errors", "refused", "names"):
                    if isinstance(msg["loaded"].get(key), list):
                        load[key] = msg["loaded"][key]
            while todo and msg is not None:
                q = todo[0]
                msg = observer.receive(q["timeout"] + q["grace"] + 15)
                if msg is None or msg.get("question") != q["name"]:
                    results[q["name"]] = {"error": "测试这道题时，观察进程意外结束了"
                                                   "（代码结束了它，或者超出了时间或内存的限制）"}
                    todo.pop(0)
                    break
                results[q["name"]] = msg
                todo.pop(0)
            observer.close()
            observer = None
    finally:
        if observer is not None:
            observer.close()
    for q in todo:
        results[q["name"]] = {"error": "观察进程多次意外结束，这道题没有测试"}
    return results, load


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
    if what == "unencodable":
        return f"第 {nb_index + 1} 个单元格含有无法编码的字符（不是 UTF-8 的字节，或孤立的代理项），没有运行"
    return f"第 {nb_index + 1} 个单元格：{what}"


_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](q\d+)["']""")


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


def _load_problems(nb, load):
    """``{name: Chinese reason}`` for names whose definition the observing process did not load."""
    import ast
    out = {}
    for s in load.get("skipped", []):
        for name in s.get("names", []):
            out.setdefault(name, f"第 {s['cell'] + 1} 个单元格第 {s['line']} 行的定义在批改时不加载"
                                 f"（加载时运行的部分{s['why']}）")
    for kind in ("refused", "errors"):
        for p in load.get(kind, []):
            try:
                cell = int(p["cell"])
                tree = ast.parse(_definitions.transform_cell(nb.cells[cell].source))
                node = next(n for n in tree.body if n.lineno == p["line"])
                names = _definitions._bound_names(node)
            except (KeyError, ValueError, TypeError, IndexError, StopIteration, SyntaxError):
                continue
            why = p.get("why") or p.get("error") or ""
            for name in names:
                out.setdefault(name, f"第 {cell + 1} 个单元格第 {p['line']} 行的定义在批改时加载失败：{str(why)[:200]}")
    return out


def judge_records(nb, stem, records, observations, load, settings):
    """Turn the raw records and observations into the per-question report (no learner code runs here)."""
    from .core import Verdict, judge_question
    module = chapters.load(stem)
    question_of = question_of_cells(nb)
    cell_reports = []
    for i in records.get("unencodable", []):
        cell_reports.append({"cell": i + 1, "question": question_of.get(i), "status": "unencodable",
                             "error": _describe_cell(i, "unencodable", settings)})
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
    cell_reports.sort(key=lambda c: c["cell"])
    payloads = records["payloads"]
    tampered = []
    preamble = payloads.get("preamble")
    base = preamble.get("ids") if isinstance(preamble, dict) else None
    snap = payloads.get("before")
    if base is not None and isinstance(snap, dict):
        tampered = _changed(base, snap.get("ids"))
    elif base is not None and ("grader", "before") in records["cells"]:
        records["notes"].append("no_fingerprint")
    problems = _load_problems(nb, load)
    verdicts = []
    for Q in module.QUESTIONS:
        q = Q()
        own = [c for c in cell_reports if c["question"] == q.name]
        result = observations.get(q.name) or {"error": "没有收到这道题的测试结果"}
        if tampered:
            v = Verdict(q, "tampered", False,
                        "course_lib 或 numpy 在笔记本里被修改了（monkey-patch）："
                        + "、".join(tampered[:5]) + ("……" if len(tampered) > 5 else "")
                        + "。为了公平，所有题目都不计分；请删掉修改库的代码后重新提交。")
        elif "observed" in result:
            observed = result["observed"]
            try:
                v = judge_question(q, observed)
            except Exception as e:  # noqa: BLE001 - malformed observations are the submission's problem
                v = Verdict(q, "error", False, f"测试结果的格式不对，无法判分（{type(e).__name__}）。")
            if v.status == "not_defined" and isinstance(observed, dict):
                extra = [problems[n] for n in observed.get("names", []) if n in problems]
                if extra:
                    v.reason += "\n" + "；".join(extra[:3])
        else:
            reason = str(result.get("error", "没有收到这道题的测试结果"))[:500]
            v = Verdict(q, "error", False, f"{reason}。" if not reason.endswith("。") else reason)
        if own and not v.passed and v.status != "tampered":
            v.reason += "\n笔记本里这道题的单元格：" + "；".join(c["error"] for c in own[:3])
        verdicts.append(v)
    notes = []
    restarts = records["notes"].count("restart")
    if restarts:
        notes.append(f"内核重启了 {restarts} 次（跳过了超时或让内核退出的单元格后重新运行）")
    if "gave_up" in records["notes"]:
        notes.append("重启次数过多，没有运行完")
    if "no_fingerprint" in records["notes"]:
        notes.append("运行笔记本后没有收到检查 course_lib 是否被修改的结果（输出太多，或者笔记本拦截了它）；"
                     "不影响判分：函数是在另一个没有运行笔记本顶层代码的进程里测试的")
    loud = sorted(records["loud"].items())
    for i, size in loud[:5]:
        notes.append(f"第 {i + 1} 个单元格输出了约 {size / 1e6:.1f} 百万个字符（批改时不保存输出，不影响判分）")
    if len(loud) > 5:
        notes.append(f"另有 {len(loud) - 5} 个单元格也输出了超过一百万个字符")
    for c in cell_reports:
        if c["question"] in (None, "check_all"):
            notes.append(c["error"] if c["status"] != "error" else f"第 {c['cell']} 个单元格出错：{c['error']}")
    return verdicts, cell_reports, notes, tampered


# ---------------------------------------------------------------------------
# One submission
# ---------------------------------------------------------------------------

def _unreadable_report(report, problem, stem, qs):
    from .core import Verdict
    report["status"] = "unreadable" if problem else "unknown_chapter"
    reason = problem or ("无法判断这是哪一章的练习：笔记本里没有 course_lib 元数据，文件名里也没有章节名"
                         f"（{', '.join(chapters.STEMS)}）；批改时可以用 --chapter 指定")
    report["notes"].append(reason)
    if stem is not None:
        report["questions"] = [Verdict(q(), report["status"], False, reason).as_dict() for q in qs]
    return report


def grade_submission(path, settings=None, name=None):
    """Grade the notebook at ``path``; return the report (plain data, see ``README.md``)."""
    settings = settings or Settings()
    if settings.view is None and settings.sandbox == "bwrap":
        raise ValueError("a bwrap sandbox needs settings.view (see _sandbox.build_view)")
    start = time.monotonic()
    report = {"submission": name or pathlib.Path(path).name, "chapter": None, "status": "graded", "score": 0,
              "max_score": 0, "questions": [], "cells": [], "notes": [], "settings": settings.as_dict()}
    nb, problem = read_submission(path)
    stem = detect_chapter(nb, path, settings.chapter)
    report["chapter"] = stem
    note = chapter_note(nb, path, stem, settings.chapter)
    if note:
        report["notes"].append(note)
    qs = chapters.load(stem).QUESTIONS if stem is not None else []
    report["max_score"] = sum(q.points for q in qs)
    if problem or stem is None:
        report["seconds"] = round(time.monotonic() - start, 2)
        return _unreadable_report(report, problem, stem, qs)
    tmp = settings.tmp or tempfile.gettempdir()
    os.makedirs(tmp, mode=0o700, exist_ok=True)              # a submission without sandbox may have removed it
    private = tempfile.mkdtemp(prefix="s-", dir=tmp)          # mode 0700
    observer_private = tempfile.mkdtemp(prefix="o-", dir=tmp)
    cpu = settings.cpu_seconds(len(nb.cells))
    kernel_box = _sandbox.Sandbox(private, settings.sandbox, settings.view, settings.memory_mb, cpu,
                                  name=f"clg-{settings.owner or os.getpid()}-{os.path.basename(private)}")
    observe_box = _sandbox.Sandbox(observer_private, settings.sandbox, settings.view, settings.memory_mb, cpu,
                                   name=f"clg-{settings.owner or os.getpid()}-{os.path.basename(observer_private)}")
    first = None
    try:
        first = _Observer(observe_box)          # starts importing while the kernel runs the notebook
        unencodable = unencodable_cells(nb)
        t0 = time.monotonic()
        try:
            records = run_notebook(nb, stem, settings, kernel_box, private, skip=set(unencodable))
        except Exception as e:  # noqa: BLE001 - report, never crash the batch
            from .core import Verdict
            report["status"] = "kernel_error"
            reason = f"无法运行这个笔记本：{type(e).__name__}: {str(e)[:300]}"
            report["notes"].append(reason)
            report["questions"] = [Verdict(q(), "error", False, reason).as_dict() for q in qs]
            return report
        records["unencodable"] = unencodable
        t1 = time.monotonic()
        observations, load = observe(nb, stem, records, settings, lambda: _Observer(observe_box), first=first)
        first = None
        t2 = time.monotonic()
        verdicts, cells, notes, tampered = judge_records(nb, stem, records, observations, load, settings)
        report["phases"] = {"notebook": round(t1 - t0, 2), "observe": round(t2 - t1, 2),
                            "judge": round(time.monotonic() - t2, 2)}
        report["questions"] = [v.as_dict() for v in verdicts]
        report["score"] = sum(v.points for v in verdicts)
        report["cells"] = cells
        report["notes"] += notes
        if tampered:
            report["status"] = "tampered"
            report["tampered"] = tampered
        return report
    finally:
        if first is not None:
            first.close()
        if settings.reap:
            _sandbox.kill_descendants()         # whatever a submission left behind, also without namespaces
        kernel_box.close()
        observe_box.close()
        shutil.rmtree(private, ignore_errors=True)
        shutil.rmtree(observer_private, ignore_errors=True)
        report["seconds"] = round(time.monotonic() - start, 2)


# ---------------------------------------------------------------------------
# The worker process
# ---------------------------------------------------------------------------

def _limit_cpu(seconds):
    """Let this process use ``seconds`` more CPU seconds (soft ``RLIMIT_CPU``; SIGXCPU ends it then)."""
    try:
        import resource
    except ImportError:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    total = int(used.ru_utime + used.ru_stime + seconds)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        total = min(total, hard)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (total, hard))
    except (ValueError, OSError):
        pass


def _json_bytes(report):
    """The report as UTF-8 JSON (any lone surrogate replaced)."""
    return json.dumps(report, ensure_ascii=False, indent=1).encode("utf-8", "replace")


def _limit_memory(memory_mb):
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def serve(stdin=sys.stdin, stdout=sys.stdout, memory_mb=None, parent=None):
    """Batch mode: grade the jobs read from ``stdin`` one at a time (one JSON object per line).

    A job is ``{"path", "result", "name", "token", "settings": {...}}``; after writing the report to
    ``result`` (atomically) the worker prints ``DONE <token>`` on ``stdout``.  One worker grades many
    submissions, so the imports (nbclient, jsonschema, ...) are paid once.  The worker is a
    subreaper: anything a submission leaves behind comes back to it and is killed after the job.
    """
    _sandbox._prctl(_sandbox.PR_SET_CHILD_SUBREAPER, 1)
    _sandbox._prctl(_sandbox.PR_SET_PDEATHSIG, 9)
    if parent and os.getppid() != parent:
        return                                  # the grader died before we could ask to die with it
    if memory_mb:
        _limit_memory(memory_mb)
    for line in stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        s = job.get("settings", {})
        settings = Settings(s.get("cell_timeout", 30), s.get("question_timeout", 10), s.get("memory_mb", 2048),
                            s.get("chapter"), s.get("sandbox"), s.get("view"), s.get("tmp"))
        settings.reap = True
        settings.owner = s.get("owner")
        _limit_cpu(60 + settings.cpu_seconds())
        try:
            report = grade_submission(job["path"], settings, job.get("name"))
        except Exception as e:  # noqa: BLE001 - one submission must not stop the batch
            report = {"submission": job.get("name"), "chapter": None, "status": "grader_error", "score": 0,
                      "max_score": 0, "questions": [], "cells": [], "notes": [f"{type(e).__name__}: {e}"[:500]]}
        result = pathlib.Path(job["result"])
        result.parent.mkdir(parents=True, exist_ok=True)
        tmp = result.with_name(result.name + ".part")
        tmp.write_bytes(_json_bytes(report))
        os.replace(tmp, result)
        print(f"DONE {job.get('token', '')}", flush=True, file=stdout)


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
    ap.add_argument("--sandbox", choices=["auto", "none"], default="auto")
    ap.add_argument("--parent", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--worker-memory-mb", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(memory_mb=args.worker_memory_mb, parent=args.parent)
        return 0
    if not args.submission or not args.result:
        ap.error("give SUBMISSION and --result, or --serve")
    mode, why = _sandbox.probe(args.sandbox)
    if mode is None:
        print(f"warning: no sandbox ({why}); the submission runs with your user's rights", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="course_lib_grader_") as tmp:
        view = _sandbox.build_view(os.path.join(tmp, "view")) if mode else None
        settings = Settings(args.cell_timeout, args.question_timeout, args.memory_mb, args.chapter, mode, view, tmp)
        report = grade_submission(args.submission, settings, args.name)
    pathlib.Path(args.result).write_bytes(_json_bytes(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
