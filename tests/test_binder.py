"""The binder (package pymodule) and the example extensions built on it, each in a process of its own.

Each extension carries its own Go runtime and must not share a process with godlpack._core, so each is
built for this interpreter and its own test file runs in a pytest subprocess: bindtest
(pymodule/internal/bindtest, every conversion, refusal and guarantee of the binder), examples/rowstats and
examples/normalize.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build(package: str, name: str, out: Path) -> Path:
    """./package built as the extension module name into out (skips the test without Go)."""
    go = shutil.which("go")
    if go is None:
        pytest.skip(f"needs the Go toolchain to build {package}")
    env = dict(os.environ, CGO_ENABLED="1", PKG_CONFIG_PATH=sysconfig.get_config_var("LIBPC") or "",
               CGO_CFLAGS=f"-O2 -I{sysconfig.get_paths()['include']}")
    target = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run([go, "build", "-buildmode=c-shared", "-o", str(target), f"./{package}"], cwd=ROOT, env=env,
                   check=True, timeout=900)
    return out


@pytest.mark.parametrize("package, name", [
    ("pymodule/internal/bindtest", "bindtest"),
    ("examples/rowstats", "rowstats"),
    ("examples/normalize", "normalize"),
])
def test_extension(package: str, name: str, tmp_path: Path) -> None:
    out = build(package, name, tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(out)] + sys.path))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / package)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
