"""The binder (package pymodule) and the example extensions built on it, each in a process of its own.

Each extension carries its own Go runtime and must not share a process with godlpack._core, so each is
built for this interpreter and its own test file runs in a pytest subprocess: bindtest
(pymodule/internal/bindtest, every conversion, refusal and guarantee of the binder), examples/rowstats,
examples/normalize, examples/tilekit and examples/search, each vetted (an example is a Go module of its own, which
the module's go vet does not reach), its tests run and its stub held to it by mypy's stubtest: what make
example-test does, here on every Python the suite runs on. They hold the promises of
docs/protocol.md#bound-go-functions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from child_env import pythonpath
from go_examples import build_go_extension, go_command, go_env
from repository import ROOT


def where(package: str) -> tuple[Path, str]:
    """(directory, package) to run the go command in: a package with a go.mod of its own is a module there."""
    here = ROOT / package
    return (here, ".") if (here / "go.mod").exists() else (ROOT, f"./{package}")


def build(package: str, name: str, out: Path) -> Path:
    """package built as the extension module name into out, with its stub generated beside it."""
    build_go_extension(f"./{package}", name, out)
    cwd, pkg = where(package)
    subprocess.run([go_command(), "run", pkg, "-pyi", str(out / f"{name}.pyi")], cwd=cwd, env=go_env(), check=True,
                   timeout=900)
    return out


@pytest.mark.parametrize("package, name", [
    ("pymodule/internal/bindtest", "bindtest"),
    ("examples/rowstats", "rowstats"),
    ("examples/normalize", "normalize"),
    ("examples/tilekit", "tilekit"),
    ("examples/search", "search"),
])
def test_extension(package: str, name: str, tmp_path: Path) -> None:
    cwd, pkg = where(package)
    if pkg == ".":
        subprocess.run([go_command(), "vet", "."], cwd=cwd, env=go_env(), check=True, timeout=900)
    out = build(package, name, tmp_path)
    env = dict(os.environ, PYTHONPATH=pythonpath(out))
    # An exception C code left unraisable (a lookup made while another was pending) fails the run, not warns.
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-W", "error::pytest.PytestUnraisableExceptionWarning", str(ROOT / package)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    # The generated stub says what the module has: mypy's stubtest compares it with the module as built.
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", name], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(env, MYPYPATH=os.pathsep.join([str(out), str(ROOT / "python")])), timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]


KEPT_SLICE = """
import numpy as np, bindtest as b
x = np.arange(4.0)
assert b.dot(x, x) == 14.0  # slices used within their call work as ever
y = np.ones(3, dtype=np.float32)
b.halve_(y)  # a writable slice: written through its copy, which goes back into y
assert y.tolist() == [0.5, 0.5, 0.5], y
b.keep_slice(x)
print("kept", flush=True)
print(b.kept_first())  # used after its call: the test build's copy is gone
"""


def test_a_slice_kept_past_its_call_fails_loudly_in_a_checking_build(tmp_path: Path) -> None:
    # A []T argument is valid for its call only (docs/binder.md, Slices). Built with the tag godlpack_checkslices,
    # each is a copy in memory that is made unreadable when its call returns: a Go function that kept one and reads
    # it later dies at that read with Go's "unexpected fault address", naming the function, instead of reading
    # memory its producer may have freed.
    if os.environ.get("GODLPACK_ASAN") == "1":
        pytest.skip("the fault is Go's to report: AddressSanitizer's handler would report it first (make memcheck)")
    out = build_go_extension("./pymodule/internal/bindtest", "bindtest", tmp_path, tags="godlpack_checkslices")
    done = subprocess.run([sys.executable, "-c", KEPT_SLICE], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=pythonpath(out)), timeout=120)
    assert done.stdout == "kept\n" and done.returncode != 0, done
    assert "unexpected fault address" in done.stderr and "main.keptFirst" in done.stderr, done.stderr[-3000:]


@pytest.mark.parametrize("name", ["rowstats", "normalize", "tilekit", "search"])
def test_committed_stubs_are_generated(name: str) -> None:
    """examples/<name>/<name>.pyi is what `go run ./examples/<name> -pyi -` writes from the Go signatures."""
    cwd, pkg = where(f"examples/{name}")
    done = subprocess.run([go_command("to generate the stubs"), "run", pkg, "-pyi", "-"], cwd=cwd, env=go_env(),
                          capture_output=True, text=True, check=True, timeout=900)
    assert done.stdout == (ROOT / "examples" / name / f"{name}.pyi").read_text()


def test_extension_tensor_classes_are_godlpacks() -> None:
    """The classes Tensor, DType and Device of every extension's stub are those of godlpack's own _core.pyi.

    Both are package capsule's one tensor object: pymodule/stub.go writes the block, and _core.pyi holds it as is.
    """
    stub = (ROOT / "examples" / "rowstats" / "rowstats.pyi").read_text()
    block = stub[stub.index("@final\nclass Device"):stub.index("\ndef ")].rstrip("\n")
    assert "class Tensor:" in block and "class DType:" in block
    assert block in (ROOT / "python" / "godlpack" / "_core.pyi").read_text()
