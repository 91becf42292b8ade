"""Kernels on tensors: godlpack.ops (package ops on package vec's vector kernels) against NumPy, PyTorch and the same
kernels written with nanobind, and examples/tilekit's sqdist against its nanobind twin and NumPy's expression.

godlpack.ops.sum, dot, scale_ and copy_ of float32, float64 and int32 vectors of 1k, 64k, 1M and 16M elements
against NumPy (np.sum, np.dot, np.multiply(a, f, out=a), np.copyto), PyTorch (torch.sum, torch.dot, t.mul_(f),
dst.copy_(src)) and bench/nb_kernels.cpp (one plain loop each, built with g++ -O3 -march=native), on one thread
(godlpack.set_num_threads(1), torch.set_num_threads(1)) and on every core (the cores the process may use, for
godlpack and PyTorch; NumPy's element-wise loops and the nanobind module have one thread). NumPy's BLAS (np.dot)
runs on one thread: OPENBLAS_NUM_THREADS=1 is set before NumPy loads (and OMP_WAIT_POLICY=PASSIVE, so that idle
PyTorch threads sleep rather than spin on the cores the next case needs). Then tilekit.sqdist of 1000x64 by 1000x64
float32 (package vec's tile kernel, tilekit.set_num_threads) against bench/nb_tilekit.cpp built with -O3
-march=native, and NumPy's (a*a).sum(1)[:,None] + (b*b).sum(1)[None,:] - 2*a@b.T on one OpenBLAS thread; and
ops.sum of 4 float32 against nanobind's sum_f32, timed as the call a user writes (f(a) in timeit's own loop).

Every case of a table runs in this one process, in interleaved rounds (bench/rounds.py); a figure is the median
of its rounds, a ratio the median of per-round ratios. Bandwidth counts the bytes a kernel must move: read once for
sum and dot, read and written for scale_ and copy_.

    python bench/kernels.py [--rounds 15] [--readme docs/speed.md] [--plot docs/kernels.png] [--check]

--readme rewrites the section of docs/speed.md between <!-- kernels-bench:start --> and <!-- kernels-bench:end -->;
--plot draws bandwidth against size, with np.copyto's as the limit; --check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads its BLAS: np.dot and a@b.T on one thread
# PyTorch's OpenMP threads spin for a while after each parallel kernel: on 2 cores they took the next case's core
# (godlpack's scale_ of 64k float32 ran at 100 GB/s after torch's, 250 GB/s after one thread's). They sleep instead.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from calls import OUT, ROOT, build_go, build_nanobind  # noqa: E402
from rounds import Call, measure, ratio, verdict  # noqa: E402

SIZES = (1_000, 64_000, 1_000_000, 16_000_000)
DTYPES = ("float32", "float64", "int32")
SHORT = {"float32": "f32", "float64": "f64", "int32": "i32"}
OPS = ("sum", "dot", "scale_", "copy_")
LIBS = ("godlpack", "NumPy", "PyTorch", "nanobind")
NATIVE = OUT / "native"  # nanobind modules built with -O3 -march=native

# (figure, measured, anchor, target): the median per-round ratio measured / anchor must stay at or below target.
TARGETS: list[tuple[str, str, str, float]] = []
for dt in DTYPES:
    TARGETS.append((f"one thread, 1M {dt}: ops.sum vs np.sum", f"1 godlpack sum {dt} 1000000",
                    f"1 NumPy sum {dt} 1000000", 1.0))
for dt in DTYPES:
    TARGETS.append((f"one thread, 1M {dt}: ops.scale_ vs np.multiply(a, f, out=a)", f"1 godlpack scale_ {dt} 1000000",
                    f"1 NumPy scale_ {dt} 1000000", 1.1))
TARGETS += [
    ("every core, 16M float32: ops.sum vs np.sum", "all godlpack sum float32 16000000",
     "all NumPy sum float32 16000000", 0.7),
    ("ops.sum of 4 float32 vs nanobind's sum_f32", "small godlpack", "small nanobind", 1.5),
    ("tilekit.sqdist, one thread, vs nanobind -O3 -march=native", "sqdist 1 tilekit", "sqdist nanobind", 0.8),
    ("tilekit.sqdist, every core, vs NumPy on one OpenBLAS thread", "sqdist all tilekit", "sqdist NumPy", 1.0),
]


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def number(size: int) -> int:
    """Calls per round: about a millisecond of work or more, at least one call."""
    return max(1, 2_000_000 // size)


def kernel_cases(size: int, dtype: str) -> dict[str, Call]:
    import numpy as np
    import torch

    import godlpack.ops as ops

    sys.path.insert(0, str(NATIVE))
    import nb_kernels  # type: ignore[import-not-found]

    rng = np.random.default_rng(size)
    a = (rng.standard_normal(size) if dtype != "int32" else rng.integers(-100, 100, size)).astype(dtype)
    b, dst = a.copy(), np.empty_like(a)
    ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(a.copy())
    tdst = torch.empty(size, dtype=getattr(torch, dtype))
    f = 1 if dtype == "int32" else 1.0
    nb = {op: getattr(nb_kernels, f"{op.rstrip('_')}_{SHORT[dtype]}") for op in OPS}
    names: dict[str, Any] = {"ops": ops, "np": np, "a": a, "b": b, "dst": dst, "ta": ta, "tb": tb, "tdst": tdst,
                             "f": f, "torch": torch, "nb": nb}
    statements = {
        "godlpack": {"sum": "ops.sum(a)", "dot": "ops.dot(a, b)", "scale_": "ops.scale_(a, f)",
                     "copy_": "ops.copy_(dst, a)"},
        "NumPy": {"sum": "np.sum(a)", "dot": "np.dot(a, b)", "scale_": "np.multiply(a, f, out=a)",
                  "copy_": "np.copyto(dst, a)"},
        "PyTorch": {"sum": "torch.sum(ta)", "dot": "torch.dot(ta, tb)", "scale_": "ta.mul_(f)",
                    "copy_": "tdst.copy_(ta)"},
        "nanobind": {op: f"nb[{op!r}]({args})" for op, args in
                     (("sum", "a"), ("dot", "a, b"), ("scale_", "a, f"), ("copy_", "dst, a"))},
    }
    return {f"{lib} {op} {dtype} {size}": (stmt, names)
            for lib, by_op in statements.items() for op, stmt in by_op.items()}


def sqdist_cases() -> dict[str, Call]:
    import numpy as np

    sys.path.insert(0, str(NATIVE))
    import nb_tilekit  # type: ignore[import-not-found]

    sys.path.insert(0, str(OUT))
    import tilekit  # type: ignore[import-not-found]

    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((1000, 64)).astype(np.float32) for _ in range(2))
    names = {"a": a, "b": b, "tilekit": tilekit, "nb": nb_tilekit}
    return {
        "sqdist 1 tilekit": ("tilekit.set_num_threads(1); tilekit.sqdist(a, b)", names),
        "sqdist all tilekit": ("tilekit.set_num_threads(0); tilekit.sqdist(a, b)", names),
        "sqdist nanobind": ("nb.sqdist(a, b)", names),
        "sqdist NumPy": ("(a*a).sum(1)[:, None] + (b*b).sum(1)[None, :] - 2*a@b.T", names),
    }


def small_cases() -> dict[str, Call]:
    import numpy as np

    import godlpack.ops as ops

    sys.path.insert(0, str(NATIVE))
    import nb_kernels  # type: ignore[import-not-found]

    a = np.ones(4, np.float32)
    return {"small godlpack": ("f(a)", {"f": ops.sum, "a": a}),
            "small nanobind": ("f(a)", {"f": nb_kernels.sum_f32, "a": a})}


def run(rounds: int) -> dict[str, list[float]]:
    """ns per call of every case; "1 ..." on one thread, "all ..." on every core."""
    import torch

    import godlpack

    per_round: dict[str, list[float]] = {}
    for threads, label in ((1, "1"), (cores(), "all")):
        godlpack.set_num_threads(threads)
        torch.set_num_threads(threads)
        for size in SIZES:
            for dtype in DTYPES:
                got = measure(kernel_cases(size, dtype), rounds, number(size))
                per_round |= {f"{label} {name}": v for name, v in got.items()}
    godlpack.set_num_threads(1)
    torch.set_num_threads(1)
    per_round |= measure(sqdist_cases(), rounds, 3)
    per_round |= measure(small_cases(), 2 * rounds + 1, 10_000)
    godlpack.set_num_threads(cores())
    return per_round


def bandwidth(per_round: dict[str, list[float]], name: str) -> float:
    """GB/s of a kernel case, from its median time and the bytes it must move."""
    op, dtype, size = name.split()[2:5]
    item = {"float32": 4, "float64": 8, "int32": 4}[dtype]
    moved = int(size) * item * (2 if op in ("scale_", "copy_", "dot") else 1)
    return moved / statistics.median(per_round[name])


def report(per_round: dict[str, list[float]], rounds: int) -> tuple[str, bool]:
    import nanobind
    import numpy as np
    import torch

    med = {name: statistics.median(v) for name, v in per_round.items()}

    def us(name: str) -> str:
        return f"{med[name] / 1000:,.1f}" if med[name] >= 1000 else f"{med[name] / 1000:.2f}"

    lines = [
        f"numpy {np.__version__}, torch {torch.__version__}, nanobind {nanobind.__version__} (g++ -O3 -march=native), "
        f"Python {platform.python_version()}, {cores()} cores; median of {rounds} interleaved rounds; times in us, "
        f"GB/s the bytes a kernel must move (sum: read; dot: both read; scale_, copy_: read and written)",
    ]
    for label, title in (("1", "one thread"), ("all", f"every core ({cores()} threads for godlpack and PyTorch)")):
        lines += ["", f"**{title}**", "",
                  "| kernel | elements | " + " | ".join(LIBS) + " | godlpack GB/s | godlpack / NumPy |",
                  "| --- | ---: | " + " | ".join("---:" for _ in LIBS) + " | ---: | ---: |"]
        for op in OPS:
            for dtype in DTYPES:
                for size in SIZES:
                    key = f"{op} {dtype} {size}"
                    cells = " | ".join(us(f"{label} {lib} {key}") for lib in LIBS)
                    ours, numpys = f"{label} godlpack {key}", f"{label} NumPy {key}"
                    lines.append(f"| `{op}` {dtype} | {size:,} | {cells} | {bandwidth(per_round, ours):.1f} | "
                                 f"{ratio(per_round, ours, numpys):.2f}x |")
    lines += ["", "| tilekit.sqdist, 1000x64 by 1000x64 float32 | us |", "| --- | ---: |"]
    for name, what in (("sqdist 1 tilekit", "tilekit (Go, package vec), one thread"),
                       ("sqdist all tilekit", f"tilekit, every core ({cores()} threads)"),
                       ("sqdist nanobind", "bench/nb_tilekit.cpp, g++ -O3 -march=native"),
                       ("sqdist NumPy", "NumPy's expression, one OpenBLAS thread")):
        lines.append(f"| {what} | {us(name)} |")
    lines += ["", f"`ops.sum` of 4 float32: {med['small godlpack']:,.0f} ns, nanobind's `sum_f32` "
              f"{med['small nanobind']:,.0f} ns", "", "| figure | measured | target | |", "| --- | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {r:.2f}x | <= {target:.2f}x | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def plot(per_round: dict[str, list[float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    for ax, op in zip(axes, ("sum", "scale_")):
        for label, lib, style in (("1", "godlpack", "-o"), ("all", "godlpack", "-s"), ("1", "NumPy", "--o"),
                                  ("1", "PyTorch", ":o"), ("all", "PyTorch", ":s"), ("1", "nanobind", "-.o")):
            values = [bandwidth(per_round, f"{label} {lib} {op} float32 {size}") for size in SIZES]
            threads = "one thread" if label == "1" else "every core"
            ax.plot(SIZES, values, style, label=f"{lib}, {threads}" if lib in ("godlpack", "PyTorch") else lib)
        limit = [bandwidth(per_round, f"1 NumPy copy_ float32 {size}") for size in SIZES]
        ax.plot(SIZES, limit, "k-", linewidth=3, alpha=0.3, label="copy (np.copyto): memory's limit")
        ax.set_xscale("log")
        ax.set_title(f"{op} of float32 ({'read' if op == 'sum' else 'read and written'})")
        ax.set_xlabel("elements")
        ax.grid(which="both", alpha=0.3)
    axes[0].set_ylabel("GB/s (higher is faster)")
    axes[1].legend(fontsize=8)
    fig.suptitle("Bandwidth of kernels against size")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    NATIVE.mkdir(parents=True, exist_ok=True)
    build_go("tilekit", ROOT / "examples" / "tilekit")
    native = ("-O3", "-march=native")
    build_nanobind("nb_kernels", flags=native, out=NATIVE)
    build_nanobind("nb_tilekit", flags=native, out=NATIVE)
    per_round = run(args.rounds)
    text, all_met = report(per_round, args.rounds)
    print(text)
    if args.plot:
        plot(per_round, args.plot)
    if args.readme:
        from readme import rewrite_section

        rewrite_section(args.readme, "kernels-bench", "bench/kernels.py", text, args.plot,
                        "GB/s against size: godlpack, NumPy, PyTorch and nanobind, and the copy limit")
    verdict(all_met, args.check)


if __name__ == "__main__":
    main()
