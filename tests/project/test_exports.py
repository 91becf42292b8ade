"""The shipped extensions export only their PyInit_ function.

Package capsule links every extension built on it (godlpack._core, examples/normalize) with cpython/exports.so,
a linker script that keeps every other symbol local: our C (gdl_…), cgo's wrappers (_cgo_…, _cgoexp_…) and the
Go runtime's entry points (crosscall2, x_crosscall2_ptr). Nothing is left that the toolchain cannot hide.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import godlpack
from go_examples import build_normalize


def exported(library: Path) -> list[str]:
    """The names `nm -D --defined-only` lists for library: what a dlsym or another library can reach."""
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("needs nm (binutils)")
    out = subprocess.run([nm, "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True)
    return sorted(line.split()[-1] for line in out.stdout.splitlines() if line.strip())


def test_core_exports_only_its_init() -> None:
    assert exported(Path(godlpack._core.__file__)) == ["PyInit__core"]


def test_an_extension_built_on_capsule_exports_only_its_init(tmp_path: Path) -> None:
    [library] = build_normalize(tmp_path).glob("normalize*.so")
    assert exported(library) == ["PyInit_normalize"]
