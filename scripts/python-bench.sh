#!/usr/bin/env bash
# The Python package's part of `npm run bench`: sweep throughput on process pools and Dask, and
# the cost per point over `abrsim sweep` (python/bench/sweep_throughput.py; figures in
# bench/python.json).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/python-env.sh
.venv/bin/python python/bench/sweep_throughput.py "$@"
