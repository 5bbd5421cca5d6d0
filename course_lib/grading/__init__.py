"""Exercises and grading: ``check()`` for learners, the exercise generator, the batch grader.

==========================  =====================================================
``check.py``                ``checker(chapter)`` -> ``check("q1")``, ``check_all()``
``core.py``                 cases, questions, observing vs judging, verdicts
``engines.py``              answers built with course_lib or real PyTorch, read alike
``shortcuts.py``            what a question forbids (a call, tensors, loops), and finding it
``chapters/``               the tests of each chapter's questions
``generate.py``             ``solutions/`` -> ``exercises/`` (otter-style markers)
``grader.py``               ``python -m course_lib.grading grade SUBMISSIONS --out OUT``
``_worker.py``              grades one submission: runs it, observes it, judges it
``_sandbox.py``             one sandbox per submission (bubblewrap, limits, subreaper)
``_kernel.py``              the kernel's entry point inside the sandbox
``_harvest.py``             the code the grader sends into the kernel (fingerprints)
``_definitions.py``         which top-level statements are loaded for the tests
``_observe.py``             the process that tests the definitions (fork per question)
``_view.py``                the sandbox's copy of the tests, without expected results
==========================  =====================================================

See ``README.md`` in this folder for learners, instructors and maintainers.
"""

from .check import checker, run_check
from .core import Case, Forbid, Prediction, Problem, Question, tensor_lib

__all__ = ["checker", "run_check", "Case", "Question", "Prediction", "Forbid", "Problem", "tensor_lib"]
