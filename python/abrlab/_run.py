"""``abrlab.run``: one scenario to its end, its report and its sample rows."""

import json
import os

from . import _native
from ._options import load, options
from ._plain import sample_frame, sample_matrix


class Run:
    """One finished run.

    ``report`` is the dict ``abrsim run`` prints for the same arguments; ``columns`` the sample
    columns (those of ``abrsim run --csv``: ``t_ms`` first, then per VC, port and flow, in the
    engine's units); ``samples`` the rows as a pandas DataFrame (NaN where a value is undefined,
    an empty cell in the CSV); ``to_arrow()`` the same as a pyarrow Table, and the Arrow PyCapsule
    stream interface (``__arrow_c_stream__``) so polars and others read it without a copy.
    A Run pickles (its report, columns and the rows' bytes).
    """

    def __init__(self, report, columns, data, samples_path=None):
        self.report = report
        self.columns = list(columns)
        self._data = data
        self.samples_path = samples_path
        self._frame = None

    def __getstate__(self):
        return {"report": self.report, "columns": self.columns, "data": self._data, "samples_path": self.samples_path}

    def __setstate__(self, state):
        self.__init__(state["report"], state["columns"], state["data"], state["samples_path"])

    def __repr__(self):
        return f"<abrlab.Run {self.report.get('scenario')!r} until {self.report.get('until_ms')} ms, {len(self)} samples>"

    def __len__(self):
        if self._data is None:
            import pyarrow.parquet as pq

            return pq.ParquetFile(self.samples_path).metadata.num_rows
        return len(self._data) // (8 * len(self.columns)) if self.columns else 0

    def _matrix(self):
        return sample_matrix(self.columns, self._data)

    @property
    def samples(self):
        """The sample rows as a DataFrame (a column per sample column); for a run streamed to
        ``samples_to``, read from that file."""
        if self._frame is None:
            import pandas as pd

            if self._data is None:
                self._frame = pd.read_parquet(self.samples_path)
            else:
                self._frame = sample_frame(self.columns, self._data)
        return self._frame

    def to_arrow(self):
        """The sample rows as a pyarrow Table (float64 columns, null where undefined)."""
        import pyarrow as pa

        if self._data is None:
            import pyarrow.compute as pc
            import pyarrow.parquet as pq

            table = pq.read_table(self.samples_path)
            return pa.table({c: pc.if_else(pc.is_nan(table[c]), None, table[c]) for c in table.column_names})
        m = self._matrix()
        return pa.table({c: pa.array(m[:, i], from_pandas=True) for i, c in enumerate(self.columns)})

    def __arrow_c_stream__(self, requested_schema=None):
        return self.to_arrow().__arrow_c_stream__(requested_schema)


def _peak_rss_mb():
    """This process's peak resident memory in MB, as ``abrsim run`` reports its own: ``VmHWM`` of
    /proc/self/status (Linux). Not ``getrusage``'s ``ru_maxrss``, which Linux carries across
    ``execve`` from the process that spawned this one, so a child of a large parent (Python's
    ``subprocess`` spawns with ``vfork``) would report its parent's peak."""
    try:
        with open("/proc/self/status") as status:
            line = next(l for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return None
    kb = float(line.split()[1])
    return round(kb * 1024 / 1e6 * 10) / 10


def run(scenario, *, until_ms=None, seed=None, variant=None, set=None, windows=(), limits=None, samples_to=None):
    """Runs ``scenario`` (a path, JSON text or a dict) to its end; see :class:`Run`.

    ``set`` maps ``--set`` paths to values (``{"vcs.vc1.rif": "1/16"}``), applied in order after
    ``variant``; ``windows`` are (from_ms, to_ms) report windows; ``limits`` raises or lowers the
    engine's limits by name, as ``--limit``. ``samples_to="FILE.parquet"`` streams the sample
rows to that file as the run makes them (``abrsim run --samples``): memory stays bounded
whatever the run's length and width, ``max_memory_mb`` leaves the rows out, and ``samples``
reads them back from the file, which appears only when the run ends well. The simulation runs with the GIL released. Bad input
    raises :class:`abrlab.ScenarioError` listing every problem with its path.
    """
    text, name = load(scenario, limits)
    opts = options(until_ms, seed, variant, set, windows, limits)
    path = None if samples_to is None else os.fspath(samples_to)
    report, columns, data = _native.run(text, name, opts, path)
    report = json.loads(report)
    mb = _peak_rss_mb()
    if mb is not None and isinstance(report.get("stats"), dict):
        report["stats"]["peak_rss_mb"] = mb
    return Run(report, columns, data if path is None else None, samples_path=path)
