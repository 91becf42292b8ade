"""`make clean` removes what builds leave and nothing tracked; .gitignore hides the same things."""

from __future__ import annotations

import subprocess
from pathlib import Path

from packaging_support import ROOT, checkout_files, clean_env, copy_checkout, run

# What builds leave: setup.py's and the Makefile's outputs, pip's metadata, the in-place extension of
# `pip install -e .` / `make build`, and the C headers that c-shared builds write beside their libraries.
LEFT_BY_BUILDS = [
    "build/lib.linux-x86_64-cpython-311/godlpack/_core.cpython-311-x86_64-linux-gnu.so",
    "dist/godlpack-0.1.0.tar.gz",
    "python/godlpack.egg-info/PKG-INFO",
    "python/godlpack/_core.cpython-311-x86_64-linux-gnu.so",
    "python/godlpack/_core.cpython-311-x86_64-linux-gnu.h",
    "normalize",
    "normalize.h",
    "examples/normalize/godlpack_example_normalize.egg-info/PKG-INFO",
    "examples/normalize/build/lib.linux-x86_64-cpython-311/normalize.cpython-311-x86_64-linux-gnu.so",
    "examples/normalize/dist/godlpack_example_normalize-0.1.0.tar.gz",
    # auditwheel repair's default --wheel-dir
    "wheelhouse/godlpack_example_normalize-0.1.0-cp311-cp311-manylinux_2_34_x86_64.whl",
]
# What make distclean also removes: the venvs, and the interpreters tools/fetch-python unpacked.
VENVS = [".venv/pyvenv.cfg", ".venv-3.12/pyvenv.cfg", ".cpython/3.15/usr/bin/python3.15"]


def test_make_clean_removes_build_outputs_only(tmp_path: Path) -> None:
    files = copy_checkout(tmp_path)
    for f in LEFT_BY_BUILDS + VENVS:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("made by a build\n")
    run(["make", "-C", tmp_path, "--no-print-directory", "clean"], env=clean_env())
    assert not [f for f in LEFT_BY_BUILDS if (tmp_path / f).exists()]
    assert (tmp_path / "build").exists() is False and (tmp_path / "dist").exists() is False
    assert not [f for f in files if not (tmp_path / f).exists()], "make clean removed tracked files"
    assert all((tmp_path / f).exists() for f in VENVS), "make clean keeps the venvs and interpreters (make distclean removes them)"
    run(["make", "-C", tmp_path, "--no-print-directory", "distclean"], env=clean_env())
    assert not [f for f in VENVS if (tmp_path / f).exists()]
    assert not [f for f in files if not (tmp_path / f).exists()], "make distclean removed tracked files"


def test_gitignore_hides_build_outputs_and_venvs() -> None:
    checkout_files()  # a git checkout
    paths = LEFT_BY_BUILDS + VENVS + ["build/examples/normalize.cpython-311-x86_64-linux-gnu.h"]
    r = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    assert sorted(r.stdout.split()) == sorted(paths), r.stdout + r.stderr
