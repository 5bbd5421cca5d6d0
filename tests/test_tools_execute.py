"""course_lib.tools.execute: re-running a notebook leaves only real changes in the saved file."""

import json

import nbformat

from course_lib.tools.execute import _coalesce_streams, _reuse_widget_ids, _widget_ids

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"


def test_consecutive_stream_outputs_are_joined_per_stream():
    outs = [nbformat.v4.new_output("stream", name="stdout", text="a："),
            nbformat.v4.new_output("stream", name="stdout", text=" True\n"),
            nbformat.v4.new_output("stream", name="stderr", text="warn\n"),
            nbformat.v4.new_output("stream", name="stdout", text="b\n")]
    merged = _coalesce_streams(outs)
    assert [(o["name"], o["text"]) for o in merged] == [("stdout", "a： True\n"), ("stderr", "warn\n"),
                                                        ("stdout", "b\n")]


def _widget_notebook(box_id, child_id):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("w")
    cell.outputs = [nbformat.v4.new_output("display_data", data={VIEW: {"model_id": box_id, "version_major": 2,
                                                                        "version_minor": 0}})]
    nb.cells = [cell]
    nb.metadata["widgets"] = {STATE: {"version_major": 2, "version_minor": 0, "state": {
        box_id: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{child_id}"]}},
        child_id: {"model_name": "ButtonModel", "state": {"description": "下一步"}}}}}
    return nb


def test_a_rerun_keeps_the_widget_ids_of_the_saved_file(tmp_path):
    old = _widget_notebook("f" * 32, "e" * 32)
    new = _widget_notebook("1" * 32, "2" * 32)
    assert _widget_ids(old) == [("f" * 32, "VBoxModel"), ("e" * 32, "ButtonModel")]
    path = tmp_path / "nb.ipynb"
    nbformat.write(new, path)
    _reuse_widget_ids(path, _widget_ids(old), _widget_ids(new))
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["cells"][0]["outputs"][0]["data"][VIEW]["model_id"] == "f" * 32
    state = saved["metadata"]["widgets"][STATE]["state"]
    assert list(state) == ["e" * 32, "f" * 32]
    assert state["f" * 32]["state"]["children"] == ["IPY_MODEL_" + "e" * 32]


def test_different_widgets_keep_their_new_ids(tmp_path):
    old = _widget_notebook("f" * 32, "e" * 32)
    old.metadata["widgets"][STATE]["state"]["e" * 32]["model_name"] = "HTMLModel"
    new = _widget_notebook("1" * 32, "2" * 32)
    path = tmp_path / "nb.ipynb"
    nbformat.write(new, path)
    before = path.read_text(encoding="utf-8")
    _reuse_widget_ids(path, _widget_ids(old), _widget_ids(new))
    assert path.read_text(encoding="utf-8") == before


def test_without_saved_state_a_rerun_keeps_the_view_ids(tmp_path):
    old = _widget_notebook("f" * 32, "e" * 32)
    new = _widget_notebook("1" * 32, "2" * 32)
    for nb in (old, new):
        del nb.metadata["widgets"]
    assert _widget_ids(new) == [("1" * 32, None)]
    path = tmp_path / "nb.ipynb"
    nbformat.write(new, path)
    _reuse_widget_ids(path, _widget_ids(old), _widget_ids(new))
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["cells"][0]["outputs"][0]["data"][VIEW]["model_id"] == "f" * 32
    assert "widgets" not in saved["metadata"]


def test_committed_notebooks_carry_no_widget_state():
    """nbconvert, nbviewer and GitHub show a saved widget view (blank without a kernel) when the notebook carries
    widget state, and the widget's PNG when it does not."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[1]
    carrying = [str(p.relative_to(root)) for folder in ("notebooks", "solutions", "exercises")
                for p in sorted((root / folder).glob("*.ipynb"))
                if STATE in json.loads(p.read_text(encoding="utf-8"))["metadata"].get("widgets", {})]
    assert carrying == []
