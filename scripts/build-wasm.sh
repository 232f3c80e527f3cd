#!/usr/bin/env bash
# Compiles the Rust engine to WebAssembly and generates its JS bindings into web/src/engine/pkg/.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

cargo build --release --target wasm32-unknown-unknown \
  --manifest-path engine-wasm/Cargo.toml -p sim-wasm
wasm-bindgen --target web --out-dir web/src/engine/pkg \
  engine-wasm/target/wasm32-unknown-unknown/release/sim_wasm.wasm
echo "wasm engine written to web/src/engine/pkg/"
