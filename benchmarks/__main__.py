"""Benchmark course_lib against raw NumPy (hand-derived gradients) and PyTorch, in one process.

    python -m benchmarks                      # all workloads, 7 interleaved repeats (make bench)
    python -m benchmarks --repeat 3 --only tiny_op linreg_fit
    python -m benchmarks --json bench.json

Method (the same as the team's reference harness): every engine runs the same workload code
(the PyTorch-API version for course_lib and torch, a hand-derived NumPy version as the floor);
one warm-up run each, then ``--repeat`` timed runs per engine, interleaved and rotating the order
(A B C, B C A, ...) so that a noisy machine slows all engines alike; ``gc.collect()`` before each
timed run, outside the timing; BLAS/OpenMP pools and torch pinned to ``--threads`` (default 1).
Reported: the median time per unit and the ratios course_lib/NumPy and course_lib/torch, and
the peak memory that one run allocates (tracemalloc: it sees NumPy's buffers, not torch's).
"""

import argparse
import os
import sys

if __name__ == "__main__":       # pin the thread pools before NumPy loads its BLAS
    _threads = "1"
    for _i, _arg in enumerate(sys.argv):
        if _arg == "--threads" and _i + 1 < len(sys.argv):
            _threads = sys.argv[_i + 1]
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, _threads)

import gc  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks.workloads import WORKLOADS  # noqa: E402

SCALE = {"us/op": 1e6, "ms": 1e3, "ms/step": 1e3}


def load_engines(names, threads):
    engines = {}
    for name in names:
        if name == "numpy":
            engines[name] = np
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:
            print(f"# {name} is not installed: skipped")
            continue
        if name == "torch":
            module.set_num_threads(threads)
        engines[name] = module
    return engines


def make_run(workload, name, module):
    return workload.numpy(module) if name == "numpy" else workload.api(module)


def timed(run):
    gc.collect()
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def peak_bytes(run):
    """Bytes allocated at the peak of one run, above what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak - base


def measure(workload, engines, repeat):
    runs = {name: make_run(workload, name, module) for name, module in engines.items()}
    for run in runs.values():
        run()                                         # warm-up
    order = list(runs)
    times = {name: [] for name in runs}
    for r in range(repeat):
        for name in order[r % len(order):] + order[:r % len(order)]:
            times[name].append(timed(runs[name]))
    scale = SCALE[workload.unit] / workload.per_run
    result = {name: {"median": statistics.median(t) * scale, "min": min(t) * scale, "max": max(t) * scale}
              for name, t in times.items()}
    for name in runs:
        if name != "torch":
            result[name]["peak_mb"] = peak_bytes(runs[name]) / 2 ** 20
    return result


def ratio(results, a, b):
    if a in results and b in results and results[b]["median"] > 0:
        return results[a]["median"] / results[b]["median"]
    return None


def _cell(res, name, key="median", fmt="11.4g"):
    value = res.get(name, {}).get(key)
    return f"{value:{fmt}}" if value is not None else f"{'n/a':>11s}"


def _ratio_cell(res, a, b):
    x = ratio(res, a, b)
    return f"{x:9.2f}" if x is not None else f"{'n/a':>9s}"


def report(rows):
    head = (f"{'workload':24s} {'unit':8s} {'course_lib':>11s} {'numpy':>11s} {'torch':>11s} "
            f"{'cl/numpy':>9s} {'cl/torch':>9s} {'peak MB cl':>11s} {'peak MB np':>11s}")
    print(head)
    print("-" * len(head))
    for w, res in rows:
        print(f"{w.name:24s} {w.unit:8s} {_cell(res, 'course_lib')} {_cell(res, 'numpy')} {_cell(res, 'torch')} "
              f"{_ratio_cell(res, 'course_lib', 'numpy')} {_ratio_cell(res, 'course_lib', 'torch')} "
              f"{_cell(res, 'course_lib', 'peak_mb', '11.1f')} {_cell(res, 'numpy', 'peak_mb', '11.1f')}")


def main(argv=None):
    ap = argparse.ArgumentParser(description="course_lib vs NumPy vs PyTorch, one process, interleaved.")
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per engine and workload (default 7)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP/torch threads (default 1)")
    ap.add_argument("--only", nargs="*", help="workload names to run")
    ap.add_argument("--engines", nargs="*", default=["course_lib", "numpy", "torch"])
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)

    engines = load_engines(args.engines, args.threads)
    print(f"# python {platform.python_version()}  numpy {np.__version__}  "
          + "  ".join(f"{n} {getattr(m, '__version__', '')}" for n, m in engines.items() if n != "numpy")
          + f"  threads={args.threads}  repeat={args.repeat}  cpu={platform.processor() or platform.machine()}")
    rows = []
    for w in WORKLOADS:
        if args.only and w.name not in args.only:
            continue
        rows.append((w, measure(w, engines, args.repeat)))
    report(rows)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({w.name: {"unit": w.unit, "results": res} for w, res in rows}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
