"""The cost of calling bound Go functions, against nanobind and tvm-ffi, from calls that do nothing to calls that
work: reductions, in-place kernels, new tensors, tuples, releasing the GIL, and a class.

bench/gocalls binds Go functions: three that take 1, 3 or 8 float32 C-contiguous tensors and a float and do
nothing, and those users write (sum of a tensor, scale_ in place, a new tensor of n ones as the module's Tensor, a
NumPy array and a PyTorch tensor, halves: a new NumPy array and a float), each also as NAME_nogil, which releases
the GIL. bench/nb_calls.cpp is the same module written with nanobind (nb::ndarray arguments and results,
nb::call_guard<nb::gil_scoped_release>); bench/nb_tilekit.cpp is examples/tilekit written with nanobind, for the
class (construct Stats, a method with one tensor, a field read, a new instance's first field read); tvm-ffi's native
`testing.nop` takes the nop functions' arguments; godlpack.ops.sum and scale_ are measured against nanobind's sum
and scale_. This script builds them all with Go, the nanobind package and g++ into build/bench.

Every case runs in this one process, in interleaved rounds, with NumPy and with PyTorch tensors of 4 elements
(float32; 2x3 for Stats.update); a ratio is the median of its per-round ratios. Each case is the call as a user
writes it, `f(a0, a1, x)`, compiled into timeit's own loop: no Python function wraps it, so a figure is the call
and nothing else (a lambda around it would add the same 50-100 ns to every case and pull every ratio towards 1).
Many short rounds rather than a few long ones: on a shared machine a round is now and then twice as slow for any
library, and the median of 21 rounds leaves those out where that of 9 did not.

    python bench/calls.py [--rounds 21] [--number 10000] [--readme docs/speed.md] [--check]

--readme rewrites the section of docs/speed.md (or the file given) between <!-- calls-bench:start --> and
<!-- calls-bench:end -->;
--check exits 1 when a target is missed. The script also counts the Go heap allocations of 10,000 calls of every
gocalls function (none is the target).
"""

from __future__ import annotations

import argparse
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

from rounds import Call, measure, ratio, timer, verdict

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "bench"
# The -I flags of this interpreter's headers, as godlpack decides them, from the file itself: importing the
# package godlpack would load godlpack._core.
headers = runpy.run_path(str(ROOT / "python" / "godlpack" / "_headers.py"))
include_flags, checkout_cflags = headers["include_flags"], headers["checkout_cflags"]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def build_go(name: str, package: Path) -> None:
    env = dict(os.environ, CGO_ENABLED="1", CGO_CFLAGS=shlex.join(checkout_cflags(ROOT)))
    subprocess.run(["go", "build", "-buildmode=c-shared", "-o", str(OUT / f"{name}{SUFFIX}"), "."],
                   cwd=package, env=env, check=True)
    (OUT / f"{name}{SUFFIX}").with_suffix(".h").unlink(missing_ok=True)


def build_nanobind(name: str, flags: tuple[str, ...] = ("-O2",), out: Path = OUT) -> None:
    """bench/NAME.cpp from the nanobind package's sources and the system C++ compiler (nb_combined.cpp holds them
    all), with the optimization flags given, into out."""
    target = out / f"{name}{SUFFIX}"
    source = ROOT / "bench" / f"{name}.cpp"
    if target.exists() and target.stat().st_mtime > source.stat().st_mtime:
        return
    import nanobind

    nb = Path(nanobind.__file__).parent
    subprocess.run(["g++", *flags, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-DNDEBUG",
                    "-DNB_COMPACT_ASSERTIONS", *include_flags(), f"-I{nb / 'include'}", f"-I{nb / 'ext' / 'robin_map' / 'include'}",
                    str(nb / "src" / "nb_combined.cpp"), str(source), "-o", str(target)], check=True)


# The functions of gocalls and nb_calls that work, each also as NAME_nogil: (name, arguments, what it does).
WORK = [
    ("sum", "(a)", "sum of a tensor, a float result"),
    ("scale_", "(a, 1.0)", "scale_ in place (writable tensor)"),
    ("halves", "(a)", "new NumPy array and a float (tuple)"),
]
NEW = [(f"new_{kind}", n) for kind in ("tensor", "numpy", "torch") for n in (1, 1000)]
KINDS = ("numpy", "torch")
LABEL = {"numpy": "NumPy", "torch": "PyTorch"}
TARGET = {"numpy": 1.0, "torch": 0.5}  # Go / nanobind, with tensor arguments of that kind


# (figure, measured, anchor, target): measured / anchor must stay at or below target.
TARGETS: list[tuple[str, str, str, float]] = []
for n in (1, 3, 8):
    TARGETS += [
        (f"{n} NumPy tensor(s): Go vs nanobind", f"go numpy nop{n}", f"nanobind numpy nop{n}", 1.0),
        (f"{n} PyTorch tensor(s): Go vs nanobind", f"go torch nop{n}", f"nanobind torch nop{n}", 0.5),
        (f"{n} NumPy tensor(s): Go vs tvm-ffi testing.nop", f"go numpy nop{n}", f"tvm-ffi numpy nop{n}", 0.8),
        (f"{n} PyTorch tensor(s): Go vs tvm-ffi testing.nop", f"go torch nop{n}", f"tvm-ffi torch nop{n}", 0.8),
    ]
