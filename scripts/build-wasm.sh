#!/usr/bin/env bash
# Compiles the Rust engine to WebAssembly and generates its JS bindings into web/src/engine/pkg/.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

cargo build --release --target wasm32-unknown-unknown \
  --manifest-path engine-wasm/Cargo.toml -p sim-wasm
wasm-bindgen --target web --out-dir web/src/engine/pkg \
  engine-wasm/target/wasm32-unknown-unknown/release/sim_wasm.wasm

# Binaryen's optimiser (the npm package, pinned in package.json; not Debian's wasm-opt 108, which
# corrupts wasm-bindgen output): about 8 % faster in V8 (issue 9). The features are the ones rustc
# enables by default for wasm32-unknown-unknown. Skipped, with a note, before `npm ci` has run.
wasm_opt=node_modules/.bin/wasm-opt
if [ -x "$wasm_opt" ]; then
  "$wasm_opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-multivalue --enable-reference-types \
    web/src/engine/pkg/sim_wasm_bg.wasm -o web/src/engine/pkg/sim_wasm_bg.wasm
else
  echo "note: $wasm_opt not installed (run npm ci); the wasm engine is unoptimised"
fi
echo "wasm engine written to web/src/engine/pkg/"
