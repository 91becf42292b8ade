"""docs/design.md is the map of the Go module: its table of packages, each package's job and the packages of ours it
may use, held to the code as it is. The arrows are read from the code: Go imports (`go list`), and the C of one
package including another package's headers (which is how it calls that package's C)."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from go_examples import go_command, go_env
from repository import ROOT

MODULE = "github.com/godlpack/godlpack"
DESIGN = ROOT / "docs" / "design.md"
# The packages whose C sees Python.h (the design page names them), and the extensions built on them: a package
# main of a test or bench extension.
PYTHON_ROOMS = {"cpython", "capsule", "pytensor", "pymodule", "pyext"}
# Generated files, which no one holds in their head and no length limit binds.
GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.|^/\* Code generated .* DO NOT EDIT\. \*/", re.M)


def table() -> dict[str, set[str]]:
    """The design page's packages, each with the packages of ours it may use."""
    text = DESIGN.read_text()
    section = text[text.index("## Packages and their arrows"):]
    section = section[:section.index("\n## ", 3)]
    rows = {}
    for line in section.splitlines():
        m = re.fullmatch(r"\| `([\w/]+)` \| [^|]+ \| ([^|]+) \|", line)
        if m:
            rows[m.group(1)] = set(re.findall(r"`([\w/]+)`", m.group(2)))
    return rows


@cache
def packages() -> dict[str, dict]:
    """`go list` of every package of the module, by its path inside the module."""
    done = subprocess.run([go_command("to list the Go packages"), "list", "-json", "./..."], cwd=ROOT, env=go_env(),
                          capture_output=True, text=True, check=True, timeout=600)
    out = {}
    for chunk in re.split(r"(?m)^\}\n(?=\{)", done.stdout.strip()):
        p = json.loads(chunk if chunk.endswith("}") else chunk + "}")
        out[p["ImportPath"].removeprefix(MODULE + "/")] = p
    return out


@cache
def headers() -> dict[str, str]:
    """Every C header of the module, by name, with its package."""
    found = {}
    for h in ROOT.glob("**/*.h"):
        rel = h.relative_to(ROOT)
        if rel.parts[0] in ("build", "examples", "tests", ".venv") or rel.parts[0].startswith((".venv", ".cpython")):
            continue
        found[h.name] = str(rel.parent)
    return found


def includes(path: Path) -> set[str]:
    return set(re.findall(r'^\s*(?://\s*)?#include\s+"([\w.]+)"', path.read_text(errors="replace"), re.M))


def c_arrows(pkg: str) -> tuple[set[str], bool]:
    """The packages whose headers pkg's C and cgo preambles include, transitively, and whether Python.h is among
    what they include."""
    here = ROOT / pkg
    todo = [f for f in here.iterdir() if f.suffix in (".c", ".h", ".go") and not f.name.endswith("_test.go")]
    seen_headers: set[str] = set()
    python = False
    while todo:
        f = todo.pop()
        text = f.read_text(errors="replace")
        if re.search(r"#include\s+<Python\.h>", text):
            python = True
        for name in includes(f):
            if name in headers() and name not in seen_headers:
                seen_headers.add(name)
                todo.append(ROOT / headers()[name] / name)
    return {headers()[h] for h in seen_headers} - {pkg}, python


def test_every_package_is_in_the_table() -> None:
    assert sorted(set(packages()) ^ set(table())) == []


@pytest.mark.parametrize("pkg", sorted(table()))
def test_a_package_uses_only_what_its_row_allows(pkg: str) -> None:
    allowed = table()[pkg]
    p = packages()[pkg]
    go = {i.removeprefix(MODULE + "/") for i in p.get("Imports", []) if i.startswith(MODULE + "/")}
    c, python = c_arrows(pkg)
    assert sorted((go | c) - allowed) == [], f"{pkg} uses what docs/design.md's row does not allow"
    main = p["Name"] == "main"
    assert not python or pkg in PYTHON_ROOMS or main, f"{pkg} includes Python.h"


def test_nothing_imports_pyext_and_only_tests_the_test_packages() -> None:
    # The test scaffolding lives under testing/, apart from internal/, which the rooms themselves import.
    test_only = {"pyext"} | {pkg for pkg in packages() if pkg.startswith("testing/")}
    assert len(test_only) > 4, sorted(test_only)
    for pkg, p in packages().items():
        ours = {i.removeprefix(MODULE + "/") for i in p.get("Imports", [])}
        assert sorted(ours & test_only) == [], f"{pkg} imports {ours & test_only} outside its tests"


@pytest.mark.parametrize("suffix, most", [(".c", 600), (".go", 700)])
def test_no_hand_written_file_is_too_long_to_hold(suffix: str, most: int) -> None:
    files = subprocess.run(["git", "ls-files", f"*{suffix}"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    long = []
    for f in files:
        data = (ROOT / f).read_bytes()
        lines = data.count(b"\n")
        if lines > most and not GENERATED.search(data[:300]) and not f.endswith("_test.go"):
            long.append((f, lines))
    assert long == [], f"files over {most} lines: {long}"
