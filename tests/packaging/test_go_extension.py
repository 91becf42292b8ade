"""A Go author's extension, from `go build` to a wheel, with godlpack's build helper (godlpack.build).

examples/normalize is a Python project of its own (pyproject.toml, setup.py, go.mod pointing at this checkout
with a replace directive), as is any other example PROJECTS names. `python -m build` makes its sdist, which must
carry the Go module with github.com/godlpack/godlpack vendored, and from that sdist, unpacked away from the
checkout, a wheel; auditwheel gives it its manylinux tag; it installs without Go beside godlpack's own wheel, and
both work in one process. The sdist names no directory of the machine that made it, even where go.mod replaces
godlpack by an absolute path.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

from packaging_support import DIST, ROOT, clean_env, copy_checkout, make_venv, run, section_names, this_python
from test_wheel import TAG, wheel_for, without_go


class Project(NamedTuple):
    """A Go extension project of examples/: its sdist's base name, its module, a use of it (statements over
    `np` and `godlpack`) that checks its results and tensors passing to and from godlpack, and an expression over the
    module whose type its installed stub gives mypy, with what mypy must reveal."""

    dist: str
    module: str
    use: str
    typed: tuple[str, str]


# Another example project joins the test with one line here.
PROJECTS = {
    "normalize": Project("godlpack_example_normalize-0.1.0", "normalize",
                         "t = godlpack.arange(4, dtype='float32'); "
                         "mean, std = np.from_dlpack(godlpack.from_dlpack(normalize.normalize(t))).tolist(); "
                         "x = np.from_dlpack(t); "
                         "assert abs(mean - 1.5) < 1e-12 and abs(std - 1.25 ** 0.5) < 1e-9, (mean, std); "
                         "assert abs(float(x.sum())) < 1e-6 and x[0] < 0 < x[3], x",
                         ("normalize.normalize", "def (x: normalize.SupportsDLPack) -> normalize.Tensor")),
    "rowstats": Project("godlpack_example_rowstats-0.1.0", "rowstats",
                        "x = np.arange(6, dtype=np.float32).reshape(2, 3); "
                        "n = np.from_dlpack(rowstats.row_norms(godlpack.from_dlpack(x))); "
                        "assert np.allclose(n, np.linalg.norm(x, axis=1)), n; "
                        "assert rowstats.clip_(x, 1, 4) == (1, 1) and x.min() == 1 and x.max() == 4, x",
                        ("rowstats.clip_", "def (rowstats.SupportsDLPack, lo: float =, hi: float =) -> tuple[int, int]")),
}

# Run where both wheels are installed: the two Go runtimes in one process, in the order given, and the SIGURG
# rendezvous they share; prints where the module was found.
TOGETHER = """
import importlib, sys
import numpy as np
first, second, use = sys.argv[1:]
for name in (first, second):
    globals()[name] = importlib.import_module(name)
