"""Sweep throughput of the Python package (``npm run bench``): grid points per second with one
and two workers, on a process pool and on a local Dask cluster, and the package's cost per point
over ``abrsim sweep`` running the same grid, in CPU time (target: at most 10 %).

Each configuration runs the same grid (``two-source-wan``, RIF × RDF × seeds); the figure is the
best of ``--rounds`` rounds (the machine is shared: the best is the one least disturbed). Prints a
table and writes the figures as JSON (``--out``)."""

import argparse
import concurrent.futures as cf
import json
import os
import pathlib
import platform
import resource
import subprocess
import time

import abrlab

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/two-source-wan.json"
ABRSIM = os.environ.get("ABRSIM") or str(ROOT / "engine-wasm/target/release/abrsim")
RIF = ["1/64", "1/32", "1/16", "1/8", "1/4", "1/2", 1]
RDF = ["1/64", "1/16", "1/4", 1]
SEEDS = (1, 2)
UNTIL = 300


class Inline(cf.Executor):
    """Runs each task as it is submitted, in this process."""

    def submit(self, fn, /, *args, **kwargs):
        f = cf.Future()
        f.set_result(fn(*args, **kwargs))
        return f


def points():
    return len(RIF) * len(RDF) * len(SEEDS)


def time_sweep(executor):
    started = time.perf_counter()
    abrlab.sweep(SCENARIO, {"vcs.*.rif": RIF, "vcs.*.rdf": RDF}, until_ms=UNTIL, seeds=SEEDS, executor=executor, progress=False)
    return time.perf_counter() - started


def cpu_sweep():
    """CPU seconds of a sweep run in this process."""
    started = time.process_time()
    time_sweep(Inline())
    return time.process_time() - started


def cpu_abrsim():
    """CPU seconds of ``abrsim sweep --jobs 1`` (the child's user and system time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    time_abrsim(1)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_abrsim(jobs):
    args = [ABRSIM, "sweep", str(SCENARIO), "--param", "vcs.*.rif=" + ",".join(map(str, RIF)),
            "--param", "vcs.*.rdf=" + ",".join(map(str, RDF)), "--param", "run.seed=" + ",".join(map(str, SEEDS)),
            "--until", str(UNTIL), "--jobs", str(jobs)]
    started = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - started


def best(f, rounds):
    return min(f() for _ in range(rounds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench/python.json"))
    args = ap.parse_args()
    n = points()
    rows = []

    def record(name, workers, seconds):
        rows.append({"config": name, "workers": workers, "seconds": round(seconds, 4), "points_per_s": round(n / seconds, 1)})

    reference = best(lambda: time_abrsim(1), args.rounds)
    record("abrsim sweep", 1, reference)
    serial = best(lambda: time_sweep(Inline()), args.rounds)
    record("abrlab, in this process", 1, serial)
    for workers in (1, 2):
        with cf.ProcessPoolExecutor(workers) as pool:
            time_sweep(pool)  # start the workers before timing
            record("abrlab, process pool", workers, best(lambda: time_sweep(pool), args.rounds))
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        Client = None
    if Client is not None:
        for workers in (1, 2):
            with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
                executor = client.get_executor()
                time_sweep(executor)
                record("abrlab, Dask LocalCluster", workers, best(lambda: time_sweep(executor), args.rounds))
    # The cost per point in CPU time, which other processes on a shared machine disturb less
    # than wall time.
    overhead = best(cpu_sweep, args.rounds) / best(cpu_abrsim, args.rounds) - 1
    print(f"sweep throughput: two-source-wan {UNTIL} ms, {n} points (RIF × RDF × seeds), best of {args.rounds}")
    print(f"{'configuration':32} {'workers':>7} {'seconds':>8} {'points/s':>9}")
    for r in rows:
        print(f"{r['config']:32} {r['workers']:>7} {r['seconds']:>8.3f} {r['points_per_s']:>9.1f}")
    print(f"per-point overhead of abrlab over abrsim sweep (CPU time, one worker each): {overhead * 100:+.1f} % (target ≤ 10 %)")
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "grid_points": n,
        "until_ms": UNTIL,
        "rows": rows,
        "overhead_vs_abrsim": round(overhead, 4),
    }
    pathlib.Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
