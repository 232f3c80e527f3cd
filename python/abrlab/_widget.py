"""``abrlab.Lab``: the live lab in a notebook cell, an anywidget.

The browser runs the same wasm engine as ABR Lab's page, from the page's own code (built by
``npm run build:widget`` into ``python/abrlab/static/lab.js``: one ES module with the engine and its
worker inlined, so nothing is fetched). This module imports only anywidget, traitlets and pandas,
never the native engine, so the widget works where only the JavaScript runs the simulation.

The kernel cannot wait for the browser while a cell runs (a widget's messages are handled between
cells), so nothing here asks the browser and waits: the browser pushes the document and the
samples it holds whenever they change (the samples at most once a second while the run plays,
and when it pauses or ends), and :meth:`Lab.samples` reads what was pushed last.
"""

import json
import os
import pathlib
import re

import anywidget
import traitlets

from ._plain import sample_frame, value_text

ESM_PATH = pathlib.Path(__file__).parent / "static" / "lab.js"
BUILD_COMMAND = "npm run build:widget"
# The engine's default limits.max_input_bytes: a scenario file longer than this is refused.
MAX_INPUT_BYTES = 4_000_000

# A static or dynamic import of a module by http(s) URL: what a widget would fetch from a CDN.
_REMOTE_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'`]https?://""")

_esm_text = None


def check_local(esm):
    """Refuses a module that imports anything by http(s) URL (the lab must work offline)."""
    found = _REMOTE_IMPORT.search(esm)
    if found:
        line = esm.count("\n", 0, found.start()) + 1
        raise RuntimeError(f"the widget's module imports from the network (line {line}): {esm[found.start():found.start() + 80]!r}")
    return esm


def _esm():
    global _esm_text
    if _esm_text is None:
        if not ESM_PATH.is_file():
            raise RuntimeError(
                f"abrlab.Lab needs the widget's JavaScript, {ESM_PATH}, which this installation lacks: "
                f"build it with `{BUILD_COMMAND}` in the ABR Lab repository, then reinstall the "
                "package (`pip install ./python`; `bash scripts/python-env.sh` does both). "
                "abrlab.run and abrlab.sweep work without it."
            )
        _esm_text = check_local(ESM_PATH.read_text(encoding="utf-8"))
    return _esm_text


def _scenario_dict(scenario):
    """The scenario as a dict: given as a dict, JSON text or a path to a JSON file."""
    if isinstance(scenario, dict):
        return json.loads(json.dumps(scenario))
    if isinstance(scenario, str) and scenario.lstrip().startswith("{"):
        text, name = scenario, "scenario"
    elif isinstance(scenario, (str, os.PathLike)):
        name = os.fspath(scenario)
        with open(name, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise ValueError(f"{name}: longer than the limit of {MAX_INPUT_BYTES} bytes (limits.max_input_bytes)")
        text = data.decode("utf-8")
    else:
        raise TypeError(f"scenario: a path, JSON text or a dict, not {type(scenario).__name__}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{name}: not JSON: {e}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{name}: a scenario is a JSON object, not {type(value).__name__}")
    return value


class Lab(anywidget.AnyWidget):
    """ABR Lab in a notebook cell: the network with its cells in flight, the transport (play,
    step, reset, speed) and the ACR and queue charts, the simulation running in the browser.

    ``Lab(scenario, autoplay=True, speed=50, height=560)``: ``scenario`` a path, JSON text or a
    dict; ``autoplay`` plays as soon as the lab is shown; ``speed`` simulated milliseconds per
    second of wall time (``None``: as fast as the engine goes; it follows the lab's speed slider,
    and assigning it sets the pace); ``height`` the cell's height in pixels (assignable too).

    - ``lab.set(path, value)`` changes a parameter as ``abrsim --set`` does (``"vcs.*.rif"``,
      ``"1/16"``): live when the running simulation can take it, else the run restarts with it.
    - ``lab.scenario`` is the document as the browser holds it (after the sets it took);
      assigning a dict opens that scenario instead.
    - ``lab.samples()`` the rows the browser holds, with the columns of ``abrlab.run(...).samples``.
    - ``lab.status`` what the last change did, in the lab's words.

    Each display of the same ``Lab`` (the cell's, and again wherever ``lab`` is shown) runs its
    own copy of the simulation in the browser; they share the document and the sets.
    """

    scenario = traitlets.Dict().tag(sync=True)
    autoplay = traitlets.Bool(True).tag(sync=True)
    speed = traitlets.Float(50.0, allow_none=True).tag(sync=True)
    height = traitlets.Int(560).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    _columns = traitlets.List(traitlets.Unicode()).tag(sync=True)
    # The front end sends binary as a memoryview: kept as bytes.
    _samples = traitlets.Bytes(b"").tag(sync=True, from_json=lambda value, _widget: bytes(value or b""))

    def __init__(self, scenario, *, autoplay=True, speed=50.0, height=560):
        self._esm = _esm()
        super().__init__(
            scenario=_scenario_dict(scenario),
            autoplay=bool(autoplay),
            speed=None if speed is None else float(speed),
            height=int(height),
        )

    @traitlets.validate("speed")
    def _check_speed(self, proposal):
        speed = proposal["value"]
        if speed is not None and not speed > 0:
            raise traitlets.TraitError(f"speed: simulated ms per second above 0, or None, not {speed!r}")
        return speed

    @traitlets.validate("height")
    def _check_height(self, proposal):
        height = proposal["value"]
        if not 200 <= height <= 4000:
            raise traitlets.TraitError(f"height: 200 to 4000 pixels, not {height!r}")
        return height

    def set(self, path, value):
        """Changes one parameter in the browser's run, as ``abrsim --set path=value`` (``*`` for
        every element of a list). The browser validates it; ``lab.status`` says what happened
        once this cell has finished."""
        self.send({"type": "set", "path": str(path), "raw": value_text(value)})

    def samples(self):
        """The sample rows the browser holds as a DataFrame (``t_ms`` first, then per VC, port
        and flow, the columns of ``abrlab.run(...).samples``), as of its last push."""
        return sample_frame(list(self._columns), bytes(self._samples))
