"""The documents hold together: every section of docs/protocol.md that a test names exists, and every relative link
in README.md and docs/*.md leads to a file of the repository (and, with a #fragment into a Markdown file, to one of
its headings). Nothing the documents name as a .md file is missing from the repository.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from repository import ROOT

PROTOCOL = ROOT / "docs" / "protocol.md"
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
# Where the tests name a section: "docs/protocol.md#producer-max_version", in a docstring or a comment.
SECTION = re.compile(r"docs/protocol\.md#([\w-]+)")
# [text](target), not ![image](...) nor inside `code`; a target ends at whitespace or the closing parenthesis.
LINK = re.compile(r"(?<!!)\[[^\]`]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation other than - and _ dropped, spaces as -."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> list[str]:
    """The anchors of a Markdown file's headings; a '#' line inside a fenced code block is no heading."""
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    return [anchor(m.group(2)) for m in re.finditer(r"^(#{1,6})\s+(.+?)\s*#*\s*$", text, flags=re.M)]


def test_anchor_rule() -> None:
    assert anchor("Producer: `max_version`") == "producer-max_version"
    assert anchor("Producer: `__dlpack_device__`") == "producer-__dlpack_device__"
    assert anchor("Exchange API: one result whatever the path") == "exchange-api-one-result-whatever-the-path"


def test_protocol_headings_are_unique() -> None:
    # GitHub would number a repeated heading (name-1), which no test would think to name.
    found = anchors(PROTOCOL)
    assert len(found) > 20
    assert sorted({a for a in found if found.count(a) > 1}) == []


def named_sections() -> list[tuple[str, str]]:
    """(test file, section) for every docs/protocol.md#section the tests name."""
    tests = [path for path in (ROOT / "tests").rglob("*.py") if path.name != Path(__file__).name]
    return sorted(
        {(str(p.relative_to(ROOT / "tests")), m.group(1)) for p in tests for m in SECTION.finditer(p.read_text())}
    )


def test_the_protocol_tests_name_their_sections() -> None:
    files = {name for name, _ in named_sections()}
    protocol = ["test_protocol_producer.py", "test_protocol_consumer.py", "test_matrix.py", "test_buffer.py"]
    for name in [f"protocol/{name}" for name in protocol]:
        assert name in files, f"{name} names no section of docs/protocol.md"


@pytest.mark.parametrize("name, section", named_sections(), ids=[f"{n}#{s}" for n, s in named_sections()])
def test_named_section_exists(name: str, section: str) -> None:
    assert section in anchors(PROTOCOL), f"{name} names docs/protocol.md#{section}, which has no such heading"


def links() -> list[tuple[Path, str]]:
    """(document, target) for every link in README.md and docs/*.md, once each; code spans hold no links."""
    found = {(doc, m.group(1)) for doc in DOCUMENTS for m in LINK.finditer(CODE.sub("", doc.read_text()))}
    return sorted(found)


def test_the_documents_have_links() -> None:
    targets = {target for _, target in links()}
    assert "docs/protocol.md" in targets, "README.md does not link to the protocol"


@pytest.mark.parametrize(
    "doc, target", links(), ids=[f"{d.relative_to(ROOT)}->{t}" for d, t in links()]
)
def test_relative_link_resolves(doc: Path, target: str) -> None:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: and the like are not files of ours
        return
    path, _, fragment = target.partition("#")
    file = (doc.parent / unquote(path)).resolve() if path else doc
    assert file.is_relative_to(ROOT), f"{doc.name}: {target} leaves the repository"
    assert file.exists(), f"{doc.name}: {target} is not a file of the repository"
    if fragment and file.suffix == ".md":
        assert fragment in anchors(file), f"{doc.name}: {target} names no heading of {file.name}"


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in DOCUMENTS])
def test_named_markdown_files_exist(doc: Path) -> None:
    """A document that names a .md file (PROTOCOL.md, NOTES.md) sends the reader to something they can open."""
    names = set(re.findall(r"[\w./-]*\b[\w-]+\.md\b", doc.read_text()))
    missing = [n for n in sorted(names) if not (doc.parent / n).exists() and not (ROOT / n).exists()]
    assert missing == [], f"{doc.name} names Markdown files the repository does not have"


def named_paths() -> list[tuple[Path, str]]:
    """(document, `path` or `path::name`) for every repository path a document shows in backticks."""
    found = set()
    for doc in DOCUMENTS:
        for token in re.findall(r"`([^`\s]+)`", doc.read_text()):
            # build/, dist/ and .cpython/ (tools/fetch-python's) hold what make writes, not files of the repository.
            made = token.startswith(("build/", "dist/", ".cpython/"))
            if re.fullmatch(r"\.?[\w-]+(/[\w.*-]*)+(::\w+)?", token) and not made:
                found.add((doc, token))
    return sorted(found)


@pytest.mark.parametrize("doc, token", named_paths(), ids=[f"{d.relative_to(ROOT)}:{t}" for d, t in named_paths()])
def test_named_path_exists(doc: Path, token: str) -> None:
    """`tests/runtime/test_fork.py::test_fork_right_after_import` names a file that exists and a test defined in it."""
    path, _, name = token.partition("::")
    files = sorted(ROOT.glob(path.rstrip("/"))) if "*" in path else [ROOT / path]
    assert files and all(f.exists() for f in files), f"{doc.name} names {path}, which the repository lacks"
    if name:
        assert re.search(rf"^\s*(def|func) {name}\(", files[0].read_text(), flags=re.M), f"{path} defines no {name}"
