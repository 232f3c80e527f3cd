#!/usr/bin/env bash
# The Python package's tests: the environment of python-env.sh, then pytest. The tests compare
# the package with the native runner, so `abrsim` must be built first
# (cargo build --release --bin abrsim).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/python-env.sh
cd python
# pytest itself, not `python -m pytest`, which would import the source folder abrlab/ (without
# the native module) instead of the installed package.
../.venv/bin/pytest -q -p no:cacheprovider "$@"
