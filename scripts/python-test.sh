#!/usr/bin/env bash
# The Python package's tests: makes `.venv` at the repository root (git-ignored) when it is
# missing, installs the pinned test requirements (python/requirements-dev.txt), builds and installs
# `abrlab` from python/ with maturin as `pip install ./python` does, and runs pytest. The tests
# compare the package with the native runner, so `abrsim` must be built first
# (cargo build --release --bin abrsim). PYTHON picks the interpreter (≥ 3.11 for the pinned pandas).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -r python/requirements-dev.txt
# No build isolation: maturin comes pinned from the requirements (on PATH from .venv/bin) rather
# than fetched per build.
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python
cd python
# pytest itself, not `python -m pytest`, which would import the source folder abrlab/ (without
# the native module) instead of the installed package.
../.venv/bin/pytest -q -p no:cacheprovider "$@"
