"""The cost of calling a bound Go function with tensor arguments, against nanobind and tvm-ffi.

bench/gocalls binds three Go functions that take 1, 3 or 8 float32 C-contiguous tensors and a float and do
nothing; bench/nb_calls.cpp is the same module written with nanobind (nb::ndarray<float, nb::c_contig,
nb::device::cpu> arguments), which this script builds with the nanobind package and g++; tvm-ffi's native
`testing.nop` takes the same arguments. Every case runs in this one process, in interleaved rounds, with
NumPy and with PyTorch tensors of 4 elements; a ratio is the median of its per-round ratios. Each case is the call
as a user writes it, `f(a0, a1, x)`, compiled into timeit's own loop: no Python function wraps it, so a figure is
the call and nothing else (a lambda around it would add the same 50-100 ns to every case and pull every ratio
towards 1). Many short rounds rather than a few long ones: on a shared machine a round is now and then twice as slow
for any library, and the median of 21 rounds leaves those out where that of 9 did not.

    python bench/calls.py [--rounds 21] [--number 10000] [--readme README.md] [--check]

--readme rewrites the section of README.md between <!-- calls-bench:start --> and <!-- calls-bench:end -->;
--check exits 1 when a target is missed. The process never imports godlpack: gocalls carries its own Go
runtime. Built modules are kept in build/bench.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import runpy
import shlex
import statistics
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from rounds import Call, measure, ratio

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "bench"
# The -I flags of this interpreter's headers, as godlpack decides them, from the file itself: importing the
# package godlpack would load godlpack._core.
include_flags = runpy.run_path(str(ROOT / "python" / "godlpack" / "_headers.py"))["include_flags"]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def build_go() -> None:
    # A digest of the C headers in the flags: Go's build cache misses a changed header of another package.
    headers = hashlib.sha256(b"".join(h.read_bytes() for h in sorted(ROOT.glob("*/*.h")))).hexdigest()[:16]
    env = dict(os.environ, CGO_ENABLED="1", CGO_CFLAGS=shlex.join(["-O2", *include_flags(), f"-DGODLPACK_HEADERS={headers}"]))
    subprocess.run(["go", "build", "-buildmode=c-shared", "-o", str(OUT / f"gocalls{SUFFIX}"), "./bench/gocalls"],
                   cwd=ROOT, env=env, check=True)
    (OUT / "gocalls.h").unlink(missing_ok=True)


def build_nanobind() -> None:
    """nb_calls from the nanobind package's sources and the system C++ compiler (nb_combined.cpp holds them all)."""
    target = OUT / f"nb_calls{SUFFIX}"
    source = ROOT / "bench" / "nb_calls.cpp"
    if target.exists() and target.stat().st_mtime > source.stat().st_mtime:
        return
    import nanobind

    nb = Path(nanobind.__file__).parent
    subprocess.run(["g++", "-O2", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-DNDEBUG",
                    "-DNB_COMPACT_ASSERTIONS", *include_flags(), f"-I{nb / 'include'}", f"-I{nb / 'ext' / 'robin_map' / 'include'}",
                    str(nb / "src" / "nb_combined.cpp"), str(source), "-o", str(target)], check=True)


# (figure, measured, anchor, target): measured / anchor must stay at or below target.
TARGETS: list[tuple[str, str, str, float]] = []
for n in (1, 3, 8):
    TARGETS += [
        (f"{n} NumPy tensor(s): Go vs nanobind", f"go numpy {n}", f"nanobind numpy {n}", 1.0),
        (f"{n} PyTorch tensor(s): Go vs nanobind", f"go torch {n}", f"nanobind torch {n}", 0.5),
        (f"{n} NumPy tensor(s): Go vs tvm-ffi testing.nop", f"go numpy {n}", f"tvm-ffi numpy {n}", 0.8),
        (f"{n} PyTorch tensor(s): Go vs tvm-ffi testing.nop", f"go torch {n}", f"tvm-ffi torch {n}", 0.8),
    ]


def cases() -> dict[str, Call]:
    import numpy as np
    import torch
    import tvm_ffi

    sys.path.insert(0, str(OUT))
    import gocalls  # type: ignore[import-not-found]
    import nb_calls  # type: ignore[import-not-found]

    nop = tvm_ffi.get_global_func("testing.nop")
    tensors = {"numpy": [np.ones(4, np.float32) for _ in range(8)],
               "torch": [torch.ones(4, dtype=torch.float32) for _ in range(8)]}
    out: dict[str, Call] = {}
    for kind, ts in tensors.items():
        for n in (1, 3, 8):
            # Each call as a user writes it, f(a0, a1, x), compiled into timeit's loop: no lambda around it.
            names: dict[str, Any] = {f"a{i}": t for i, t in enumerate(ts[:n])} | {"x": 1.5}
            stmt = f"({', '.join(names)})"
            for lib, mod in (("go", gocalls), ("nanobind", nb_calls)):
                out[f"{lib} {kind} {n}"] = (f"f{stmt}", names | {"f": getattr(mod, f"nop{n}")})
            out[f"tvm-ffi {kind} {n}"] = (f"f{stmt}", names | {"f": nop})
    return out


def report(per_round: dict[str, list[float]], rounds: int, number: int) -> tuple[str, bool]:
    import nanobind
    import numpy as np
    import torch
    import tvm_ffi

    med = {name: statistics.median(v) for name, v in per_round.items()}
    lines = [
        f"numpy {np.__version__}, torch {torch.__version__}, nanobind {nanobind.__version__}, tvm-ffi "
        f"{tvm_ffi.__version__}, Python {platform.python_version()}; 4-element float32 tensors and a float; median "
        f"of {rounds} interleaved rounds of {number:,} calls",
        "",
        "| call | Go (pymodule) | nanobind | tvm-ffi testing.nop |",
        "| --- | ---: | ---: | ---: |",
    ]
    for kind in ("numpy", "torch"):
        for n in (1, 3, 8):
            lines.append(f"| {n} {'NumPy' if kind == 'numpy' else 'PyTorch'} tensor(s) + float | "
                         + " | ".join(f"{med[f'{lib} {kind} {n}']:,.0f} ns" for lib in ("go", "nanobind", "tvm-ffi"))
                         + " |")
    lines += ["", "| figure | ratio | target | |", "| --- | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {r:.2f}x | <= {target:.2f}x | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--number", type=int, default=10_000)
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    build_go()
    build_nanobind()
    import torch

    torch.set_num_threads(1)
    per_round = measure(cases(), args.rounds, args.number)
    text, all_met = report(per_round, args.rounds, args.number)
    print(text)
    if args.readme:
        from readme import rewrite_section

        rewrite_section(args.readme, "calls-bench", "bench/calls.py", text)
    if not all_met:
        print("\nsome targets were missed", file=sys.stderr)
        if args.check:
            sys.exit(1)


if __name__ == "__main__":
    main()
