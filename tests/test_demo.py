"""python -m godlpack, the demo, runs every round trip with shared memory and exits 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import godlpack


def test_demo_round_trips_share_memory() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(godlpack.__file__).parent.parent))
    done = subprocess.run(
        [sys.executable, "-m", "godlpack"], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "every exchange shared memory, zero copies" in out
    assert "torch -> godlpack -> torch" in out and " NO " not in out
    assert "numpy sees [[0.0, 20.0], [30.0, 50.0]]" in out
    assert "torch sees [7, 7, 7, 7, 7]" in out
