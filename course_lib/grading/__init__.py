"""Exercises and grading: ``check()`` for learners, the exercise generator, the batch grader.

==========================  =====================================================
``check.py``                ``checker(chapter)`` -> ``check("q1")``, ``check_all()``
``core.py``                 cases, questions, observing vs judging, verdicts
``engines.py``              answers built with course_lib or real PyTorch, read alike
``shortcuts.py``            what a question forbids (a call, tensors, loops), and finding it
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
from .core import Case, Forbid, Prediction, Problem, Question, tensor_lib

__all__ = ["checker", "run_check", "Case", "Question", "Prediction", "Forbid", "Problem", "tensor_lib"]
