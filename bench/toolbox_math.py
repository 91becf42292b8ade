"""Element-wise math, one thread: package vec's Exp, Log and Tanh (bench/gotoolbox, bound as exp(x, out), ...)
against NumPy's np.exp(x, out=y), np.log(x, out=y) and np.tanh(x, out=y), float32 and float64, 16k elements (in
the core's cache) and 1M.

Inputs: exp of uniform(-20, 20), log of e**uniform(-20, 20), tanh of uniform(-5, 5), the same array for both
libraries. Every case runs in this one process, in interleaved rounds (bench/rounds.py); a ratio is the median of
the per-round ratios vec / NumPy, printed with their quartiles. NumPy's element-wise loops have one thread, and vec's
kernels run on the calling goroutine; OPENBLAS_NUM_THREADS=1 and GODLPACK_NUM_THREADS=1 are set all the same. The
script also prints how far each vec result is from NumPy's, in units of the last place.

    python bench/toolbox_math.py [--rounds 21] [--check]

--check exits 1 when a target is missed: every function, float32 and float64, 1M elements, at most 1.0x NumPy's
time.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
from typing import Any

os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["GODLPACK_NUM_THREADS"] = "1"

from calls import OUT, ROOT, build_go  # noqa: E402
from rounds import Call, measure  # noqa: E402

FUNCS = ("exp", "log", "tanh")
DTYPES = ("float32", "float64")
SIZES = (16_000, 1_000_000)
TARGET = 1.0  # vec / NumPy, one thread, at 1M


def inputs(fn: str, n: int, dtype: str) -> Any:
    import numpy as np

    rng = np.random.default_rng(49)
    if fn == "exp":
        x = rng.uniform(-20, 20, n)
    elif fn == "log":
        x = np.exp(rng.uniform(-20, 20, n))
    else:
        x = rng.uniform(-5, 5, n)
    return x.astype(dtype)


def ulps_apart(a: Any, b: Any) -> float:
    """The largest distance between a and b in units of the last place of b's dtype (finite values)."""
    import numpy as np

    finite = np.isfinite(b)
    spacing = np.spacing(np.abs(b[finite]))
    return float(np.max(np.abs(a[finite].astype(np.float64) - b[finite]) / spacing)) if finite.any() else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    build_go("gotoolbox", ROOT / "bench" / "gotoolbox")
    sys.path.insert(0, str(OUT))
    import numpy as np

    gotoolbox: Any = importlib.import_module("gotoolbox")  # built just now: no stub

    gotoolbox.set_num_threads(1)
    print(f"NumPy {np.__version__}; {args.rounds} interleaved rounds; one thread; ratio = vec / NumPy "
          f"(median, quartiles of the rounds)")
    print(f"{'function':<8} {'dtype':<8} {'n':>9} {'vec ns/elem':>12} {'NumPy ns/elem':>14} {'ratio':>7} "
          f"{'quartiles':>13} {'ulps apart':>10}")
    missed = []
    for n in SIZES:
        for dtype in DTYPES:
            for fn in FUNCS:
                x = inputs(fn, n, dtype)
                y, z = np.empty_like(x), np.empty_like(x)
                names = {"x": x, "y": y, "z": z, "np": np, "g": gotoolbox}
                calls: dict[str, Call] = {"vec": (f"g.{fn}(x, y)", names), "numpy": (f"np.{fn}(x, out=z)", names)}
                number = max(1, 500_000 // n)  # short rounds: on a shared machine, many of them
                per = measure(calls, args.rounds, number)
                ratios = sorted(v / w for v, w in zip(per["vec"], per["numpy"]))
                q1, med, q3 = statistics.quantiles(ratios, n=4)
                ours, theirs = statistics.median(per["vec"]) / n, statistics.median(per["numpy"]) / n
                print(f"{fn:<8} {dtype:<8} {n:>9,} {ours:>12.3f} {theirs:>14.3f} {med:>6.2f}x "
                      f"{q1:>6.2f}-{q3:<5.2f} {ulps_apart(y, z):>10.2f}")
                if n == 1_000_000 and med > TARGET:
                    missed.append(f"{fn} {dtype} 1M: {med:.2f}x NumPy's time, target {TARGET}x")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average over the last minute: {load:.2f} on {os.cpu_count()} cores")
    for m in missed:
        print("missed:", m)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
