"""MANIFEST.in names every Go, C and header file of the module, and no pattern that matches nothing.

A pattern that matches nothing makes every sdist build print a warning; a kind of file missing from a line would
leave the sdist unbuildable. Both are checked against git's list of tracked files, without building anything.
"""

from __future__ import annotations

import fnmatch
import subprocess
from pathlib import Path

import pytest

from repository import ROOT

SOURCE_KINDS = ("*.go", "*.c", "*.h")


def tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return out.split()


def includes() -> dict[str, list[str]]:
    lines = (ROOT / "MANIFEST.in").read_text().splitlines()
    return {words[1]: words[2:] for words in (line.split() for line in lines) if words[:1] == ["recursive-include"]}


def test_every_pattern_matches_a_file() -> None:
    files = tracked()
    for directory, patterns in includes().items():
        under = [Path(f).name for f in files if f.startswith(directory + "/") and "/testdata/" not in f]
        for pattern in patterns:
            assert fnmatch.filter(under, pattern), f"MANIFEST.in: {pattern!r} under {directory} matches no file"


def test_every_source_file_of_a_directory_is_included() -> None:
    files = tracked()
    for directory, patterns in includes().items():
        for f in files:
            if f.startswith(directory + "/") and "/testdata/" not in f and f.endswith((".go", ".c", ".h")):
                name = Path(f).name
                assert any(fnmatch.fnmatch(name, p) for p in patterns), f"MANIFEST.in leaves out {f}"
    # Every directory of Go packages has a line.
    go_dirs = {f.split("/")[0] for f in files if f.endswith(".go") and "/" in f and not f.startswith("tests/")}
    assert go_dirs <= set(includes()), f"MANIFEST.in has no line for {sorted(go_dirs - set(includes()))}"
