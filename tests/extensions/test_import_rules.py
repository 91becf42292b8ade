"""A Go author's import follows godlpack.from_dlpack's rules: capsule.Import against from_dlpack.

docs/protocol.md#one-import. capsule.Import and godlpack.from_dlpack are one C function (gdl_import); this
holds them to each other for every request a Go author can make (copy None, True or False; Writable or not)
and producers of every kind, each side in a process of its own (the test extension testing/importtest carries
its own Go runtime). Writable adds one rule to from_dlpack's: a tensor whose writes would not be
allowed (read-only, legacy) or seen (a copy the producer made unasked) is a BufferError.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from child_env import SUPPORT, child_env
from go_examples import build_go_extension

WORKER = SUPPORT / "import_rules_worker.py"


@pytest.fixture(scope="module")
def importtest_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go_extension("./testing/importtest", "importtest", tmp_path_factory.mktemp("importtest"))


def outcomes(kind: str, extra_path: Path | None = None) -> dict[str, list[Any]]:
    env = child_env(*([extra_path] if extra_path else []))
    done = subprocess.run([sys.executable, str(WORKER), kind], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    result: dict[str, list[Any]] = json.loads(done.stdout)
    return result


def expected_import(from_dlpack: list[Any], copy: str) -> list[Any]:
    """capsule.Import with Writable: from_dlpack's outcome, or the BufferError of a tensor that may not be written."""
    if from_dlpack[0] == "raise":
        return from_dlpack
    _, copied, readonly, _, deleted = from_dlpack
    if readonly == "true" or (copied == "true" and copy != "True"):
        return ["raise", "BufferError", deleted]
    return from_dlpack


def test_capsule_import_follows_from_dlpack(importtest_dir: Path) -> None:
    ours = outcomes("from_dlpack")
    theirs = outcomes("capsule_import", importtest_dir)
    assert len(theirs) == 2 * len(ours) == 2 * 18
    for key, got in theirs.items():
        name, copy, writable = key.split(" | ")
        want = ours[f"{name} | {copy} | writable=False"]
        if writable == "writable=True":
            want = expected_import(want, copy.removeprefix("copy="))
            if want[0] == "raise" and got[0] == "raise" and len(want) == 3:
                got = [got[0], got[1], got[3]]  # the refusal's own message: checked below
        assert got == want, f"{key}: capsule.Import gave {got}, from_dlpack implies {want}"


def test_the_rules_themselves(importtest_dir: Path) -> None:
    got = outcomes("capsule_import", importtest_dir)
    # copy=True always gives a private, writable copy, whatever flags the producer's copy had.
    for key, o in got.items():
        if "copy=True" in key and "writable=False" in key:
            assert o[:4] == ["ok", "true", "false", False], (key, o)
    assert got["read-only, read-only copies (JAX) | copy=True | writable=True"][:3] == ["ok", "true", "false"]
    assert got["writable, copies on request | copy=None | writable=True"] == ["ok", "false", "false", True, 1]
    refused = got["always copies | copy=None | writable=True"]
    assert refused[:2] == ["raise", "BufferError"] and "IS_COPIED" in refused[2]
    assert got["always copies | copy=False | writable=False"][:2] == ["raise", "BufferError"]
    legacy = got["legacy | copy=None | writable=True"]
    assert legacy[:2] == ["raise", "BufferError"] and "legacy" in legacy[2]
    read_only = got["read-only, ignores copy | copy=None | writable=True"]
    assert read_only[:2] == ["raise", "BufferError"] and "READ_ONLY" in read_only[2]
    # Every tensor taken was deleted exactly once by the time the importer returned.
    assert all(o[-1] == 1 for o in got.values()), got
