"""The questions' tests themselves, run in this process: solutions pass, exercises fail, verdicts teach.

Also checks the tests' independent expectations (NumPy / plain Python) against
real PyTorch 2.13 where it is installed, so that an expectation cannot drift
from what PyTorch does.
"""

import contextlib
import io
import itertools
import json
import pathlib
import re
import subprocess
import sys
import time

import nbformat
import numpy as np
import pytest

import course_lib
from course_lib.grading import chapters, checker, run_check
from course_lib.grading._harvest import fingerprint
from course_lib.grading.core import (
    Case,
    Prediction,
    Question,
    judge_question,
    observe_question,
    run_question,
    time_limit,
)
from tests.conftest import requires_torch

ROOT = pathlib.Path(__file__).resolve().parents[1]


def exec_notebook(path):
    """Run a notebook's code cells in a fresh namespace in this process; return (namespace, printed text)."""
    nb = nbformat.read(path, as_version=4)
    ns = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for cell in nb.cells:
            if cell.cell_type == "code":
                exec(compile(cell.source, str(path), "exec"), ns)
    return ns, out.getvalue()


@pytest.fixture(scope="module")
def solved():
    return {stem: exec_notebook(ROOT / "solutions" / f"{stem}.ipynb") for stem in chapters.STEMS}


@pytest.fixture(scope="module")
def untouched():
    """The exercises as generated: every cell runs without an error, from top to bottom."""
    return {stem: exec_notebook(ROOT / "exercises" / f"{stem}.ipynb") for stem in chapters.STEMS}


def all_questions():
    return [(stem, q) for stem in chapters.STEMS for q in chapters.load(stem).QUESTIONS]


@pytest.mark.parametrize("stem", chapters.STEMS)
def test_solutions_pass_every_question(solved, stem):
    ns, printed = solved[stem]
    for q in chapters.load(stem).QUESTIONS:
        v = run_question(q(), ns)
        assert v.passed, v.render()
    assert "✗" not in printed and printed.count("✓") >= 2 * len(chapters.load(stem).QUESTIONS)


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")
@pytest.mark.parametrize("stem", chapters.STEMS)
def test_untouched_exercises_fail_every_question(untouched, stem):
    ns, _ = untouched[stem]
    for q in chapters.load(stem).QUESTIONS:
        v = run_question(q(), ns)
        assert not v.passed and v.points == 0
        # a broken snippet to fix fails with what it did; anything else is simply not answered yet
        expected = "failed" if q.title.startswith("修复") else "not_answered"
        assert v.status == expected, (stem, q.name, v.render())


def test_check_prints_a_chinese_verdict(solved, untouched):
    check, check_all = checker("05_broadcasting")
    ns = dict(solved["05_broadcasting"][0])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec("check('q1')\ncheck('q9')", dict(ns, check=check))
    text = out.getvalue()
    assert "✓ q1 广播后的形状：通过（2/2 分），13 个测试用例全部正确。" in text
    assert "本章没有 'q9' 这道题；题目编号是：q1、q2、q3、q4、q5。" in text
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec("check_all()", dict(untouched["05_broadcasting"][0], check_all=check_all))
    lines = out.getvalue().splitlines()
    assert lines[0] == "本章练习得分：0/8"
    assert len([line for line in lines if line.startswith("  ✗ q")]) == 5
    assert lines[-1].startswith("运行 check(")


def test_a_failing_case_names_input_expected_actual_and_hint():
    def broadcast_shape(a, b):    # a classic mistake: aligning shapes on the left
        return tuple(max(x, y) for x, y in zip(a, b)) + tuple(a[len(b):]) + tuple(b[len(a):])
    v = run_check("05", "q1", {"broadcast_shape": broadcast_shape})
    assert v.status == "failed"
    lines = v.render().splitlines()
    assert lines[0] == "✗ q1 广播后的形状：未通过（0/2 分）"
    assert lines[1].strip() == "第 2 个测试用例（共 13 个）没有通过。"
    assert lines[2].strip() == "输入：broadcast_shape((5,), (2, 1))"
    assert lines[3].strip() == "期望：返回 (2, 5)"
    assert lines[4].strip() == "实际：返回 (5, 1)"
    assert lines[6].strip().startswith("提示：从最右边的维度开始")