exec(use)
assert type(sys._godlpack_go_runtimes).__name__ == "PyCapsule"
print(sys.modules[first if first != "godlpack" else second].__file__)
"""


def wheel_from_sdist(project: Path, out: Path, dist: str) -> tuple[Path, Path]:
    """The sdist of project and the manylinux wheel built from it, by `python -m build` and auditwheel into out; the
    build environment gets godlpack (for its build helper) from dist/."""
    run([sys.executable, "-m", "build", "--outdir", out, project], env=clean_env(PIP_FIND_LINKS=str(DIST)), cwd=ROOT)
    (built,) = out.glob(f"{dist}-cp{this_python().replace('.', '')}-*.whl")
    run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", out / "repaired", built],
        env=clean_env(PATH=f"{Path(sys.executable).parent}:{clean_env()['PATH']}"))
    (wheel,) = (out / "repaired").glob("*.whl")
    return out / f"{dist}.tar.gz", wheel


def works_beside_godlpack(wheel: Path, name: str, where: Path) -> None:
    """wheel, the example project name's, installs into a fresh venv at where without Go beside godlpack's own
    wheel, and both work in one process, imported in either order."""
    env = without_go()
    py = make_venv(Path(sys.executable).resolve(), where, env=env)
    run([py, "-m", "pip", "install", "--quiet", "--only-binary=:all:", wheel_for(this_python()), wheel, "numpy"],
        env=env)
    module, use = PROJECTS[name].module, PROJECTS[name].use
    for order in (["godlpack", module], [module, "godlpack"]):
        found = run([py, "-c", TOGETHER, *order, use], env=env, cwd="/").stdout.strip()
        assert Path(found).is_relative_to(where), found
    # The wheel carries its types (PEP 561): mypy, pointed at the venv's interpreter, reads the installed stub.
    expression, revealed = PROJECTS[name].typed
    done = subprocess.run([sys.executable, "-m", "mypy", "--python-executable", str(py), "--no-incremental", "-c",
                           f"import {module}\nreveal_type({expression})"], capture_output=True, text=True, cwd=where)
    assert f'Revealed type is "{revealed}"' in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("name", PROJECTS)
def test_go_extension_project_to_a_wheel_beside_godlpack(name: str, tmp_path: Path) -> None:
    dist, module = PROJECTS[name].dist, PROJECTS[name].module
    ver = this_python()
    wheel_for(ver)  # godlpack's own wheel, which the build takes from dist/, is there
    sdist, wheel = wheel_from_sdist(ROOT / "examples" / name, tmp_path / "dist", dist)

    with tarfile.open(sdist) as tar:
        names = {n.removeprefix(f"{dist}/") for n in tar.getnames()}
    assert {"go.mod", "main.go", "pyproject.toml", "setup.py", "vendor/modules.txt"} <= names, sorted(names)
    vendored = "vendor/github.com/godlpack/godlpack/"
    assert {vendored + f for f in ("LICENSE", "cpython/runtime.c", "capsule/capsule.h", "cpython/exports.so",
                                   "pymodule/doc.go", "dlpack/dlpack.h")} <= names, sorted(names)
    # No built extension nor its C header (cpython/exports.so in vendor/ is a linker script the build needs).
    assert not [n for n in names if n.endswith((".so", ".whl")) and not n.startswith("vendor/")
                or re.fullmatch(rf"{module}.*\.h", n)], sorted(names)

    assert TAG.search(wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as z:
        # Files only: auditwheel's repair writes the package's folder as an entry of its own.
        files = {n for n in z.namelist() if not n.startswith(f"{dist}.dist-info/") and not n.endswith("/")}
        # The extension is its package's __init__, with the stub and the PEP 561 marker: nothing else (no stray C
        # header, no module of the project's folder).
        so = f"{module}/__init__.cpython-{ver.replace('.', '')}-x86_64-linux-gnu.so"
        assert files == {so, f"{module}/__init__.pyi", f"{module}/py.typed"}, files
        assert z.read(f"{module}/__init__.pyi") == (ROOT / "examples" / name / f"{module}.pyi").read_bytes()
        z.extract(so, tmp_path)
    sections = section_names(tmp_path / so)
    assert ".symtab" not in sections and not {s for s in sections if s.startswith(".debug")}, sorted(sections)
    works_beside_godlpack(wheel, name, tmp_path / "venv")


def test_sdist_holds_no_path_of_the_machine_that_built_it(tmp_path: Path) -> None:
    """An author's project and godlpack checkout lie in a folder whose path is odd (spaces), and go.mod replaces
    godlpack by the checkout's absolute path, as `go mod edit -replace` writes it: no file of the sdist names that
    folder or this checkout, and the sdist still builds offline from its vendored modules, with Go and into a wheel
    that works."""
    odd = tmp_path / "Odd Place zq7X"
    project, checkout, dist = odd / "my project" / "normalize", odd / "god lpack", PROJECTS["normalize"].dist
    copy_checkout(checkout)
    shutil.copytree(checkout / "examples" / "normalize", project)
    run(["go", "mod", "edit", f"-replace=github.com/godlpack/godlpack={checkout}"], cwd=project)
    assert str(checkout) in (project / "go.mod").read_text()
    wheel_for(this_python())
    sdist, wheel = wheel_from_sdist(project, tmp_path / "dist", dist)

    paths = [str(p).encode() for p in (ROOT, odd)]
    with tarfile.open(sdist) as tar:
        members = {m.name: tar.extractfile(m) for m in tar.getmembers() if m.isfile()}
        texts = {name: name.encode() + b"\n" + f.read() for name, f in members.items() if f is not None}
        leaks = [name for name, text in texts.items() for p in paths if p in text]
        assert leaks == [], f"the sdist names {paths}: {leaks}"
        assert f"{dist}/vendor/modules.txt" in texts, sorted(texts)
        tar.extractall(tmp_path / "unpacked", filter="data")
    # Go's own build, offline and from vendor/ alone (its check of go.mod against vendor/modules.txt included).
    flags = run([sys.executable, ROOT / "python/godlpack/_headers.py"]).stdout.strip()
    env = clean_env(CGO_CFLAGS=f"{flags} -O2 -g", CGO_ENABLED="1", GOFLAGS="-mod=vendor", GOPROXY="off")
    run(["go", "build", "-buildmode=c-shared", "-o", tmp_path / "normalize.so", "."],
        cwd=tmp_path / "unpacked" / dist, env=env)
    works_beside_godlpack(wheel, "normalize", tmp_path / "venv")
