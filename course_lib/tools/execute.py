"""Re-execute notebooks in place so that their committed outputs are current.

    python -m course_lib.tools.execute notebooks solutions        # what `make notebooks` runs
    python -m course_lib.tools.execute notebooks/03_views.ipynb

Each notebook runs in a fresh ``python3`` kernel from its own folder; cell
timings are not recorded, so re-running an unchanged notebook leaves the
file unchanged (deterministic outputs are the notebooks' job: seeds, no
addresses, no timings).
"""

import argparse
import pathlib
import sys

__all__ = ["execute_notebook", "main"]


def execute_notebook(path, timeout=600):
    """Run every cell of the notebook at ``path`` and write it back with the outputs."""
    import nbformat
    from nbclient import NotebookClient
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for cell in nb.cells:
        cell_outputs = cell.get("outputs")
        if cell_outputs:
            cell.outputs = _coalesce_streams(cell_outputs)
    nbformat.write(nb, path)


def _coalesce_streams(outputs):
    """Join consecutive stream outputs of one stream, so how the kernel happened to flush leaves no trace."""
    merged = []
    for out in outputs:
        if (out.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == out.get("name")):
            merged[-1]["text"] += out["text"]
        else:
            merged.append(out)
    return merged


def _notebooks(targets):
    for t in targets:
        p = pathlib.Path(t)
        if p.is_dir():
            yield from sorted(q for q in p.glob("*.ipynb") if ".ipynb_checkpoints" not in q.parts)
        else:
            yield p


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="+", help="notebooks or folders of notebooks")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = ap.parse_args(argv)
    for nb in _notebooks(args.targets):
        print(f"executing {nb}", flush=True)
        execute_notebook(nb, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
