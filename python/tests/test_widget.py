"""``abrlab.Lab``, the widget, from Python (its browser side is tested in JupyterLab by
e2e/jupyter.spec.ts): it imports without the native module, its module fetches nothing, the
scenario trait round-trips through the widget's state, ``set`` sends what ``abrsim --set`` reads,
and a sample payload as the browser pushes it decodes to the DataFrame of ``abrlab.run``."""

import json
import math
import subprocess
import sys

import pandas as pd
import pytest
import traitlets

import abrlab
from abrlab import _widget

from conftest import SCENARIOS

WAN = SCENARIOS / "two-source-wan.json"


def test_the_widget_imports_without_the_native_module():
    # A Python where importing abrlab._native fails, as in a browser kernel with no native build.
    code = """
import importlib.abc, sys
class NoNative(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "abrlab._native":
            raise ImportError("no native module here")
sys.meta_path.insert(0, NoNative())
import abrlab
from abrlab import _widget
assert abrlab.Lab is _widget.Lab
assert "abrlab._native" not in sys.modules
print(sorted({m.split(".")[0] for m in sys.modules} & {"pyarrow", "dask", "distributed", "tqdm"}))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    # Nothing of the run or sweep machinery is imported.
    assert p.stdout.strip() == "[]"


def test_the_module_fetches_nothing():
    esm = abrlab.Lab(WAN)._esm
    assert _widget.check_local(esm) is esm
    assert "data:application/wasm;base64," in esm, "the wasm engine is inlined"
    for remote in (
        'import React from "https://esm.sh/react@19";',
        "const d3 = await import('http://cdn.example/d3.js')",
        "export * from `https://unpkg.com/x`",
    ):
        with pytest.raises(RuntimeError, match="imports from the network"):
            _widget.check_local("const a = 1;\n" + remote)


def test_a_missing_build_says_which_command_makes_it(monkeypatch, tmp_path):
    monkeypatch.setattr(_widget, "ESM_PATH", tmp_path / "lab.js")
    monkeypatch.setattr(_widget, "_esm_text", None)
    with pytest.raises(RuntimeError, match=r"npm run build:widget"):
        abrlab.Lab(WAN)


def test_the_scenario_round_trips():
    doc = json.loads(WAN.read_text())
    for given in (WAN, str(WAN), WAN.read_text(), doc):
        lab = abrlab.Lab(given)
        assert lab.scenario == doc
        assert lab.get_state("scenario")["scenario"] == doc
    # The browser sends the document as it holds it after an edit: Python reads it back.
    edited = json.loads(json.dumps(doc))
    edited["vcs"][0]["rif"] = 0.5
    lab.set_state({"scenario": edited})
    assert lab.scenario == edited
    assert lab.get_state("scenario")["scenario"] == edited


def test_bad_arguments_are_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="not JSON"):
        abrlab.Lab("{ nope")
    with pytest.raises(ValueError, match="a JSON object"):
        (tmp_path / "list.json").write_text("[1, 2]")
        abrlab.Lab(tmp_path / "list.json")
    with pytest.raises(traitlets.TraitError, match="speed"):
        abrlab.Lab(WAN, speed=0)
    with pytest.raises(traitlets.TraitError, match="height"):
        abrlab.Lab(WAN, height=10)
    lab = abrlab.Lab(WAN, speed=None)
    with pytest.raises(traitlets.TraitError, match="speed"):
        lab.speed = -1
    lab.speed, lab.height = 10, 400
    assert lab.get_state()["speed"] == 10 and lab.get_state()["height"] == 400
    with pytest.raises(TypeError, match="scenario"):
        abrlab.Lab(42)


def test_set_sends_the_value_as_abrsim_reads_it(monkeypatch):
    lab = abrlab.Lab(WAN)
    sent = []
    monkeypatch.setattr(lab, "send", sent.append)
    lab.set("vcs.*.rif", "1/2")
    lab.set("vcs.vc1.rif", 0.25)
    lab.set("switches.SW1.algorithm.kind", "erica")
    assert sent == [
        {"type": "set", "path": "vcs.*.rif", "raw": "1/2"},
        {"type": "set", "path": "vcs.vc1.rif", "raw": "0.25"},
        {"type": "set", "path": "switches.SW1.algorithm.kind", "raw": "erica"},
    ]


def test_a_sample_payload_decodes_to_the_runs_dataframe():
    lab = abrlab.Lab(WAN)
    assert lab.samples().shape == (0, 0)
    run = abrlab.run(WAN, until_ms=20)
    payload = run.samples.to_numpy(dtype="<f8").tobytes()
    # As the front end sends it: the columns, then the rows as a binary buffer (a memoryview).
    lab.set_state({"_columns": run.columns, "_samples": memoryview(payload)})
    pd.testing.assert_frame_equal(lab.samples(), run.samples)
    # NaN (an undefined value) survives; rows that are not whole are refused.
    half_and_nan = b"".join(v.to_bytes(8, "little") for v in (0x3FE0000000000000, 0x7FF8000000000000))
    lab.set_state({"_columns": ["t_ms", "x"], "_samples": memoryview(half_and_nan)})
    frame = lab.samples()
    assert list(frame.columns) == ["t_ms", "x"]
    assert frame["t_ms"].tolist() == [0.5] and math.isnan(frame["x"][0])
    lab.set_state({"_samples": memoryview(payload[:12])})
    with pytest.raises(ValueError, match="whole rows"):
        lab.samples()
