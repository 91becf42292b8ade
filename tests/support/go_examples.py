"""Building the Go extensions of the repository (examples/, test extensions) for the running interpreter."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from godlpack._headers import checkout_cflags
from repository import ROOT

# A python3.pc whose Python.h stops the compiler: another Python's, as pkg-config finds for a relocated
# interpreter. Every Go build of the tests has it first on PKG_CONFIG_PATH, so that each proves godlpack's
# packages take Python's headers from CGO_CFLAGS alone (docs/go-extensions.md, "Depend on godlpack from a Go module").
DECOY_PKG_CONFIG = Path(__file__).resolve().parent / "decoy_pkgconfig"


def go_cflags() -> str:
    """CGO_CFLAGS for this interpreter's headers and for the repository's C headers as they are now, as make's."""
    return shlex.join(checkout_cflags(ROOT))


def go_command(purpose: str = "") -> str:
    """The go command, or a skip of the test that needs it ("needs the Go toolchain" and the purpose, if any)."""
    go = shutil.which("go")
    if go is None:
        pytest.skip(" ".join(["needs the Go toolchain", purpose]).strip())
    return go


def go_env() -> dict[str, str]:
    """The environment of the tests' go commands: go_cflags(), and the decoy python3.pc first for pkg-config."""
    path = os.pathsep.join(p for p in (str(DECOY_PKG_CONFIG), os.environ.get("PKG_CONFIG_PATH")) if p)
    return dict(os.environ, CGO_ENABLED="1", PKG_CONFIG_PATH=path, CGO_CFLAGS=go_cflags())


def build_go_extension(package: str, name: str, out: Path, toolchain: str | None = None, tags: str = "") -> Path:
    """The Go extension module name, built from package (./testing/importtest) for this interpreter into out.

    A package whose directory holds a go.mod is a Go module of its own (examples/normalize) and is built there.
    The test skips without Go. toolchain (GOTOOLCHAIN, e.g. "go1.24.11") builds with that Go version, which the
    go command fetches from the module proxy; a toolchain it cannot fetch skips the test too. GODLPACK_ASAN=1 (make
    memcheck) builds it with AddressSanitizer. tags are Go build tags (godlpack_checkslices). Returns out.
    """
    go = go_command(f"to build {package}")
    env = go_env()
    if toolchain is not None:
        env["GOTOOLCHAIN"] = toolchain
        fetched = subprocess.run([go, "version"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if fetched.returncode != 0 or toolchain not in fetched.stdout:
            pytest.skip(f"cannot fetch Go toolchain {toolchain}: {fetched.stderr.strip()[-300:]}")
    target = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    here = ROOT / package
    cwd, package = (here, ".") if (here / "go.mod").exists() else (ROOT, package)
    # Under make memcheck the extensions are instrumented with AddressSanitizer too, as godlpack._core is.
    asan = ["-asan"] if os.environ.get("GODLPACK_ASAN") == "1" else []
    tagged = ["-tags", tags] if tags else []
    subprocess.run([go, "build", *asan, *tagged, "-buildmode=c-shared", "-o", str(target), package], cwd=cwd,
                   env=env, check=True, timeout=600)
    for header in out.glob(f"{name}*.h"):
        header.unlink()
    return out


def build_example(name: str, out: Path, toolchain: str | None = None) -> Path:
    """examples/<name> built for this interpreter into out, as build_go_extension builds it."""
    return build_go_extension(f"./examples/{name}", name, out, toolchain)


def build_normalize(out: Path) -> Path:
    """examples/normalize built for this interpreter into out (skips the test without Go)."""
    return build_example("normalize", out)
