"""The figures the documents state that a script can check: line counts of the examples, and README's speed table,
each of whose rows is a row that the bench scripts wrote into docs/speed.md.
"""

from __future__ import annotations

import re
from pathlib import Path

from repository import ROOT

README = (ROOT / "README.md").read_text()


def lines(path: Path) -> tuple[int, int]:
    """(all lines, lines of code): the latter without blank lines and lines that are only a // comment."""
    text = path.read_text().splitlines()
    return len(text), sum(1 for line in text if line.strip() and not line.strip().startswith("//"))


def test_tilekit_and_its_nanobind_twin_have_the_lines_readme_says() -> None:
    stated = re.search(r"examples/tilekit.*?(\d+) lines of Go\s+without comments and blank lines, against\s+(\d+) "
                       r"for its\s+nanobind twin", README, flags=re.S)
    assert stated, "README no longer states tilekit's line count"
    go, cpp = lines(ROOT / "examples" / "tilekit" / "main.go")[1], lines(ROOT / "bench" / "nb_tilekit.cpp")[1]
    assert (go, cpp) == (int(stated.group(1)), int(stated.group(2))), f"tilekit: {go} lines of Go, {cpp} of C++"
    assert go <= cpp, f"tilekit takes {go} lines of Go, more than its nanobind twin's {cpp}"


def test_search_and_its_nanobind_twin_have_the_lines_the_docs_say() -> None:
    """examples/search, a Go author's module on vec's toolbox, takes no more lines than its twin in C++ (issue 49)."""
    go, cpp = lines(ROOT / "examples" / "search" / "main.go")[1], lines(ROOT / "bench" / "nb_search.cpp")[1]
    assert go <= cpp, f"examples/search takes {go} lines of Go, more than its nanobind twin's {cpp}"
    for doc, pattern in ((README, r"examples/search.*?(\d+) lines of Go against (\d+) for\s+its twin"),
                         ((ROOT / "docs" / "go-extensions.md").read_text(),
                          r"bench/nb_search\.cpp\), (\d+) lines of C\+\+ against the Go's (\d+)")):
        stated = re.search(pattern, doc, flags=re.S)
        assert stated, f"a document no longer states examples/search's line count ({pattern})"
        numbers = sorted(map(int, stated.groups()))
        assert numbers == sorted((go, cpp)), f"examples/search: {go} lines of Go, {cpp} of C++; stated {numbers}"


def test_rowstats_has_the_lines_go_extensions_md_says() -> None:
    text = (ROOT / "docs" / "go-extensions.md").read_text()
    stated = re.search(r"(\d+) lines of Go, (\d+) without comments and blank lines", text)
    assert stated, "docs/go-extensions.md no longer states rowstats' line count"
    assert lines(ROOT / "examples" / "rowstats" / "main.go") == (int(stated.group(1)), int(stated.group(2)))


def test_readme_speed_rows_are_the_benches() -> None:
    section = README[README.index("**Speed.**") : README.index("**Guarantees.**")]
    rows = re.findall(r"^\| (?!figure|---)(.+?) \| (.+?) \|$", section, flags=re.M)
    assert len(rows) >= 3, "README's speed table lost its rows"
    speed = (ROOT / "docs" / "speed.md").read_text().splitlines()
    for figure, measured in rows:
        # The bench's row of that figure, with the measured ratio (or time) among its cells.
        found = [line for line in speed if line.startswith(f"| {figure} |") and f"| {measured} |" in line]
        assert found, f"README's speed row {figure!r}, {measured}, is not a row of docs/speed.md"
