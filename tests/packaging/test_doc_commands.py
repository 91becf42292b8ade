"""The commands of docs/go-extensions.md, run as written: each ```sh block of its sections "Write an extension" and
"Ship your Go extension as a wheel", in `bash -euo pipefail` from the root of a copy of the checkout.

The document's premise is a clone after `make demo`: .venv holds godlpack, NumPy and PyTorch. The copy gets such a
.venv: godlpack's own wheel from dist/ (which `make wheel` builds from these files, as `make demo` installs them)
and the distributions of godlpack's demo extra lent by the interpreter running the tests, rather than a download
of PyTorch. The commands run with Go on PATH and neither a venv activated nor the Makefile's CGO_CFLAGS, as in a
reader's shell; what they leave must be files that git ignores, and the wheel they ship must work where there is no
Go.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from packaging_support import (
    ROOT,
    clean_env,
    copy_checkout,
    demo_requirements,
    ext_suffix,
    lend,
    make_venv,
    run,
    this_python,
)
from test_go_extension import PROJECTS, TOGETHER, works_beside_godlpack
from test_wheel import TAG, wheel_for, without_go

DOC = ROOT / "docs" / "go-extensions.md"


def section_text(section: str) -> str:
    """The text of the document's section (a ## heading)."""
    m = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", DOC.read_text(), flags=re.S | re.M)
    assert m, f"{DOC.name} has no section {section!r}"
    return m.group(1)


def sh_blocks(section: str) -> str:
    """The ```sh blocks of the document's section, joined in order."""
    blocks = re.findall(r"^```sh\n(.*?)^```$", section_text(section), flags=re.S | re.M)
    assert blocks, f"{DOC.name}'s section {section!r} has no sh block"
    return "".join(blocks)


def shell_env() -> dict[str, str]:
    """A reader's shell: Go on PATH, no venv's bin there, none of the Makefile's cgo settings."""
    env = clean_env()
    path = [d for d in env["PATH"].split(os.pathsep) if d and not (Path(d).parent / "pyvenv.cfg").exists()]
    env["PATH"] = os.pathsep.join(path)
    for k in ("CGO_CFLAGS", "CGO_ENABLED", "GOFLAGS", "PIP_FIND_LINKS"):
        env.pop(k, None)
    return env


class Clone:
    """A copy of the checkout whose .venv is as `make demo` leaves it, and the files copied."""

    def __init__(self, root: Path, files: list[str]) -> None:
        self.root, self.files = root, files

    def run_section(self, section: str) -> str:
        """Run the section's commands from the root; their output."""
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", sh_blocks(section)], cwd=self.root,
                              env=shell_env(), capture_output=True, text=True)
        assert done.returncode == 0, f"{section}: exit status {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def unignored(self) -> list[str]:
        """What the commands left in the copy that git would show (the venv aside)."""
        made = [p.relative_to(self.root).as_posix() for p in self.root.rglob("*")
                if p.is_file() and not p.is_relative_to(self.root / ".venv")]
        made = sorted(set(made) - set(self.files))
        r = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], input="\n".join(made), cwd=ROOT,
                           capture_output=True, text=True)
        return sorted(set(made) - set(r.stdout.splitlines()))


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Clone:
    top = tmp_path_factory.mktemp("clone")
    root = top / "godlpack"
    files = copy_checkout(root)
    py = make_venv(Path(sys.executable).resolve(), root / ".venv", str(wheel_for(this_python())))
    lend(demo_requirements(), root / ".venv", top / "lent")
    run([py, "-c", "import godlpack, numpy, torch"], env=clean_env(), cwd="/")
    return Clone(root, files)


def test_write_an_extension_runs_as_written(clone: Clone) -> None:
    out = clone.run_section("Write an extension")
    assert re.search(r"\d+ passed", out), out
    # The library, and beside it the C header that the document says c-shared writes, named as it says (for 3.11).
    so = clone.root / "build/examples" / f"rowstats{ext_suffix(clone.root / '.venv/bin/python')}"
    assert so.is_file() and so.with_suffix(".h").is_file(), sorted(so.parent.iterdir())
    header = f"`build/examples/{so.with_suffix('.h').name}`".replace(f"-{this_python().replace('.', '')}-", "-311-")
    assert header in section_text("Write an extension"), header
    assert clone.unignored() == []


def test_ship_a_go_extension_runs_as_written(clone: Clone, tmp_path: Path) -> None:
    clone.run_section("Ship your Go extension as a wheel")
    (wheel,) = (clone.root / "dist").glob("godlpack_example_normalize-*.whl")
    assert TAG.search(wheel.name), wheel.name
    assert clone.unignored() == []
    # Installed by the last command, beside godlpack, in the venv; and into a fresh one where there is no Go.
    run([clone.root / ".venv/bin/python", "-c", TOGETHER, "godlpack", "normalize", PROJECTS["normalize"].use],
        env=without_go(), cwd="/")
    works_beside_godlpack(wheel, "normalize", tmp_path / "venv")