for kind in KINDS:
    for name, _, what in WORK:
        for nogil in ("", "_nogil"):
            TARGETS.append((f"{what}{nogil}, {LABEL[kind]}: Go vs nanobind", f"go {kind} {name}{nogil}",
                            f"nanobind {kind} {name}{nogil}", TARGET[kind]))
    for op in ("sum", "scale_"):
        TARGETS.append((f"godlpack.ops.{op}, {LABEL[kind]}: vs nanobind's {op}", f"godlpack {kind} {op}",
                        f"nanobind {kind} {op}", TARGET[kind]))
    TARGETS.append((f"Stats.update, {LABEL[kind]}: Go vs nanobind", f"go {kind} Stats.update",
                    f"nanobind {kind} Stats.update", TARGET[kind]))
for name, n in NEW:
    for nogil in ("", "_nogil"):
        TARGETS.append((f"{name}({n}){nogil}: Go vs nanobind", f"go {name}{nogil} {n}", f"nanobind {name}{nogil} {n}",
                        1.0))
# examples/tilekit's class beside its nanobind twin: a new instance, a field read (a C read of the Go value), and the
# first read of a new instance's field (which pins the value first).
CLASS_CASES = {"Stats(3)": "f(3)", "Stats.count": "s.count", "Stats(3).count": "f(3).count"}
for case in CLASS_CASES:
    TARGETS.append((f"{case}: Go vs nanobind", f"go {case}", f"nanobind {case}", 1.0))
# What releasing the GIL adds to a short call, in ns (measured - anchor).
ADDED_NS: list[tuple[str, str, str, float]] = [
    (f"releasing the GIL: sum_nogil - sum, {LABEL[kind]}", f"go {kind} sum_nogil", f"go {kind} sum", 100.0)
    for kind in KINDS
]


def cases() -> dict[str, Call]:
    import numpy as np
    import torch
    import tvm_ffi

    import godlpack.ops

    sys.path.insert(0, str(OUT))
    import gocalls  # type: ignore[import-not-found]
    import nb_calls  # type: ignore[import-not-found]
    import nb_tilekit  # type: ignore[import-not-found]
    import tilekit  # type: ignore[import-not-found]

    nop = tvm_ffi.get_global_func("testing.nop")
    tensors = {"numpy": [np.ones(4, np.float32) for _ in range(8)],
               "torch": [torch.ones(4, dtype=torch.float32) for _ in range(8)]}
    rows = {"numpy": np.ones((2, 3), np.float32), "torch": torch.ones((2, 3), dtype=torch.float32)}
    libs = {"go": (gocalls, tilekit), "nanobind": (nb_calls, nb_tilekit)}
    out: dict[str, Call] = {}
    for kind, ts in tensors.items():
        for n in (1, 3, 8):
            # Each call as a user writes it, f(a0, a1, x), compiled into timeit's loop: no lambda around it.
            names: dict[str, Any] = {f"a{i}": t for i, t in enumerate(ts[:n])} | {"x": 1.5}
            stmt = f"({', '.join(names)})"
            for lib, (mod, _) in libs.items():
                out[f"{lib} {kind} nop{n}"] = (f"f{stmt}", names | {"f": getattr(mod, f"nop{n}")})
            out[f"tvm-ffi {kind} nop{n}"] = (f"f{stmt}", names | {"f": nop})
        for lib, (mod, kit) in libs.items():
            for name, args, _ in WORK:
                for nogil in ("", "_nogil"):
                    out[f"{lib} {kind} {name}{nogil}"] = (f"f{args}", {"a": ts[0], "f": getattr(mod, name + nogil)})
            out[f"{lib} {kind} Stats.update"] = ("f(a)", {"a": rows[kind], "f": kit.Stats(3).update})
        for op, args in (("sum", "(a)"), ("scale_", "(a, 1.0)")):
            out[f"godlpack {kind} {op}"] = (f"f{args}", {"a": ts[0], "f": getattr(godlpack.ops, op)})
    for lib, (mod, kit) in libs.items():
        for name, n in NEW:
            for nogil in ("", "_nogil"):
                out[f"{lib} {name}{nogil} {n}"] = (f"f({n})", {"f": getattr(mod, name + nogil)})
        for case, stmt in CLASS_CASES.items():
            out[f"{lib} {case}"] = (stmt, {"f": kit.Stats, "s": kit.Stats(3)})
    return out


