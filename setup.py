"""Build godlpack: the extension module godlpack._core is a Go c-shared library.

The build is godlpack.build's, the helper Go authors use for their own extensions, loaded from its file with
godlpack._headers, which it imports: importing the package godlpack would import godlpack._core, which this
build makes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def load(name: str, path: Path) -> ModuleType:
    """The module at path, imported as name without importing its package."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


load("godlpack._headers", ROOT / "python" / "godlpack" / "_headers.py")
build = load("_godlpack_build", ROOT / "python" / "godlpack" / "build.py")

setup(
    ext_modules=[build.GoExtension("godlpack._core", "./pyext", directory=ROOT)],
    # godlpack's own sdist is MANIFEST.in's: the whole Go module, with nothing to vendor.
    cmdclass={"build_ext": build.BuildGo},
)
