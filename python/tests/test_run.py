"""``abrlab.run`` against ``abrsim run``: the same report and the same sample rows, errors with
the same messages and paths; runs release the GIL; runs and errors pickle."""

import json
import math
import pickle
import sys
import threading
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import abrlab
from conftest import LIBRARY, SCENARIOS, abrsim

# The report's figures that measure the machine, not the run (its wall time and what follows
# from it, and the process's memory): their keys must match, their values cannot.
MACHINE = {"wall_ms", "events_per_s", "source_cells_per_s", "packets_per_s", "realtime_factor", "peak_rss_mb"}


def comparable(report):
    out = dict(report)
    out["stats"] = {k: (None if k in MACHINE else v) for k, v in report["stats"].items()}
    return out


def short(path):
    """A run long enough for a few samples of every library scenario, short enough for a test."""
    sample = json.loads(path.read_text()).get("run", {}).get("sample_interval_ms", 1)
    return max(20.0, 4 * sample)


@pytest.mark.parametrize("path", LIBRARY, ids=[p.stem for p in LIBRARY])
def test_run_reports_what_abrsim_run_prints(path):
    until = short(path)
    want = json.loads(abrsim("run", path, "--until", until, "--window", f"0:{until / 2}").stdout)
    got = abrlab.run(path, until_ms=until, windows=[(0, until / 2)]).report
    assert list(got) == list(want)
    assert list(got["stats"]) == list(want["stats"])
    assert comparable(got) == comparable(want)


def test_options_reach_the_engine_as_abrsim_flags_do():
    path = SCENARIOS / "two-source-wan.json"
    args = ["--until", 60, "--seed", 7, "--set", "vcs.vc1.rif=1/16", "--set", "vcs.vc2.icr_mbps=20"]
    want = json.loads(abrsim("run", path, *args).stdout)
    got = abrlab.run(str(path), until_ms=60, seed=7, set={"vcs.vc1.rif": "1/16", "vcs.vc2.icr_mbps": 20})
    assert comparable(got.report) == comparable(want)
    text = path.read_text()
    assert comparable(abrlab.run(text, until_ms=60, seed=7, set={"vcs.vc1.rif": 0.0625, "vcs.vc2.icr_mbps": 20}).report)[
        "stats"
    ] == comparable(want)["stats"]
    assert abrlab.run(json.loads(text), until_ms=60).report["stats"]["series_hash"] == (
        json.loads(abrsim("run", path, "--until", 60).stdout)["stats"]["series_hash"]
    )


@pytest.mark.parametrize("name", ["two-source-wan", "pletka-fmin-fairness"])
def test_samples_equal_the_csv(tmp_path, name):
    path = SCENARIOS / f"{name}.json"
    until = 120 if name == "two-source-wan" else 1000
    abrsim("run", path, "--until", until, "--csv", tmp_path)
    csv = pd.read_csv(tmp_path / "samples.csv")
    run = abrlab.run(path, until_ms=until)
    assert list(run.samples.columns) == list(csv.columns) == run.columns
    assert len(run.samples) == len(csv) == len(run) > 0
    a, b = run.samples.to_numpy(), csv.to_numpy(dtype=float)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.array_equal(np.nan_to_num(a), np.nan_to_num(b)), "bit-equal values"
    table = run.to_arrow()
    assert table.column_names == run.columns and table.num_rows == len(csv)
    # An undefined value (an empty CSV cell) is null in Arrow, NaN in the DataFrame.
    assert sum(c.null_count for c in table.columns) == int(np.isnan(a).sum())
    # The Arrow PyCapsule stream: a consumer reads the run itself, without to_arrow().
    via_capsule = pa.table(run)
    assert via_capsule.equals(table)


def _longest_pause_beside(path, until_ms):
    """Runs a simulation in a thread while this one keeps running Python; returns the run's length
    and the longest pause this thread saw (in seconds)."""
    done = {}

    def work():
        t = time.perf_counter()
        abrlab.run(path, until_ms=until_ms)
        done["seconds"] = time.perf_counter() - t

    worker = threading.Thread(target=work)
    gaps, last = [], time.perf_counter()
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    return done["seconds"], max(gaps, default=0.0)


