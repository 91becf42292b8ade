"""Build godlpack: the extension module godlpack._core is a Go c-shared library."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# Go's own default for CGO_CFLAGS, used when the caller sets none: optimised C, with debug info
# (which the default link flags below strip again).
GO_DEFAULT_CFLAGS = "-O2 -g"
# -s -w: no symbol table and no DWARF in the extension (a third of its size). Set GODLPACK_GO_LDFLAGS
# to "" to keep them, for a debugger or to see which headers went into a build.
DEFAULT_LDFLAGS = "-s -w"


def python_include_dirs() -> list[str]:
    """The directories holding Python.h and pyconfig.h of the interpreter running this build."""
    paths = sysconfig.get_paths()
    dirs = [paths["include"]]
    if paths.get("platinclude") and paths["platinclude"] != paths["include"]:
        dirs.append(paths["platinclude"])
    if not (Path(dirs[0]) / "Python.h").is_file():
        raise SystemExit(
            f"error: building godlpack needs the C headers of this Python ({sysconfig.get_python_version()}), "
            f"and {dirs[0]}/Python.h does not exist. Install the interpreter's development headers "
            "(for example python3-dev), then run pip again."
        )
    return dirs


def python_headers_flag(flag: str) -> bool:
    """Whether flag is -I of a directory holding a Python.h."""
    return flag.startswith("-I") and (Path(flag[2:]) / "Python.h").is_file()


def go_build_env(temp: Path) -> dict[str, str]:
    """The environment for `go build` of a cgo package that includes Python.h.

    Go's build cache keys a cgo package on CGO_CFLAGS but not on what pkg-config answers, so the
    interpreter's include directory goes into CGO_CFLAGS: a build for another Python is a cache miss,
    never the objects of the previous one. pkg-config (`#cgo pkg-config: python3` in the sources) is
    given a python3.pc naming the same directories, written here, so that it cannot pick another
    Python's headers (the system's, when the interpreter ships no usable python3.pc); its flags come
    before CGO_CFLAGS on the compiler's command line.
    """
    includes = python_include_dirs()
    ours = [f"-I{d}" for d in includes]
    # A .pc file separates flags by spaces, so a space inside a path is escaped.
    pc_flags = " ".join("-I" + d.replace(" ", "\\ ") for d in includes)
    pcdir = temp / "pkgconfig"
    pcdir.mkdir(parents=True, exist_ok=True)
    (pcdir / "python3.pc").write_text(
        "Name: Python\n"
        "Description: the headers of the Python building godlpack\n"
        f"Version: {sysconfig.get_python_version()}\n"
        f"Cflags: {pc_flags}\n"
        "Libs:\n"
    )
    env = dict(os.environ)
    env["CGO_ENABLED"] = "1"
    # The caller's C flags are kept (Go's default if none), less any -I of a Python's headers (ours come
    # first; another Python's, say from a Makefile run for another interpreter, would only confuse).
    theirs = shlex.split(env.get("CGO_CFLAGS") or GO_DEFAULT_CFLAGS)
    theirs = [f for f in theirs if f not in ours and not python_headers_flag(f)]
    env["CGO_CFLAGS"] = shlex.join(ours + theirs)
    env["PKG_CONFIG_PATH"] = os.pathsep.join(p for p in (str(pcdir), env.get("PKG_CONFIG_PATH")) if p)
    return env


class GoExtension(Extension):
    """An extension built by `go build -buildmode=c-shared` from a Go package."""

    def __init__(self, name: str, package: str) -> None:
        super().__init__(name, sources=[])
        self.package = package


class BuildGo(build_ext):
    """build_ext for GoExtension: the interpreter running the build gives the headers."""

    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, GoExtension):
            super().build_extension(ext)
            return
        go = shutil.which("go")
        if go is None:
            raise SystemExit(
                "error: building godlpack needs the Go toolchain (1.24 or newer) on PATH, "
                "and no `go` command was found. Install Go, then run pip again, "
                "or install a godlpack wheel, which needs no Go."
            )
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        env = go_build_env(Path(self.build_temp).resolve())
        ldflags = os.environ.get("GODLPACK_GO_LDFLAGS", DEFAULT_LDFLAGS)
        cmd = [go, "build", "-buildmode=c-shared", "-trimpath", f"-ldflags={ldflags}", "-o", str(target), ext.package]
        print(f"CGO_CFLAGS={shlex.quote(env['CGO_CFLAGS'])} {shlex.join(cmd)}", flush=True)
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
