"""The pieces every exercise test is made of: cases, questions, observations, verdicts.

A question's test is split in two halves that may run in different processes:

* ``observe`` runs where the learner's code lives (the notebook's kernel).  It
  builds the inputs from plain data, calls the learner's function (or reads the
  learner's answer variable) and returns what it saw as plain JSON data: numbers,
  strings, lists, and the snapshots made by :func:`snap` (shape, dtype and
  values of a tensor).  It decides nothing.
* ``expect`` and ``judge`` run where the verdict is made.  ``expect`` computes
  what should have been seen, from the same plain data, with NumPy or plain
  Python (never with the learner's objects), and ``judge`` compares.

In the learner's notebook, ``check("q1")`` runs both halves in the kernel and
prints the verdict.  The batch grader (``python -m course_lib.grading grade``)
runs ``observe`` in the submission's kernel, ships the JSON out, and runs
``expect`` and ``judge`` in its own clean process: a learner who redefines
``check`` or patches course_lib inside the notebook changes nothing there.

Answers may be written with course_lib or with real PyTorch (``import torch``):
``observe`` builds its inputs with the learner's library (:func:`tensor_lib`) and
:func:`snap` reads tensors of either (``engines.py``), so both get the same verdict.
A question that forbids a shortcut (``forbid = Forbid(...)``, ``shortcuts.py``)
also observes facts about the learner's code and the library calls it made,
judged outside like the rest.  Verdicts carry a hint, and a second, more direct
one on request (``check("q1", hint=2)``).
"""

import contextlib
import io
import json
import math
import signal
import threading

from .engines import is_tensor, read_tensor, tensor_lib
from .shortcuts import CallRecorder, Forbid, code_facts

__all__ = [
    "Case", "Question", "Prediction", "Returns", "Raises", "QuestionTimeout", "snap", "snap_array",
    "shape_of", "observe_question", "judge_question", "run_question", "Verdict", "fmt", "time_limit", "call",
    "attempt", "NOTHING", "DEFAULT_TIMEOUT", "tensor_lib", "is_tensor", "Forbid", "Problem",
]

DEFAULT_TIMEOUT = 10.0   # seconds for all cases of one question


class QuestionTimeout(BaseException):
    """Raised inside the learner's code when a question's time is up.

    A ``BaseException`` so that the learner's ``except Exception`` does not swallow it.
    """


def _is_grading_frame(frame):
    return frame.f_globals.get("__name__", "").startswith(__name__.rpartition(".")[0])


@contextlib.contextmanager
def time_limit(seconds):
    """Raise :class:`QuestionTimeout` in the block after ``seconds`` (SIGALRM; main thread on Unix).

    A learner's bare ``except:`` (or ``except BaseException``) can catch that first exception, say
    inside a ``while True`` loop.  So once the time is up, a trace function raises it again at
    every line the learner's code runs, the first line of an ``except`` handler included: a handler
    cannot swallow it twice, and the exception climbs out to the grading code (whose own frames
    are left alone), which reports the timeout.  The trace function is removed on the way out.

    Where no alarm signal exists (Windows, a worker thread) the block runs without a limit.
    """
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    import sys
    expired = []
    traced = []

    def tracer(frame, event, arg):
        if expired and event in ("call", "line") and not _is_grading_frame(frame):
            raise QuestionTimeout()
        return tracer

    def on_alarm(signum, frame):
        expired.append(True)
        sys.settrace(tracer)
        f = frame
        while f is not None:            # frames already running get the tracer too
            if not _is_grading_frame(f):
                f.f_trace, f.f_trace_lines = tracer, True
                traced.append(f)
            f = f.f_back
        raise QuestionTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    previous_trace = sys.gettrace()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if expired:
            sys.settrace(previous_trace)
            for f in traced:
                f.f_trace = None
            traced.clear()


class _Sink(io.TextIOBase):
    """Where the learner's prints go while the tests run: counted, not kept, not shown."""

    size = 0

    def writable(self):
        return True

    def write(self, s):
        self.size += len(s)
        return len(s)


