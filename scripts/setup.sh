#!/usr/bin/env bash
# Installs everything ABR Lab needs on a fresh machine that has node/npm, cargo and rustup.
# Idempotent: each step checks first and does nothing when it is already done.
#
#   bash scripts/setup.sh                 # to build and serve the app
#   bash scripts/setup.sh --with-browser  # also Chromium for the Playwright tests
set -euo pipefail

cd "$(dirname "$0")/.."

# Must match the wasm-bindgen crate version pinned in engine-wasm/crates/sim-wasm/Cargo.toml:
# the CLI refuses to process a module built by a different version of the library.
WASM_BINDGEN_VERSION=0.2.130

with_browser=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) with_browser=1 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

say() { printf '\n==> %s\n' "$*"; }

# cargo installs binaries into ~/.cargo/bin; make sure this shell and its children find them.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

for tool in node npm cargo rustup; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "setup.sh: '$tool' is not on PATH; install Node.js (>= 20.19) and Rust (rustup) first." >&2
    exit 1
  fi
done

say "Rust target wasm32-unknown-unknown"
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "already installed"
else
  rustup target add wasm32-unknown-unknown
fi

say "wasm-bindgen-cli $WASM_BINDGEN_VERSION"
installed_version="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$installed_version" = "$WASM_BINDGEN_VERSION" ]; then
  echo "already installed"
else
  # Deliberately without --locked: cargo resolves the CLI's dependencies afresh.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

say "npm packages (npm ci)"
# npm ci wipes node_modules, so skip it when the installed tree already matches the lock file.
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp=node_modules/.abrlab-lock-sha256
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ]; then
  echo "node_modules matches package-lock.json"
else
  npm ci --no-audit --no-fund
  echo "$lock_hash" > "$stamp"
fi

if [ "$with_browser" = 1 ]; then
  say "Chromium for Playwright (/usr/bin/chromium)"
  # Playwright drives Debian's Chromium: its own browser download is not used.
  if [ -x /usr/bin/chromium ]; then
    echo "already installed"
  else
    sudo_cmd=""
    if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y chromium
  fi
fi

say "setup done"
