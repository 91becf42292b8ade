"""python -m godlpack: round-trip tensors with NumPy (and PyTorch when installed)."""

from __future__ import annotations

import argparse
import importlib
import sys
import types
from typing import Any, Callable, Optional

import godlpack


def _address(x: Any) -> int:
    if hasattr(x, "__array_interface__"):
        return int(x.__array_interface__["data"][0])
    return int(x.data_ptr())


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m godlpack",
        description="Round-trip tensors between godlpack, NumPy and (when installed) PyTorch, show that every "
        "exchange shares memory, and run godlpack.ops kernels on the peers' own memory. Exits 0 when every "
        "exchange was zero-copy, 1 otherwise.",
    )
    parser.parse_args(argv)  # --help prints the usage and exits; unknown arguments exit 2
    try:
        import numpy as np
    except ImportError:
        print("the demo needs NumPy: pip install numpy", file=sys.stderr)
        return 1
    torch: Optional[types.ModuleType]
    try:
        torch = importlib.import_module("torch")
    except ImportError:
        torch = None

    print(f"godlpack {godlpack.__version__}, DLPack {godlpack.DLPACK_VERSION[0]}.{godlpack.DLPACK_VERSION[1]}")
    print(f"numpy {np.__version__}" + (f", torch {torch.__version__}" if torch is not None else ", torch not installed"))
    print()

    # Each case: a name, a source tensor, and the consumer that takes the godlpack Tensor back.
    cases: list[tuple[str, Any, Callable[[Any], Any]]] = [
        ("numpy -> godlpack -> numpy", np.arange(12, dtype=np.float32).reshape(3, 4), np.from_dlpack),
        ("godlpack -> numpy", godlpack.arange(6, dtype="float64"), np.from_dlpack),
        ("numpy view -> godlpack -> numpy", np.arange(20, dtype=np.int64).reshape(4, 5)[::2, 1::2], np.from_dlpack),
    ]
    if torch is not None:
        cases += [
            ("torch -> godlpack -> torch", torch.arange(8, dtype=torch.float32).reshape(2, 4), torch.from_dlpack),
            ("numpy -> godlpack -> torch", np.linspace(0, 1, 5), torch.from_dlpack),
            ("torch -> godlpack -> numpy", torch.ones(2, 3, dtype=torch.int32), np.from_dlpack),
            ("godlpack -> torch", godlpack.full((2, 2), 7, dtype="int16"), torch.from_dlpack),
            ("torch transposed -> godlpack -> torch", torch.arange(6.0).reshape(2, 3).T, torch.from_dlpack),
        ]

    header = f"{'round trip':<40} {'dtype':<8} {'shape':<8} {'strides*':<9} {'same memory':<12} {'write seen'}"
    print(header)
    print("-" * len(header))
    ok = True
    for name, source, consume in cases:
        middle = source if isinstance(source, godlpack.Tensor) else godlpack.from_dlpack(source)
        out = consume(middle)
        same = _address(out) == _address(source) == middle.data_ptr()
        # A write through the consumer's array must show in the source: one memory, three views.
        out[(0,) * out.ndim] = 99
        seen = middle.tolist()
        for _ in range(middle.ndim):
            seen = seen[0]
        seen_ok = seen == 99
        ok &= same and seen_ok
        print(
            f"{name:<40} {str(middle.dtype):<8} {str(middle.shape):<8} {str(middle.strides):<9} "
            f"{'yes' if same else 'NO':<12} {'yes' if seen_ok else 'NO'}"
        )
    print("* strides in elements, as Tensor.strides and torch count them (NumPy's are in bytes)")
    print()
    print("every exchange shared memory, zero copies" if ok else "SOME EXCHANGE COPIED")
    print()

    # Go kernels working in place on the peers' own memory, through the same protocol.
    from godlpack import ops

    x = np.arange(6.0).reshape(2, 3)[:, ::2]
    ops.scale_(x, 10)
    print(f"godlpack.ops.scale_(x, 10), x = np.arange(6.0).reshape(2, 3)[:, ::2], in Go -> numpy sees {x.tolist()}")
    if torch is not None:
        y = torch.arange(5, dtype=torch.int64)
        print(f"godlpack.ops.sum(torch.arange(5)) in Go -> {ops.sum(y)}")
        ops.copy_(y, np.full(5, 7, dtype=np.int64))
        print(f"godlpack.ops.copy_(torch tensor, numpy array) in Go -> torch sees {y.tolist()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
