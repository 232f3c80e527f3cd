"""Turning the package's arguments into what the engine takes: the scenario's text and name, and
the run options (``abrsim run``'s ``--until``, ``--seed``, ``--variant``, ``--set``, ``--window``
and ``--limit``)."""

import json
import os

from . import _native
from ._errors import ScenarioError
from ._plain import value_text

__all__ = ["limit_pairs", "load", "options", "value_text"]


def limit_pairs(limits):
    """``limits={"max_vcs": 4000}`` as (name, value) pairs, checked by the engine."""
    pairs = [(str(k), float(v)) for k, v in (limits or {}).items()]
    _native.limits(pairs)
    return pairs


def load(scenario, limits=None):
    """``(text, name)`` of a scenario given as a path, JSON text or a dict. A file is read up to
    ``limits.max_input_bytes``, as ``abrsim`` reads it."""
    if isinstance(scenario, dict):
        return json.dumps(scenario), "scenario"
    if isinstance(scenario, str) and scenario.lstrip().startswith("{"):
        return scenario, "scenario"
    if isinstance(scenario, (str, os.PathLike)):
        path = os.fspath(scenario)
        cap = int(dict(_native.limits(limit_pairs(limits)))["max_input_bytes"])
        try:
            with open(path, "rb") as f:
                data = f.read(cap + 1)
        except OSError as e:
            raise ScenarioError(f"{path}: cannot read: {e}", [("", f"cannot read: {e}")]) from None
        if len(data) > cap:
            why = (
                f"longer than the limit of {cap} bytes (limits.max_input_bytes; "
                f"raise it with limits={{'max_input_bytes': N}})"
            )
            raise ScenarioError(f"{path}: {why}", [("", why)])
        try:
            return data.decode("utf-8"), path
        except UnicodeDecodeError as e:
            raise ScenarioError(f"{path}: not UTF-8 text: {e}", [("", f"not UTF-8 text: {e}")]) from None
    raise TypeError(f"scenario: a path, JSON text or a dict, not {type(scenario).__name__}")


def options(until_ms=None, seed=None, variant=None, set=None, windows=(), limits=None):
    """The options tuple the native module takes."""
    sets = [(str(path), value_text(value)) for path, value in (set or {}).items()]
    spans = []
    for w in windows:
        start, end = w
        spans.append((float(start), float(end)))
    return (
        None if until_ms is None else float(until_ms),
        None if seed is None else int(seed),
        variant,
        sets,
        spans,
        limit_pairs(limits),
    )
