"""The example notebook runs from top to bottom (nbclient), its own assertions included."""

import pathlib

import nbformat
from nbclient import NotebookClient

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_the_example_notebook_runs():
    path = EXAMPLES / "abrlab-tour.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 2, "the figure and the heatmap"
    # The lab, embedded: a widget view, made without a front end to show it.
    assert sum("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs) == 1
