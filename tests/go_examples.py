"""Building the Go extensions of examples/ for the running interpreter, as `make example-test` does."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build_example(name: str, out: Path, toolchain: str | None = None) -> Path:
    """examples/<name> built for this interpreter into out, named by its extension suffix; returns out.

    The test skips without Go. toolchain (GOTOOLCHAIN, e.g. "go1.24.11") builds with that Go version, which the
    go command fetches from the module proxy; a toolchain it cannot fetch skips the test too.
    """
    go = shutil.which("go")
    if go is None:
        pytest.skip(f"needs the Go toolchain to build examples/{name}")
    env = dict(os.environ, CGO_ENABLED="1", PKG_CONFIG_PATH=sysconfig.get_config_var("LIBPC") or "",
               CGO_CFLAGS=f"-O2 -I{sysconfig.get_paths()['include']}")
    if toolchain is not None:
        env["GOTOOLCHAIN"] = toolchain
        fetched = subprocess.run([go, "version"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if fetched.returncode != 0 or toolchain not in fetched.stdout:
            pytest.skip(f"cannot fetch Go toolchain {toolchain}: {fetched.stderr.strip()[-300:]}")
    target = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    # An example with a go.mod is a Go module (and Python project) of its own; others are packages of godlpack's.
    here = ROOT / "examples" / name
    cwd, package = (here, ".") if (here / "go.mod").exists() else (ROOT, f"./examples/{name}")
    subprocess.run([go, "build", "-buildmode=c-shared", "-o", str(target), package], cwd=cwd, env=env, check=True,
                   timeout=600)
    for header in out.glob(f"{name}*.h"):
        header.unlink()
    return out
