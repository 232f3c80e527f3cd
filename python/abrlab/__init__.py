"""ABR Lab's engine from Python.

- :func:`run`: one scenario to its end — the report ``abrsim run`` prints and the sample rows as
  a DataFrame or an Arrow table;
- :func:`sweep`: a scenario over a grid of parameters and seeds on any executor, Dask included;
- :class:`Lab`: the live lab in a notebook cell (a Jupyter widget; ``pip install abrlab[widget]``).

Bad input raises :class:`ScenarioError`.
"""

from ._errors import ScenarioError

__all__ = ["Lab", "Run", "ScenarioError", "run", "sweep"]


def __getattr__(name):
    # The native engine is imported when first used.
    if name in ("run", "Run"):
        from . import _run

        return getattr(_run, name)
    if name == "sweep":
        from ._sweep import sweep

        return sweep
    if name == "Lab":
        # Without the native module: the widget runs the engine in the browser.
        try:
            from ._widget import Lab
        except ModuleNotFoundError as e:
            raise ImportError(f"abrlab.Lab needs {e.name}: pip install 'abrlab[widget]'") from e
        return Lab
    raise AttributeError(f"module 'abrlab' has no attribute {name!r}")