def test_the_gil_is_released_while_a_simulation_runs():
    # While one thread runs a simulation, this thread keeps running Python: the longest pause it
    # sees is a small part of the run (with the GIL held, it would be the whole run). The run is
    # lengthened until it is long beside the interpreter's thread-switch interval, so the check
    # means the same on a fast machine and a slow one.
    path = SCENARIOS / "two-source-wan.json"
    enough = 20 * sys.getswitchinterval()
    for until_ms in (3_000, 30_000, 300_000):
        seconds, pause = _longest_pause_beside(path, until_ms)
        if seconds > enough:
            break
    assert seconds > enough, f"even a {until_ms} ms run took only {seconds:.3f} s"
    assert pause < seconds / 2, (pause, seconds)


def test_two_threads_run_two_simulations_with_the_results_of_one():
    path = SCENARIOS / "two-source-wan.json"
    alone = [abrlab.run(path, until_ms=200, seed=s).report["stats"]["series_hash"] for s in (1, 2)]
    got = {}
    threads = [
        threading.Thread(target=lambda s=s: got.__setitem__(s, abrlab.run(path, until_ms=200, seed=s))) for s in (1, 2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[s].report["stats"]["series_hash"] for s in (1, 2)] == alone


def test_runs_and_errors_pickle():
    run = abrlab.run(SCENARIOS / "two-source-wan.json", until_ms=40)
    back = pickle.loads(pickle.dumps(run))
    assert back.report == run.report and back.columns == run.columns
    pd.testing.assert_frame_equal(back.samples, run.samples)
    try:
        abrlab.run(SCENARIOS / "two-source-wan.json", set={"vcs.vc9.rif": 1})
    except abrlab.ScenarioError as e:
        err = pickle.loads(pickle.dumps(e))
        assert str(err) == str(e) and err.problems == e.problems and isinstance(err, abrlab.ScenarioError)
    else:
        raise AssertionError("a VC that does not exist is refused")


def test_bad_input_lists_every_problem_with_its_path_as_abrsim_does():
    path = SCENARIOS / "two-source-wan.json"
    flags = ["--set", "vcs.vc1.rif=2", "--set", "vcs.vc2.nrm=0", "--window", "50:10"]
    p = abrsim("run", path, *flags, check=False)
    assert p.returncode == 2
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.run(path, set={"vcs.vc1.rif": 2, "vcs.vc2.nrm": 0}, windows=[(50, 10)])
    e = caught.value
    assert f"abrsim: {e}\n" == p.stderr
    paths = [path for path, _ in e.problems]
    assert len(e.problems) >= 2 and all(paths), e.problems
    assert any(path.startswith("vcs.vc1") for path in paths) and any(path.startswith("vcs.vc2") for path in paths)


def test_window_errors_name_the_window():
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.run(SCENARIOS / "two-source-wan.json", until_ms=100, windows=[(10, 50), (50, 10)])
    assert [p for p, _ in caught.value.problems] == ["--window[1]"]


def test_limits_are_the_engines_and_can_be_raised_or_lowered():
    path = SCENARIOS / "two-source-wan.json"
    p = abrsim("run", path, "--limit", "max_vcs=1", check=False)
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.run(path, limits={"max_vcs": 1})
    assert f"abrsim: {caught.value}\n" == p.stderr and "limits.max_vcs" in str(caught.value)
    p = abrsim("run", path, "--until", 1e6, check=False)
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.run(path, until_ms=1e6)
    assert f"abrsim: {caught.value}\n" == p.stderr
    with pytest.raises(ValueError, match="unknown limit 'max_bogus'"):
        abrlab.run(path, limits={"max_bogus": 1})
    with pytest.raises(abrlab.ScenarioError, match="limits.max_input_bytes"):
        abrlab.run(path, limits={"max_input_bytes": 100})
    assert math.isfinite(abrlab.run(path, until_ms=20, limits={"max_vcs": 4000}).report["until_ms"])
