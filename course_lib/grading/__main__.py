"""``python -m course_lib.grading grade SUBMISSIONS --out OUT``: see ``grader.py``."""

import sys

from .grader import main

if __name__ == "__main__":
    sys.exit(main())
