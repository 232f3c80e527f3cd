#!/usr/bin/env bash
# Regenerates the native runner's optimisation profile, engine-wasm/pgo/abrsim.profdata (see
# engine-wasm/pgo/rustc.sh): builds `abrsim` instrumented, runs `abrsim check` (every library
# scenario, its variants and its claims, both models) to record which code runs how often, merges
# the counts, and rebuilds. Run it after changing the engine: a function whose code changed since
# the profile was taken is compiled without it (rustc warns "function control flow change
# detected"). Needs `llvm-profdata` of rustc's LLVM (`rustup component add llvm-tools`, or Debian's
# `llvm-22` for rustc 1.95).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=""
for p in "$(rustc --print sysroot)"/lib/rustlib/*/bin/llvm-profdata "llvm-profdata-$llvm" \
  "/usr/lib/llvm-$llvm/bin/llvm-profdata"; do
  if command -v "$p" > /dev/null 2>&1; then
    profdata=$p
    break
  fi
done
if [ -z "$profdata" ]; then
  echo "pgo: no llvm-profdata for LLVM $llvm (rustup component add llvm-tools, or apt-get install llvm-$llvm)" >&2
  exit 1
fi
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
# Built both ways cargo builds it: from the workspace (`--bin abrsim`, as the README, the tests and
# the benchmark do) and as one package (`-p abrsim`). Their features are unified differently, which
# changes the crates' symbol names, and a profile finds a function by its symbol.
for how in "--bin abrsim" "-p abrsim"; do
  echo "==> abrsim ($how), instrumented"
  # shellcheck disable=SC2086
  ABR_PGO_GENERATE="$raw" cargo build --release -q --manifest-path engine-wasm/Cargo.toml $how \
    --target-dir engine-wasm/target/pgo-train
  echo "==> training run: abrsim check (every library scenario)"
  LLVM_PROFILE_FILE="$raw/abrsim-%p-%m.profraw" engine-wasm/target/pgo-train/release/abrsim check \
    > /dev/null
done
"$profdata" merge --sparse -o engine-wasm/pgo/abrsim.profdata "$raw"/*.profraw
echo "==> engine-wasm/pgo/abrsim.profdata written ($(wc -c < engine-wasm/pgo/abrsim.profdata) bytes)"
# Cargo does not see the profile change: rebuild the engine's crates with it.
cargo clean --release -q --manifest-path engine-wasm/Cargo.toml -p sim-core -p abrsim -p sim-wasm
cargo build --release -q --manifest-path engine-wasm/Cargo.toml --bin abrsim
echo "==> abrsim rebuilt with it"