# ---------------------------------------------------------------------------
# Plain-data results: what a case returned or raised
# ---------------------------------------------------------------------------

NOTHING = {"returns": None}   # the learner's function returned None: an unfinished ``...`` body, or no return


def Returns(value):
    """An expected (or observed) outcome: the code returned ``value`` (plain JSON data)."""
    return {"returns": _plain(value)}


def Raises(name, message=None):
    """An expected (or observed) outcome: the code raised an exception of class ``name``."""
    out = {"raises": name}
    if message is not None:
        out["message"] = str(message)[:500]
    return out


def _plain(value):
    """Normalise to what a JSON round trip gives (tuples become lists), so both sides compare alike."""
    return json.loads(json.dumps(value, allow_nan=True))


def snap_array(array, dtype_name=None, requires_grad=None):
    """A snapshot of a NumPy array in the same form :func:`snap` gives for a tensor."""
    import numpy as np
    a = np.asarray(array)
    out = {"tensor": True, "shape": list(a.shape), "dtype": dtype_name or f"torch.{a.dtype}",
           "values": a.tolist()}
    if requires_grad is not None:
        out["requires_grad"] = bool(requires_grad)
    return out


def snap(value, requires_grad=False):
    """Plain-data snapshot of a tensor of course_lib or real PyTorch (shape, dtype, values).

    ``requires_grad`` is added when asked for; ``device`` only for a tensor that is not on the CPU
    (so a snapshot reads the same whichever library made the tensor, and an expected CPU result
    differs from a CUDA one).  Anything that is not a tensor becomes ``{"type": <class name>}``, so
    an object that pretends to be equal to everything compares as what it is.
    """
    if not is_tensor(value):
        return {"type": _type_name(value)}
    shape, dtype, values, grad, device = read_tensor(value)
    out = {"tensor": True, "shape": shape, "dtype": dtype, "values": values}
    if requires_grad:
        out["requires_grad"] = grad
    if device != "cpu":
        out["device"] = device
    return out


def shape_of(value):
    """A tuple / list / torch.Size of ints as a plain list, else ``{"type": ...}``."""
    if isinstance(value, (tuple, list)) and all(type(v) is int or _is_int_like(v) for v in value):
        return list(int(v) for v in value)
    return {"type": _type_name(value)}


def _is_int_like(v):
    import numpy as np
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _type_name(value):
    """How a value's class reads in a verdict: ``int``, ``numpy.ndarray``, ``torch.Size``.

    A class of course_lib reads with ``torch.``, as the learner imported it (``import course_lib as
    torch``), so a verdict reads the same whichever library the answer used.
    """
    t = type(value)
    module = getattr(t, "__module__", None)
    if module in ("builtins", None):
        return t.__name__
    root = module.split(".")[0]
    return f"{'torch' if root == 'course_lib' else root}.{t.__name__}"


def attempt(fn, *args, **kwargs):
    """Call the learner's ``fn``: ``(True, result)``, or ``(False, Raises(...))`` when it raised."""
    try:
        return True, fn(*args, **kwargs)
    except (QuestionTimeout, KeyboardInterrupt):
        raise
    except BaseException as e:  # noqa: B036 - SystemExit from learner code is an outcome, not our exit
        return False, Raises(type(e).__name__, e)


def call(fn, *args, **kwargs):
    """Call the learner's ``fn`` and wrap the outcome: :func:`Returns` of ``convert(result)`` or :func:`Raises`.

    ``convert`` (keyword, default :func:`_plain`) turns the result into plain data.
    """
    convert = kwargs.pop("convert", _plain)
    try:
        result = fn(*args, **kwargs)
    except (QuestionTimeout, KeyboardInterrupt):
        raise
    except BaseException as e:  # noqa: B036 - SystemExit from learner code is an outcome, not our exit
        return Raises(type(e).__name__, e)
    if result is None:
        return NOTHING
    return {"returns": _plain(convert(result))}


