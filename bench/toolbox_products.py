"""Matrix products: package vec's Dots (a @ b.T) and MatMul (a @ b), bound in bench/gotoolbox, against NumPy's @
(OpenBLAS), on one thread and on every core.

The cases are issue 49's: the scores of 64 queries against 100k rows of 128 float32 (q @ c.T, whose 25.6 MB
result weighs as much as the arithmetic), and 1000-square products, a @ b.T in float32 and a @ b in float32 and
float64. The Go functions write into an out array made once (dots_f32(a, b, out)); NumPy is timed both as users
write it, q @ c.T (a new result each call), and as np.matmul(q, c.T, out=out), the same work as Go's. One thread is
vec.SetThreads(1) and OpenBLAS on one thread (OPENBLAS_NUM_THREADS=1 as NumPy loads, openblas_set_num_threads
after); every core is the cores the process may use, for both. OpenBLAS's idle threads sleep at once
(OPENBLAS_THREAD_TIMEOUT), so that a case after a two-thread one has both cores, and each timing follows an untimed
call of its case: on this machine (a VM's 2 vCPUs) a core idle a few milliseconds takes about 1.5 ms to give full
speed again, which a two-thread Go call after one-thread cases paid (0.63-0.74x its one-thread time rather than
0.55x), while OpenBLAS's threads, spinning between its calls, kept theirs awake.

Every case runs in this one process, in interleaved rounds (bench/rounds.py); a time is the median of its rounds, a
ratio the median of per-round ratios, with the rounds' quartiles as its spread. Before timing, each Go result is
compared with NumPy's against the bound the products promise: |error| <= k·u·Σ|a·b| for each element (u the unit
roundoff of the dtype), both sides' errors counted, and NaN and infinities must come where NumPy's are.

    python bench/toolbox_products.py [--rounds 15] [--check]

--check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import platform
import statistics
import sys
from typing import Any

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads its BLAS
os.environ["OPENBLAS_THREAD_TIMEOUT"] = "4"  # idle OpenBLAS threads sleep after 2^4 cycles rather than spin

from calls import OUT, ROOT, build_go  # noqa: E402
from rounds import Call, measure, ratio  # noqa: E402

# name: (function, dtype, shape of a, shape of b); the function is dots (a @ b.T) or matmul (a @ b).
CASES: dict[str, tuple[str, str, tuple[int, int], tuple[int, int]]] = {
    "scores 64x128 @ 100000x128.T f32": ("dots", "float32", (64, 128), (100_000, 128)),
    "1000^2 @ 1000^2.T f32": ("dots", "float32", (1000, 1000), (1000, 1000)),
    "1000^2 @ 1000^2 f32": ("matmul", "float32", (1000, 1000), (1000, 1000)),
    "1000^2 @ 1000^2 f64": ("matmul", "float64", (1000, 1000), (1000, 1000)),
}

# (figure, measured, anchor, target): the median per-round ratio measured / anchor must stay at or below target.
TARGETS: list[tuple[str, str, str, float]] = [
    ("one thread, scores: dots_f32 vs q @ c.T", "1 go scores 64x128 @ 100000x128.T f32",
     "1 numpy@ scores 64x128 @ 100000x128.T f32", 1.0),
    ("one thread, 1000^2 f32: dots_f32 vs a @ b.T", "1 go 1000^2 @ 1000^2.T f32", "1 numpy@ 1000^2 @ 1000^2.T f32", 1.3),
    ("one thread, 1000^2 f32: matmul_f32 vs a @ b", "1 go 1000^2 @ 1000^2 f32", "1 numpy@ 1000^2 @ 1000^2 f32", 1.3),
    ("one thread, 1000^2 f64: matmul_f64 vs a @ b", "1 go 1000^2 @ 1000^2 f64", "1 numpy@ 1000^2 @ 1000^2 f64", 1.3),
]
for _case in CASES:
    TARGETS.append((f"every core vs one thread, {_case}: Go", f"all go {_case}", f"1 go {_case}", 0.6))


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def openblas() -> Any:
    """NumPy's OpenBLAS (scipy-openblas), for its thread count and its core's name."""
    import numpy as np

    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas*"))
    if not libs:
        sys.exit("toolbox_products.py: no scipy-openblas beside NumPy (numpy.libs): cannot set its threads")
    lib = ctypes.CDLL(libs[0])
    lib.scipy_openblas_get_corename64_.restype = ctypes.c_char_p
    return lib


def operands(case: str) -> tuple[Any, Any, Any, int]:
    """a, b (as the Go function takes it), out and k of a case."""
    import numpy as np

    op, dtype, sa, sb = CASES[case]
    rng = np.random.default_rng(sum(sa) + sum(sb))
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    m = sb[0] if op == "dots" else sb[1]
    return a, b, np.empty((sa[0], m), dtype), sa[1]


def check_result(case: str, go: Any, a: Any, b: Any, out: Any) -> str:
    """Go's result against NumPy's, each element within the bound of both: 2·k·u·Σ|a·b|."""
    import numpy as np

    op, dtype, _, _ = CASES[case]
    bt = b.T if op == "dots" else b
    getattr(go, f"{op}_{'f32' if dtype == 'float32' else 'f64'}")(a, b, out)
    want = a @ bt
    rows = slice(0, 64)  # the magnitudes' product in float64, for a sample of rows
    magnitude = np.abs(a[rows].astype(np.float64)) @ np.abs(bt.astype(np.float64))
    u = float(np.finfo(dtype).eps) / 2
    worst = float(np.max(np.abs(out[rows].astype(np.float64) - want[rows]) / (2 * a.shape[1] * u * magnitude)))
    if not np.all(np.isfinite(out)) or worst > 1:
        sys.exit(f"toolbox_products.py: {case}: Go's result is off NumPy's by {worst:.3g} of the bound")
    return f"{worst:.2g}"


def check_specials(go: Any) -> None:
    """NaN and infinities where NumPy's BLAS has them: a NaN in a row, infinities times zeros and of both signs."""
    import numpy as np

    rng = np.random.default_rng(7)
    for dtype, suffix in (("float32", "f32"), ("float64", "f64")):
        a, b = rng.standard_normal((37, 29)).astype(dtype), rng.standard_normal((41, 29)).astype(dtype)
        a[3, 5], a[7, 2], a[9, 4], b[4, 2], b[6, 7] = np.nan, np.inf, -np.inf, 0, np.inf
        for op, bt in (("dots", b.T), ("matmul", np.ascontiguousarray(b.T))):
            out = np.empty((37, 41), dtype)
            getattr(go, f"{op}_{suffix}")(a, b if op == "dots" else bt, out)
            with np.errstate(invalid="ignore"):
                want = a @ bt
            if not (np.array_equal(np.isnan(out), np.isnan(want)) and np.array_equal(np.isinf(out), np.isinf(want))
                    and np.array_equal(out[np.isinf(out)], want[np.isinf(want)])):
                sys.exit(f"toolbox_products.py: {op}_{suffix}: NaN and infinities where NumPy has none, or the reverse")


