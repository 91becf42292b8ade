"""tools/fetch-python: CPython 3.14 and 3.15 unpacked from Debian's unstable suite, on their own glibc.

The interpreter runs on the unpacked glibc through its ELF interpreter and run path, never through
LD_LIBRARY_PATH: what it starts (gcc, go, another Python) runs on the machine's own. A second call finds it
unpacked; a version Debian's unstable suite lacks is refused with a message that says how to go on.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from packaging_support import PYTHONS, ROOT, clean_env, missing, run

FETCH = ROOT / "tools" / "fetch-python"
# The versions tools/fetch-python provides for the Makefile (pyenv has the older ones here).
FETCHED = [v for v in PYTHONS if v in ("3.14", "3.15")]


def fetch(ver: str, **env: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("apt-get") is None:
        missing("no apt-get: tools/fetch-python takes its interpreters from Debian packages")
    return subprocess.run([FETCH, ver], capture_output=True, text=True, env=clean_env(**env), timeout=900)


@pytest.mark.parametrize("ver", FETCHED)
def test_fetched_interpreter_runs_on_its_own_glibc_and_its_children_on_the_machines(ver: str) -> None:
    from elftools.elf.dynamic import DynamicSection  # pyelftools comes with auditwheel, which `make wheel` installs
    from elftools.elf.elffile import ELFFile

    r = fetch(ver)
    assert r.returncode == 0, r.stderr
    python = Path(r.stdout.strip())
    root = ROOT / ".cpython" / ver
    assert python == root / "usr" / "bin" / f"python{ver}"
    libdir = root / "usr" / "lib" / "x86_64-linux-gnu"
    with python.open("rb") as f:
        elf = ELFFile(f)
        interp = next(s for s in elf.iter_segments() if s["p_type"] == "PT_INTERP").get_interp_name()
        dynamic = next(s for s in elf.iter_sections() if isinstance(s, DynamicSection))
        rpath = [t.rpath for t in dynamic.iter_tags() if t.entry.d_tag == "DT_RPATH"]
    assert interp == str(libdir / "ld-linux-x86-64.so.2") and rpath == [str(libdir)], (interp, rpath)
    # Its own libc is mapped; a process it starts maps the machine's, and no LD_LIBRARY_PATH is set.
    probe = (
        "import os, subprocess, sys\n"
        "own = [l.split()[-1] for l in open('/proc/self/maps') if 'libc.so' in l]\n"
        "child = subprocess.run(['cat', '/proc/self/maps'], capture_output=True, text=True).stdout\n"
        "print('%d.%d' % sys.version_info[:2], own[0], os.environ.get('LD_LIBRARY_PATH'), str(sys.argv[1]) in child)\n"
    )
    got = run([python, "-c", probe, root], env=clean_env()).stdout.split()
    assert got == [ver, str(libdir / "libc.so.6"), "None", "False"], got
    # A second call finds it unpacked, without apt.
    start = time.monotonic()
    again = fetch(ver)
    assert again.returncode == 0 and again.stdout == r.stdout and time.monotonic() - start < 5, again.stderr


def test_a_version_the_suite_lacks_is_refused_with_a_way_on(tmp_path: Path) -> None:
    r = fetch("3.9", GODLPACK_CPYTHON_DIR=str(tmp_path))
    assert r.returncode == 1 and r.stdout == "", r.stdout
    assert "cannot have CPython 3.9 from Debian's unstable suite" in r.stderr, r.stderr
    assert "pyenv install 3.9" in r.stderr and "leave it out" in r.stderr, r.stderr
    assert not (tmp_path / "3.9").exists()


def test_not_a_version() -> None:
    r = subprocess.run([FETCH, "3.x"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "'3.x' is not a version like 3.15" in r.stderr, r.stderr
