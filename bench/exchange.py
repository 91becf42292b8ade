"""The cost of one zero-copy DLPack exchange, for every producer -> consumer pair, with the targets godlpack
holds itself to.

Each exchange hands a tensor from a producer (NumPy, PyTorch, godlpack or tvm-ffi) to a consumer's
from_dlpack and drops the result. All pairs are measured in this one process, in interleaved rounds, so
that every ratio compares figures taken moments apart; a ratio is the median of its per-round ratios.

    python bench/exchange.py [--rounds 9] [--number 20000] [--json out.json] [--plot out.png]
                             [--readme docs/speed.md]

--readme rewrites the section of docs/speed.md (or the file given) between <!-- exchange-bench:start --> and
<!-- exchange-bench:end --> with what this run printed; --plot draws the pairs as a bar chart.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
import tvm_ffi

import godlpack
from readme import rewrite_section
from rounds import Call, measure, ratio

LIBRARIES = ["numpy", "torch", "godlpack", "tvm-ffi"]
CONSUMERS: dict[str, Callable[[Any], Any]] = {
    "numpy": np.from_dlpack,
    "torch": torch.from_dlpack,
    "godlpack": godlpack.from_dlpack,
    "tvm-ffi": tvm_ffi.from_dlpack,
}
GIB = 1 << 30


def producers(nbytes: int) -> dict[str, Any]:
    """A float32 tensor of nbytes from each library (large ones are never touched, so take no memory)."""
    n = nbytes // 4
    a = np.zeros(n, dtype=np.float32)
    return {
        "numpy": a,
        "torch": torch.zeros(n, dtype=torch.float32),
        "godlpack": godlpack.empty(n, dtype="float32") if n > 1 else godlpack.zeros(n, dtype="float32"),
        "tvm-ffi": tvm_ffi.from_dlpack(a),
    }


def cases() -> dict[str, Call]:
    small, large = producers(4), producers(GIB)
    out: dict[str, Call] = {}
    for p in LIBRARIES:
        for c in LIBRARIES:
            src, consume = small[p], CONSUMERS[c]
            out[f"{p} -> {c}"] = lambda consume=consume, src=src: consume(src)
    for pair in ["numpy -> godlpack", "godlpack -> numpy", "godlpack -> torch", "torch -> godlpack"]:
        p, c = pair.split(" -> ")
        src, consume = large[p], CONSUMERS[c]
        out[f"{pair} (1 GiB)"] = lambda consume=consume, src=src: consume(src)
    out["godlpack.empty(1)"] = lambda: godlpack.empty(1)
    out["numpy.empty(1)"] = lambda: np.empty(1, dtype=np.float32)
    return out


# (figure, measured, anchor, target): measured / anchor must stay at or below target. The PyTorch import's 0.75x is
# issue 27's: about 245 of the ~2,900 instructions of ours are torch's requires_grad getter, which tvm-ffi does not
# call (it imports a tensor that requires grad, which torch's own __dlpack__ refuses; godlpack refuses it by both
# paths), so the target is missed by about that much.
TARGETS = [
    ("gd.from_dlpack(torch) vs tvm_ffi.from_dlpack(torch)", "torch -> godlpack", "torch -> tvm-ffi", 0.75),
    ("gd.from_dlpack(numpy) vs tvm_ffi.from_dlpack(numpy)", "numpy -> godlpack", "numpy -> tvm-ffi", 0.85),
    ("gd.from_dlpack(numpy) vs np.from_dlpack(numpy)", "numpy -> godlpack", "numpy -> numpy", 1.0),
    ("tvm_ffi.from_dlpack(godlpack) vs tvm_ffi.from_dlpack(torch)", "godlpack -> tvm-ffi", "torch -> tvm-ffi", 1.0),
    ("gd.empty(1) vs np.empty(1)", "godlpack.empty(1)", "numpy.empty(1)", 1.5),
    ("np.from_dlpack(godlpack) vs np.from_dlpack(numpy)", "godlpack -> numpy", "numpy -> numpy", 1.0),
    ("torch.from_dlpack(godlpack) vs torch.from_dlpack(torch)", "godlpack -> torch", "torch -> torch", 0.3),
    ("gd.from_dlpack(numpy): 1 GiB vs 1 element", "numpy -> godlpack (1 GiB)", "numpy -> godlpack", 1.1),
    ("np.from_dlpack(godlpack): 1 GiB vs 1 element", "godlpack -> numpy (1 GiB)", "godlpack -> numpy", 1.1),
    ("torch.from_dlpack(godlpack): 1 GiB vs 1 element", "godlpack -> torch (1 GiB)", "godlpack -> torch", 1.1),
]


def report(per_round: dict[str, list[float]], rounds: int, number: int) -> tuple[str, bool]:
    med = {name: statistics.median(v) for name, v in per_round.items()}
    lines = [
        f"godlpack {godlpack.__version__}, numpy {np.__version__}, torch {torch.__version__}, "
        f"tvm-ffi {tvm_ffi.__version__}, Python {platform.python_version()}; 1-element float32 unless said; "
        f"median of {rounds} interleaved rounds of {number:,} calls",
        "",
        "| producer -> consumer | " + " | ".join(LIBRARIES) + " |",
        "| --- | " + " | ".join("---:" for _ in LIBRARIES) + " |",
    ]
    for p in LIBRARIES:
        row = [f"{med[f'{p} -> {c}']:,.0f} ns" for c in LIBRARIES]
        lines.append(f"| **{p}** -> | " + " | ".join(row) + " |")
    lines += ["", "| figure | godlpack | anchor | ratio | target | |", "| --- | ---: | ---: | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {med[measured]:,.0f} ns | {med[anchor]:,.0f} ns | {r:.2f}x | "
                     f"<= {target:.2f}x | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def plot(per_round: dict[str, list[float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    med = {name: statistics.median(v) for name, v in per_round.items()}
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.2
    for i, p in enumerate(LIBRARIES):
        values = [med[f"{p} -> {c}"] for c in LIBRARIES]
        bars = ax.bar([k + (i - 1.5) * width for k in range(len(LIBRARIES))], values, width, label=f"from {p}")
        ax.bar_label(bars, labels=[f"{v:,.0f}" for v in values], fontsize=6, rotation=90, padding=2)
    ax.set_xticks(range(len(LIBRARIES)), [f"{c}.from_dlpack" for c in LIBRARIES])
    ax.set_yscale("log")
    ax.set_ylim(top=max(med[f"{p} -> {c}"] for p in LIBRARIES for c in LIBRARIES) * 4)  # room for the labels
    ax.set_ylabel("ns per exchange (log scale)")
    ax.set_title("One zero-copy DLPack exchange of a 1-element float32 tensor (lower is faster)")
    ax.legend(title="producer", fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--readme", type=Path)
    args = parser.parse_args()

    torch.set_num_threads(1)
    per_round = measure(cases(), args.rounds, args.number)
    text, all_met = report(per_round, args.rounds, args.number)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(per_round, indent=1))
    if args.plot:
        plot(per_round, args.plot)
    if args.readme:
        rewrite_section(args.readme, "exchange-bench", "bench/exchange.py", text, args.plot,
                        alt="ns per exchange, every producer and consumer")
    if not all_met:
        print("\nsome targets were missed", file=sys.stderr)


if __name__ == "__main__":
    main()