def cases(go: Any, blas: Any, everyone: int) -> dict[str, Call]:
    import numpy as np

    calls: dict[str, Call] = {}
    for case, (op, dtype, _, _) in CASES.items():
        a, b, out, _ = operands(case)
        fn = getattr(go, f"{op}_{'f32' if dtype == 'float32' else 'f64'}")
        names = {"np": np, "a": a, "b": b, "bt": b.T if op == "dots" else b, "out": out, "f": fn,
                 "go_threads": go.set_num_threads, "blas_threads": blas.scipy_openblas_set_num_threads64_,
                 "every": everyone}
        calls[f"1 go {case}"] = ("go_threads(1); f(a, b, out)", names)
        calls[f"1 numpy@ {case}"] = ("blas_threads(1); a @ bt", names)
        calls[f"1 numpy {case}"] = ("blas_threads(1); np.matmul(a, bt, out=out)", names)
        calls[f"all go {case}"] = ("go_threads(every); f(a, b, out)", names)
        calls[f"all numpy@ {case}"] = ("blas_threads(every); a @ bt", names)
    return calls


def spread(per_round: dict[str, list[float]], measured: str, anchor: str) -> str:
    r = sorted(m / a for m, a in zip(per_round[measured], per_round[anchor]))
    q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0]] * 3
    return f"{q[0]:.2f}-{q[2]:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    build_go("gotoolbox", ROOT / "bench" / "gotoolbox")
    sys.path.insert(0, str(OUT))
    import gotoolbox  # type: ignore[import-not-found]
    import numpy as np

    blas = openblas()
    everyone = cores()
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"{platform.machine()}, {everyone} cores, load {load}; NumPy {np.__version__}, OpenBLAS core "
          f"{blas.scipy_openblas_get_corename64_().decode()}; {args.rounds} rounds")
    gotoolbox.set_num_threads(0)
    check_specials(gotoolbox)
    checked = {}
    for case in CASES:
        a, b, out, _ = operands(case)
        checked[case] = check_result(case, gotoolbox, a, b, out)
    per_round = measure(cases(gotoolbox, blas, everyone), args.rounds, 2, warm=True)
    gotoolbox.set_num_threads(0)
    blas.scipy_openblas_set_num_threads64_(1)

    med = {name: statistics.median(v) for name, v in per_round.items()}
    print(f"\n{'case':34} {'threads':>7} {'Go ms':>8} {'GFLOP/s':>8} {'NumPy @':>8} {'Go/@':>6} {'spread':>10} "
          f"{'Go/out=':>7} {'error':>6}")
    for case, (op, _, sa, sb) in CASES.items():
        flops = 2 * sa[0] * sa[1] * (sb[0] if op == "dots" else sb[1])
        for threads in ("1", "all"):
            go, at = f"{threads} go {case}", f"{threads} numpy@ {case}"
            out = f"{ratio(per_round, go, f'1 numpy {case}'):7.2f}" if threads == "1" else f"{'':7}"
            print(f"{case:34} {threads:>7} {med[go] / 1e6:8.2f} {flops / med[go]:8.1f} {med[at] / 1e6:8.2f} "
                  f"{ratio(per_round, go, at):6.2f} {spread(per_round, go, at):>10} {out} {checked[case]:>6}")
    print("\n(Go/@: Go's time over NumPy's a @ b on as many threads; Go/out=: over np.matmul(a, b, out=out); error: "
          "Go's largest difference from NumPy as a fraction of the bound both share)")

    missed = 0
    print()
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        ok = r <= target
        missed += not ok
        print(f"{'ok  ' if ok else 'MISS'} {figure}: {r:.2f}x (target <= {target}x, spread "
              f"{spread(per_round, measured, anchor)})")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
