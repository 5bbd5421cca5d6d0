"""A real data-parallel training run: PyTorch's DistributedDataParallel, gloo backend, CPU processes.

Run as a script (the chapter and ``tests/test_ddp.py`` do, in a subprocess)::

    python -m course_lib.parallel.ddp_train --problem problem.npz --out result.json \\
        [--world-size 2] [--steps 3] [--lr 0.1]

``problem.npz`` (written by ``course_lib.parallel.save_problem``) holds the
batch ``x`` ``(N, in)``, ``y`` ``(N, out)`` and the initial weights of a
``Linear -> ReLU -> Linear`` network under their ``state_dict`` names
(``0.weight``, ``0.bias``, ``2.weight``, ``2.bias``), all float64.

What happens: ``world_size`` processes start (``multiprocessing``: fork on Linux, else spawn),
join one process group (gloo, rendezvous through a file), build the same
model from the same weights and wrap it in ``DistributedDataParallel``.
Rank ``r`` takes the samples ``r, r + W, r + 2W, ...`` of the batch (as
``DistributedSampler`` would).  At the first step each rank first computes
its *local* gradient without communication (``no_sync``), then the normal
DDP backward, which all-reduces (averages) the gradients across ranks.  Each
step ends with an SGD update.  Rank 0 writes ``result.json``: per-rank local
gradients and averaged gradients of the first step, the loss of every step
(the mean over ranks), the final weights, and whether all ranks ended with
identical weights.

This script needs PyTorch (a CPU build is enough: ``pip install torch==2.13.0
--index-url https://download.pytorch.org/whl/cpu``); course_lib itself never
imports it (``course_lib.parallel`` only starts this file as a subprocess).
"""

import argparse
import json
import os
import sys
import tempfile

import numpy as np

LAYER_NAMES = ("0.weight", "0.bias", "2.weight", "2.bias")


def _worker(rank, world_size, init_file, problem_path, steps, lr, out_path):
    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world_size)
    try:
        prob = np.load(problem_path)
        w1 = prob["0.weight"]
        w2 = prob["2.weight"]
        model = nn.Sequential(nn.Linear(w1.shape[1], w1.shape[0]), nn.ReLU(), nn.Linear(w2.shape[1], w2.shape[0]))
        model = model.double()
        with torch.no_grad():
            model.load_state_dict({k: torch.from_numpy(prob[k]) for k in LAYER_NAMES})
        ddp = DDP(model)
        x = torch.from_numpy(prob["x"])[rank::world_size]      # this rank's shard
        y = torch.from_numpy(prob["y"])[rank::world_size]
        opt = torch.optim.SGD(ddp.parameters(), lr=lr)
        loss_fn = nn.MSELoss()

        # 1) the local gradient of this rank's shard, without communication
        with ddp.no_sync():
            loss_fn(ddp(x), y).backward()
        local = {name: p.grad.detach().clone() for name, p in model.named_parameters()}
        opt.zero_grad()

        losses, averaged = [], None
        for step in range(steps):
            opt.zero_grad()
            loss = loss_fn(ddp(x), y)
            loss.backward()                       # DDP all-reduces (averages) the gradients here
            if step == 0:
                averaged = {name: p.grad.detach().clone() for name, p in model.named_parameters()}
            mean_loss = loss.detach().clone()
            dist.all_reduce(mean_loss)
            losses.append(mean_loss.item() / world_size)
            opt.step()

        def gather(tensors):
            out = []
            for name in LAYER_NAMES:
                parts = [torch.empty_like(tensors[name]) for _ in range(world_size)]
                dist.all_gather(parts, tensors[name].contiguous())
                out.append([p.tolist() for p in parts])
            return {name: per_rank for name, per_rank in zip(LAYER_NAMES, out)}

        local_all = gather(local)
        averaged_all = gather(averaged)
        final = {name: p.detach() for name, p in model.named_parameters()}
        final_all = gather(final)
        if rank == 0:
            same = all(np.array_equal(np.array(final_all[n][0]), np.array(final_all[n][r]))
                       for n in LAYER_NAMES for r in range(world_size))
            result = {
                "world_size": world_size, "steps": steps, "lr": lr,
                "backend": dist.get_backend(), "torch_version": torch.__version__,
                "shard_sizes": [len(range(r, prob["x"].shape[0], world_size)) for r in range(world_size)],
                "local_grads": local_all, "averaged_grads": averaged_all,
                "losses": losses, "final_params": {n: final_all[n][0] for n in LAYER_NAMES},
                "params_identical_across_ranks": bool(same),
            }
            with open(out_path, "w") as f:
                json.dump(result, f)
        dist.barrier()          # nobody leaves while another rank still communicates
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    # Leave without running the process group's C++ destructors: gloo's teardown can abort
    # ("terminate called without an active exception") when ranks exit at different moments.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def main(argv=None):
    ap = argparse.ArgumentParser(description="data-parallel training with PyTorch DDP (gloo, CPU processes)")
    ap.add_argument("--problem", required=True, help=".npz with x, y and the initial weights")
    ap.add_argument("--out", required=True, help="where rank 0 writes the result (JSON)")
    ap.add_argument("--world-size", type=int, default=2)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the workers")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("没有安装 PyTorch：pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
              file=sys.stderr)
        return 2
    fork = sys.platform.startswith("linux")
    if fork:
        # Imported once here, inherited by the forked workers: DistributedDataParallel imports
        # torch._dynamo on first use, which takes seconds per process.
        import torch._dynamo  # noqa: F401
        import torch.nn.parallel  # noqa: F401
    del torch
    n = np.load(args.problem)["x"].shape[0]
    if n % args.world_size:
        print(f"这批数据有 {n} 个样本，不能平均分给 {args.world_size} 个进程", file=sys.stderr)
        return 2
    if sys.platform.startswith("linux") and "GLOO_SOCKET_IFNAME" not in os.environ \
            and os.path.exists("/sys/class/net/lo"):
        os.environ["GLOO_SOCKET_IFNAME"] = "lo"       # the processes talk over the loopback interface
    import multiprocessing
    # fork (Linux) reuses the imported torch; elsewhere each worker starts a fresh interpreter
    ctx = multiprocessing.get_context("fork" if fork else "spawn")
    with tempfile.TemporaryDirectory() as tmp:
        init_file = os.path.join(tmp, "rendezvous")
        workers = [ctx.Process(target=_worker, args=(rank, args.world_size, init_file, os.path.abspath(args.problem),
                                                     args.steps, args.lr, os.path.abspath(args.out)))
                   for rank in range(args.world_size)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=args.timeout)
        failed = [(rank, w.exitcode) for rank, w in enumerate(workers) if w.exitcode != 0]
        for w in workers:
            if w.is_alive():
                w.kill()
        if failed:
            print(f"有进程失败了（rank, 退出码）：{failed}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
