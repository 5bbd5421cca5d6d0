"""A differential fuzzer: random programs run under PyTorch and under course_lib, compared statement by statement.

==================  ==============================================================
``programs.py``     hypothesis strategies: random programs over the common API
``worker.py``       one engine's side: runs programs (a fork each), reports what
                    every statement printed, raised and warned, and the exact bits
``compare.py``      the two workers, and the classification of a difference
                    (kinds, last-bit families)
``reduce.py``       delta reduction of a program to a minimal one with the same
                    difference
``known.py``        the differences known today (issue 17 and the fuzzer's own)
``__main__.py``     the long run: ``python -m tests.fuzz -n 5000`` / ``make fuzz``
==================  ==============================================================

The bounded run is ``tests/test_fuzz_differential.py`` (part of ``make test``);
``FINDINGS.md`` reports the latest long run.
"""
