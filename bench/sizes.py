"""The size of a Go extension's shared library: the examples and godlpack._core, beside an empty Go library and
nanobind's twin of examples/tilekit.

Each Go library is built as godlpack.build builds a Go author's extension (GoExtension, and godlpack's own _core):
`go build -buildmode=c-shared -trimpath -ldflags="-s -w"` (symbols and DWARF stripped) with this interpreter's
headers and Go's default C flags (-O2 -g) in CGO_CFLAGS. The empty library is a package main with `import "C"` and nothing else: the Go runtime and
cgo, which every Go extension carries; what a library has beyond it is godlpack's share and the author's code.
nanobind's module is bench/nb_tilekit.cpp, examples/tilekit in C++, built from the nanobind package's sources as
bench/calls.py builds it (g++ -O2) and stripped the same way (-s). Needs Go, g++ and the bench extras (nanobind).

    python bench/sizes.py [--readme README.md]

--readme rewrites the section of the README (or the file given) between <!-- sizes:start --> and <!-- sizes:end -->.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from godlpack.build import DEFAULT_LDFLAGS, go_build_env

from calls import OUT, SUFFIX, build_nanobind
from readme import rewrite_section

ROOT = Path(__file__).resolve().parent.parent
EMPTY = 'package main\n\nimport "C"\n\nfunc main() {}\n'


def go_library(name: str, directory: Path, package: str = ".") -> Path:
    """package (in directory's Go module) built as godlpack.build builds an extension, into OUT."""
    target = OUT / "sizes" / f"{name}{SUFFIX}"
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        subprocess.run(["go", "build", "-buildmode=c-shared", "-trimpath", f"-ldflags={DEFAULT_LDFLAGS}", "-o",
                        str(target), package], cwd=directory, env=go_build_env(Path(temp)), check=True)
    target.with_suffix(".h").unlink(missing_ok=True)
    return target


def empty_library() -> Path:
    with tempfile.TemporaryDirectory() as temp:
        module = Path(temp)
        (module / "go.mod").write_text("module example.com/empty\n\ngo 1.24\n")
        (module / "main.go").write_text(EMPTY)
        return go_library("empty", module)


def table() -> str:
    libraries = {
        "empty Go c-shared library (the Go runtime and cgo)": empty_library(),
        "examples/rowstats (2 functions)": go_library("rowstats", ROOT / "examples" / "rowstats"),
        "examples/tilekit (a class, an enum, an exception, a callback, 5 functions)": go_library("tilekit",
                                                                                   ROOT / "examples" / "tilekit"),
        "godlpack._core (godlpack.ops, creation, exchange)": go_library("_core", ROOT, "./pyext"),
    }
    build_nanobind("nb_tilekit", flags=("-O2", "-s"), out=OUT / "sizes")
    empty = libraries[next(iter(libraries))].stat().st_size
    go = subprocess.run(["go", "version"], capture_output=True, text=True, check=True).stdout.split()[2]
    lines = [f"Go {go}, stripped (`-trimpath -ldflags=\"-s -w\"`, as `godlpack.build` builds); nanobind "
             f"{nanobind_version()} with g++ -O2 -s.", "",
             "| library | size | beyond the empty Go library |", "| --- | ---: | ---: |"]
    for what, path in libraries.items():
        size = path.stat().st_size
        beyond = f"{(size - empty) / 1e6:.2f} MB" if size != empty else ""
        lines.append(f"| {what} | {size / 1e6:.2f} MB | {beyond} |")
    nb = (OUT / "sizes" / f"nb_tilekit{SUFFIX}").stat().st_size
    lines.append(f"| nanobind's bench/nb_tilekit.cpp (examples/tilekit in C++) | {nb / 1e6:.2f} MB | |")
    return "\n".join(lines)


def nanobind_version() -> str:
    import nanobind

    return str(nanobind.__version__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, nargs="?", const=ROOT / "README.md",
                        help="rewrite the sizes section of this file (README.md)")
    args = parser.parse_args()
    os.environ.pop("CGO_CFLAGS", None)  # Go's default C flags, -O2 -g, as a Go author's build has them
    text = table()
    print(text)
    if args.readme:
        rewrite_section(args.readme, "sizes", "bench/sizes.py", text)


if __name__ == "__main__":
    main()