def test_an_error_case_expects_the_exception():
    def broadcast_shape(a, b):    # right for every pair that broadcasts, but never raises
        n = max(len(a), len(b))
        a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
        return tuple(max(x, y) if min(x, y) else 0 for x, y in zip(a, b))
    v = run_check("05", "q1", {"broadcast_shape": broadcast_shape})
    assert "输入：broadcast_shape((2, 3), (3, 2))" in v.reason
    assert "期望：抛出 RuntimeError" in v.reason and "问题：应该抛出 RuntimeError" in v.reason


def test_learner_exceptions_even_system_exit_are_outcomes():
    def broadcast_shape(a, b):
        raise SystemExit("bye")
    v = run_check("05", "q1", {"broadcast_shape": broadcast_shape})
    assert v.status == "failed" and "实际：抛出 SystemExit：bye" in v.reason


def test_an_object_equal_to_everything_is_not_a_tensor():
    class Anything:
        def __eq__(self, other):
            return True
    v = run_check("05", "q3", {"pairwise_sq_dist": lambda a, b: Anything()})
    assert v.status == "failed" and "Anything 对象" in v.reason and "应该返回一个张量" in v.reason


def test_missing_names_and_placeholders_have_their_own_reasons():
    assert run_check("05", "q1", {}).reason.startswith("找不到 broadcast_shape")
    assert run_check("05", "q2", {"q2_answers": ...}).status == "not_answered"
    v = run_check("05", "q2", {"q2_answers": {"a": (3, 4)}})
    assert v.status == "failed" and "缺少" in v.reason


def test_check_stops_an_infinite_loop_within_the_time_limit():
    def broadcast_shape(a, b):
        while True:
            pass
    start = time.monotonic()
    v = run_check("05", "q1", {"broadcast_shape": broadcast_shape}, timeout=0.5)
    assert time.monotonic() - start < 3
    assert v.status == "timeout" and "0.5 秒" in v.reason and "死循环" in v.reason


def test_a_bare_except_in_the_learners_loop_cannot_swallow_the_timeout():
    def broadcast_shape(a, b):
        while True:
            try:
                while True:
                    pass
            except:  # noqa: E722 - what a learner may write
                pass

    def center_rows(x):
        n = 0
        while True:
            try:
                n += 1
            except BaseException:
                continue
    trace_before = sys.gettrace()
    for stem, fn in (("05", broadcast_shape), ("05", center_rows)):
        start = time.monotonic()
        v = run_check(stem, "q1" if fn is broadcast_shape else "q4", {fn.__name__: fn}, timeout=0.5)
        assert time.monotonic() - start < 3
        assert v.status == "timeout" and "0.5 秒" in v.reason
        assert sys.gettrace() is trace_before
    # the next check runs normally: no trace function or alarm is left behind
    v = run_check("05", "q1", {"broadcast_shape": lambda a, b: (3,)}, timeout=0.5)
    assert v.status == "failed" and v.case is not None


def test_time_limit_restores_the_previous_alarm_handler():
    import signal
    before = signal.getsignal(signal.SIGALRM)
    with time_limit(5):
        pass
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("stem, question", [(s, q) for s, q in all_questions() if not issubclass(q, Prediction)],
                         ids=lambda x: getattr(x, "name", x))
def test_cases_vary_so_a_hard_coded_answer_fails(stem, question):
    q = question()
    cases = q.cases()
    outcomes = {json.dumps(q.expect(c), sort_keys=True) for c in cases}
    assert len(outcomes) >= 2, f"{stem} {q.name}: every case expects the same outcome"
    assert len({c.label for c in cases}) == len(cases), "two cases read the same in a verdict"
    assert q.title and q.hint and q.needs


def test_question_names_are_q1_to_qn_in_order():
    for stem in chapters.STEMS:
        names = [q.name for q in chapters.load(stem).QUESTIONS]
        assert names == [f"q{i}" for i in range(1, len(names) + 1)]
        assert 4 <= len(names) <= 8


def test_prediction_verdicts_never_give_the_answer_away():
    answers = {"a": (2, 4), "b": (2, 1, 4), "c": (), "d": (4, 2, 3), "e": (3, 2), "f": (1, 3, 1, 2),
               "g": (2, 3, 4, 1), "h": (3, 4), "i": (2, 3, 8), "j": (2, 2, 3, 4), "k": (2, 3, 6)}
    answers["e"] = (1, 3, 2)
    v = run_check("04", "q2", {"q2_answers": answers})
    assert "共 11 项，答对 9 项；这几项不对：e, k" in v.reason
    assert "(3, 2)" not in v.reason and "(2, 3, 5)" not in v.reason
    # yes/no items: only the count, since naming a wrong key would give its answer away
    shares = {k: True for k in "abcdefghij"}
    v = run_check("03", "q1", {"q1_answers": shares})
    assert "共 10 项，答对 5 项" in v.reason and "这几项不对" not in v.reason


