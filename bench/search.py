"""examples/search against its nanobind twin (bench/nb_search.cpp), NumPy and PyTorch, on one thread.

examples/search is a Go author's module on package vec's toolbox (vec.Exp, vec.Dots, vec.TopK ...);
bench/nb_search.cpp is the same module as a C++ author writes it with nanobind (std::exp, std::partial_sort, loops
that g++ -O3 -march=native vectorizes, OpenMP); NumPy's and PyTorch's versions are what their users write:

- softmax_ of 4096x1024 float32 rows, in place: NumPy subtracts the row max, exps and divides, all with out=;
  PyTorch's torch.softmax(t, dim=1);
- layer_norm of 4096x1024 float32 (eps 1e-5, gamma, beta): NumPy's mean, var and the expression;
  torch.nn.functional.layer_norm;
- scores, 64x128 queries by 100k x128 corpus: q @ c.T (OpenBLAS's and PyTorch's sgemm);
- cosine_topk, the same shapes, k = 10, both normalized inside the call: NumPy normalizes both, multiplies,
  np.argpartition and sorts the k; PyTorch normalizes, multiplies and torch.topk;
- Index.add of the 100k rows into a new Index, and Index.search of the 64 queries, k = 10 (Go and the twin).

Every library on one thread (search.set_num_threads(1), nb_search.set_num_threads(1), torch.set_num_threads(1),
OPENBLAS_NUM_THREADS=1), C-contiguous float32 inputs. Before timing, every library's results are checked against
NumPy's: scores within float32 rounding, top-k indices equal but at ties. Every case runs in this one process, in
interleaved rounds (bench/rounds.py); a ratio is the median of its per-round ratios.

    python bench/search.py [--rounds 15] [--check]

--check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from typing import Any

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads its BLAS
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from calls import OUT, ROOT, build_go, build_nanobind  # noqa: E402
from rounds import Call, measure, ratio, verdict  # noqa: E402

NATIVE = OUT / "native"
ROWS, WIDTH = 4096, 1024
NQ, NC, DIM, K = 64, 100_000, 128, 10
LIBS = ("Go", "nanobind", "NumPy", "PyTorch")
FUNCTIONS = ("softmax_", "layer_norm", "scores", "cosine_topk", "Index.add", "Index.search")

# (figure, measured, anchor, target): the median per-round ratio measured / anchor must stay at or below target.
TARGETS: list[tuple[str, str, str, float]] = [
    ("softmax_ 4096x1024: Go vs NumPy", "Go softmax_", "NumPy softmax_", 0.6),
    ("softmax_ 4096x1024: Go vs torch.softmax", "Go softmax_", "PyTorch softmax_", 0.6),
    ("cosine_topk q=64, n=100k, d=128, k=10: Go vs NumPy", "Go cosine_topk", "NumPy cosine_topk", 0.5),
    ("cosine_topk: Go vs its nanobind twin", "Go cosine_topk", "nanobind cosine_topk", 0.6),
] + [(f"{f}: Go vs its nanobind twin", f"Go {f}", f"nanobind {f}", 1.0)
     for f in ("layer_norm", "scores", "Index.add", "Index.search", "softmax_")]


def numpy_version() -> dict[str, Any]:
    import numpy as np

    def softmax_(x: Any) -> None:
        np.subtract(x, x.max(axis=1, keepdims=True), out=x)
        np.exp(x, out=x)
        np.divide(x, x.sum(axis=1, keepdims=True), out=x)

    def layer_norm(x: Any, gamma: Any, beta: Any, eps: float = 1e-5) -> Any:
        mean = x.mean(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(x.var(axis=1, keepdims=True) + eps) * gamma + beta

    def normalized(x: Any) -> Any:
        return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)

    def cosine_topk(q: Any, c: Any, k: int) -> tuple[Any, Any]:
        s = normalized(q) @ normalized(c).T
        i = np.argpartition(-s, k - 1, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(s, i, axis=1), axis=1, kind="stable")
        i = np.take_along_axis(i, order, axis=1)
        return np.take_along_axis(s, i, axis=1), i

    return {"softmax_": softmax_, "layer_norm": layer_norm, "scores": lambda q, c: q @ c.T,
            "cosine_topk": cosine_topk}


def torch_version() -> dict[str, Any]:
    import torch
    import torch.nn.functional as F

    def cosine_topk(q: Any, c: Any, k: int) -> tuple[Any, Any]:
        return torch.topk(F.normalize(q) @ F.normalize(c).T, k)

    return {"softmax_": lambda t: torch.softmax(t, dim=1),
            "layer_norm": lambda x, g, b: F.layer_norm(x, (x.shape[1],), g, b, eps=1e-5),
            "scores": lambda q, c: q @ c.T, "cosine_topk": cosine_topk}


def check(go: Any, nb: Any) -> None:
    """Every library's results against NumPy's, on small inputs: within float32 rounding, indices equal but at ties."""
    import numpy as np
    import torch

    rng = np.random.default_rng(1)
    x = rng.standard_normal((33, 200)).astype(np.float32) * 5
    g, b = rng.standard_normal(200).astype(np.float32), rng.standard_normal(200).astype(np.float32)
    q, c = rng.standard_normal((7, 64)).astype(np.float32), rng.standard_normal((3000, 64)).astype(np.float32)
    ref, tv = numpy_version(), torch_version()
    want = x.copy()
    ref["softmax_"](want)
    for lib, f in (("Go", go.softmax_), ("nanobind", nb.softmax_)):
        got = x.copy()
        f(got)
        assert np.allclose(got, want, rtol=1e-5, atol=1e-7), f"{lib} softmax_"
    assert np.allclose(tv["softmax_"](torch.from_numpy(x)).numpy(), want, rtol=1e-5, atol=1e-7)
    want = ref["layer_norm"](x, g, b)
    for lib, got in (("Go", go.layer_norm(x, g, b)), ("nanobind", nb.layer_norm(x, g, b)),
                     ("PyTorch", tv["layer_norm"](*map(torch.from_numpy, (x, g, b))).numpy())):
        assert np.allclose(got, want, rtol=1e-4, atol=1e-4), f"{lib} layer_norm"
    for lib, got in (("Go", go.scores(q, c)), ("nanobind", nb.scores(q, c))):
        assert np.allclose(got, q @ c.T, rtol=1e-4, atol=1e-4), f"{lib} scores"
    scores, indices = ref["cosine_topk"](q.astype(np.float64), c.astype(np.float64), K)
    ix_go, ix_nb = go.Index(64), nb.Index(64)
    ix_go.add(c)
    ix_nb.add(c)
    for lib, (s, i) in (("Go", go.cosine_topk(q, c, K)), ("nanobind", nb.cosine_topk(q, c, K)),
                        ("Go Index", ix_go.search(q, K)), ("nanobind Index", ix_nb.search(q, K)),
                        ("PyTorch", tuple(t.numpy() for t in tv["cosine_topk"](torch.from_numpy(q),
                                                                               torch.from_numpy(c), K)))):
        assert np.allclose(s, scores, atol=1e-5), f"{lib} cosine_topk scores"
        gaps = np.abs(np.diff(scores, axis=1))
        clear = np.ones(scores.shape, bool)
        clear[:, 1:] &= gaps > 1e-5
        clear[:, :-1] &= gaps > 1e-5
        assert (np.asarray(i)[clear] == indices[clear]).all(), f"{lib} cosine_topk indices"


def cases(go: Any, nb: Any) -> dict[str, Call]:
    import numpy as np
    import torch

    rng = np.random.default_rng(2)
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float32)
    g, b = rng.standard_normal(WIDTH).astype(np.float32), rng.standard_normal(WIDTH).astype(np.float32)
    q, c = rng.standard_normal((NQ, DIM)).astype(np.float32), rng.standard_normal((NC, DIM)).astype(np.float32)
    ix_go, ix_nb = go.Index(DIM), nb.Index(DIM)
    ix_go.add(c)
    ix_nb.add(c)
    ref, tv = numpy_version(), torch_version()
    t = {name: torch.from_numpy(a) for name, a in (("x", x), ("g", g), ("b", b), ("q", q), ("c", c))}
    names = {"go": go, "nb": nb, "np_": ref, "tv": tv, "x_go": x.copy(), "x_nb": x.copy(), "x_np": x.copy(),
             "t_x": t["x"], "x": x, "g": g, "b": b, "q": q, "c": c, "t": t, "ix_go": ix_go, "ix_nb": ix_nb, "K": K,
             "DIM": DIM}
    stmts = {
        "softmax_": {"Go": "go.softmax_(x_go)", "nanobind": "nb.softmax_(x_nb)", "NumPy": "np_['softmax_'](x_np)",
                     "PyTorch": "tv['softmax_'](t_x)"},
        "layer_norm": {"Go": "go.layer_norm(x, g, b)", "nanobind": "nb.layer_norm(x, g, b)",
                       "NumPy": "np_['layer_norm'](x, g, b)", "PyTorch": "tv['layer_norm'](t['x'], t['g'], t['b'])"},
        "scores": {"Go": "go.scores(q, c)", "nanobind": "nb.scores(q, c)", "NumPy": "np_['scores'](q, c)",
                   "PyTorch": "tv['scores'](t['q'], t['c'])"},
        "cosine_topk": {"Go": "go.cosine_topk(q, c, K)", "nanobind": "nb.cosine_topk(q, c, K)",
                        "NumPy": "np_['cosine_topk'](q, c, K)", "PyTorch": "tv['cosine_topk'](t['q'], t['c'], K)"},
        "Index.add": {"Go": "go.Index(DIM).add(c)", "nanobind": "nb.Index(DIM).add(c)"},
        "Index.search": {"Go": "ix_go.search(q, K)", "nanobind": "ix_nb.search(q, K)"},
    }
    return {f"{lib} {f}": (stmt, names) for f, by_lib in stmts.items() for lib, stmt in by_lib.items()}


def report(per_round: dict[str, list[float]], rounds: int, load: tuple[float, float]) -> tuple[str, bool]:
    import nanobind
    import numpy as np
    import torch

    med = {name: statistics.median(v) for name, v in per_round.items()}
    lines = [f"numpy {np.__version__}, torch {torch.__version__}, nanobind {nanobind.__version__} (g++ -O3 "
             f"-march=native -fopenmp), Python {platform.python_version()}; one thread; median of {rounds} "
             f"interleaved rounds, times in ms; load average {load[0]:.1f} before, {load[1]:.1f} after", "",
             "| function | " + " | ".join(LIBS) + " | Go / nanobind | Go / NumPy | Go / PyTorch |",
             "| --- | " + " | ".join("---:" for _ in LIBS) + " | ---: | ---: | ---: |"]
    for f in FUNCTIONS:
        cells = " | ".join(f"{med[f'{lib} {f}'] / 1e6:,.2f}" if f"{lib} {f}" in med else "" for lib in LIBS)
        ratios = " | ".join(f"{ratio(per_round, f'Go {f}', f'{lib} {f}'):.2f}x" if f"{lib} {f}" in med else ""
                            for lib in ("nanobind", "NumPy", "PyTorch"))
        lines.append(f"| `{f}` | {cells} | {ratios} |")
    lines += ["", "| target | ratio | at most | |", "| --- | ---: | ---: | --- |"]
    all_met = True
    for figure, measured, anchor, target in TARGETS:
        r = ratio(per_round, measured, anchor)
        met = r <= target
        all_met &= met
        lines.append(f"| {figure} | {r:.2f}x | {target:.2f}x | {'met' if met else 'MISSED'} |")
    return "\n".join(lines), all_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    NATIVE.mkdir(parents=True, exist_ok=True)
    build_go("search", ROOT / "examples" / "search")
    build_nanobind("nb_search", flags=("-O3", "-march=native", "-fopenmp"), out=NATIVE)
    sys.path[:0] = [str(OUT), str(NATIVE)]
    import torch

    import nb_search  # type: ignore[import-not-found]
    import search  # type: ignore[import-not-found]

    torch.set_num_threads(1)
    search.set_num_threads(1)
    nb_search.set_num_threads(1)
    check(search, nb_search)
    before = os.getloadavg()[0]
    per_round = measure(cases(search, nb_search), args.rounds, 3)
    text, all_met = report(per_round, args.rounds, (before, os.getloadavg()[0]))
    print(text)
    verdict(all_met, args.check)


if __name__ == "__main__":
    main()
