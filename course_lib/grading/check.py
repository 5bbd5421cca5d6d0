"""``check("q1")`` and ``check_all()`` for the learner's exercise notebook.

    from course_lib.grading import checker
    check, check_all = checker("05_broadcasting")
    ...
    check("q1")      # runs q1's tests on the functions defined in this notebook

The tests run in the notebook's own process, on the names defined in the
notebook (the caller's globals), within a time limit; the verdict is printed
in Chinese.  They are the same tests the instructor's batch grader runs, and
they judge answers written with ``import torch`` (real PyTorch) exactly as
those written with ``import course_lib as torch``.  ``check("q1", hint=2)``
adds a second, more direct hint.
"""

import sys

from . import chapters
from .core import DEFAULT_TIMEOUT, run_question

__all__ = ["checker", "run_check"]


def run_check(chapter, name, ns, timeout=DEFAULT_TIMEOUT, hint=1):
    """Run question ``name`` of ``chapter`` on namespace ``ns``; return its :class:`~.core.Verdict`.

    ``hint=2`` adds the question's second, more direct hint to a failing verdict.

    Raises:
        KeyError: when the chapter has no question ``name``.
    """
    module = chapters.load(chapter)
    for question in module.QUESTIONS:
        if question.name == name:
            return run_question(question(), ns, timeout, hint)
    raise KeyError(name)


def checker(chapter, timeout=DEFAULT_TIMEOUT):
    """The ``(check, check_all)`` pair for ``chapter`` (a stem such as ``"05_broadcasting"``).

    ``check(name)`` prints the verdict of one question, ``check_all()`` a summary of
    all of them; both read the learner's definitions from the caller's global namespace.
    """
    module = chapters.load(chapter)
    names = [q.name for q in module.QUESTIONS]

    def check(name, hint=1):
        """Run the tests of question ``name`` (e.g. ``"q1"``) and print the verdict.

        ``check("q1", hint=2)`` also prints the second, more direct hint of a failing case.
        """
        ns = sys._getframe(1).f_globals
        if name not in names:
            print(f"本章没有 {name!r} 这道题；题目编号是：{'、'.join(names)}。")
            return
        if hint not in (1, 2):
            print("hint 只能是 1 或 2：check(\"q1\", hint=2) 给出第二条、更直接的提示。")
            return
        print(run_check(chapter, name, ns, timeout, hint).render())

    def check_all():
        """Run every question's tests and print one line per question and the total."""
        ns = sys._getframe(1).f_globals
        verdicts = [run_check(chapter, name, ns, timeout) for name in names]
        got = sum(v.points for v in verdicts)
        total = sum(v.max_points for v in verdicts)
        lines = [f"本章练习得分：{got}/{total}"]
        for v in verdicts:
            mark = "✓" if v.passed else "✗"
            line = f"  {mark} {v.question} {v.title}（{v.points}/{v.max_points}）"
            if not v.passed:
                line += "：" + v.reason.splitlines()[0]
            lines.append(line)
        if got < total:
            lines.append("运行 check(\"题号\") 可以看到某一题的详细说明和提示。")
        print("\n".join(lines))

    return check, check_all
