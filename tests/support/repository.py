"""The repository's root, for the tests that read its files (README.md, docs/, MANIFEST.in) or build its Go packages.

The test files sit in folders of tests/ by subject and may move between them; this file's place is fixed, so the
root is counted from here, once.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
