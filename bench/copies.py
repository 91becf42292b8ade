"""Copies: what godlpack's copies cost against NumPy's and PyTorch's, measured in this one run.

A copy of a 64 Mi-element float32 tensor (contiguous, and transposed) into fresh C-contiguous memory:
godlpack.from_dlpack(t, copy=True) of a zero-copy Tensor t of x against NumPy (numpy.array(x, order="C")) and
PyTorch (x.contiguous() / x.clone()), as GB/s of data copied, the median of several rounds. (bench/exchange.py
shows that zero-copy exchanges cost the same at 1 element and at 1 GiB.) Then new tensors of that size:
zeros (then written once by a copy into it, as a result is: zeros from calloc are zero pages until written)
and full, against NumPy's and PyTorch's, in milliseconds.

    python bench/copies.py [--rounds 5] [--readme docs/speed.md]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

import godlpack
from readme import rewrite_section

N = 1 << 26  # 64 Mi float32 elements: 256 MiB


def median_seconds(f: Callable[[], Any], rounds: int, number: int = 1) -> float:
    f()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(number):
            f()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--readme", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    lines = [
        f"copy of {N * 4 >> 20} MiB of float32 into fresh C-contiguous memory, GB/s, median of {args.rounds} rounds:",
        "",
        "| source layout | godlpack (copy=True) | NumPy | PyTorch | godlpack / NumPy |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    side = 1 << 13
    a = np.arange(N, dtype=np.float32)
    for name, x in [("contiguous", a), ("transposed 8192x8192", a.reshape(side, side).T)]:
        t = torch.from_numpy(x) if x.flags.c_contiguous else torch.from_numpy(np.ascontiguousarray(x.T)).T
        # Through a zero-copy Tensor first, so that godlpack makes the copy (NumPy's own __dlpack__(copy=True)
        # would copy in memory order and keep the transposed layout).
        view = godlpack.from_dlpack(x)
        g = median_seconds(lambda: godlpack.from_dlpack(view, copy=True), args.rounds)
        n = median_seconds(lambda: np.array(x, order="C"), args.rounds)
        p = median_seconds((lambda: t.clone()) if x.flags.c_contiguous else (lambda: t.contiguous()), args.rounds)
        gb = x.nbytes / 1e9
        lines.append(f"| {name} | {gb / g:.2f} | {gb / n:.2f} | {gb / p:.2f} | {n / g:.2f}x |")
    lines += [
        "",
        f"a new tensor of {N * 4 >> 20} MiB of float32, ms, median of {args.rounds} rounds:",
        "",
        "| made by | godlpack | NumPy | PyTorch | godlpack time / NumPy's |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    one = np.ones(N, dtype=np.float32)
    made = {
        "zeros, then written": (lambda: np.copyto(np.from_dlpack(godlpack.zeros(N, dtype="float32")), one),
                                lambda: np.copyto(np.zeros(N, dtype=np.float32), one),
                                lambda: torch.zeros(N, dtype=torch.float32).copy_(torch.from_numpy(one))),
        "full(n, 2.5)": (lambda: godlpack.full(N, 2.5, dtype="float32"), lambda: np.full(N, 2.5, dtype=np.float32),
                         lambda: torch.full((N,), 2.5, dtype=torch.float32)),
    }
    for name, (g_make, n_make, p_make) in made.items():
        g, n, p = (median_seconds(f, args.rounds) for f in (g_make, n_make, p_make))
        lines.append(f"| {name} | {g * 1e3:.1f} | {n * 1e3:.1f} | {p * 1e3:.1f} | {g / n:.2f}x |")
    text = "\n".join(lines)
    print(text)
    if args.readme:
        rewrite_section(args.readme, "copies-bench", "bench/copies.py", text)


if __name__ == "__main__":
    main()
