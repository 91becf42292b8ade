"""Where the test helpers live, and the environment of every child interpreter a test starts.

The helpers and workers (dlpack_ctypes, exchange_api, lifetime_helpers, the *_worker scripts) live in
tests/support and are imported by their module names: tests/conftest.py puts this folder on sys.path for the
tests, and a child interpreter gets it on its PYTHONPATH from [child_env] (or [pythonpath]).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Union

import godlpack

SUPPORT = Path(__file__).resolve().parent
TESTS = SUPPORT.parent
# The folder that holds this very godlpack package: the in-place build (python/) or site-packages.
PACKAGE_ROOT = Path(godlpack.__file__).resolve().parent.parent


def pythonpath(*first: Union[str, Path]) -> str:
    """A PYTHONPATH under which a child imports first's modules, the helpers, this godlpack and what we can import.

    The order: first (a built extension's folder, say), tests/support, this godlpack's folder, then this
    interpreter's sys.path; each folder once.
    """
    paths = [str(p) for p in first] + [str(SUPPORT), str(PACKAGE_ROOT)] + [p for p in sys.path if p]
    return os.pathsep.join(dict.fromkeys(paths))


def child_env(*first: Union[str, Path], **extra: str) -> dict[str, str]:
    """This process's environment with PYTHONPATH from [pythonpath](*first), then extra's variables.

    PYTHONSTARTUP is dropped: a child runs only what the test hands it. A deprecation fails a child as it fails the
    tests (pyproject.toml's filterwarnings), unless PYTHONWARNINGS says otherwise; but for the warning of os.fork
    in a process with threads (the Go runtime's), since the fork tests' children fork on purpose, as their marks
    say for the tests themselves (the last filter given wins).
    """
    env = dict(os.environ, PYTHONPATH=pythonpath(*first), **extra)
    env.setdefault("PYTHONWARNINGS", "error::DeprecationWarning,error::PendingDeprecationWarning,"
                   "ignore:This process:DeprecationWarning")
    env.pop("PYTHONSTARTUP", None)
    return env
