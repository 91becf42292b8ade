"""Copies and size-independence: what godlpack's copies and zero-copy exchanges cost as tensors grow.

Two tables, every figure the median of several rounds measured in this one run:

1. A zero-copy exchange at 1 element and at 64 Mi elements (256 MiB): its cost must not grow.
2. A copy of a 64 Mi-element float32 tensor (contiguous, and transposed) into fresh C-contiguous memory:
   godlpack.from_dlpack(t, copy=True) of a zero-copy Tensor t of x against NumPy (numpy.array(x, order="C")) and PyTorch
   (x.contiguous() / x.clone()), as GB/s of data copied.

    python bench/copies.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, Callable

import numpy as np
import torch

import godlpack

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
    args = parser.parse_args()
    torch.set_num_threads(1)

    print("zero-copy exchange, ns per exchange:")
    print()
    print("| exchange | 1 element | 64 Mi elements |")
    print("| --- | ---: | ---: |")
    small_np, big_np = np.zeros(1, np.float32), np.zeros(N, np.float32)
    small_g, big_g = godlpack.zeros(1), godlpack.zeros(N)
    for name, small, big, consume in [
        ("numpy -> godlpack", small_np, big_np, godlpack.from_dlpack),
        ("godlpack -> numpy", small_g, big_g, np.from_dlpack),
        ("godlpack -> torch", small_g, big_g, torch.from_dlpack),
    ]:
        a = median_seconds(lambda: consume(small), args.rounds, 20_000) * 1e9
        b = median_seconds(lambda: consume(big), args.rounds, 20_000) * 1e9
        print(f"| {name} | {a:,.0f} | {b:,.0f} |")

    print()
    print(f"copy of {N * 4 >> 20} MiB of float32 into fresh C-contiguous memory, GB/s:")
    print()
    print("| source layout | godlpack (copy=True) | NumPy | PyTorch | godlpack / NumPy |")
    print("| --- | ---: | ---: | ---: | ---: |")
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
        print(f"| {name} | {gb / g:.2f} | {gb / n:.2f} | {gb / p:.2f} | {n / g:.2f}x |")


if __name__ == "__main__":
    main()