def go_allocations(number: int) -> dict[str, float]:
    """Go heap allocations per call of each gocalls function, over number calls."""
    import numpy as np

    import gocalls  # type: ignore[import-not-found]

    a = np.ones(4, np.float32)
    calls = {"nop1": ("f(a, 1.5)", {"a": a})} | {
        name + nogil: (f"f{args}", {"a": a}) for name, args, _ in WORK for nogil in ("", "_nogil")
    } | {name + nogil: ("f(1000)", {}) for name, _ in NEW for nogil in ("", "_nogil")}
    per_call = {}
    for name, (stmt, names) in calls.items():
        t = timer((stmt, names | {"f": getattr(gocalls, name)}))
        t.timeit(100)
        before = gocalls.mallocs()
        t.timeit(number)
        per_call[name] = (gocalls.mallocs() - before) / number
    return per_call


def report(per_round: dict[str, list[float]], rounds: int, number: int, allocs: dict[str, float]) -> tuple[str, bool]:
    import nanobind
    import numpy as np
    import torch
    import tvm_ffi

    med = {name: statistics.median(v) for name, v in per_round.items()}

    def ns(name: str) -> str:
        return f"{med[name]:,.0f} ns"

    def vs(measured: str, anchor: str) -> str:
        return f"{ratio(per_round, measured, anchor):.2f}x"

    lines = [
        f"numpy {np.__version__}, torch {torch.__version__}, nanobind {nanobind.__version__}, tvm-ffi "
        f"{tvm_ffi.__version__}, Python {platform.python_version()}; 4-element float32 tensors; median "
        f"of {rounds} interleaved rounds of {number:,} calls",
        "",
        "| call that does nothing | Go (pymodule) | nanobind | tvm-ffi testing.nop |",
        "| --- | ---: | ---: | ---: |",
    ]
    for kind in KINDS:
        for n in (1, 3, 8):
            lines.append(f"| {n} {LABEL[kind]} tensor(s) + float | "
                         + " | ".join(ns(f"{lib} {kind} nop{n}") for lib in ("go", "nanobind", "tvm-ffi")) + " |")
    lines += ["", "| call that works | Go (pymodule) | nanobind | Go / nanobind |", "| --- | ---: | ---: | ---: |"]
    for kind in KINDS:
        for name, args, what in WORK:
            for nogil in ("", "_nogil"):
                go, nb = f"go {kind} {name}{nogil}", f"nanobind {kind} {name}{nogil}"
                lines.append(f"| `{name}{nogil}{args}`, {LABEL[kind]}: {what} | {ns(go)} | {ns(nb)} | {vs(go, nb)} |")
        for op, args in (("sum", "(a)"), ("scale_", "(a, 1.0)")):
            go, nb = f"godlpack {kind} {op}", f"nanobind {kind} {op}"
            lines.append(f"| `godlpack.ops.{op}{args}` vs nanobind's `{op}`, {LABEL[kind]} | {ns(go)} | {ns(nb)} | "
                         f"{vs(go, nb)} |")
    for name, n in NEW:
        for nogil in ("", "_nogil"):
            go, nb = f"go {name}{nogil} {n}", f"nanobind {name}{nogil} {n}"
            lines.append(f"| `{name}{nogil}({n})` | {ns(go)} | {ns(nb)} | {vs(go, nb)} |")
    lines += ["", "| class (examples/tilekit vs bench/nb_tilekit.cpp) | Go (pymodule) | nanobind | Go / nanobind |",
              "| --- | ---: | ---: | ---: |"]
    for case in CLASS_CASES:
        lines.append(f"| `{case}` | {ns(f'go {case}')} | {ns(f'nanobind {case}')} | "
                     f"{vs(f'go {case}', f'nanobind {case}')} |")
    for kind in KINDS:
        go, nb = f"go {kind} Stats.update", f"nanobind {kind} Stats.update"
        lines.append(f"| `s.update(x)`, 2x3 {LABEL[kind]} | {ns(go)} | {ns(nb)} | {vs(go, nb)} |")
    lines += ["", "| figure | measured | target | |", "| --- | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {r:.2f}x | <= {target:.2f}x | {'met' if met else 'MISSED'} |")
    for figure, measured, anchor, limit in ADDED_NS:
        added = statistics.median(m - a for m, a in zip(per_round[measured], per_round[anchor]))
        met = added <= limit
        all_met &= met
        lines.append(f"| {figure} | {added:,.0f} ns | <= {limit:.0f} ns | {'met' if met else 'MISSED'} |")
    worst = max(allocs, key=allocs.__getitem__)
    met = allocs[worst] == 0
    all_met &= met
    lines.append(f"| Go heap allocations per call (most: {worst}) | {allocs[worst]:g} | 0 | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--number", type=int, default=10_000)
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    build_go("gocalls", ROOT / "bench" / "gocalls")
    build_go("tilekit", ROOT / "examples" / "tilekit")
    build_nanobind("nb_calls")
    build_nanobind("nb_tilekit")
    import torch

    torch.set_num_threads(1)
    per_round = measure(cases(), args.rounds, args.number)
    allocs = go_allocations(args.number)
    text, all_met = report(per_round, args.rounds, args.number, allocs)
    print(text)
    if args.readme:
        from readme import rewrite_section

        rewrite_section(args.readme, "calls-bench", "bench/calls.py", text)
    verdict(all_met, args.check)


if __name__ == "__main__":
    main()
