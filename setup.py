"""Build godlpack: the extension module godlpack._core is a Go c-shared library.

The build is godlpack.build's, the helper Go authors use for their own extensions, loaded from its file:
importing the package godlpack would import godlpack._core, which this build makes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent

spec = importlib.util.spec_from_file_location("_godlpack_build", ROOT / "python" / "godlpack" / "build.py")
assert spec is not None and spec.loader is not None
build = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = build
spec.loader.exec_module(build)

setup(
    ext_modules=[build.GoExtension("godlpack._core", "./pyext", directory=ROOT)],
    # godlpack's own sdist is MANIFEST.in's: the whole Go module, with nothing to vendor.
    cmdclass={"build_ext": build.BuildGo},
)
