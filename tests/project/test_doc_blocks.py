"""The code blocks of README.md and docs/*.md run as shown.

- A ```python block runs as a script; when a ```text block follows it (nothing but blank lines between), that is
  what it must print, line for line. A block that imports one of the repository's Go extensions (tilekit, the
  README's hello) runs with that extension built for this interpreter.
- A ```go block that is a whole extension (package main with its PyInit) is built, a Go module of its own beside
  a copy of nothing but itself; any other ```go block is an excerpt of an example its document names (SOURCES),
  every line of code in it a line of that file, which make example-test builds and tests.
- README's `make demo` block shows what `python -m godlpack` prints, the versions line apart.
- The ```sh blocks of docs/go-extensions.md run in tests/packaging/test_doc_commands.py (they build wheels).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from go_examples import build_example, build_go_extension
from repository import ROOT

DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
# The examples a document's Go excerpts come from: each excerpt is of one of them.
SOURCES = {
    "docs/binder.md": (ROOT / "examples" / "tilekit" / "main.go",),
    "docs/go-extensions.md": (ROOT / "examples" / "rowstats" / "main.go", ROOT / "examples" / "search" / "main.go"),
}
EXAMPLES = ("tilekit", "rowstats", "normalize")


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str
    output: str | None = None  # the ```text block right after it, if any

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    """The fenced blocks of doc, each ```python one paired with the ```text block that follows it."""
    body = doc.read_text()
    found: list[Block] = []
    previous_end = -1
    for m in FENCE.finditer(body):
        lang, text = m.group(1), m.group(2)
        after_code = found and found[-1].lang in ("python", "sh") and found[-1].output is None
        if lang == "text" and after_code and body[previous_end : m.start()].strip() == "":
            found[-1].output = text
        else:
            found.append(Block(doc, body.count("\n", 0, m.start()) + 1, lang, text))
        previous_end = m.end()
    return found


def all_blocks(lang: str) -> list[Block]:
    return [b for doc in DOCUMENTS for b in blocks(doc) if b.lang == lang]


def whole_extension(block: Block) -> bool:
    return block.text.startswith("package main\n") and "//export PyInit_" in block.text


def test_the_documents_have_blocks_of_each_kind() -> None:
    assert len(all_blocks("python")) >= 5 and len(all_blocks("go")) >= 5
    assert any(b.output is not None for b in all_blocks("python")), "no Python block shows its output"
    assert any(whole_extension(b) for b in all_blocks("go") if b.doc.name == "README.md")


class Extensions:
    """The extensions a block may import, each built for this interpreter the first time a block asks for it."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.built: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        """The folder holding the extension name: an example, or a whole Go extension of a document."""
        if name not in self.built:
            (self.out / name).mkdir()
            if name in EXAMPLES:
                self.built[name] = build_example(name, self.out / name)
            else:
                [block] = [b for b in all_blocks("go") if f"//export PyInit_{name}\n" in b.text]
                self.built[name] = build_block(block, self.out / name)
        return self.built[name]


@pytest.fixture(scope="session")
def extensions(tmp_path_factory: pytest.TempPathFactory) -> Extensions:
    return Extensions(tmp_path_factory.mktemp("doc-extensions"))


def build_block(block: Block, out: Path) -> Path:
    """A whole Go extension of a document, built as its own Go module (requiring this checkout) into out."""
    name = re.search(r"//export PyInit_(\w+)", block.text).group(1)  # type: ignore[union-attr]
    source = out / "src"
    source.mkdir()
    (source / "main.go").write_text(block.text)
    (source / "go.mod").write_text(
        f"module example.com/{name}\n\ngo 1.24\n\nrequire github.com/godlpack/godlpack v0.0.0\n\n"
        f"replace github.com/godlpack/godlpack => {ROOT}\n"
    )
    return build_go_extension(str(source), name, out)


def imported_extensions(text: str) -> list[str]:
    names = re.findall(r"^(?:import|from) (\w+)", text, flags=re.M)
    whole = [b.text for b in all_blocks("go") if whole_extension(b)]
    extensions = set(EXAMPLES) | {m.group(1) for text in whole for m in re.finditer(r"//export PyInit_(\w+)", text)}
    return sorted(set(names) & extensions)


def run_python(block: Block, extensions: Extensions) -> str:
    paths = [str(extensions[name]) for name in imported_extensions(block.text)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", block.text], capture_output=True, text=True, timeout=300, env=env,
                          cwd=ROOT)
    assert done.returncode == 0, f"{block.name}: {done.stderr}"
    return done.stdout


def same_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    if sys.version_info >= (3, 14):
        # The documents show what CPython 3.11, make's, prints; from 3.14 on, help() drops the quotes of string
        # annotations (pydoc formats signatures with quote_annotation_strings=False).
        lines = [line.replace("'", "") for line in lines]
    return lines


@pytest.mark.parametrize("block", all_blocks("python"), ids=lambda b: b.name)
def test_python_block_runs_and_prints_what_is_shown(block: Block, extensions: Extensions) -> None:
    printed = run_python(block, extensions)
    assert printed.strip(), f"{block.name} prints nothing: a reader running it sees nothing"
    if block.output is not None:
        assert same_lines(printed) == same_lines(block.output), f"{block.name} printed:\n{printed}"


def code_lines(text: str) -> list[str]:
    """The lines of Go code in text, indentation and end-of-line comments apart."""
    lines = []
    for line in text.splitlines():
        code = re.sub(r"\s+//.*$", "", line).strip()
        if code and not code.startswith("//") and code != "// #include <Python.h>":
            lines.append(code)
    return lines


@pytest.mark.parametrize("block", all_blocks("go"), ids=lambda b: b.name)
def test_go_block_builds_or_is_its_example(block: Block, extensions: Extensions) -> None:
    if block.doc.name == "README.md":
        assert whole_extension(block), f"{block.name}: README's Go is a whole extension, built as shown"
        name = re.search(r"//export PyInit_(\w+)", block.text).group(1)  # type: ignore[union-attr]
        assert list(extensions[name].glob(f"{name}*.so")), f"{block.name} built no extension"
        return
    misses = {}
    for source in SOURCES[str(block.doc.relative_to(ROOT))]:
        have = set(code_lines(source.read_text()))
        misses[source] = [line for line in code_lines(block.text) if line not in have]
        if not misses[source]:
            return
    assert False, "; ".join(f"{block.name}: lines that {source.relative_to(ROOT)} does not have: {missing}"
                            for source, missing in misses.items())


def test_readme_demo_block_is_what_the_demo_prints() -> None:
    [demo] = [b for b in blocks(ROOT / "README.md") if b.lang == "sh" and b.text.startswith("make demo")]
    assert demo.output is not None, "README shows make demo without what it prints"
    done = subprocess.run([sys.executable, "-m", "godlpack"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    shown, printed = same_lines(demo.output), same_lines(done.stdout)
    # The pip lines make prints before the demo, and the versions, differ from machine to machine.
    shown = shown[shown.index(next(line for line in shown if line.startswith("godlpack "))) + 1 :]
    assert re.fullmatch(r"numpy \S+, torch \S+", shown[0]) and re.fullmatch(r"numpy \S+, torch \S+", printed[1])
    assert shown[1:] == printed[2:]
