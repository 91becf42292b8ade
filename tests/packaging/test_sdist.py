"""The sdist holds the whole Go module (less the fuzz corpora) and builds with Go.

`make wheel` builds its wheel from this sdist, so the sdist's pip build is proven there and the wheel
tests check its result; here, its contents and `go build ./...` in it, as a Go user would run it.
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

from packaging_support import DIST, ROOT, missing, run, version


def go_module_files() -> set[str]:
    """Every file of every package of the module in this tree, build-tagged and test files included."""
    out = run(["go", "list", "-json", "./..."], cwd=ROOT).stdout
    files = {"go.mod"}
    for pkg in json.loads("[" + out.replace("}\n{", "},\n{") + "]"):
        rel = Path(pkg["Dir"]).relative_to(ROOT)
        for key in ("GoFiles", "CgoFiles", "CFiles", "HFiles", "TestGoFiles", "XTestGoFiles", "IgnoredGoFiles"):
            files.update(str(rel / f) for f in pkg.get(key, []))
    return files


def test_sdist_holds_the_go_module_and_builds(tmp_path: Path) -> None:
    sdist = DIST / f"godlpack-{version()}.tar.gz"
    if not sdist.exists():
        missing(f"no sdist {sdist}")
    top = f"godlpack-{version()}/"
    with tarfile.open(sdist) as tar:
        names = {n.removeprefix(top) for n in tar.getnames()}
        tar.extractall(tmp_path, filter="data")
    want = go_module_files()
    assert len(want) > 40 and "pyext/main.go" in want and "capsule/capsule.h" in want, sorted(want)
    assert not want - names, f"missing from the sdist: {sorted(want - names)}"
    assert {"LICENSE", "README.md", "pyproject.toml", "setup.py", "python/godlpack/_version.py"} <= names
    assert not [n for n in names if "/testdata/" in n or n.endswith("/testdata")], "fuzz corpora in the sdist"
    # A Go user's build of every package, with this interpreter's headers (the Makefile exports them).
    run(["go", "build", "-trimpath", "./..."], cwd=tmp_path / top)
