"""ABR Lab's engine from Python.

- :func:`run`: one scenario to its end — the report ``abrsim run`` prints and the sample rows as
  a DataFrame or an Arrow table;
- :func:`sweep`: a scenario over a grid of parameters and seeds on any executor, Dask included.

Bad input raises :class:`ScenarioError`.
"""

from ._errors import ScenarioError

__all__ = ["Run", "ScenarioError", "run", "sweep"]


def __getattr__(name):
    # The native engine is imported when first used.
    if name in ("run", "Run"):
        from . import _run

        return getattr(_run, name)
    if name == "sweep":
        from ._sweep import sweep

        return sweep
    raise AttributeError(f"module 'abrlab' has no attribute {name!r}")
