"""Shared fixtures: every test must leave no godlpack storage alive.

The tests sit in folders by subject (protocol/, exchange_api/, runtime/, …); this file stays at tests/ so that its
fixtures apply to all of them. Every folder is on sys.path by pytest's default import mode, so no two test files
may share a name (tests/project/test_layout.py checks).

The helpers and workers live in tests/support, imported by their module names (`from dlpack_ctypes import
HandMade`): pytest imports this file before any test module, and it puts that folder on sys.path. A child
interpreter a test starts gets it from `child_env.child_env()`; this file also appends it to the PYTHONPATH
every child inherits, so that a worker run with this process's environment finds the helpers too.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

import godlpack

SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)
os.environ["PYTHONPATH"] = os.pathsep.join(
    dict.fromkeys([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p] + [SUPPORT])
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where suites run side by side (GODLPACK_SIDE_BY_SIDE=1, tools/test-pythons), skip the timing judges: a test
    marked "timing" measures how long calls wait (preemption, in milliseconds), which a busy core decides, not the
    code; the main suite runs them with the machine to itself."""
    if os.environ.get("GODLPACK_SIDE_BY_SIDE") == "1":
        skip = pytest.mark.skip(reason="a timing judge: judged where the suite has the machine alone")
        for item in items:
            if "timing" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def frozen_imports() -> None:
    """Move what the imports made (torch alone: ~150 ms a full collection) out of the collector's sight.

    The leak check below collects twice per test; after this it scans only what tests create.
    """
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def no_leaked_storage() -> Iterator[None]:
    """Fail a test that leaves a storage (an owner of our or a producer's memory) alive."""
    gc.collect()
    before = godlpack._core._live_storages()
    yield
    gc.collect()
    assert godlpack._core._live_storages() == before, "a storage outlived the test"
