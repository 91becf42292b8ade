"""Go extension modules built from this repository's packages for the running interpreter, at test time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def build_go_extension(package: str, name: str, out: Path) -> Path:
    """The Go extension module name, built from package (./examples/normalize) for this interpreter into out.

    Skips the test without Go.
    """
    go = shutil.which("go")
    if go is None:
        pytest.skip(f"needs the Go toolchain to build {package}")
    env = dict(os.environ, CGO_ENABLED="1", PKG_CONFIG_PATH=sysconfig.get_config_var("LIBPC") or "",
               CGO_CFLAGS=f"-O2 -I{sysconfig.get_paths()['include']}")
    target = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run([go, "build", "-buildmode=c-shared", "-o", str(target), package], cwd=ROOT, env=env, check=True,
                   timeout=600)
    return out


def build_normalize(out: Path) -> Path:
    """examples/normalize built for this interpreter into out (skips the test without Go)."""
    return build_go_extension("./examples/normalize", "normalize", out)
