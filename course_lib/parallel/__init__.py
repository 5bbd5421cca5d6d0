"""Data parallelism for chapter 10: the problem, the shards, and a real multi-process run.

* ``make_problem`` builds a small regression problem (a batch and the
  initial weights of a ``Linear -> ReLU -> Linear`` network) as float64 NumPy
  arrays, so that course_lib and PyTorch can start from the same numbers.
* ``shard(x, rank, world_size)`` is the part of a batch that worker ``rank``
  gets: samples ``rank, rank + W, rank + 2W, ...`` (``DistributedSampler``'s
  split without shuffling).
* ``run_ddp`` trains that network with PyTorch's ``DistributedDataParallel``
  on ``world_size`` CPU processes (gloo backend) by starting
  ``python -m course_lib.parallel.ddp_train`` as a subprocess, and returns
  what rank 0 reported: local and averaged gradients, losses, final weights.

course_lib never imports PyTorch: only the subprocess does.  Without
PyTorch, ``torch_available()`` is False and ``run_ddp`` raises
``ModuleNotFoundError`` whose message (in Chinese, since learners read it)
says how to install the CPU build.
"""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

__all__ = ["make_problem", "save_problem", "shard", "run_ddp", "torch_available", "LAYER_NAMES"]

LAYER_NAMES = ("0.weight", "0.bias", "2.weight", "2.bias")

# Learner-facing (printed by chapter 10 when PyTorch is missing), so in Chinese.
NO_TORCH_MESSAGE = (
    "这一节需要 PyTorch：course_lib 没有多进程通信的功能，真正的多进程数据并行要用 PyTorch 的 "
    "DistributedDataParallel。只装 CPU 版（本节只用 CPU 进程）：\n"
    "    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu\n"
    "（在 Linux 上直接 pip install torch 会装上带 CUDA 的版本，要下载几个 GB。）"
)


def torch_available():
    """True if PyTorch is installed (checked without importing it)."""
    return importlib.util.find_spec("torch") is not None


def make_problem(n=8, n_in=3, hidden=4, n_out=1, seed=0):
    """A regression batch and initial weights, as float64 NumPy arrays.

    Returns a dict with ``x`` ``(n, n_in)``, ``y`` ``(n, n_out)`` and the
    weights of ``Sequential(Linear(n_in, hidden), ReLU(), Linear(hidden, n_out))``
    under their ``state_dict`` names ``0.weight`` ``(hidden, n_in)``,
    ``0.bias`` ``(hidden,)``, ``2.weight`` ``(n_out, hidden)``, ``2.bias`` ``(n_out,)``.
    The same ``seed`` gives the same numbers on every machine (NumPy's PCG64).
    """
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, n_in))
    y = np.sin(x.sum(axis=1, keepdims=True)) + 0.1 * rng.standard_normal((n, n_out))
    return {
        "x": x, "y": y,
        "0.weight": rng.uniform(-1, 1, (hidden, n_in)) / np.sqrt(n_in),
        "0.bias": rng.uniform(-1, 1, hidden) / np.sqrt(n_in),
        "2.weight": rng.uniform(-1, 1, (n_out, hidden)) / np.sqrt(hidden),
        "2.bias": rng.uniform(-1, 1, n_out) / np.sqrt(hidden),
    }


def save_problem(problem, path):
    """Write a problem (``make_problem``'s dict) to an ``.npz`` file for ``ddp_train``."""
    np.savez(path, **{k: np.asarray(v, dtype=np.float64) for k, v in problem.items()})


def shard(x, rank, world_size):
    """Worker ``rank``'s part of a batch: rows ``rank, rank + world_size, ...`` (a tensor or an array).

    Raises:
        ValueError: ``rank`` outside ``0 .. world_size - 1``.
    """
    if not 0 <= rank < world_size:
        raise ValueError(f"rank {rank} is not in 0..{world_size - 1}")
    return x[rank::world_size]


def run_ddp(problem, world_size=2, steps=3, lr=0.1, timeout=180):
    """Train on ``problem`` with PyTorch DDP on ``world_size`` CPU processes; return rank 0's report.

    Starts ``python -m course_lib.parallel.ddp_train`` (see that module) and
    reads its JSON.  The report's gradients and weights are nested lists:
    ``local_grads[name][rank]``, ``averaged_grads[name][rank]`` (first step),
    ``final_params[name]``; ``losses`` has one mean loss per step;
    ``params_identical_across_ranks`` says whether the ranks ended equal.

    Raises:
        ModuleNotFoundError: PyTorch is not installed.
        ValueError: a batch that does not split evenly over the processes.
        RuntimeError: the run failed (its output is in the message).
        subprocess.TimeoutExpired: it took longer than ``timeout`` seconds.
    """
    if not torch_available():
        raise ModuleNotFoundError(NO_TORCH_MESSAGE)
    n = np.asarray(problem["x"]).shape[0]
    if n % world_size:
        raise ValueError(f"这批数据有 {n} 个样本，不能平均分给 {world_size} 个进程")
    root = str(pathlib.Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        prob_path = os.path.join(tmp, "problem.npz")
        out_path = os.path.join(tmp, "result.json")
        save_problem(problem, prob_path)
        cmd = [sys.executable, "-m", "course_lib.parallel.ddp_train", "--problem", prob_path, "--out", out_path,
               "--world-size", str(world_size), "--steps", str(steps), "--lr", repr(float(lr)),
               "--timeout", str(timeout)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp)
        if proc.returncode != 0 or not os.path.exists(out_path):
            raise RuntimeError(f"多进程训练失败（退出码 {proc.returncode}），子进程的输出如下：\n"
                               f"{proc.stdout}\n{proc.stderr}")
        with open(out_path) as f:
            return json.load(f)
