"""A real data-parallel run (PyTorch DDP, gloo, 2 CPU processes) agrees with one process.

``course_lib.parallel.run_ddp`` starts ``python -m course_lib.parallel.ddp_train``;
the test compares what rank 0 reports with the full-batch gradient and the
full-batch training computed in this process, by course_lib and by PyTorch,
from the same float64 weights and data.  Skipped without PyTorch.
"""

import importlib.util

import numpy as np
import pytest

import course_lib as ct
from course_lib import parallel

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="PyTorch is not installed (pip install torch==2.13.0)")

STEPS, LR, WORLD = 3, 0.1, 2


@pytest.fixture(scope="module")
def problem():
    return parallel.make_problem(n=8, n_in=3, hidden=4, n_out=1, seed=0)


@pytest.fixture(scope="module")
def report(problem):
    return parallel.run_ddp(problem, world_size=WORLD, steps=STEPS, lr=LR)


def single_process(T, problem, steps):
    """Full-batch gradient at the start and the weights/losses after ``steps`` SGD steps, in one process."""
    model = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 1)).double()
    model.load_state_dict({k: T.tensor(problem[k]) for k in parallel.LAYER_NAMES})
    x, y = T.tensor(problem["x"]), T.tensor(problem["y"])
    opt = T.optim.SGD(model.parameters(), lr=LR)
    losses, first_grads = [], None
    for _ in range(steps):
        opt.zero_grad()
        loss = T.nn.MSELoss()(model(x), y)
        loss.backward()
        if first_grads is None:
            first_grads = {n: p.grad.detach().numpy().copy() for n, p in model.named_parameters()}
        losses.append(loss.item())
        opt.step()
    final = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}
    return first_grads, losses, final


def test_the_run_used_two_gloo_processes_on_equal_shards(report):
    assert report["world_size"] == WORLD and report["backend"] == "gloo"
    assert report["shard_sizes"] == [4, 4] and report["steps"] == STEPS
    assert report["params_identical_across_ranks"] is True


def test_local_gradients_differ_and_their_mean_is_what_ddp_gives(report):
    for name in parallel.LAYER_NAMES:
        local = np.array(report["local_grads"][name])          # (rank, ...)
        averaged = np.array(report["averaged_grads"][name])
        assert local.shape[0] == averaged.shape[0] == WORLD
        np.testing.assert_array_equal(averaged[0], averaged[1])       # every rank holds the same gradient
        np.testing.assert_allclose(averaged[0], local.mean(axis=0), rtol=1e-12, atol=1e-15)
    assert not np.allclose(report["local_grads"]["0.weight"][0], report["local_grads"]["0.weight"][1])


@pytest.mark.parametrize("engine", ["course_lib", "torch"])
def test_ddp_equals_full_batch_training_in_one_process(report, problem, engine):
    T = ct if engine == "course_lib" else pytest.importorskip("torch")
    grads, losses, final = single_process(T, problem, STEPS)
    for name in parallel.LAYER_NAMES:
        np.testing.assert_allclose(np.array(report["averaged_grads"][name][0]), grads[name], rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(np.array(report["final_params"][name]), final[name], rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(report["losses"], losses, rtol=1e-10)
    assert losses[-1] < losses[0]


def test_shard_is_distributed_samplers_split():
    x = ct.arange(10).reshape(5, 2)
    assert parallel.shard(x, 0, 2).tolist() == [[0, 1], [4, 5], [8, 9]]
    assert parallel.shard(np.arange(5), 1, 2).tolist() == [1, 3]
    with pytest.raises(ValueError, match="rank 2 is not in 0..1"):
        parallel.shard(x, 2, 2)


def test_uneven_batches_are_refused_before_starting(problem):
    with pytest.raises(ValueError, match="这批数据有 8 个样本，不能平均分给 3 个进程"):
        parallel.run_ddp(problem, world_size=3)


def test_without_torch_the_message_is_chinese_and_names_the_cpu_wheel(problem, monkeypatch):
    monkeypatch.setattr(parallel, "torch_available", lambda: False)
    with pytest.raises(ModuleNotFoundError) as info:
        parallel.run_ddp(problem, world_size=2)
    message = str(info.value)
    assert message.startswith("这一节需要 PyTorch")
    assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in message


def test_course_lib_itself_never_imports_torch():
    """Only the subprocess (``python -m course_lib.parallel.ddp_train``) imports PyTorch."""
    import subprocess
    import sys
    code = ("import sys, course_lib, course_lib.nn, course_lib.optim, course_lib.parallel; "
            "course_lib.parallel.make_problem(); print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
