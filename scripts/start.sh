#!/usr/bin/env bash
# `npm start`: install what is missing, build the engine and the page, serve the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build-wasm.sh
npx vite build
echo
echo "ABR Lab: open http://localhost:4173/ (the default scenario opens at /; Ctrl+C stops the server)"
exec npx vite preview --port 4173 --strictPort --host localhost
