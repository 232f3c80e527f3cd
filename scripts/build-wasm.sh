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
# corrupts wasm-bindgen output): about 8 % faster in V8. The features are the ones rustc
# enables by default for wasm32-unknown-unknown. Skipped, with a note, before `npm ci` has run.
#
# `-ocimfs 1000`: by default Binaryen inlines every function that has one caller, whatever its
# size, which folded the whole event loop of both models (handlers, ports, switch algorithms) into
# one wasm function of about 18,000 lines. V8 first runs wasm with its baseline compiler and
# optimises a function once it is hot, on a background thread: a function that large took longer
# to optimise than a short scenario takes to run, so a 30 ms scenario played a second time in a
# fresh worker still ran mostly unoptimised (erica-efficiency: 12–43 ms in Chromium, against about
# 10 ms once every function is optimised). Inlining single-caller functions only up to 1000 bytes,
# the same second run is 1.2–2.1× faster (median of interleaved pairs over 8–10 rounds, Chromium
# worker and Node), the more so the busier the machine; a long run is level (reference workload,
# same scenario interleaved in one Chromium worker: 0.96–1.01×; ma-500-vcs: 0.98–1.02×).
# Tried and not kept: `-O4` and `--converge` (level), also inlining functions with
# loops (level); SIMD (`+simd128`: 0–4 %, within the noise on a quiet machine); `panic = "abort"`
# and `opt-level = 2` for the wasm build (level, 2 % slower).
wasm_opt=node_modules/.bin/wasm-opt
if [ -x "$wasm_opt" ]; then
  "$wasm_opt" -O3 -ocimfs 1000 --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-multivalue --enable-reference-types \
    web/src/engine/pkg/sim_wasm_bg.wasm -o web/src/engine/pkg/sim_wasm_bg.wasm
else
  echo "note: $wasm_opt not installed (run npm ci); the wasm engine is unoptimised"
fi
echo "wasm engine written to web/src/engine/pkg/"
