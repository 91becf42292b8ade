"""Every build compiles against the headers of the interpreter it is for.

Go's build cache keys a cgo package on CGO_CFLAGS, not on PKG_CONFIG_PATH: before the include directory
went into CGO_CFLAGS, a build for CPython 3.12 after one for 3.11 reused the 3.11 objects (the .so was
byte-identical and named include/python3.11). Here both build paths, pip's (setup.py) and the Makefile's,
build for 3.11 and 3.12 one after the other, with DWARF kept so that the headers each used can be read,
and in an environment that still points at the other interpreter (as `make` leaves it for its children).
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

from packaging_support import (
    DIST,
    PYTHONS,
    ROOT,
    clean_env,
    debug_strings,
    ext_suffix,
    find_python,
    include_dir,
    make_venv,
    missing,
    round_trip,
    run,
    setuptools_floor,
    version,
)

# The first two versions tested (3.11 and 3.12); `make test PYTHONS=3.11` leaves nothing to compare.
VERSIONS = PYTHONS[:2]


class Venv(NamedTuple):
    python: Path
    include: str


@pytest.fixture(scope="module")
def venvs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Venv]:
    """For each version, a venv with NumPy and the oldest setuptools pyproject.toml allows."""
    if len(VERSIONS) < 2:
        pytest.skip(f"two CPython versions are needed, and only {VERSIONS} are tested")
    out = {}
    for ver in VERSIONS:
        py = make_venv(find_python(ver), tmp_path_factory.mktemp(f"venv{ver}"), "numpy", f"setuptools=={setuptools_floor()}")
        out[ver] = Venv(py, include_dir(py))
    assert out[VERSIONS[0]].include != out[VERSIONS[1]].include
    return out


def other(ver: str) -> str:
    return next(v for v in VERSIONS if v != ver)


def misleading_env(venvs: dict[str, Venv], ver: str) -> dict[str, str]:
    """An environment whose CGO_CFLAGS and PKG_CONFIG_PATH name the other interpreter's headers.

    First on PKG_CONFIG_PATH, the tests' decoy python3.pc, whose Python.h stops the compiler: no build may
    take Python's headers from pkg-config.
    """
    o = venvs[other(ver)].python
    libpc = run([o, "-c", "import sysconfig; print(sysconfig.get_config_var('LIBPC'))"]).stdout.strip()
    decoy = ROOT / "tests" / "support" / "decoy_pkgconfig"
    return clean_env(CGO_CFLAGS=f"-I{venvs[other(ver)].include} -O2 -g", PKG_CONFIG_PATH=f"{decoy}:{libpc}")


def check_headers(so: Path, own: str, others: str) -> None:
    dwarf = debug_strings(so)
    assert own.encode() in dwarf, f"{so.name}: DWARF does not name {own}; cannot tell which headers it used"
    assert others.encode() not in dwarf, f"{so.name} was compiled against {others}"


def test_pip_builds_differ_and_each_works_in_its_interpreter(venvs: dict[str, Venv], tmp_path: Path) -> None:
    sdist = DIST / f"godlpack-{version()}.tar.gz"
    if not sdist.exists():
        missing(f"no sdist {sdist}")
    # Both builds from one directory, as `pip install .` in a checkout: built from a fresh temporary
    # directory each time (as pip builds an sdist), the cgo flags would differ by ${SRCDIR} and hide the bug.
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    src = tmp_path / f"godlpack-{version()}"
    built = {}
    for ver in VERSIONS:  # 3.11 first, then 3.12: the order that reused 3.11's objects
        v = venvs[ver]
        env = misleading_env(venvs, ver) | {"GODLPACK_GO_LDFLAGS": ""}  # keep DWARF
        run([v.python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", tmp_path / ver, src], env=env)
        (whl,) = (tmp_path / ver).glob("godlpack-*.whl")
        with zipfile.ZipFile(whl) as z:
            (so,) = [n for n in z.namelist() if n.startswith("godlpack/_core.") and n.endswith(".so")]
            assert so.endswith(ext_suffix(v.python)), so
            built[ver] = Path(z.extract(so, tmp_path / f"so{ver}"))
        run([v.python, "-m", "pip", "install", "--quiet", "--no-deps", whl], env=clean_env())
        got = round_trip(v.python)
        assert got["python"] == ver and Path(got["core"]).name == Path(so).name
    assert built[VERSIONS[0]].read_bytes() != built[VERSIONS[1]].read_bytes()
    for ver in VERSIONS:
        check_headers(built[ver], venvs[ver].include, venvs[other(ver)].include)


def test_make_builds_differ_and_each_works_in_its_interpreter(venvs: dict[str, Venv], tmp_path: Path) -> None:
    if shutil.which("make") is None:
        missing("no make on PATH")
    built = {}
    for ver in VERSIONS:
        v = venvs[ver]
        pkg = tmp_path / ver / "godlpack"
        # The Makefile's in-place build, into a directory of its own; the venv's python is PYTHON.
        run(["make", "-C", ROOT, "--no-print-directory", "build", f"PYTHON={v.python}", f"CORE_DIR={pkg}"], env=misleading_env(venvs, ver))
        for f in (ROOT / "python/godlpack").iterdir():
            if f.suffix in (".py", ".pyi") or f.name == "py.typed":
                shutil.copy(f, pkg)
        (so,) = pkg.glob("_core.*.so")
        assert so.name == "_core" + ext_suffix(v.python)
        assert not list(pkg.glob("_core*.h")), "the c-shared header was left behind"
        built[ver] = so
        got = round_trip(v.python, env=clean_env(PYTHONPATH=str(pkg.parent)))
        assert Path(got["core"]) == so, got
    assert built[VERSIONS[0]].read_bytes() != built[VERSIONS[1]].read_bytes()
    for ver in VERSIONS:
        check_headers(built[ver], venvs[ver].include, venvs[other(ver)].include)