def test_malformed_observations_fail_without_crashing():
    q = chapters.load("05").QUESTIONS[0]()
    n = len(q.cases())
    clean = {"functions": ["broadcast_shape"], "names": [], "libraries": {}, "loops": [], "recursive": [], "calls": []}
    for garbage in ([{"returns": "x"}] * n, ["text"] * n, [{"returns": {"tensor": True}}] * n, [[1, 2]] * n):
        v = judge_question(q, {"status": "observed", "cases": garbage, "shortcuts": clean})
        assert not v.passed and v.status in ("failed", "not_answered")
        # a question that forbids a shortcut needs the facts about the code: without them it is not judged
        for facts in (None, "text", {"error": "TypeError"}):
            v = judge_question(q, {"status": "observed", "cases": garbage, "shortcuts": facts})
            assert (v.passed, v.status) == (False, "error") and "捷径" in v.reason
    assert judge_question(q, {"status": "observed", "cases": []}).status == "error"
    assert judge_question(q, None).status == "error"
    assert judge_question(q, {"status": "bogus"}).status == "error"


def test_observations_are_plain_json(solved):
    for stem, question in all_questions():
        observed = observe_question(question(), solved[stem][0])
        assert json.loads(json.dumps(observed)) == observed


def test_fingerprint_sees_a_monkeypatch_and_nothing_else(solved):
    before = fingerprint()
    for stem in chapters.STEMS:     # running every solution again changes nothing it covers
        exec_notebook(ROOT / "solutions" / f"{stem}.ipynb")
    after = fingerprint()
    assert [k for k in before if after.get(k) != before[k]] == []
    original = course_lib.Tensor.view
    try:
        course_lib.Tensor.view = course_lib.Tensor.reshape
        patched = fingerprint()
    finally:
        course_lib.Tensor.view = original
    # the key names the class by its __module__ ("course_lib" since Tensor shows as course_lib.Tensor)
    assert [k for k in before if patched.get(k) != before[k]] == [f"{course_lib.Tensor.__module__}:Tensor.view"]


