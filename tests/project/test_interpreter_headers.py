"""A build for an interpreter compiles against that interpreter's own headers, never another Python's.

godlpack._headers decides the directories (sysconfig's include and platinclude, and the directory a Debian-built
pyconfig.h includes its multiarch copy from); godlpack's Go packages take them from CGO_CFLAGS alone and ask
pkg-config for nothing, since a relocated interpreter's LIBPC names the system's python3.pc, another Python's
headers (an extension built so for CPython 3.15 failed to import: `undefined symbol: _PyThreadState_UncheckedGet`).
Every Go build of these tests has a decoy python3.pc first on PKG_CONFIG_PATH (tests/support/go_examples.py), whose
Python.h stops the compiler; godlpack.build gives an author's source that still asks pkg-config a python3.pc of
this interpreter's own. tests/packaging/test_headers.py holds pip's and the Makefile's builds to the same, for two
interpreters one after the other.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from child_env import child_env
from go_examples import DECOY_PKG_CONFIG, go_command, go_env
from godlpack._headers import include_dirs, include_flags
from godlpack.build import go_build_env

# An extension module whose Go package asks pkg-config for python3, as the README's example once did: it
# reports the PY_VERSION_HEX of the headers it was compiled against.
PROBE_GO = """\
package main

// #cgo pkg-config: python3
// #include <Python.h>
import "C"

func main() {}
"""
PROBE_C = """\
#include <Python.h>

static struct PyModuleDef probe = {PyModuleDef_HEAD_INIT, "probe", NULL, -1, NULL};

PyMODINIT_FUNC PyInit_probe(void) {
	PyObject *m = PyModule_Create(&probe);
	if (m != NULL && PyModule_AddIntConstant(m, "hexversion", PY_VERSION_HEX) < 0)
		Py_CLEAR(m);
	return m;
}
"""


def compiler() -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler")
    return cc


def probe_module(where: Path) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "go.mod").write_text("module probe\n\ngo 1.24\n")
    (where / "main.go").write_text(PROBE_GO)
    (where / "probe.c").write_text(PROBE_C)
    return where


def go_build_probe(where: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    target = where / f"probe{sysconfig.get_config_var('EXT_SUFFIX')}"
    return subprocess.run([go_command(), "build", "-buildmode=c-shared", "-o", str(target), "."], cwd=where, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_directories_compile_this_interpreters_python_h(tmp_path: Path) -> None:
    dirs = include_dirs()
    assert (Path(dirs[0]) / "Python.h").is_file(), dirs
    assert all(Path(d).is_absolute() for d in dirs) and len(set(dirs)) == len(dirs), dirs
    src = tmp_path / "version.c"
    src.write_text(textwrap.dedent(f"""\
        #include <Python.h>
        #if PY_VERSION_HEX != {sys.hexversion:#x}
        #error "these headers are not those of the running interpreter"
        #endif
        """))
    r = subprocess.run([compiler(), "-fsyntax-only", *include_flags(), str(src)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr


def test_godlpack_build_prints_the_flags() -> None:
    """`python -m godlpack.build --cflags`, the command docs/go-extensions.md gives a Go author for a build."""
    r = subprocess.run([sys.executable, "-m", "godlpack.build", "--cflags"], capture_output=True, text=True,
                       timeout=120, env=child_env())
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert shlex.split(r.stdout) == include_flags()
    r = subprocess.run([sys.executable, "-m", "godlpack.build"], capture_output=True, text=True, timeout=120,
                       env=child_env())
    assert r.returncode == 2 and "usage: python -m godlpack.build --cflags" in r.stderr


def test_the_decoy_stops_a_build_that_asks_pkg_config(tmp_path: Path) -> None:
    """The tests' Go builds would fail if a package asked pkg-config for Python's headers: their guard works."""
    env = go_env()
    assert env["PKG_CONFIG_PATH"].split(os.pathsep)[0] == str(DECOY_PKG_CONFIG)
    r = go_build_probe(probe_module(tmp_path / "probe"), env)
    assert r.returncode != 0 and "another Python's Python.h" in r.stderr, r.stderr


@pytest.mark.parametrize("other", ["decoy", "libpc"])
def test_godlpack_build_gives_pkg_config_this_interpreters_headers(
    other: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another Python's python3.pc on PKG_CONFIG_PATH (the decoy, or what LIBPC names: for a relocated
    interpreter, the system Python's) does not reach a build by godlpack.build, nor does another's CGO_CFLAGS."""
    pc = str(DECOY_PKG_CONFIG) if other == "decoy" else sysconfig.get_config_var("LIBPC")
    if not pc:
        pytest.skip("this interpreter names no LIBPC")
    monkeypatch.setenv("PKG_CONFIG_PATH", pc)
    monkeypatch.setenv("CGO_CFLAGS", f"-I{DECOY_PKG_CONFIG / 'include'} -O2")
    where = probe_module(tmp_path / "probe")
    env = go_build_env(tmp_path / "temp")
    assert env["CGO_CFLAGS"].startswith(" ".join(include_flags())) and "decoy" not in env["CGO_CFLAGS"]
    r = go_build_probe(where, env)
    assert r.returncode == 0, r.stderr
    got = subprocess.run([sys.executable, "-c", "import probe; print(probe.hexversion)"], env=child_env(where),
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert int(got.stdout) == sys.hexversion
