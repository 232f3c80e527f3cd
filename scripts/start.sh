#!/usr/bin/env bash
# `npm start`: install what is missing, build the engine and the page, serve the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

# PORT chooses the port (default 4173), e.g. `PORT=8080 npm start`.
PORT="${PORT:-4173}"
if ! [[ "$PORT" =~ ^[0-9]+$ ]] || (( PORT < 1 || PORT > 65535 )); then
  echo "PORT must be a port number from 1 to 65535, not '$PORT'" >&2
  exit 2
fi

bash scripts/setup.sh
bash scripts/build-wasm.sh
npx vite build
echo
echo "ABR Lab: open http://localhost:$PORT/ (the default scenario opens at /; Ctrl+C stops the server)"
exec npx vite preview --port "$PORT" --strictPort --host localhost
