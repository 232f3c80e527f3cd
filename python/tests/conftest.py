"""What the package's tests share: the repository's scenario library and the native runner
``abrsim`` (built by ``cargo build --release --bin abrsim``; ``ABRSIM`` overrides its path), the
oracle the package is compared with."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
LIBRARY = sorted(SCENARIOS.glob("*.json"))


def abrsim_path():
    path = os.environ.get("ABRSIM") or str(ROOT / "engine-wasm/target/release/abrsim")
    if not os.path.exists(path):
        pytest.fail(f"{path}: build it first (cargo build --release --bin abrsim)")
    return path


def abrsim(*args, check=True):
    """Runs ``abrsim ARGS…``; the completed process."""
    p = subprocess.run([abrsim_path(), *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    if check and p.returncode != 0:
        raise AssertionError(f"abrsim {' '.join(map(str, args))}: {p.stderr}")
    return p


def abrsim_json_lines(*args):
    return [json.loads(line) for line in abrsim(*args).stdout.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def scenarios():
    return SCENARIOS
