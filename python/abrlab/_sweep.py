"""``abrlab.sweep``: one scenario over a grid of parameter values, one row per (point, seed), on
any ``concurrent.futures.Executor`` — a process pool here, a Dask cluster through
``distributed.Client(cluster).get_executor()``.

The grid is counted, bounded and checked by the engine before anything runs (the axes, then the
seeds as the last, fastest-varying axis, against ``limits.max_sweep_points``; every value of
every axis built once), as ``abrsim sweep`` does. Point ``i`` takes the mixed-radix digits of
``i`` over the axes' lengths (the first axis varies slowest), so a row does not depend on which
worker ran it or when: the table is the same row for row whatever the executor.
"""

import concurrent.futures as cf
import hashlib
import json
import os

from . import _native
from ._options import load, options, value_text
from ._parts import Parts

FIGURES = ("max_queue", "utilization", "fairness")


def _digits(index, sizes):
    out = [0] * len(sizes)
    for k in range(len(sizes) - 1, -1, -1):
        out[k] = index % sizes[k]
        index //= sizes[k]
    return out


def run_points(job, indices):
    """Runs the grid points ``indices`` of a sweep (in a worker process or on a cluster): a list
    of (index, row)."""
    text, name, base, paths, raws, values, seeds, axis_names, spans = job
    sizes = [len(r) for r in raws] + [len(seeds)]
    rows = []
    for index in indices:
        digits = _digits(index, sizes)
        sets = list(base[3])
        row = {}
        for k, d in enumerate(digits[:-1]):
            sets += [(p, raws[k][d]) for p in paths[k]]
            row[axis_names[k]] = values[k][d]
        seed = seeds[digits[-1]]
        row["seed"] = seed
        opts = (base[0], seed, base[2], sets, base[4], base[5])
        out = json.loads(_native.sweep_point(text, name, opts))
        lost = "packets_lost" if out["model"] == "ip" else "cells_lost"
        for k, figures in enumerate(out["figures"]):
            suffix = "" if k == 0 else "@{:g}:{:g}".format(*spans[k - 1])
            for key in FIGURES:
                row[key + suffix] = figures[key]
            row[lost + suffix] = figures["cells_lost"]
            if k == 0:
                row["events"] = out["events"]
        rows.append((index, row))
    return rows


def _chunks(todo, workers):
    """Groups the points to run into tasks: small enough for an even spread and a live progress
    bar, large enough that a task's overhead is small beside its runs."""
    size = max(1, min(32, len(todo) // (8 * max(1, workers))))
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def sweep(scenario, grid, *, until_ms=None, windows=(), seeds=(1,), variant=None, executor=None, progress=True, out=None):
    """Runs ``scenario`` at every point of ``grid`` (``{path: [values…]}``, ``*`` paths as in
    ``abrsim sweep``), once per seed; returns a pandas DataFrame, one row per (point, seed) in
    grid order: a column per grid path, ``seed``, the figures ``abrsim sweep`` prints for the
    point over the whole run (``max_queue``, ``utilization``, ``fairness``, ``cells_lost`` or
    ``packets_lost``, ``events``), and each window's figures (``max_queue@FROM:TO``, …).

    ``executor``: any ``concurrent.futures.Executor`` (default: a process pool over the machine's
    cores). ``out="sweep.parquet"``: rows are written to that Parquet dataset (a folder of parts)
    as they finish; a rerun with the same ``out`` and the same sweep skips the finished points.
    """
    text, name = load(scenario)
    if not isinstance(grid, dict) or not grid:
        raise TypeError("grid: a dict {path: [values…]} with at least one path")
    axis_names = [str(p) for p in grid]
    raws = [[value_text(v) for v in values] for values in grid.values()]
    seeds = [int(s) for s in seeds]
    base = options(until_ms, None, variant, None, windows, None)
    total, expanded = _native.sweep_plan(text, name, list(zip(axis_names, raws)), seeds, base)
    paths = [p for p, _ in expanded]
    values = [json.loads(v) for _, v in expanded]
    job = (text, name, base, paths, raws, values, seeds, axis_names, base[4])

    parts = None
    done = {}
    if out is not None:
        key = hashlib.sha256(json.dumps([text, axis_names, raws, seeds, base[:3], base[4]]).encode()).hexdigest()
        parts = Parts(os.fspath(out), key)
        done = parts.load()
    todo = [i for i in range(total) if i not in done]

    own = executor is None
    if own:
        executor = cf.ProcessPoolExecutor(max_workers=os.cpu_count() or 1)
    workers = getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    from tqdm.auto import tqdm

    bar = tqdm(total=total, initial=total - len(todo), disable=not progress, desc="sweep", unit="pt")
    try:
        futures = [executor.submit(run_points, job, chunk) for chunk in _chunks(todo, workers)]

        def keep(rows):
            if parts is not None:
                parts.write(rows)
            done.update(rows)
            bar.update(len(rows))

        try:
            for future in cf.as_completed(futures):
                keep(future.result())
        except BaseException:
            # Stop what has not started, and keep every row that did finish before raising.
            for f in futures:
                f.cancel()
            for f in futures:
                if f.done() and not f.cancelled() and f.exception() is None:
                    rows = f.result()
                    if rows and rows[0][0] not in done:
                        keep(rows)
            raise
    finally:
        bar.close()
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    import pandas as pd

    return pd.DataFrame([done[i] for i in range(total)])
