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
    old_ids = _widget_ids(nb)
    # No widget state in the saved file: with it, nbconvert, nbviewer and GitHub pick the widget view
    # (blank without a kernel or a CDN) over the PNG each course widget leaves beside it.
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            store_widget_state=False, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    nb.metadata.pop("widgets", None)                     # state saved by an earlier run or by JupyterLab
    for cell in nb.cells:
        cell_outputs = cell.get("outputs")
        if cell_outputs:
            cell.outputs = _coalesce_streams(cell_outputs)
    nbformat.write(nb, path)
    _reuse_widget_ids(path, old_ids, _widget_ids(nb))


_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _widget_ids(nb):
    """The widget model ids in a fixed order: as displayed, then depth-first through their references.

    Returns ``[(model_id, model_name), ...]``, or ``None`` when some saved model is not reached
    (then no order is reliable).  A notebook without saved widget state (what ``execute_notebook``
    writes) gives the displayed views' ids in order, with model name ``None``.
    """
    state = nb.metadata.get("widgets", {}).get(_WIDGET_STATE, {}).get("state", {})
    if not state:
        return [(out["data"][_WIDGET_VIEW]["model_id"], None) for cell in nb.cells for out in cell.get("outputs", [])
                if out.get("data", {}).get(_WIDGET_VIEW, {}).get("model_id")]
    order, seen = [], set()

    def refs(value):
        if isinstance(value, str) and value.startswith("IPY_MODEL_"):
            yield value[len("IPY_MODEL_"):]
        elif isinstance(value, list):
            for v in value:
                yield from refs(v)
        elif isinstance(value, dict):
            for k in sorted(value):
                yield from refs(value[k])

    def visit(model_id):
        if model_id in seen or model_id not in state:
            return
        seen.add(model_id)
        order.append((model_id, state[model_id].get("model_name")))
        for ref in refs(state[model_id].get("state", {})):
            visit(ref)

    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(_WIDGET_VIEW)
            if view:
                visit(view.get("model_id"))
    return order if len(order) == len(state) else None


def _reuse_widget_ids(path, old, new):
    """Give the widgets of a re-run the ids the same widgets had before, so the saved file barely changes.

    Widget ids are random per run and nbformat sorts the saved state by id, so without this every
    re-execution reshuffles the whole widget state.  Done only when both runs hold the same
    widgets in the same order (same model names).
    """
    if not old or not new or len(old) != len(new) or any(a[1] != b[1] for a, b in zip(old, new)):
        return
    import nbformat
    text = path.read_text(encoding="utf-8")
    mapping = {n[0]: o[0] for o, n in zip(old, new) if n[0] != o[0]}
    if not mapping:
        return
    for new_id, old_id in mapping.items():
        text = text.replace(new_id, "\0" + old_id)     # a marker, so a replaced id is never replaced again
    text = text.replace("\0", "")
    nb = nbformat.reads(text, as_version=4)
    nbformat.write(nb, path)                             # rewritten, so the state is sorted by the old ids


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
