"""Shared fixtures: every test must leave no godlpack storage alive."""

from __future__ import annotations

import gc
from typing import Iterator

import pytest

import godlpack


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
