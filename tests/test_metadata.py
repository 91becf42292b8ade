"""The installed package's metadata: one version, the license, what pip shows."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import godlpack

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_written_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("godlpack") == godlpack.__version__


def test_license_in_metadata_and_dist() -> None:
    dist = importlib.metadata.distribution("godlpack")
    assert dist.metadata["License-Expression"] == "Apache-2.0"
    (lic,) = [f for f in dist.files or [] if f.name == "LICENSE"]
    text = lic.read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert text == (ROOT / "LICENSE").read_text()


def test_pip_show_prints_the_license() -> None:
    r = subprocess.run([sys.executable, "-m", "pip", "show", "godlpack"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "License-Expression: Apache-2.0" in r.stdout.splitlines(), r.stdout
