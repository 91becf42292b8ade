"""The layout of tests/: test files in folders by subject, and no two Python files of one name.

pytest's default import mode puts each test file's folder on sys.path and imports the file by its bare name, as
the helpers of tests/support are imported: a second file of a name already imported fails to collect ("import file
mismatch"), or shadows a helper, in a run that holds both (`pytest` alone, with pyproject.toml's testpaths, holds
tests/packaging too).
"""

from __future__ import annotations

from collections import Counter

from repository import ROOT

TESTS = ROOT / "tests"


def test_python_file_names_are_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)
    assert sorted(name for name, count in names.items() if count > 1) == []


def test_test_files_are_in_folders() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
