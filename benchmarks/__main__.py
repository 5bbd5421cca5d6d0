"""Benchmark course_lib against raw NumPy (hand-derived gradients) and PyTorch, in one process.

    python -m benchmarks                      # all workloads, 7 interleaved repeats (make bench)
    python -m benchmarks --repeat 3 --only tiny_op linreg_fit
    python -m benchmarks --json bench.json
    python -m benchmarks --markdown           # also print the table for the README

Method (the same as the team's reference harness, ``shared/bench/bench.py``): every engine runs
the same workload code (the PyTorch-API version for course_lib and torch, a hand-derived NumPy
version as the floor); one warm-up run each, then ``--repeat`` timed runs per engine, interleaved
and rotating the order (A B C, B C A, ...) so that a noisy machine slows all engines alike;
``gc.collect()`` before each timed run, outside the timing, gc left on inside it;
``time.perf_counter`` around one call of the workload's ``run()``.  Threads: OpenBLAS/OpenMP/MKL
are pinned to ``--threads`` (default 1) through their environment variables before NumPy loads,
then through threadpoolctl when it is installed, and ``torch.set_num_threads``.
Reported: the median time per unit, the ratios of medians course_lib/NumPy and course_lib/torch
(the reference harness's figure) and the peak memory that one run allocates (tracemalloc: it sees
NumPy's buffers, not torch's).  The workloads whose data is the same on every engine must give
the same results; a differing one is flagged in the table.
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
        os.environ[_var] = _threads

import datetime  # noqa: E402
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


def pin_threads(threads):
    """Limit every BLAS/OpenMP pool NumPy loaded to ``threads`` (threadpoolctl, when installed)."""
    try:
        import threadpoolctl
    except ImportError:
        return None
    return threadpoolctl.threadpool_limits(limits=threads)


def machine(engines, threads):
    """One line naming the machine and the software, printed above the table (and kept in --json)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        blas = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:      # noqa: BLE001 - only a label
        blas = "?"
    versions = "  ".join(f"{n} {getattr(m, '__version__', '')}" for n, m in engines.items() if n != "numpy")
    date = datetime.date.today().isoformat()
    return (f"{date}  {cpu} x{os.cpu_count()}  python {platform.python_version()}  numpy {np.__version__} "
            f"({blas})  {versions}  threads={threads}")


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


def as_float(value):
    """A workload's result as one number (a sum for tensors), to compare engines outside the timing."""
    value = value[0] if isinstance(value, tuple) else value
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return float(np.asarray(value, dtype=np.float64).sum())


def measure(workload, engines, repeat):
    runs = {name: make_run(workload, name, module) for name, module in engines.items()}
    values = {name: as_float(run()) for name, run in runs.items()}      # warm-up, and the results
    order = list(runs)
    times = {name: [] for name in runs}
    for r in range(repeat):
        for name in order[r % len(order):] + order[:r % len(order)]:
            times[name].append(timed(runs[name]))
    scale = SCALE[workload.unit] / workload.per_run
    result = {name: {"median": statistics.median(t) * scale, "min": min(t) * scale, "max": max(t) * scale,
                     "value": values[name]}
              for name, t in times.items()}
    for name in runs:
        if name != "torch":
            result[name]["peak_mb"] = peak_bytes(runs[name]) / 2 ** 20
    return result


def ratio(results, a, b):
    if a in results and b in results and results[b]["median"] > 0:
        return results[a]["median"] / results[b]["median"]
    return None


def agree(workload, res):
    """'' when the engines' results agree (or the data differ by design), else a warning."""
    if not workload.checked:
        return ""
    values = [r["value"] for r in res.values()]
    if all(abs(v - values[0]) <= 2e-3 * max(1.0, abs(v), abs(values[0])) for v in values):
        return ""
    return "  RESULTS DIFFER: " + ", ".join(f"{n}={r['value']:.6g}" for n, r in res.items())


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
              f"{_cell(res, 'course_lib', 'peak_mb', '11.1f')} {_cell(res, 'numpy', 'peak_mb', '11.1f')}"
              f"{agree(w, res)}")


def markdown(rows, header):
    """The table as Markdown, with the machine it was measured on (for the README)."""
    def num(res, name, key="median", fmt=".3g"):
        value = res.get(name, {}).get(key)
        return "–" if value is None else f"{value:{fmt}}"

    def rat(res, a, b):
        x = ratio(res, a, b)
        return "–" if x is None else f"{x:.2f}"

    lines = [f"Measured {header}.", "",
             "| workload | unit | course_lib | NumPy | PyTorch | course_lib / NumPy | course_lib / PyTorch "
             "| peak MB course_lib | peak MB NumPy |",
             "|---|---|---|---|---|---|---|---|---|"]
    for w, res in rows:
        lines.append(f"| {w.name} | {w.unit} | {num(res, 'course_lib')} | {num(res, 'numpy')} | {num(res, 'torch')} "
                     f"| {rat(res, 'course_lib', 'numpy')} | {rat(res, 'course_lib', 'torch')} "
                     f"| {num(res, 'course_lib', 'peak_mb', '.1f')} | {num(res, 'numpy', 'peak_mb', '.1f')} |")
    print("\n".join(lines))


def main(argv=None):
    ap = argparse.ArgumentParser(description="course_lib vs NumPy vs PyTorch, one process, interleaved.")
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per engine and workload (default 7)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP/torch threads (default 1)")
    ap.add_argument("--only", nargs="*", help="workload names to run")
    ap.add_argument("--engines", nargs="*", default=["course_lib", "numpy", "torch"])
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--markdown", action="store_true", help="also print the table in Markdown (for the README)")
    args = ap.parse_args(argv)

    engines = load_engines(args.engines, args.threads)
    limiter = pin_threads(args.threads)
    header = machine(engines, args.threads)
    print(f"# {header}  repeat={args.repeat}"
          + ("" if limiter is not None else "  (threadpoolctl not installed: BLAS pinned by environment only)"))
    rows = []
    for w in WORKLOADS:
        if args.only and w.name not in args.only:
            continue
        rows.append((w, measure(w, engines, args.repeat)))
    report(rows)
    if args.markdown:
        print()
        markdown(rows, header)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": header, "repeat": args.repeat,
                       "workloads": {w.name: {"unit": w.unit, "results": res} for w, res in rows}}, fh, indent=1)
    del limiter
    return 0


if __name__ == "__main__":
    sys.exit(main())
