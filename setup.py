"""Build godlpack: the extension module godlpack._core is a Go c-shared library."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class GoExtension(Extension):
    """An extension built by `go build -buildmode=c-shared` from a Go package."""

    def __init__(self, name: str, package: str) -> None:
        super().__init__(name, sources=[])
        self.package = package


class BuildGo(build_ext):
    """build_ext for GoExtension: the interpreter running the build gives the include path."""

    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, GoExtension):
            super().build_extension(ext)
            return
        go = shutil.which("go")
        if go is None:
            raise SystemExit(
                "error: building godlpack needs the Go toolchain (1.24 or newer) on PATH, "
                "and no `go` command was found. Install Go, then run pip again."
            )
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["CGO_ENABLED"] = "1"
        # pkg-config must find this interpreter's python3.pc, not the system's.
        libpc = sysconfig.get_config_var("LIBPC")
        if libpc:
            env["PKG_CONFIG_PATH"] = os.pathsep.join(p for p in (libpc, env.get("PKG_CONFIG_PATH")) if p)
        cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-o", str(target), ext.package]
        print(" ".join(cmd), flush=True)
        try:
            subprocess.run(cmd, cwd=ROOT, env=env, check=True)
        except subprocess.CalledProcessError as e:
            raise SystemExit(f"error: `go build` of {ext.package} failed with exit status {e.returncode}") from None
        # c-shared also writes a C header for C callers; Python needs none.
        target.with_suffix(".h").unlink(missing_ok=True)


setup(
    ext_modules=[GoExtension("godlpack._core", "./pyext")],
    cmdclass={"build_ext": BuildGo},
)
