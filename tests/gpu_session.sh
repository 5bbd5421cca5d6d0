#!/usr/bin/env bash
# The one prepared run for the GPU machine (one NVIDIA H200, Python 3.12, numpy, cupy-cuda13x, torch CUDA,
# pytest, matplotlib; no network).  See ../shared/device/README.md.  Before the session, here:
#
#     mkdir -p .gpu && cp ../shared/device/* .gpu/ && echo /.gpu/ >> .git/info/exclude
#
# then on the GPU machine, from the project root (carry .gpu):
#
#     bash tests/gpu_session.sh            # writes everything under $OUT (or ./gpu_out)
#
# It runs, in this order, each with its own time limit (about 5 minutes in all):
#   1. versions and the device course_lib sees;
#   2. the GPU tests: python3 -m pytest -q -m gpu tests --continue-on-collection-errors (other test files
#      import packages the GPU machine lacks, e.g. ipywidgets; tests/test_cuda.py: every op + backward on the GPU
#      against the CPU, nn/SGD, no synchronisation in a training step, printed tensors and error texts
#      compared with PyTorch CUDA on the same GPU);
#   3. .gpu/gpu_bench.py: course_lib on CUDA vs raw CuPy (targets: within 1.2x on the large workloads,
#      2x on the tiny add; equal MLP losses);
#   4. chapter 10 run as a script on the real GPU (no Jupyter there): it must run to the end, and its live
#      measurement cell prints the host-device copy bandwidth, tiny add CPU vs GPU and a 2048^2 matmul.
set -u
OUT_DIR=${OUT:-gpu_out}
mkdir -p "$OUT_DIR"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1

echo "== 1. environment" | tee "$OUT_DIR/summary.txt"
timeout 60 python3 - <<'EOF' 2>&1 | tee "$OUT_DIR/env.txt" | tee -a "$OUT_DIR/summary.txt"
import platform, numpy, cupy, torch
import course_lib
print("python", platform.python_version(), "numpy", numpy.__version__, "cupy", cupy.__version__, "torch", torch.__version__)
print("torch.cuda", torch.cuda.is_available(), torch.cuda.get_device_name() if torch.cuda.is_available() else "-")
print("course_lib.cuda", course_lib.cuda.is_available(), course_lib.cuda.get_device_name(),
      "simulated:", course_lib.cuda.is_simulated())
EOF

echo "== 2. GPU tests" | tee -a "$OUT_DIR/summary.txt"
timeout 300 python3 -m pytest -q -m gpu tests --continue-on-collection-errors -p no:cacheprovider -rfE > "$OUT_DIR/gpu_tests.txt" 2>&1
tail -60 "$OUT_DIR/gpu_tests.txt" | tee -a "$OUT_DIR/summary.txt"

echo "== 3. gpu_bench" | tee -a "$OUT_DIR/summary.txt"
if [ -f .gpu/gpu_bench.py ]; then
    timeout 240 python3 .gpu/gpu_bench.py 2>&1 | tee "$OUT_DIR/gpu_bench.txt" | tee -a "$OUT_DIR/summary.txt"
else
    echo ".gpu/gpu_bench.py is missing (copy ../shared/device/* into .gpu/ and carry it)" | tee -a "$OUT_DIR/summary.txt"
fi

echo "== 4. chapter 10 as a script" | tee -a "$OUT_DIR/summary.txt"
timeout 180 python3 - <<'EOF' 2>&1 | tee "$OUT_DIR/chapter08.txt" | tail -40 | tee -a "$OUT_DIR/summary.txt"
import json, time
cells = json.load(open("notebooks/10_gpu_and_parallel.ipynb"))["cells"]
ns = {}
for i, c in enumerate(cells):
    if c["cell_type"] != "code":
        continue
    src = "".join(c["source"])
    # no ipywidgets/mplfonts on the GPU machine: skip the font import and the figure cell
    src = src.replace("import course_lib.viz          # 让 Matplotlib 能显示中文", "")
    if "parallelism_figure" in src:
        print(f"[cell {i}] skipped (figure)")
        continue
    print(f"[cell {i}]")
    t = time.perf_counter()
    exec(compile(src, f"<cell {i}>", "exec"), ns)
    print(f"[cell {i}] {time.perf_counter() - t:.2f} s")
print("chapter 10 ran to the end")
EOF
echo "== done; files in $OUT_DIR" | tee -a "$OUT_DIR/summary.txt"
