"""One Go runtime per process: a second extension built on package capsule refuses to load, clearly.

docs/protocol.md#one-go-runtime-per-process. Each c-shared Go library carries a Go runtime of its own, and two
cannot share a process; godlpack._core and any extension built on package capsule (pymodule.New) claim the
process when they load, and the second to load raises ImportError naming the first.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from child_env import child_env
from go_extensions import build_normalize


@pytest.fixture(scope="module")
def normalize_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalize(tmp_path_factory.mktemp("normalize"))


def run(code: str, normalize_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env(normalize_dir),
                          timeout=120)


@pytest.mark.parametrize("first, second, holder", [("godlpack", "normalize", "godlpack._core"),
                                                   ("normalize", "godlpack", "normalize")])
def test_the_second_go_extension_is_an_import_error(first: str, second: str, holder: str,
                                                     normalize_dir: Path) -> None:
    done = run(f"""
import {first}
try:
    import {second}
except ImportError as e:
    print("ImportError:", e)
else:
    print("imported")
""", normalize_dir)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("ImportError:"), out
    assert f"runs the Go runtime of {holder}" in out and "cannot share a process" in out, out


def test_one_extension_imported_twice_is_fine(normalize_dir: Path) -> None:
    done = run("import importlib, godlpack, godlpack._core as c; importlib.reload(godlpack); print(c.DLPACK_VERSION)",
               normalize_dir)
    assert done.returncode == 0 and done.stdout.strip() == "(1, 3)", done.stdout + done.stderr
