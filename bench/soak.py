"""Soak: a million DLPack exchanges in mixed directions must not grow memory or leak a storage.

Exchanges go numpy -> godlpack, godlpack -> numpy, torch -> godlpack, godlpack -> torch, through capsules
(consumed and dropped unconsumed), along re-export chains (torch -> godlpack -> numpy, numpy -> godlpack
-> torch), and through copies; every result is dropped at once. After a warm-up (a tenth of the run, at
most 100,000 exchanges) resident memory is read from /proc/self/statm; at the end it must be within
--rss-slack bytes (1 MiB) of that figure, and godlpack's live storage counter back at its baseline.

    python bench/soak.py [--exchanges 1000000] [--seconds 0] [--json] [--readme docs/guarantees.md]

--seconds bounds the run in time (0: no bound) for CI; the exchange count then may fall short of
--exchanges, and the figures say how many ran. Exit status 1 when memory grew or a storage leaked. --readme
writes the report into the soak-bench section of docs/guarantees.md (or the file given).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

import godlpack
from readme import rewrite_section

PAGE = os.sysconf("SC_PAGE_SIZE")
MiB = 1 << 20


def rss() -> int:
    """Resident memory of this process in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def exchanges() -> list[Callable[[], Any]]:
    """One round of exchanges; each callable makes one (or, for chains, two) from_dlpack calls."""
    a = np.arange(16, dtype=np.float32)
    x = torch.arange(16, dtype=torch.float64)
    g = godlpack.arange(16, dtype="float32")
    return [
        lambda: godlpack.from_dlpack(a),  # numpy -> godlpack
        lambda: np.from_dlpack(g),  # godlpack -> numpy
        lambda: godlpack.from_dlpack(x),  # torch -> godlpack
        lambda: torch.from_dlpack(g),  # godlpack -> torch
        lambda: np.from_dlpack(godlpack.from_dlpack(x)),  # torch -> godlpack -> numpy
        lambda: torch.from_dlpack(godlpack.from_dlpack(a)),  # numpy -> godlpack -> torch
        lambda: godlpack.from_dlpack(g.__dlpack__(max_version=(1, 3))),  # a consumed capsule
        lambda: g.__dlpack__(),  # a legacy capsule dropped unconsumed
        lambda: godlpack.from_dlpack(godlpack.zeros(8)),  # a fresh Go-made tensor
        lambda: godlpack.from_dlpack(a, copy=True),  # a copy made by Go
    ]


COST = [1, 1, 1, 1, 2, 2, 1, 1, 1, 1]  # exchanges each callable counts for


def run(total: int, warmup: int, seconds: float) -> dict[str, Any]:
    gc.collect()
    baseline = godlpack._core._live_storages()
    calls = exchanges()
    per_round = sum(COST)
    start = time.perf_counter()
    deadline = start + seconds if seconds > 0 else float("inf")
    done = 0
    warm_rss = warm_live = None
    check_every = 1000 * per_round
    while done < total:
        for f in calls:
            f()
        done += per_round
        if warm_rss is None and done >= warmup:
            gc.collect()
            warm_rss, warm_live = rss(), godlpack._core._live_storages()
            warm_at = done
        if done % check_every < per_round and time.perf_counter() > deadline:
            break
    elapsed = time.perf_counter() - start
    del calls
    gc.collect()
    end_rss, end_live = rss(), godlpack._core._live_storages()
    if warm_rss is None:  # stopped before the warm-up ended: nothing to compare
        warm_rss, warm_live, warm_at = end_rss, end_live, done
    return {
        "exchanges": done,
        "warmup_exchanges": warm_at,
        "seconds": round(elapsed, 2),
        "exchanges_per_second": round(done / elapsed),
        "rss_after_warmup_bytes": warm_rss,
        "rss_end_bytes": end_rss,
        "rss_growth_bytes": end_rss - warm_rss,
        "live_baseline": baseline,
        "live_after_warmup": warm_live,
        "live_end": end_live,
        "numpy": np.__version__,
        "torch": torch.__version__,
        "python": sys.version.split()[0],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--exchanges", type=int, default=1_000_000, help="exchanges to run (default 1,000,000)")
    p.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: no bound)")
    p.add_argument("--warmup", type=int, default=0, help="warm-up exchanges (default: a tenth, at most 100,000)")
    p.add_argument("--rss-slack", type=int, default=MiB, help="allowed RSS growth after warm-up, bytes")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--readme", type=Path, help="write the report into this document's soak-bench section")
    args = p.parse_args()
    warmup = args.warmup or min(args.exchanges // 10, 100_000)
    r = run(args.exchanges, warmup, args.seconds)
    ok = r["rss_growth_bytes"] <= args.rss_slack and r["live_end"] == r["live_baseline"]
    r["ok"] = ok
    if args.json:
        print(json.dumps(r))
    else:
        text = "\n".join([
            "| figure | value |",
            "| --- | --- |",
            f"| exchanges | {r['exchanges']:,} in {r['seconds']} s ({r['exchanges_per_second']:,} a second), "
            f"warm-up {r['warmup_exchanges']:,} |",
            f"| resident memory | {r['rss_after_warmup_bytes'] / MiB:.2f} MiB after warm-up, "
            f"{r['rss_end_bytes'] / MiB:.2f} MiB at the end: {r['rss_growth_bytes'] / 1024:+.0f} KiB "
            f"(allowed {args.rss_slack / 1024:+.0f} KiB) |",
            f"| live storages | baseline {r['live_baseline']}, after warm-up {r['live_after_warmup']}, "
            f"end {r['live_end']} |",
            f"| versions | Python {r['python']}, NumPy {r['numpy']}, PyTorch {r['torch']} |",
            "",
            "OK" if ok else "FAIL",
        ])
        print(text)
        if args.readme:
            rewrite_section(args.readme, "soak-bench", "bench/soak.py", text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
