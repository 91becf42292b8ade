"""What the packaging tests share: the interpreters, the built artefacts, fresh venvs and ELF reading.

These tests build and install godlpack in subprocesses (pip, go, make) and never import a second
godlpack into the test process. `make packaging-test` builds the wheels and the sdist they check first.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
# The versions CI tests: the Makefile's PYTHONS, which `make packaging-test` passes on.
PYTHONS = tuple(os.environ.get("GODLPACK_PYTHONS", "3.11 3.12 3.13 3.14 3.15").split())
# Set by `make packaging-test`: the artefacts must then exist, and a missing one is a failure.
REQUIRED = os.environ.get("GODLPACK_PACKAGING_TEST") == "1"


def version() -> str:
    """godlpack's version, from the one file that states it."""
    m = re.search(r'^__version__ = "([^"]+)"$', (ROOT / "python/godlpack/_version.py").read_text(), re.M)
    assert m, "python/godlpack/_version.py states no __version__"
    return m.group(1)


def setuptools_floor() -> str:
    """The lowest setuptools that pyproject.toml's build-system accepts (setuptools>=X)."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    floors = [m.group(1) for r in requires if (m := re.fullmatch(r"setuptools>=([0-9.]+)", r))]
    assert len(floors) == 1, f"build-system.requires names no setuptools floor: {requires}"
    return floors[0]


def demo_requirements() -> list[str]:
    """What `make demo` installs beside godlpack: pyproject.toml's demo extra."""
    return list(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["demo"])


def missing(what: str) -> None:
    """Skip, or fail under `make packaging-test`, for want of a built artefact or an interpreter."""
    if REQUIRED:
        pytest.fail(what)
    pytest.skip(f"{what} (make packaging-test builds what these tests need)")


def find_python(ver: str) -> Path:
    """CPython ver, found as the Makefile finds it."""
    r = subprocess.run([ROOT / "tools/find-python", ver], capture_output=True, text=True)
    if r.returncode != 0:
        missing(r.stderr.strip())
    return Path(r.stdout.strip())


def run(cmd: list[Any], **kw: Any) -> subprocess.CompletedProcess[str]:
    """Run cmd; a failure shows its output."""
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def clean_env(**extra: str) -> dict[str, str]:
    """The environment less what a venv or make put there (so that a subprocess's own venv rules)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(extra)
    return env


def make_venv(base: Path, where: Path, *packages: str, env: dict[str, str] | None = None) -> Path:
    """A fresh venv of the interpreter base at where, with packages installed from wheels; its python."""
    run([base, "-m", "venv", where], env=env or clean_env())
    py = where / "bin" / "python"
    if packages:
        run([py, "-m", "pip", "install", "--quiet", "--only-binary=:all:", *packages], env=env or clean_env())
    return py


def ext_suffix(py: Path) -> str:
    return run([py, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"]).stdout.strip()


def include_dir(py: Path) -> str:
    return run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"]).stdout.strip()


# Run by an interpreter with godlpack and NumPy installed: a zero-copy round trip, reported as JSON.
ROUND_TRIP = """
import json, sys
import numpy as np
import godlpack

a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
t = godlpack.from_dlpack(a)
b = np.from_dlpack(t)
b[1, 1] = 42.0
g = np.from_dlpack(godlpack.arange(5, dtype="int64"))
print(json.dumps({
    "core": godlpack._core.__file__,
    "version": godlpack.__version__,
    "python": "%d.%d" % sys.version_info[:2],
    "shared": t.data_ptr() == a.ctypes.data == b.ctypes.data,
    "seen": float(a[1, 1]),
    "strides": list(t.strides),
    "go_made": g.tolist(),
}))
"""


def round_trip(py: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ROUND_TRIP with py and check what it saw; its report."""
    r = run([py, "-c", ROUND_TRIP], env=env or clean_env(), cwd="/")
    got = json.loads(r.stdout)
    assert got["shared"] and got["seen"] == 42.0 and got["strides"] == [4, 2], got
    assert got["go_made"] == [0, 1, 2, 3, 4], got
    return got


def debug_strings(so: Path) -> bytes:
    """The DWARF sections of an ELF file, decompressed and joined (empty when stripped)."""
    from elftools.elf.elffile import ELFFile  # pyelftools comes with auditwheel, which `make wheel` installs

    with so.open("rb") as f:
        elf = ELFFile(f)
        return b"".join(s.data() for s in elf.iter_sections() if s.name.startswith(".debug_"))


def section_names(so: Path) -> set[str]:
    from elftools.elf.elffile import ELFFile

    with so.open("rb") as f:
        return {s.name for s in ELFFile(f).iter_sections()}


def this_python() -> str:
    return "%d.%d" % sys.version_info[:2]


def checkout_files() -> list[str]:
    """The checkout's files as a clone of it would have them: those git tracks or would add (ignored ones left
    out), as they are in the working tree."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        missing("not a git checkout")
    files = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout.splitlines()
    return [f for f in dict.fromkeys(files) if (ROOT / f).is_file()]  # a file being moved is in the index only


def copy_checkout(dest: Path) -> list[str]:
    """A copy of checkout_files() at dest, as a fresh clone has them; their paths."""
    files = checkout_files()
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    return files


def lend(requirements: list[str], venv: Path, lent: Path) -> None:
    """Make what requirements need, as the interpreter running the tests has it installed, part of venv: links to
    each distribution's files in the folder lent, outside venv, which a .pth file of venv names (after venv's own
    site-packages).

    A venv like `make demo`'s without downloading PyTorch again. pip in venv sees the lent distributions as
    installed, but outside its environment, so it never uninstalls them (nor the files they link to).
    """
    from packaging.requirements import Requirement  # pytest's own dependency

    assert not lent.resolve().is_relative_to(venv.resolve()), f"{lent} is inside {venv}"
    lent.mkdir()
    todo: list[tuple[Requirement, tuple[str, ...]]] = [(Requirement(r), ("",)) for r in requirements]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    while todo:
        req, extras = todo.pop()
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in extras):
            continue
        try:
            dist = importlib.metadata.distribution(req.name)
        except importlib.metadata.PackageNotFoundError:
            missing(f"{sys.executable} has no {req.name} to lend (make test installs the test extras)")
        key = (dist.metadata["Name"], tuple(sorted(req.extras)))
        if key in seen:
            continue
        seen.add(key)
        for top in {Path(f).parts[0] for f in dist.files or [] if Path(f).parts[0] != ".."}:
            if not (lent / top).exists():
                (lent / top).symlink_to(Path(str(dist.locate_file(top))))
        todo += [(Requirement(r), ("", *req.extras)) for r in dist.requires or []]
    (site_packages(venv) / "lent.pth").write_text(f"{lent}\n")


def site_packages(venv: Path) -> Path:
    """The site-packages folder of venv."""
    (found,) = venv.glob("lib/python3.*/site-packages")
    return found
