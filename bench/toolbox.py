"""package vec's toolbox against NumPy, PyTorch, OpenBLAS and nanobind: every bench of issue 49 in one run.

Runs, one after the other, each in a process of its own (each loads its own libraries and sets its own thread
counts before NumPy loads its BLAS):

- bench/toolbox_math.py: vec.Exp, Log and Tanh of float32 and float64 against np.exp, np.log, np.tanh(x, out=y);
- bench/toolbox_arith.py: the element-wise arithmetic and its one-pass forms against NumPy's passes with out=;
- bench/toolbox_products.py: vec.Dots (A·Bᵀ) and MatMul (A·B) against NumPy's @ (OpenBLAS), one thread and every
  core;
- bench/toolbox_selection.py: vec.TopK and ArgMax against np.argpartition, np.argmax and torch.topk;
- bench/search.py: examples/search (the toolbox in a Go author's module) against its nanobind twin, NumPy and
  PyTorch.

Each prints its table and its targets; this script prints them all and, with --check, exits 1 when any target is
missed. --readme writes them into docs/speed.md's toolbox section.

    python bench/toolbox.py [--check] [--readme docs/speed.md]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
PARTS = [
    ("Element-wise math", "toolbox_math.py"),
    ("Element-wise arithmetic", "toolbox_arith.py"),
    ("Matrix products", "toolbox_products.py"),
    ("Selection", "toolbox_selection.py"),
    ("examples/search against its nanobind twin, NumPy and PyTorch", "search.py"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--readme", type=Path, help="write the tables into this document's toolbox section")
    args = parser.parse_args()
    sections, missed = [], []
    for title, script in PARTS:
        done = subprocess.run([sys.executable, str(BENCH / script), "--check"], capture_output=True, text=True)
        if done.returncode not in (0, 1):
            sys.stderr.write(done.stderr)
            raise SystemExit(f"bench/{script} failed (exit status {done.returncode})")
        if done.returncode == 1:
            missed.append(script)
        sections.append(f"**{title}** (`bench/{script}`)\n\n{done.stdout.strip()}")
        print(sections[-1] + "\n", flush=True)
    if args.readme:
        from readme import rewrite_section

        rewrite_section(args.readme, "toolbox-bench", "bench/toolbox.py", "\n\n".join(sections))
    if missed:
        print(f"targets missed in: {', '.join(missed)}", file=sys.stderr)
        if args.check:
            sys.exit(1)


if __name__ == "__main__":
    main()
