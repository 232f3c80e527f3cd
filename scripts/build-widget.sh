#!/usr/bin/env bash
# Builds the lab's Jupyter widget (`abrlab.Lab`) into the Python package: one ES module,
# python/abrlab/static/lab.js (git-ignored), from web/src/widget/ with the wasm engine and its
# worker inlined (vite.widget.config.ts). Builds the wasm engine first when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f web/src/engine/pkg/sim_wasm.js ]; then
  bash scripts/build-wasm.sh
fi
npx vite build -c vite.widget.config.ts --logLevel error
