"""Verdicts that used to mislead a learner, each fixed and tested with course_lib and real PyTorch.

* 02 q6: a tensor returned where a Python number is asked read "期望：返回 3（int）实际：返回 None（Tensor）";
* 03 q6: the hint recommended clone-then-``+=``, the very answer that had just failed;
* 06 q1: the verdict named 2 of 3 wrong items (a wrong yes/no item was silently left out), so the
  learner believed the third was right;
* 01 q1: a dtype written as the text ``"float32"`` was silently wrong while ``"torch.int64"`` was right.
"""

import pytest

from course_lib.grading import run_check
from tests.conftest import HAVE_TORCH

LIBS = ["course_lib"] + (["torch"] if HAVE_TORCH else [])


def namespace(lib, code):
    ns = {"__name__": "__main__"}
    exec(("import torch\n" if lib == "torch" else "import course_lib as torch\n") + code, ns)
    return ns


@pytest.mark.parametrize("lib", LIBS)
def test_02_q6_a_tensor_where_a_python_number_is_asked(lib):
    v = run_check("02", "q6", namespace(lib, "def to_python(t):\n    return t"))
    lines = v.reason.splitlines()
    assert v.status == "failed" and v.case == 0
    assert "期望：返回 3（int）" in lines
    assert "实际：返回 张量(shape=(), dtype=torch.int64, 数值=3)" in lines
    assert "问题：应该返回 Python 的整数（int），得到的却是一个张量" in lines
    assert "None" not in v.reason
    # a list where a number is asked, and a number where a list is asked, say which kind is wanted
    v = run_check("02", "q6", namespace(lib, "def to_python(t):\n    return t.tolist()"))
    assert "问题：应该返回 Python 的浮点数（float），得到的是 list" in v.reason
    v = run_check("02", "q6", namespace(lib, "def to_python(t):\n    return t.flatten()[0].item()"))
    assert "问题：应该返回 Python 的列表（list），得到的是 int" in v.reason


@pytest.mark.parametrize("lib", LIBS)
def test_03_q6_the_hint_does_not_recommend_the_answer_that_failed(lib):
    clone_then_add = "def plus_one(x):\n    y = x.clone()\n    y += 1\n    return y"
    v = run_check("03", "q6", namespace(lib, clone_then_add))
    assert v.status == "failed" and v.case == 0
    assert "问题：结果还需要梯度（requires_grad=True）：它还连在 x 的计算图上" in v.reason
    hint = next(line for line in v.reason.splitlines() if line.startswith("提示："))
    assert "先复制、再原地加，结果仍连着计算图" in hint and "clone" not in hint
    # the broken snippet itself: x changed, with a hint on why
    v = run_check("03", "q6", namespace(lib, "def plus_one(x):\n    y = x.detach()\n    y += 1\n    return y"))
    assert "问题：x 被改动了：返回的结果和 x 共享内存" in v.reason
    assert "detach() 得到的张量和 x 共享同一块内存" in v.reason
    # and the right answer passes
    assert run_check("03", "q6", namespace(lib, "def plus_one(x):\n    return x.detach() + 1")).passed


@pytest.mark.parametrize("lib", LIBS)
def test_06_q1_every_wrong_item_is_counted(lib):
    answers = ('q1_answers = {"a": True, "b": False, "c": False, "d": "MulBackward0", "e": 12.0, "f": False, '
               '"g": True, "h": "RuntimeError"}')
    v = run_check("06", "q1", namespace(lib, answers))
    # c (yes/no), d and e are wrong: d and e are named, c is counted without being named
    assert "问题：共 8 项，答对 5 项；这几项不对：d, e；另有 1 道是非题不对（是非题只报告个数，不指出是哪几道）" \
        in v.reason
    only_yes_no = answers.replace('"d": "MulBackward0", "e": 12.0', '"d": "PowBackward0", "e": 36.0')
    v = run_check("06", "q1", namespace(lib, only_yes_no))
    assert "问题：共 8 项，答对 7 项；1 道是非题不对（是非题只报告个数，不指出是哪几道）" in v.reason
    unfinished = answers.replace('"h": "RuntimeError"', '"h": ...')
    v = run_check("06", "q1", namespace(lib, unfinished))
    assert "还没有作答：h" in v.reason and "答对 4 项" in v.reason


SOLUTION_01_Q1 = {"a": "((2, 3), {f32})", "b": "((3,), {i64})", "c": "((2, 2), {f32})", "d": "((5,), {i64})",
                  "e": "((5,), {f32})", "f": "((), {f32})", "g": "((2, 2), {i64})", "h": "((4,), {f32})"}


def _q1_answers(f32, i64, **changes):
    items = dict(SOLUTION_01_Q1, **changes)
    return "q1_answers = {" + ", ".join(f"{k!r}: {v.format(f32=f32, i64=i64)}" for k, v in items.items()) + "}"


@pytest.mark.parametrize("lib", LIBS)
def test_01_q1_a_dtype_written_as_text_is_said_to_be_text(lib):
    assert run_check("01", "q1", namespace(lib, _q1_answers("torch.float32", "torch.int64"))).passed
    # "float32" and "torch.int64" are treated alike now: both are text, and the verdict says so
    v = run_check("01", "q1", namespace(lib, _q1_answers("torch.float32", "torch.int64",
                                                        a='((2, 3), "float32")', b='((3,), "torch.int64")')))
    assert v.status == "failed"
    assert "共 8 项，答对 6 项；写法不对：a, b（dtype 写成了字符串：去掉引号，写成 dtype 对象本身）" in v.reason
    # an item of another kind says so too, and a wrong dtype object is simply wrong
    v = run_check("01", "q1", namespace(lib, _q1_answers("torch.float32", "torch.int64", c="[2, 2]",
                                                        d="((5,), torch.float64)")))
    assert "写法不对：c（写成了 list，不是题目要求的写法）" in v.reason and "这几项不对：d" in v.reason


def test_01_q1_dtypes_of_real_pytorch_are_dtypes():
    if not HAVE_TORCH:
        pytest.skip("PyTorch is not installed")
    ns = namespace("course_lib", "import torch as real\n" + _q1_answers("real.float32", "real.int64"))
    assert run_check("01", "q1", ns).passed


def test_a_tensor_on_another_device_is_said_to_be_there():
    import course_lib as torch
    with torch.cuda.simulate():
        v = run_check("04", "q3", {"normalize_last": lambda x: (x / x.sum(dim=-1, keepdim=True)).to("cuda")})
    assert v.status == "failed"
    assert "问题：设备不对：应在 cpu 上，得到的张量在 cuda 上" in v.reason
    assert "device=cuda" in v.reason
