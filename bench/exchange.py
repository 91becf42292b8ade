"""The cost of one zero-copy DLPack exchange, for every producer -> consumer pair.

Each exchange hands a 1-element float32 tensor from a producer (numpy, torch or
godlpack) to a consumer's from_dlpack and drops the result. Every figure is the
median over several rounds, measured in this one run, and is shown beside the
same exchange done by NumPy alone (numpy -> numpy) and by PyTorch alone
(torch -> torch).

    python bench/exchange.py [--rounds 7] [--number 100000]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import timeit
from typing import Any, Callable

import numpy as np
import torch

import godlpack

CONSUMERS: dict[str, Callable[[Any], Any]] = {
    "numpy": np.from_dlpack,
    "torch": torch.from_dlpack,
    "godlpack": godlpack.from_dlpack,
}


def producers() -> dict[str, Any]:
    return {
        "numpy": np.zeros(1, dtype=np.float32),
        "torch": torch.zeros(1, dtype=torch.float32),
        "godlpack": godlpack.zeros(1, dtype="float32"),
    }


def measure(consume: Callable[[Any], Any], source: Any, rounds: int, number: int) -> float:
    """Median nanoseconds per exchange over rounds of number calls each."""
    timer = timeit.Timer(lambda: consume(source))
    timer.timeit(number // 10)  # warm up caches and lazy imports
    gc.disable()
    try:
        times = [timer.timeit(number) / number * 1e9 for _ in range(rounds)]
    finally:
        gc.enable()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=100_000)
    args = parser.parse_args()

    torch.set_num_threads(1)
    sources = producers()
    results: dict[tuple[str, str], float] = {}
    for producer, source in sources.items():
        for consumer, consume in CONSUMERS.items():
            results[producer, consumer] = measure(consume, source, args.rounds, args.number)

    numpy_alone = results["numpy", "numpy"]
    torch_alone = results["torch", "torch"]
    print(
        f"godlpack {godlpack.__version__}, numpy {np.__version__}, torch {torch.__version__}; "
        f"1-element float32, median of {args.rounds} rounds x {args.number:,}"
    )
    print()
    print(f"| producer -> consumer | ns / exchange | vs numpy -> numpy | vs torch -> torch |")
    print(f"| --- | ---: | ---: | ---: |")
    for (producer, consumer), ns in results.items():
        print(f"| {producer} -> {consumer} | {ns:,.0f} | {ns / numpy_alone:.2f}x | {ns / torch_alone:.2f}x |")


if __name__ == "__main__":
    main()
