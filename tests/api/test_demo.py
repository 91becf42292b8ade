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


def test_help_prints_usage_and_runs_nothing() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(godlpack.__file__).parent.parent))
    for flag in ("--help", "-h"):
        done = subprocess.run(
            [sys.executable, "-m", "godlpack", flag], capture_output=True, text=True, timeout=120, env=env, check=False
        )
        assert done.returncode == 0 and done.stdout.startswith("usage: python -m godlpack"), done.stdout
        assert "round trip" not in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "godlpack", "--nope"], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 2 and "unrecognized arguments: --nope" in done.stderr


def test_ops_lists_only_its_kernels() -> None:
    assert [n for n in dir(godlpack.ops) if not n.startswith("_")] == ["copy_", "dot", "max", "min", "scale_", "sum"]


def test_help_of_from_dlpack_says_what_device_and_copy_take() -> None:
    doc = godlpack.from_dlpack.__doc__ or ""
    for words in ("device:", "'cuda:1'", "torch.device", "__dlpack_device__", "copy:", "None", "True", "False"):
        assert words in doc, words
