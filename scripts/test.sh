#!/usr/bin/env bash
# `npm test`: install what the tests need, run the linters, then every test: engine (cargo),
# TypeScript (tsc, Vitest) and the page in Chromium (Playwright) against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

bash scripts/setup.sh --with-browser

step "lint (Biome: TypeScript lint and format; cargo fmt --check; cargo clippy -D warnings)"
npm run lint

step "build the wasm engine"
bash scripts/build-wasm.sh

step "engine tests (cargo test --release)"
cargo test --release --manifest-path engine-wasm/Cargo.toml

step "native runner (abrsim, used by the determinism test)"
cargo build --release --manifest-path engine-wasm/Cargo.toml --bin abrsim

step "Python package (abrlab: maturin build into .venv, pytest against abrsim)"
bash scripts/python-test.sh

step "type check (tsc)"
npx tsc --noEmit -p tsconfig.json

step "unit tests (vitest)"
npx vitest run

step "production build (vite build)"
npx vite build

step "end-to-end tests (playwright, Chromium)"
npx playwright test
