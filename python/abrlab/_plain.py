"""What the package's modules share that needs neither the native engine nor a kernel: the
``--set`` value text and the sample rows' decoding (``abrlab.Lab`` imports only these, so the
widget works where the native module is not installed)."""

import json


def value_text(value):
    """A ``--set``/grid value as ``abrsim`` reads it: strings as typed (``"1/16"``, ``"erica"``),
    anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    return json.dumps(value)


def sample_matrix(columns, data):
    """Sample rows given as little-endian float64 bytes, row-major, ``len(columns)`` values a
    row, as a (rows × columns) numpy array (a view of ``data``, not a copy)."""
    import numpy as np

    width = len(columns)
    if width == 0:
        return np.zeros((0, 0))
    if len(data) % (8 * width):
        raise ValueError(f"sample data of {len(data)} bytes is not whole rows of {width} float64 values")
    return np.frombuffer(data, dtype="<f8").reshape(-1, width)


def sample_frame(columns, data):
    """The sample rows as a pandas DataFrame, a float64 column per sample column in order."""
    import pandas as pd

    m = sample_matrix(columns, data)
    return pd.DataFrame({c: m[:, i] for i, c in enumerate(columns)})
