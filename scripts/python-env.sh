#!/usr/bin/env bash
# Makes the Python environment the package's tests and benchmark use: `.venv` at the repository
# root (git-ignored) when it is missing, the pinned requirements (python/requirements-dev.txt),
# the lab's Jupyter widget built into the package (scripts/build-widget.sh), and `abrlab` built
# from python/ with maturin and installed, as `pip install ./python` does.
# PYTHON picks the interpreter (≥ 3.11 for the pinned pandas). Sourced by python-test.sh and
# python-bench.sh from the repository root.
set -euo pipefail
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -r python/requirements-dev.txt
bash scripts/build-widget.sh
# No build isolation: maturin comes pinned from the requirements (on PATH from .venv/bin) rather
# than fetched per build.
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python
