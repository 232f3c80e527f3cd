"""``abrlab.sweep``: the grid is bounded and checked before anything runs; rows equal
``abrsim sweep``'s figures and do not depend on the executor (inline, a process pool, a Dask
cluster); an interrupted Parquet sweep resumes where it stopped."""

import concurrent.futures as cf

import pandas as pd
import pytest

import abrlab
from conftest import SCENARIOS, abrsim_json_lines

PATH = SCENARIOS / "two-source-wan.json"
GRID = {"vcs.*.rif": ["1/64", "1/8", 1], "vcs.*.rdf": ["1/16", 1]}
UNTIL = 60
WINDOW = (20, 60)


class Inline(cf.Executor):
    """Runs each task when submitted, in this process: the serial sweep. ``fail_after`` tasks it
    stops with an error, as an interrupted sweep does."""

    def __init__(self, fail_after=None):
        self.tasks = 0
        self.points = 0
        self.fail_after = fail_after

    def submit(self, fn, /, *args, **kwargs):
        future = cf.Future()
        self.tasks += 1
        if self.fail_after is not None and self.tasks > self.fail_after:
            future.set_exception(KeyboardInterrupt())
            return future
        result = fn(*args, **kwargs)
        self.points += len(result)
        future.set_result(result)
        return future


def sweep(executor, **kw):
    kw.setdefault("windows", [WINDOW])
    return abrlab.sweep(PATH, GRID, until_ms=UNTIL, seeds=(1, 2), executor=executor, progress=False, **kw)


@pytest.fixture(scope="module")
def serial():
    return sweep(Inline())


def test_one_row_per_point_and_seed_in_grid_order(serial):
    assert len(serial) == 3 * 2 * 2
    assert list(serial.columns[:3]) == ["vcs.*.rif", "vcs.*.rdf", "seed"]
    assert list(serial["seed"]) == [1, 2] * 6
    assert list(serial["vcs.*.rif"][::4]) == [1 / 64, 1 / 8, 1]
    assert {"max_queue", "utilization", "fairness", "cells_lost", "events", "max_queue@20:60"} <= set(serial.columns)


def test_rows_equal_abrsim_sweep(serial):
    def lines(*extra):
        return abrsim_json_lines(
            "sweep", PATH, "--param", "vcs.*.rif=1/64,1/8,1", "--param", "vcs.*.rdf=1/16,1",
            "--param", "run.seed=1,2", "--until", UNTIL, "--jobs", 1, *extra,
        )

    whole, windowed = lines(), lines("--window", "20:60")
    assert len(whole) == len(serial)
    for (_, row), a, b in zip(serial.iterrows(), whole, windowed):
        assert a["params"] == {"vcs.*.rif": row["vcs.*.rif"], "vcs.*.rdf": row["vcs.*.rdf"], "run.seed": row["seed"]}
        for key in ("max_queue", "utilization", "fairness", "cells_lost"):
            assert row[key] == a[key], key
            assert row[f"{key}@20:60"] == b[key], key
        assert row["events"] == a["events"]


def test_the_same_table_whatever_the_executor(serial):
    with cf.ProcessPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(sweep(pool), serial)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            pd.testing.assert_frame_equal(sweep(client.get_executor()), serial)


def test_the_grid_is_bounded_before_anything_runs():
    big = {f"vcs.*.p{k}": list(range(100)) for k in range(5)}
    executor = Inline()
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.sweep(PATH, big, executor=executor, progress=False)
    assert "10000000000 points" in str(caught.value) and "limits.max_sweep_points" in str(caught.value)
    assert executor.tasks == 0


def test_bad_values_are_refused_with_their_paths_before_anything_runs():
    executor = Inline()
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.sweep(PATH, {"vcs.*.rif": [1 / 8, 7], "vcs.vc9.nrm": [32]}, executor=executor, progress=False)
    assert executor.tasks == 0
    paths = [p for p, _ in caught.value.problems]
    assert any("vc9" in p for p in paths) or any("vc1" in p for p in paths), caught.value.problems
    with pytest.raises(abrlab.ScenarioError) as caught:
        abrlab.sweep(PATH, {"vcs.*.rif": [1 / 8, 7]}, executor=executor, progress=False)
    assert {p for p, _ in caught.value.problems} == {"vcs.vc1.rif", "vcs.vc2.rif"}, caught.value.problems


def test_an_interrupted_parquet_sweep_resumes(tmp_path, serial):
    out = tmp_path / "sweep.parquet"
    first = Inline(fail_after=2)
    with pytest.raises(KeyboardInterrupt):
        sweep(first, out=out)
    kept = pd.read_parquet(out)
    assert 0 < len(kept) == first.points < len(serial)
    second = Inline()
    resumed = sweep(second, out=out)
    assert second.points == len(serial) - first.points, "finished points are not run again"
    pd.testing.assert_frame_equal(resumed, serial)
    assert sorted(pd.read_parquet(out)["point"]) == list(range(len(serial)))
    with pytest.raises(ValueError, match="another sweep"):
        sweep(Inline(), out=out, windows=[])