# ---------------------------------------------------------------------------
# Formatting plain data for a verdict (Chinese)
# ---------------------------------------------------------------------------

def _short(text, limit=300):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _fmt_number(v):
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        return f"{v:.6g}"
    return repr(v)


def _fmt_nested(v):
    if isinstance(v, list):
        return "[" + ", ".join(_fmt_nested(x) for x in v) + "]"
    return _fmt_number(v)


def fmt(value):
    """How a plain-data value reads in a verdict: shapes as tuples, tensors by shape/dtype/values."""
    if isinstance(value, dict):
        if "returns" in value:
            return "返回 " + fmt(value["returns"])
        if "raises" in value:
            msg = value.get("message")
            return f"抛出 {value['raises']}" + (f"：{_short(msg, 200)}" if msg else "")
        if value.get("tensor"):
            parts = [f"shape={tuple(value['shape'])}", f"dtype={value['dtype']}"]
            if "device" in value:
                parts.append(f"device={value['device']}")
            if "requires_grad" in value:
                parts.append(f"requires_grad={value['requires_grad']}")
            parts.append("数值=" + _short(_fmt_nested(value["values"]), 160))
            return "张量(" + ", ".join(parts) + ")"
        if set(value) == {"type"}:
            return f"一个 {value['type']} 对象"
        return "{" + ", ".join(f"{k}: {fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return repr(tuple(value))
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return _fmt_number(value)


# ---------------------------------------------------------------------------
# Comparing plain data
# ---------------------------------------------------------------------------

def _close(a, b, rtol, atol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= atol + rtol * abs(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(_close(a[k], b[k], rtol, atol) for k in a)
    return a == b


def _first_difference(got, want, rtol, atol):
    """"：位置 (1, 0) 应为 255，得到 202" for the first element that differs (nested lists of one shape)."""
    def walk(g, w, index):
        if isinstance(w, list):
            for i, (a, b) in enumerate(zip(g, w)):
                found = walk(a, b, index + (i,))
                if found:
                    return found
            return None
        return None if _close(g, w, rtol, atol) else (index, g, w)
    try:
        found = walk(got, want, ())
    except TypeError:
        return ""
    if not found:
        return ""
    index, g, w = found
    where = f"位置 {index}" if len(index) != 1 else f"位置 {index[0]}"
    where = f"{where} " if index else "这个值"
    return f"：{where}应为 {_fmt_number(w)}，得到 {_fmt_number(g)}"


def compare(got, want, rtol=1e-5, atol=1e-6):
    """``None`` when ``got`` matches ``want`` (floats within tolerance), else a Chinese reason.

    Tensors must agree in shape and dtype exactly and in values within
    ``atol + rtol * |want|``; an expected exception matches an observed one of the same class.
    """
    if "raises" in want:
        if "raises" in got and got["raises"] == want["raises"]:
            return None
        return f"应该抛出 {want['raises']}"
    if "raises" in got:
        return "不应该抛出异常"
    g, w = got.get("returns"), want["returns"]
    if g is None and w is not None:
        return "函数返回了 None：是不是还没写完，或者忘了 return？"
    if isinstance(w, dict) and w.get("tensor"):
        if not (isinstance(g, dict) and g.get("tensor")):
            return "应该返回一个张量"
        if g["shape"] != w["shape"]:
            return f"形状不对：应为 {tuple(w['shape'])}，得到 {tuple(g['shape'])}"
        if g["dtype"] != w["dtype"]:
            return f"dtype 不对：应为 {w['dtype']}，得到 {g['dtype']}"
        if g.get("device", "cpu") != w.get("device", "cpu"):
            return f"设备不对：应在 {w.get('device', 'cpu')} 上，得到的张量在 {g.get('device', 'cpu')} 上"
        if "requires_grad" in w and g.get("requires_grad") != w["requires_grad"]:
            return f"requires_grad 应为 {w['requires_grad']}"
        if not _close(g["values"], w["values"], rtol, atol):
            return "数值不对" + _first_difference(g["values"], w["values"], rtol, atol)
        return None
    if not _close(g, w, rtol, atol):
        return "结果不对"
    return None


class Problem(str):
    """A judge's reason that brings its own hints: ``Problem("x 被改动了", hint="...", hint2="...")``.

    It is a ``str``, so a ``judge`` may return plain text or a ``Problem`` alike; the hints of a
    ``Problem`` are shown instead of the case's and the question's (for a failure that needs its
    own explanation, such as a result that still requires grad).
    """

    def __new__(cls, text, hint=None, hint2=None):
        self = super().__new__(cls, text)
        self.hint, self.hint2 = hint, hint2
        return self


# ---------------------------------------------------------------------------
# Cases and questions
# ---------------------------------------------------------------------------

class Case:
    """One input of a question's test.

    ``label`` is how the input reads in a verdict (e.g. ``"broadcast_shape((3, 1), (4,))"``);
    ``data`` is the plain data the test builds its inputs from (identical in every process);
    ``hint`` is shown when this case fails (else the question's hint), and ``hint2`` as well when
    the learner asks for the second, more direct hint (``check("q1", hint=2)``).
    """

    def __init__(self, label, data=None, hint=None, hint2=None):
        self.label, self.data, self.hint, self.hint2 = label, data, hint, hint2

    def __repr__(self):
        return f"Case({self.label!r})"


class Question:
    """A gradable question.  Subclasses set the attributes and write ``cases``/``observe``/``expect``.

    Attributes:
        name: ``"q1"`` ... (the id used in ``check("q1")`` and in the notebook's markers).
        title: a short Chinese title.
        points: points for passing every case (a question scores all or nothing).
        needs: the names the learner must define (functions or variables).
        hint: a general hint shown with a failing case: it points at the idea or asks a question,
            never gives the solution's code, the call the question is about, or an answer.
        hint2: a second, more direct hint (still without code), shown on request:
            ``check("q1", hint=2)``.
        forbid: a :class:`~.shortcuts.Forbid` when the question forbids a shortcut (a library call,
            tensors, Python loops); the question then scores zero while the shortcut is there.
        reveal: whether a verdict may print the expected outcome of a failing case
            (``False`` when the expected value *is* the answer).
        rtol, atol: float tolerance for :func:`compare`.
        course_lib_only: why the question can only be answered with course_lib (e.g. it counts
            copies on course_lib's simulated GPU, which real PyTorch does not have), or ``""``.
            With real PyTorch in the learner's namespace such a question is not run: its verdict
            says so (status ``"needs_course_lib"``, no points).
    """

    name = "q?"
    title = ""
    points = 1
    needs = ()
    hint = ""
    hint2 = ""
    forbid = None
    reveal = True
    rtol, atol = 1e-5, 1e-6
    course_lib_only = ""

    def cases(self):
        """The list of :class:`Case` to run (deterministic: the same in every process)."""
        raise NotImplementedError

    def observe(self, ns, case):
        """Run the learner's code from namespace ``ns`` on ``case``; return :func:`Returns`/:func:`Raises` data."""
        raise NotImplementedError

    def expect(self, case):
        """The expected outcome for ``case`` (plain data), computed without the learner's objects."""
        raise NotImplementedError

    def judge(self, got, want, case):
        """``None`` if ``got`` is right for ``case``, else a short Chinese reason."""
        return compare(got, want, self.rtol, self.atol)

    def show(self, value):
        """How an observed or expected outcome of this question reads in a verdict."""
        return fmt(value)


class Prediction(Question):
    """A question whose answer is a dict of predictions, ``{key: value}``, in variable ``needs[0]``.

    ``items`` maps each key to ``(expression shown to the learner, expected plain value)``.
    ``normalize(value)`` turns a learner's value into plain data (e.g. a dtype into its name).
    The verdict says how many items are right and which keys are wrong, never the right values;
    for yes/no items it gives only the count, since naming a wrong key would give its answer away.
    """

    reveal = False
    items = {}

    def normalize(self, value):
        """Plain data for one predicted value (override per question)."""
        if isinstance(value, (tuple, list)):
            return [self.normalize(v) for v in value]
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        return {"type": _type_name(value)}

    def cases(self):
        return [Case(self.needs[0], None)]

    def observe(self, ns, case):
        answers = ns[self.needs[0]]
        if not isinstance(answers, dict):
            return Returns({"type": _type_name(answers)})
        out = {}
        for key in self.items:
            if key not in answers:
                out[key] = {"missing": True}
            elif answers[key] is Ellipsis:
                out[key] = {"unanswered": True}
            else:
                out[key] = {"value": self.normalize(answers[key])}
        return Returns(out)

    def expect(self, case):
        return Returns({key: {"value": value} for key, (_, value) in self.items.items()})

    def format_problem(self, value):
        """Why a predicted value is not written the way the question asks (Chinese), or None.

        The default finds a value that :meth:`normalize` could not read (``{"type": ...}``),
        anywhere inside a tuple: a dtype written as text, or an object of another kind.
        """
        if isinstance(value, list):
            return next((p for p in (self.format_problem(v) for v in value) if p), None)
        if isinstance(value, dict) and "type" in value:
            if value["type"] == "str" and "text" in value:
                return "dtype 写成了字符串：去掉引号，写成 dtype 对象本身"
            return f"写成了 {value['type']}，不是题目要求的写法"
        return None

    def judge(self, got, want, case):
        g, w = got.get("returns"), want["returns"]
        if not isinstance(g, dict) or "type" in g:
            return f"{self.needs[0]} 应该是一个字典（dict），键是题目中的编号"
        missing = [k for k in w if g.get(k, {}).get("missing")]
        if missing:
            return "字典里缺少这几项：" + ", ".join(missing)
        unanswered = [k for k in w if g[k].get("unanswered")]
        wrong = [k for k in w if k not in unanswered and not _close(g[k].get("value"), w[k]["value"], 1e-6, 1e-9)]
        if not wrong and not unanswered:
            return None
        parts = [f"共 {len(w)} 项，答对 {len(w) - len(wrong) - len(unanswered)} 项"]
        if unanswered:
            parts.append("还没有作答：" + ", ".join(unanswered))
        # an item written the wrong way is named with what is wrong with its form (that gives no answer away)
        written = {k: self.format_problem(g[k].get("value")) for k in wrong}
        written = {k: p for k, p in written.items() if p}
        by_problem = {}
        for k, p in written.items():
            by_problem.setdefault(p, []).append(k)
        for p, keys in by_problem.items():
            parts.append(f"写法不对：{', '.join(keys)}（{p}）")
        named = [k for k in wrong if k not in written and not isinstance(w[k]["value"], bool)]
        if named:
            parts.append("这几项不对：" + ", ".join(named))
        # a wrong yes/no item is only counted: naming it would give its answer away
        yes_no = [k for k in wrong if k not in written and isinstance(w[k]["value"], bool)]
        if yes_no:
            also = "另有 " if named or written else ""
            parts.append(f"{also}{len(yes_no)} 道是非题不对（是非题只报告个数，不指出是哪几道）")
        return "；".join(parts)


# ---------------------------------------------------------------------------
# Running: the observing half and the judging half
# ---------------------------------------------------------------------------

def observe_question(question, ns, timeout=DEFAULT_TIMEOUT):
    """Run ``question``'s observing half on namespace ``ns``; return plain JSON data.

    The result's ``status`` is ``"observed"`` (with one outcome per case), ``"not_defined"``
    (a needed name is missing), ``"not_answered"`` (a needed name is still ``...``),
    ``"needs_course_lib"`` (a course_lib-only question, answered with real PyTorch) or
    ``"timeout"`` (with the index of the case that ran out of time).
    """
    if question.course_lib_only and tensor_lib(ns).__name__ != "course_lib":
        return {"status": "needs_course_lib"}
    missing = [n for n in question.needs if n not in ns]
    if missing:
        return {"status": "not_defined", "names": missing}
    placeholders = [n for n in question.needs if ns[n] is Ellipsis]
    if placeholders:
        return {"status": "not_answered", "names": placeholders}
    forbid = getattr(question, "forbid", None)
    recorder = CallRecorder(ns) if forbid is not None else contextlib.nullcontext()
    outcomes = []
    sink = _Sink()
    try:
        with time_limit(timeout), contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            for case in question.cases():
                try:
                    with recorder:
                        outcome = question.observe(ns, case)
                except (QuestionTimeout, KeyboardInterrupt):
                    raise
                except BaseException as e:  # noqa: B036 - learner code may raise anything, SystemExit included
                    outcome = Raises(type(e).__name__, e)
                try:
                    outcomes.append(_plain(outcome))
                except (TypeError, ValueError, RecursionError):
                    outcomes.append({"returns": {"type": "无法转换成数据的对象"}})
    except QuestionTimeout:
        return {"status": "timeout", "case": len(outcomes), "seconds": timeout}
    observed = {"status": "observed", "cases": outcomes}
    if forbid is not None:
        observed["shortcuts"] = _shortcut_facts(question, ns, recorder)
    return observed


def _shortcut_facts(question, ns, recorder):
    """What :class:`~.shortcuts.Forbid` needs to judge: the learner's code and the calls it made (plain data)."""
    try:
        facts = code_facts([ns[n] for n in question.needs if callable(ns[n])], ns)
    except Exception as e:  # noqa: BLE001 - an odd object in the namespace must not stop the check
        facts = {"error": type(e).__name__}
    facts["calls"] = recorder.result()
    return _plain(facts)


class Verdict:
    """The judged result of one question: ``status``, ``passed``, ``points``, ``reason`` and details."""

    def __init__(self, question, status, passed, reason="", case=None, detail=None):
        self.question = question.name
        self.title = question.title
        self.max_points = question.points
        self.points = question.points if passed else 0
        self.status, self.passed, self.reason = status, passed, reason
        self.case, self.detail = case, detail or {}

    def as_dict(self):
        """Plain data for the JSON report."""
        d = {"question": self.question, "title": self.title, "points": self.points,
             "max_points": self.max_points, "passed": self.passed, "status": self.status,
             "reason": self.reason}
        if self.case is not None:
            d["case"] = self.case
        return d

    def render(self):
        """The Chinese text ``check()`` prints."""
        mark = "✓" if self.passed else "✗"
        head = f"{mark} {self.question} {self.title}：" + ("通过" if self.passed else "未通过")
        head += f"（{self.points}/{self.max_points} 分）"
        if self.passed:
            n = self.detail.get("n_cases")
            return head + (f"，{n} 个测试用例全部正确。" if n and n > 1 else "。")
        text = head + "\n" + "\n".join("  " + line for line in self.reason.splitlines())
        if self.detail.get("more_hint"):
            text += f"\n  还想要更直接一点的提示：运行 check(\"{self.question}\", hint=2)。"
        return text


def judge_question(question, observed, hint=1):
    """Judge plain observation data (from :func:`observe_question`) against ``question.expect``.

    Runs no learner code.  ``hint=2`` adds the second, more direct hint to a failing case's
    verdict.  Returns a :class:`Verdict`.
    """
    status = observed.get("status") if isinstance(observed, dict) else None
    if status == "not_defined":
        names = "、".join(observed.get("names", []))
        return Verdict(question, "not_defined", False,
                       f"找不到 {names}：请先运行定义它的单元格，并检查名字的拼写。")
    if status == "not_answered":
        names = "、".join(observed.get("names", []))
        return Verdict(question, "not_answered", False, f"还没有作答：{names} 仍然是 ...（省略号）。")
    if status == "needs_course_lib":
        return Verdict(question, "needs_course_lib", False,
                       f"这道题只能用 course_lib 作答：{question.course_lib_only}。"
                       "请在这本练习里用 import course_lib as torch。")
    if status == "timeout":
        return Verdict(question, "timeout", False,
                       f"测试运行超过 {observed.get('seconds')} 秒被停止（第 {observed.get('case', 0) + 1} 个用例）："
                       "代码里是不是有死循环，或者做了太多次迭代？")
    if status != "observed":
        return Verdict(question, "error", False, "没有得到这道题的测试结果。")
    cases = question.cases()
    outcomes = observed.get("cases", [])
    if len(outcomes) != len(cases):
        return Verdict(question, "error", False, "测试结果不完整。")
    if all(_unanswered(o) for o in outcomes):
        if isinstance(question, Prediction):
            reason = f"还没有作答：{question.needs[0]} 里的答案还都是 ...（省略号）。"
        else:
            reason = "还没有作答：函数只返回了 None。把 ... 换成你的代码，别忘了 return。"
        return Verdict(question, "not_answered", False, reason)
    if question.forbid is not None:
        facts = observed.get("shortcuts")
        if not isinstance(facts, dict) or "error" in facts:
            return Verdict(question, "error", False, "没有得到检查捷径所需的数据（这道题禁止某些写法）。")
        shortcut = question.forbid.judge(facts)
        if shortcut:
            return Verdict(question, "shortcut", False,
                           f"这道题先记 0 分：{shortcut}\n去掉这个捷径，再运行一次检查。")
    for i, (case, got) in enumerate(zip(cases, outcomes)):
        want = question.expect(case)
        try:
            if "raises" in got and "raises" not in want:
                problem = "不应该抛出异常"
            else:
                problem = question.judge(got, want, case)
        except (TypeError, KeyError, AttributeError, IndexError, ValueError):
            problem = "测试结果的格式不对（返回值的类型或结构出乎意料）"
        if problem is None:
            continue
        lines = [f"第 {i + 1} 个测试用例（共 {len(cases)} 个）没有通过。", f"输入：{case.label}"]
        raised = isinstance(got, dict) and "raises" in got
        if question.reveal:
            lines.append(f"期望：{question.show(want)}")
            lines.append(f"实际：{fmt(got) if raised else _safe_show(question, got)}")
        elif raised:
            lines.append(f"实际：{fmt(got)}")
        lines.append(f"问题：{problem}")
        first, second = _hints(question, case, problem)
        if first:
            lines.append(f"提示：{first}")
        if hint >= 2 and second:
            lines.append(f"更直接的提示：{second}")
        more = hint < 2 and bool(second)
        return Verdict(question, "failed", False, "\n".join(lines), case=i, detail={"more_hint": more})
    return Verdict(question, "passed", True, "", detail={"n_cases": len(cases)})


def _hints(question, case, problem):
    """The first and second hint for a failing case: the problem's own, else the case's, else the question's."""
    for source in (problem, case):
        first, second = getattr(source, "hint", None), getattr(source, "hint2", None)
        if first or second:
            return first or question.hint, second or question.hint2
    return question.hint, question.hint2


def _safe_show(question, value):
    try:
        return question.show(value)
    except (TypeError, KeyError, AttributeError, IndexError, ValueError):
        return _short(repr(value), 200)


def _unanswered(outcome):
    r = outcome.get("returns", 0) if isinstance(outcome, dict) else 0
    if r is None:
        return True
    if isinstance(r, dict) and r and all(isinstance(v, dict) and v.get("unanswered") for v in r.values()):
        return True
    return isinstance(r, dict) and r.get("type") == "ellipsis"


def run_question(question, ns, timeout=DEFAULT_TIMEOUT, hint=1):
    """Both halves in this process (what ``check()`` does): a :class:`Verdict`."""
    return judge_question(question, observe_question(question, ns, timeout), hint)
