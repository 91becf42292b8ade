"""The ctypes DLPack helpers of godlpack.check, for the tests and their workers, with or without godlpack._core.

python/godlpack/check/_dlpack.py (structs, decoder, hand-made capsules) and _exchange.py (the C exchange API)
ship in the package, for the conformance checker; the tests import them as dlpack_ctypes and exchange_api. Where
godlpack is imported already (the test process: tests/conftest.py imports it), they are godlpack.check's own
modules, so that a test and the checker share one HandMade class. A worker that must run without godlpack._core
(a Go extension tested alone) gets the same files as modules of a stand-in package whose __init__ never runs:
importing godlpack.check itself would import godlpack, whose import loads godlpack._core.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

STANDIN = "_godlpack_check_ctypes"


def load(name: str) -> types.ModuleType:
    """godlpack.check's module `name` ("_dlpack" or "_exchange")."""
    if "godlpack" in sys.modules:
        return importlib.import_module(f"godlpack.check.{name}")
    if STANDIN not in sys.modules:
        spec = importlib.util.find_spec("godlpack")  # a top-level package is found, not imported
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("godlpack is not installed: the test helpers are its godlpack.check modules")
        package = types.ModuleType(STANDIN)
        package.__path__ = [f"{location}/check" for location in spec.submodule_search_locations]
        sys.modules[STANDIN] = package
    return importlib.import_module(f"{STANDIN}.{name}")
