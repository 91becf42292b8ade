"""The installed package's metadata: one version, the license, what pip shows."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib

import godlpack
from repository import ROOT


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


def test_classifiers_name_the_versions_with_wheels() -> None:
    """The Python versions the classifiers list are the Makefile's PYTHONS (make wheels), all tested."""
    makefile = (ROOT / "Makefile").read_text()

    def default(name: str) -> list[str]:
        m = re.search(rf"^{name} +\?= *(.*)$", makefile, re.M)
        assert m, f"the Makefile sets no {name}"
        return m.group(1).split()

    wheels, tested = default("PYTHONS"), default("TEST_PYTHONS")
    classifiers = importlib.metadata.distribution("godlpack").metadata.get_all("Classifier") or []
    listed = [c.rsplit(" :: ", 1)[1] for c in classifiers if c.startswith("Programming Language :: Python :: 3.")]
    assert listed == wheels, (listed, wheels)
    # The oldest and the newest are tested, and every tested version gets a wheel.
    assert set(tested) <= set(wheels) and {wheels[0], wheels[-1]} <= set(tested), (tested, wheels)
