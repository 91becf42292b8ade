"""The C header directories of the running Python, and the C flags of godlpack's own builds, for cgo: the one place
godlpack decides them.

Only the standard library, so that the Makefile can run this file with any interpreter before anything is
installed in it: `python python/godlpack/_headers.py` prints the -I flags for CGO_CFLAGS, and `--checkout DIR`
the whole CGO_CFLAGS of a build in a godlpack checkout (checkout_cflags), which the Makefile, the tests' Go builds
and the benches use. godlpack.build (the build helper for Go extensions, which godlpack's own setup.py uses) takes
its directories from here too.

The directories are the interpreter's own, from its sysconfig, never another Python's: pkg-config's python3.pc
(the interpreter's LIBPC) names the headers of the system's Python when the interpreter is relocated (unpacked
somewhere, as tools/fetch-python does), and Go's build cache does not key on pkg-config's answer anyway.
"""

from __future__ import annotations

import hashlib
import shlex
import sys
import sysconfig
from pathlib import Path

# The C flags of every build in a godlpack checkout beside the headers': Go's own default (when CGO_CFLAGS is unset),
# and a call to C API that the interpreter's headers mark deprecated is an error, on every version tested.
CHECKOUT_CFLAGS = ["-O2", "-g", "-Werror=deprecated-declarations"]


def include_dirs() -> list[str]:
    """The directories a C compiler needs for this interpreter's Python.h, in search order.

    sysconfig's include and platinclude (one directory when they are the same), then, for an interpreter built
    as Debian builds it, the directory its multiarch pyconfig.h is included from: Debian's pyconfig.h is a
    wrapper that includes <x86_64-linux-gnu/python3.X/pyconfig.h>, which a system-wide install finds in
    /usr/include (gcc ignores -I of a system directory) and a relocated one only with its own .../usr/include.
    """
    paths = sysconfig.get_paths()
    dirs = list(dict.fromkeys(d for d in (paths["include"], paths.get("platinclude")) if d))
    multiarch = sysconfig.get_config_var("MULTIARCH")
    if multiarch:
        for d in list(dirs):
            parent = Path(d).parent
            if (parent / multiarch / Path(d).name / "pyconfig.h").is_file() and str(parent) not in dirs:
                dirs.append(str(parent))
    return dirs


def include_flags(dirs: list[str] | None = None) -> list[str]:
    """dirs (include_dirs() by default) as the compiler's -I flags."""
    return [f"-I{d}" for d in (include_dirs() if dirs is None else dirs)]


def checkout_cflags(root: Path) -> list[str]:
    """CGO_CFLAGS for a build in the godlpack checkout root: include_flags(), CHECKOUT_CFLAGS, and a digest of the
    checkout's C headers.

    Go's build cache keys a cgo package on its own directory's files and on CGO_CFLAGS, not on headers it includes
    from other directories (capsule.h in pymodule, say): the digest makes a changed header a cache miss instead of
    a stale object.
    """
    digest = hashlib.sha256(b"".join(h.read_bytes() for h in sorted(root.glob("*/*.h")))).hexdigest()[:16]
    return [*include_flags(), *CHECKOUT_CFLAGS, f"-DGODLPACK_HEADERS={digest}"]


if __name__ == "__main__":
    # Quoted as the go command reads CGO_CFLAGS (and a shell would), for directories with spaces.
    if sys.argv[1:2] == ["--checkout"] and len(sys.argv) == 3:
        print(shlex.join(checkout_cflags(Path(sys.argv[2]))))
    elif len(sys.argv) == 1:
        print(shlex.join(include_flags()))
    else:
        sys.exit("usage: _headers.py [--checkout DIR]")
