"""Shared fixtures of the mulred Python tests: the project's vectors and the command.

CTest sets PYTHONPATH to <build>/python, MULRED_CLI to build/mulred and MULRED_VECTORS to
tests/vectors; run by hand, the defaults are the source tree's vectors and build/mulred."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = pathlib.Path(os.environ.get("MULRED_VECTORS", ROOT / "tests" / "vectors"))
CLI = os.environ.get("MULRED_CLI", str(ROOT / "build" / "mulred"))


def load_json(rel):
    with open(VECTORS / rel) as f:
        return json.load(f)


def run_cli(*args, check=True):
    """Runs the command with --json and returns its parsed output."""
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"the command is not built ({CLI})")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"mulred {' '.join(args)}: exit {proc.returncode}: {proc.stderr}")
    return json.loads(proc.stdout) if proc.returncode == 0 else proc


@pytest.fixture
def vectors():
    return VECTORS
