"""Exercises and grading: ``check()`` for learners, the exercise generator, the batch grader.

==========================  =====================================================
``check.py``                ``checker(chapter)`` -> ``check("q1")``, ``check_all()``
``core.py``                 cases, questions, observing vs judging, verdicts
``chapters/``               the tests of each chapter's questions
``generate.py``             ``solutions/`` -> ``exercises/`` (otter-style markers)
``grader.py``               ``python -m course_lib.grading grade SUBMISSIONS --out OUT``
``_worker.py``              grades one submission: runs it in a fresh kernel
``_kernel.py``              that kernel's launcher (memory and CPU limits)
``_harvest.py``             the code the grader sends into the kernel
==========================  =====================================================

See ``README.md`` in this folder for learners, instructors and maintainers.
"""

from .check import checker, run_check
from .core import Case, Prediction, Question

__all__ = ["checker", "run_check", "Case", "Question", "Prediction"]
