#!/bin/sh
# Cargo's `rustc-workspace-wrapper` (set in .cargo/config.toml at the repository root): it compiles
# the engine's own crates for the native runner (`abrsim`, the tests) with the profile beside it,
# `abrsim.profdata` — profile-guided optimisation, 12–19 % less CPU on the benchmark's workloads
# (docs/performance.md) — or, with ABR_PGO_GENERATE=DIR, instrumented to write a profile there
# (scripts/pgo.sh). Results are the same either way: a profile only changes how the code is laid
# out and inlined, never what it computes (the golden test pins every run). The wasm engine is
# compiled as it is: a profile names functions by their symbols, which differ between targets, so
# the native one cannot guide it. Any other call (cargo's probes) goes through untouched.
rustc="$1"
shift
here=$(cd "$(dirname "$0")" && pwd)
case " $* " in
  *" --print"*|*" --target wasm32"*) exec "$rustc" "$@" ;;
  *" --crate-name "*) ;;
  *) exec "$rustc" "$@" ;;
esac
if [ -n "${ABR_PGO_GENERATE:-}" ]; then
  exec "$rustc" "$@" "-Cprofile-generate=$ABR_PGO_GENERATE"
fi
if [ -f "$here/abrsim.profdata" ]; then
  exec "$rustc" "$@" "-Cprofile-use=$here/abrsim.profdata"
fi
exec "$rustc" "$@"