def test_kernel_launcher_limits_memory():
    code = ("import os\nos.environ['COURSE_LIB_GRADER_MEMORY_MB'] = '400'\n"
            "from course_lib.grading._kernel import apply_limits\nprint(apply_limits())\n"
            "try:\n    bytearray(600 * 2**20)\nexcept MemoryError:\n    print('MemoryError')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "{'memory_mb': 400}" in out and "MemoryError" in out


# ---------------------------------------------------------------------------
# The expectations agree with real PyTorch (and course_lib agrees too)
# ---------------------------------------------------------------------------

def _both():
    import torch
    return [torch, course_lib]


def _prediction_values(stem, lib):
    """Evaluate each prediction item of ``stem`` with library ``lib`` (torch or course_lib)."""
    q = next(q for q in chapters.load(stem).QUESTIONS if issubclass(q, Prediction))
    values = {}
    for key, (label, _) in q.items.items():
        if stem == "01_tensor_creation":
            t = eval(label, {"torch": lib})
            values[key] = [list(t.shape), str(t.dtype)]
        elif stem == "02_dtypes_devices_numpy":
            ns = {"torch": lib, "i": lib.tensor([1, 2]), "i32": lib.tensor([1, 2], dtype=lib.int32),
                  "u8": lib.tensor([1, 2], dtype=lib.uint8), "f64": lib.tensor([1.0, 2.0], dtype=lib.float64)}
            values[key] = str(eval(label, ns).dtype)
        elif stem == "03_views_and_copies":
            x = lib.arange(6).view(2, 3)
            values[key] = bool(np.shares_memory(eval(label, {"x": x}).numpy(), x.numpy()))
        elif stem == "04_operations_and_shapes":
            values[key] = list(eval(label, {"torch": lib, "x": lib.ones(2, 3, 4)}).shape)
        elif stem == "05_broadcasting":
            a, b = (eval(s) for s in re.findall(r"\(.*?\)", label))
            try:
                values[key] = list((lib.ones(a) + lib.ones(b)).shape)
            except RuntimeError:
                values[key] = None
    return values


def _autograd_prediction(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    z = y ** 2
    c = lib.tensor(1.0) * 5
    out = {"a": x.is_leaf, "b": y.is_leaf, "c": c.is_leaf, "d": z.grad_fn.name(), "f": x.detach().requires_grad,
           "g": y.requires_grad}
    z.backward()
    out["e"] = x.grad.item()
    try:
        lib.tensor([1, 2]).requires_grad_()
        out["h"] = None
    except Exception as e:  # noqa: BLE001
        out["h"] = type(e).__name__
    return out


@requires_torch
@pytest.mark.parametrize("stem", ["01_tensor_creation", "02_dtypes_devices_numpy", "03_views_and_copies",
                                  "04_operations_and_shapes", "05_broadcasting", "06_autograd"])
def test_prediction_answers_are_what_pytorch_does(stem):
    q = next(q for q in chapters.load(stem).QUESTIONS if issubclass(q, Prediction))
    expected = {k: v for k, (_, v) in q.items.items()}
    for lib in _both():
        got = _autograd_prediction(lib) if stem == "06_autograd" else _prediction_values(stem, lib)
        assert got == expected, lib.__name__


@requires_torch
def test_layout_rules_match_pytorch():
    import torch
    ch03 = chapters.load("03")
    sizes = [1, 2, 3]
    checked = 0
    for ndim in (1, 2, 3):
        for shape in itertools.product(sizes, repeat=ndim):
            for stride in itertools.product([0, 1, 2, 3, 6], repeat=ndim):
                t = torch.zeros(200).as_strided(shape, stride)
                assert ch03.is_contiguous(shape, stride) == t.is_contiguous(), (shape, stride)
                n = int(np.prod(shape))
                for new in {(n,), (1, n), (n, 1), tuple(reversed(shape)), shape + (1,)}:
                    try:
                        want = tuple(t.view(new).stride())
                    except RuntimeError:
                        want = None
                    assert ch03.view_strides(shape, stride, new) == want, (shape, stride, new)
                    checked += 1
    assert checked > 1000
    assert ch03.contiguous_strides((2, 0, 3)) == torch.empty(2, 0, 3).stride()


@requires_torch
@pytest.mark.parametrize("lib_name", ["torch", "course_lib"])
def test_view_question_cases_match_the_library(lib_name):
    lib = __import__(lib_name)
    q = chapters.load("03").QUESTIONS[3]()
    for case in q.cases():
        shape, stride, new = case.data
        t = lib.zeros(200).as_strided(shape, stride)
        try:
            t.view(new)
            ok = True
        except RuntimeError:
            ok = False
        assert q.expect(case) == {"returns": ok}, (lib_name, case.label)


@requires_torch
@pytest.mark.parametrize("stem, qname, fn", [
    ("04", "q1", lambda lib, a, b: lib.matmul(lib.ones(a), lib.ones(b)).shape),
    ("05", "q1", lambda lib, a, b: (lib.ones(a) + lib.ones(b)).shape),
])
def test_shape_rule_expectations_match_the_libraries(stem, qname, fn):
    q = next(q for q in chapters.load(stem).QUESTIONS if q.name == qname)()
    for lib in _both():
        for case in q.cases():
            try:
                got = {"returns": list(fn(lib, *case.data))}
            except RuntimeError:
                got = {"raises": "RuntimeError"}
            assert got == q.expect(case), (lib.__name__, case.label)


def _tensor_outcome(lib, t):
    a = t.detach().numpy()
    return {"returns": {"tensor": True, "shape": list(a.shape), "dtype": str(t.dtype), "values": a.tolist()}}


@requires_torch
@pytest.mark.parametrize("stem, qname, solution", [
    ("01", "q4", lambda lib, x, v: lib.full_like(lib.tensor(x["values"], dtype=getattr(lib, x["dtype"])), v)),
    ("02", "q4", lambda lib, img, f: (lib.tensor(img, dtype=lib.uint8).float() * f).clamp(0, 255).to(lib.uint8)),
    ("05", "q5", None),
])
def test_value_expectations_match_pytorch(stem, qname, solution):
    import torch
    q = next(q for q in chapters.load(stem).QUESTIONS if q.name == qname)()
    for case in q.cases():
        want = q.expect(case)
        want = want.get("result", want)
        if solution is None:      # sum_to_shape: what autograd itself does with a broadcast input
            spec, shape = case.data
            g = torch.tensor(spec["values"])
            w = torch.zeros(shape, requires_grad=True)
            (w * torch.ones(g.shape)).backward(g)
            got = _tensor_outcome(torch, w.grad)
        else:
            got = _tensor_outcome(torch, solution(torch, *case.data))
        assert got == want, case.label


@requires_torch
def test_autograd_expectations_match_pytorch():
    import torch
    ch06, ch07 = chapters.load("06"), chapters.load("07")
    for name, (_, f, df) in ch06.FUNCTIONS.items():
        x = torch.tensor([-1.5, 0.0, 0.7, 2.0], dtype=torch.float64, requires_grad=True)
        f(torch, x).sum().backward()
        assert np.allclose(x.grad.numpy(), df(x.detach().numpy())), name
    for name, (_, f, df) in ch06.SCALAR_FUNCTIONS.items():
        for values in ([1.0, -2.0, 0.5], [3.0]):
            x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
            f(torch, x).backward()
            assert np.allclose(x.grad.numpy(), df(np.array(values))), name
    for name, (_, f, df) in ch07.OBJECTIVES.items():
        x = torch.tensor([0.3, -1.2], dtype=torch.float64, requires_grad=True)
        f(x).backward()
        assert np.allclose(x.grad.numpy(), df(np.array([0.3, -1.2]))), name
    # the line fit and the critical learning rate, with torch's autograd doing the gradient descent
    x, y = torch.linspace(-1, 1, 9, dtype=torch.float64), torch.linspace(-1, 1, 9, dtype=torch.float64) * 2 + 1
    w = torch.zeros((), dtype=torch.float64, requires_grad=True)
    b = torch.zeros((), dtype=torch.float64, requires_grad=True)
    for _ in range(7):
        ((w * x + b - y) ** 2).mean().backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    assert np.allclose([w.item(), b.item()], ch07.gd_line(x.numpy(), y.numpy(), 0.1, 7))
    q4 = ch07.QUESTIONS[3]()
    for case in q4.cases():
        lr = q4.expect(case)["returns"]
        xs = torch.tensor(case.data, dtype=torch.float64)
        for factor, converges in ((0.98, True), (1.02, False)):
            w = torch.zeros((), dtype=torch.float64, requires_grad=True)
            for _ in range(400):
                ((w * xs - 2 * xs) ** 2).mean().backward()
                with torch.no_grad():
                    w -= factor * lr * w.grad
                w.grad.zero_()
            assert (abs(w.item() - 2) < 1e-2) == converges, (case.label, factor)


def test_case_labels_show_small_inputs_in_full():
    q = chapters.load("05").QUESTIONS[3]()
    assert q.cases()[0].label.startswith("center_rows(torch.tensor([[")


def test_custom_questions_can_be_written_in_a_few_lines():
    class Double(Question):
        name, title, needs, hint = "q1", "加倍", ("double",), "乘以 2"

        def cases(self):
            return [Case(f"double({n})", n) for n in (1, 2, -3)]

        def observe(self, ns, case):
            from course_lib.grading.core import call
            return call(ns["double"], case.data)

        def expect(self, case):
            return {"returns": 2 * case.data}
    assert run_question(Double(), {"double": lambda n: n * 2}).passed
    v = run_question(Double(), {"double": lambda n: n + 1})
    assert v.case == 1 and "输入：double(2)" in v.reason and "期望：返回 4" in v.reason


def test_an_observation_that_is_not_plain_data_fails_the_case_not_the_checker():
    class Raw(Question):
        name, title, needs, hint = "q1", "原样", ("f",), "返回数"

        def cases(self):
            return [Case("f(1)", 1), Case("f(2)", 2)]

        def observe(self, ns, case):        # a careless test that forgets to convert the learner's value
            return {"returns": ns["f"](case.data)}

        def expect(self, case):
            return {"returns": case.data}
    v = run_question(Raw(), {"f": lambda n: object()})
    assert v.status == "failed" and "无法转换成数据的对象" in v.reason
    assert run_question(Raw(), {"f": lambda n: n}).passed


def test_autograd_hints_no_longer_state_the_formulas():
    ch06, ch07 = chapters.load("06").QUESTIONS, chapters.load("07").QUESTIONS
    assert "y + 1" not in ch06[2].hint and "∂out/∂x" not in ch06[2].hint          # MulAdd's backward
    assert "y.sum()" not in ch06[1].hint and "x.grad" not in ch06[1].hint        # derivative_at
    assert "f(x + eps) - f(x - eps)" not in ch06[4].hint                           # numeric_grad
    assert "w -= lr * w.grad" not in ch07[2].hint and "no_grad" not in ch07[2].hint  # fit_line
    assert "x -= lr * x.grad" not in ch07[4].hint and "no_grad" not in ch07[4].hint  # minimize


def _derivative_by_differences(requires_grad):
    import course_lib as torch

    def derivative_at(f, xs):
        x = torch.tensor(xs, dtype=torch.float64, requires_grad=requires_grad)
        eps = 1e-6
        return ((f(x + eps) - f(x - eps)) / (2 * eps)).detach().float()
    return derivative_at


def test_finite_differences_do_not_pass_the_autograd_question():
    q2 = chapters.load("06").QUESTIONS[1]()
    # plain finite differences: f never sees a tensor that requires grad
    v = run_question(q2, {"derivative_at": _derivative_by_differences(False)})
    assert v.status == "failed" and v.case == 0
    assert "这道题要用 autograd" in v.reason and "f 收到的张量都不需要梯度" in v.reason
    # finite differences on a tensor that requires grad: the kink of relu at 0 gives them away
    v = run_question(q2, {"derivative_at": _derivative_by_differences(True)})
    labels = [c.label for c in q2.cases()]
    assert v.status == "failed" and labels[v.case] == "derivative_at(lambda x: torch.relu(x) + x, [-1.5, 0.0, 2.0])"
    assert "位置 1 应为 1，得到 1.5" in v.reason


def test_an_untouched_autograd_function_is_not_answered_and_a_wrong_one_fails():
    import course_lib as torch

    def make(backward):
        return type("MulAdd", (torch.autograd.Function,), {
            "forward": staticmethod(lambda ctx, x, y: (ctx.save_for_backward(x, y), x * y + x)[1]),
            "backward": staticmethod(backward)})
    q3 = chapters.load("06").QUESTIONS[2]()
    v = run_question(q3, {"MulAdd": make(lambda ctx, g: None)})     # what a body of ... returns
    assert (v.status, v.points) == ("not_answered", 0)
    assert v.reason == "还没有作答：函数只返回了 None。把 ... 换成你的代码，别忘了 return。"
    v = run_question(q3, {"MulAdd": make(lambda ctx, g: (g * ctx.saved_tensors[1], g * ctx.saved_tensors[0]))})
    assert v.status == "failed" and "x.grad：数值不对" in v.reason
    # the engine's own error still reads with the learner's class name
    v = run_question(q3, {"MulAdd": make(lambda ctx, g: g)})
    assert v.status == "failed" and "function MulAddBackward returned an incorrect number of gradients" in v.reason
    v = run_question(q3, {"MulAdd": make(lambda ctx, g: (g * (ctx.saved_tensors[1] + 1), g * ctx.saved_tensors[0]))})
    assert v.passed and v.points == 3


def test_fit_line_must_return_a_tuple_of_python_floats(solved):
    import course_lib as torch
    fit_line = solved["07_gradient_descent"][0]["fit_line"]
    q3 = chapters.load("07").QUESTIONS[2]()
    assert run_question(q3, {"fit_line": fit_line}).passed
    as_tensors = run_question(q3, {"fit_line": lambda *a: tuple(torch.tensor(v) for v in fit_line(*a))})
    assert as_tensors.status == "failed"
    assert "问题：w、b 应该是 Python 浮点数，不是张量：第 02 章讲过怎样把只有一个元素的张量变成 Python 的数" \
        in as_tensors.reason
    assert "实际：返回的元组里有张量" in as_tensors.reason
    as_list = run_question(q3, {"fit_line": lambda *a: list(fit_line(*a))})
    assert "问题：应该返回两个数组成的元组 (w, b)，得到的是 list" in as_list.reason


def test_critical_lr_must_return_a_python_float(solved):
    import course_lib as torch
    critical_lr = solved["07_gradient_descent"][0]["critical_lr"]
    q4 = chapters.load("07").QUESTIONS[3]()
    assert run_question(q4, {"critical_lr": critical_lr}).passed
    v = run_question(q4, {"critical_lr": lambda x: torch.tensor(critical_lr(x))})
    assert v.status == "failed" and v.case == 0
    assert "问题：应该返回 Python 浮点数，不是张量：第 02 章讲过怎样把只有一个元素的张量变成 Python 的数" in v.reason
    assert "实际：返回了一个张量" in v.reason
