"""A sweep's Parquet output: a folder of parts (``part-*.parquet``), each written whole to a
temporary name and renamed into place, so an interrupted sweep leaves only complete parts, and a
``_sweep.json`` naming the sweep they belong to (Parquet readers skip names starting with
``_`` or ``.``, as the temporary names do). ``pandas.read_parquet(out)`` reads the folder;
the ``point`` column is each row's place in the grid."""

import json
import os
import uuid

MANIFEST = "_sweep.json"


class Parts:
    def __init__(self, path, key):
        self.path = path
        self.key = key

    def load(self):
        """Creates the folder, or checks that it holds this sweep; the rows already done."""
        manifest = os.path.join(self.path, MANIFEST)
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise ValueError(f"out={self.path}: not a folder (a sweep writes a folder of Parquet parts)")
        os.makedirs(self.path, exist_ok=True)
        if os.path.exists(manifest):
            with open(manifest) as f:
                found = json.load(f).get("sweep")
            if found != self.key:
                raise ValueError(
                    f"out={self.path}: holds the rows of another sweep (other scenario, grid, seeds or "
                    "options); give another out, or remove it to start over"
                )
        else:
            self._atomic(manifest, lambda tmp: _write_text(tmp, json.dumps({"sweep": self.key})))
        done = {}
        names = sorted(n for n in os.listdir(self.path) if n.startswith("part-") and n.endswith(".parquet"))
        if names:
            import pyarrow.parquet as pq

            for n in names:
                for row in pq.read_table(os.path.join(self.path, n)).to_pylist():
                    done[row.pop("point")] = row
        return done

    def write(self, rows):
        """Writes finished rows, ``[(index, row)]``, as one part."""
        if not rows:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist([{"point": i, **row} for i, row in rows])
        name = os.path.join(self.path, f"part-{rows[0][0]:012d}-{uuid.uuid4().hex[:8]}.parquet")
        self._atomic(name, lambda tmp: pq.write_table(table, tmp))

    @staticmethod
    def _atomic(path, write):
        head, tail = os.path.split(path)
        tmp = os.path.join(head, f".{tail}.tmp-{uuid.uuid4().hex[:8]}")
        try:
            write(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)


def _write_text(path, text):
    with open(path, "w") as f:
        f.write(text)
