"""Selection on one thread: package vec's TopK and ArgMax (bench/gotoolbox's topk and argmax) against NumPy and
PyTorch.

topk(x, 10) of 100k and 1M float32 (standard normal), its values and int64 indexes best first, against NumPy as a
user writes it (np.argpartition, then the k sorted: `i = np.argpartition(x, -k)[-k:]; i = i[np.argsort(-x[i])]`,
`x[i]`) and torch.topk(t, k) (sorted, largest); argmax(x) against np.argmax(x) (and torch.argmax for reference).
Every library on one thread: gotoolbox.set_num_threads(1), torch.set_num_threads(1); NumPy's selection has one.

Every case runs in this one process, in interleaved rounds (bench/rounds.py), each the call as a user writes it
compiled into timeit's own loop; a ratio is the median of its per-round ratios, shown with the quartiles of those
ratios (the spread). The load average before and after says how busy the machine was. Before timing, the results
are checked: the same indexes as a stable sort's first k (ties to the lower index), the same values, NumPy's and
PyTorch's indexes, and np.argmax's.

    python bench/toolbox_selection.py [--rounds 41] [--check]

--check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # PyTorch's idle OpenMP threads sleep rather than spin

from calls import OUT, ROOT, build_go  # noqa: E402
from rounds import Call, measure, verdict  # noqa: E402

K = 10
SIZES = (100_000, 1_000_000)

# (figure, measured, anchor, target): the median per-round ratio measured / anchor must stay at or below target.
# A top-k costs about one pass over x (only elements past the k-th best so far leave the vector scan), where
# np.argpartition writes an index array of 8n bytes and partitions it; an arg-max of 1M float32 (4 MB) is bound by
# the caches' bandwidth for both libraries alike.
TARGETS: list[tuple[str, str, str, float]] = []
for n in SIZES:
    TARGETS += [
        (f"topk k={K}, {n:,} float32: vec vs np.argpartition + sort", f"vec topk {n}", f"NumPy topk {n}", 0.2),
        (f"topk k={K}, {n:,} float32: vec vs torch.topk", f"vec topk {n}", f"PyTorch topk {n}", 0.2),
        (f"argmax, {n:,} float32: vec vs np.argmax", f"vec argmax {n}", f"NumPy argmax {n}",
         1.0 if n < 1_000_000 else 1.1),
    ]


def np_topk(x: Any, k: int) -> tuple[Any, Any]:
    import numpy as np

    i = np.argpartition(x, -k)[-k:]
    i = i[np.argsort(-x[i], kind="stable")]
    return x[i], i


def cases(n: int) -> tuple[dict[str, Call], dict[str, Call]]:
    """The top-k cases and the arg-max cases of n elements: timed apart, so that argmax's data stays in the caches
    as it would in a loop of them (after np.argpartition's index array of 8n bytes, the next case starts cold)."""
    import numpy as np
    import torch

    import gotoolbox  # type: ignore[import-not-found]

    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    t = torch.from_numpy(x)
    check(gotoolbox, x, t)
    names: dict[str, Any] = {"g": gotoolbox, "np_topk": np_topk, "np": np, "torch": torch, "x": x, "t": t, "k": K}
    topk: dict[str, Call] = {
        f"vec topk {n}": ("g.topk(x, k)", names),
        f"NumPy topk {n}": ("np_topk(x, k)", names),
        f"PyTorch topk {n}": ("torch.topk(t, k)", names),
    }
    argmax: dict[str, Call] = {
        f"vec argmax {n}": ("g.argmax(x)", names),
        f"NumPy argmax {n}": ("np.argmax(x)", names),
        f"PyTorch argmax {n}": ("torch.argmax(t)", names),
    }
    return topk, argmax


def check(gotoolbox: Any, x: Any, t: Any) -> None:
    """The libraries agree, and vec's ties go to the lower index."""
    import numpy as np
    import torch

    vals, idx = gotoolbox.topk(x, K)
    first = np.argsort(-x, kind="stable")[:K]
    assert idx.dtype == np.int64 and np.array_equal(idx, first), (idx, first)
    assert np.array_equal(vals, x[first])
    assert np.array_equal(np_topk(x, K)[1], first)
    assert np.array_equal(torch.topk(t, K).indices.numpy(), first)
    assert gotoolbox.argmax(x) == np.argmax(x) == int(torch.argmax(t))
    ties = np.zeros(1000, np.float32)
    ties[[3, 500, 700]] = 1
    assert gotoolbox.topk(ties, 5)[1].tolist() == [3, 500, 700, 0, 1]


def quartiles(per_round: dict[str, list[float]], measured: str, anchor: str) -> tuple[float, float, float]:
    q1, med, q3 = statistics.quantiles([m / a for m, a in zip(per_round[measured], per_round[anchor])], n=4)
    return q1, med, q3


def report(per_round: dict[str, list[float]], rounds: int, load: tuple[float, float]) -> tuple[str, bool]:
    import numpy as np
    import torch

    med = {name: statistics.median(v) for name, v in per_round.items()}
    lines = [f"numpy {np.__version__}, torch {torch.__version__}, Python {platform.python_version()}; one thread; "
             f"median of {rounds} interleaved rounds, times in us; ratios: median (quartiles) of per-round ratios; "
             f"load average {load[0]:.1f} before, {load[1]:.1f} after", "",
             "| case | elements | vec | NumPy | PyTorch | vec / NumPy | vec / PyTorch |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for op, what in (("topk", f"top-{K}, values and indexes best first"), ("argmax", "arg-max")):
        for n in SIZES:
            cells = " | ".join(f"{med[f'{lib} {op} {n}'] / 1000:,.2f}" for lib in ("vec", "NumPy", "PyTorch"))
            ratios = " | ".join("{1:.3f}x ({0:.3f}-{2:.3f})".format(*quartiles(per_round, f"vec {op} {n}", f"{lib} {op} {n}"))
                                for lib in ("NumPy", "PyTorch"))
            lines.append(f"| {what} | {n:,} | {cells} | {ratios} |")
    lines += ["", "| target | ratio | at most | |", "| --- | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = quartiles(per_round, measured, anchor)[1]
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {r:.3f}x | {target}x | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    build_go("gotoolbox", ROOT / "bench" / "gotoolbox")
    sys.path.insert(0, str(OUT))
    import torch

    import gotoolbox  # type: ignore[import-not-found]

    torch.set_num_threads(1)
    gotoolbox.set_num_threads(1)
    before = os.getloadavg()[0]
    per_round: dict[str, list[float]] = {}
    for n in SIZES:  # calls a round: short ones, which a busy machine interrupts less often
        topk, argmax = cases(n)
        per_round |= measure(topk, args.rounds, max(1, 2_000_000 // n))
        per_round |= measure(argmax, args.rounds, max(1, 5_000_000 // n))
    text, all_met = report(per_round, args.rounds, (before, os.getloadavg()[0]))
    print(text)
    verdict(all_met, args.check)


if __name__ == "__main__":
    main()
