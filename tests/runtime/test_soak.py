"""A bounded run of bench/soak.py for CI: memory settles and no storage leaks over mixed exchanges.

The full soak (a million exchanges, figures in docs/guarantees.md) is `python bench/soak.py`; CI runs 200,000
exchanges (capped at 120 s, a bound on the run, not an assertion) in a fresh interpreter, so that its
resident memory is that of the soak alone.
"""

from __future__ import annotations

import json
import subprocess
import sys

import lifetime_helpers as lh
from repository import ROOT

SOAK = ROOT / "bench" / "soak.py"


def test_soak_bounded() -> None:
    result = subprocess.run(
        [sys.executable, str(SOAK), "--exchanges", "200000", "--seconds", "120", "--json"],
        env=lh.child_env(with_lib=False), capture_output=True, text=True, timeout=600,
    )
    assert result.stderr == "", result.stderr
    figures = json.loads(result.stdout)
    assert figures["exchanges"] > figures["warmup_exchanges"] >= 10_000, figures
    assert figures["live_end"] == figures["live_baseline"], figures
    assert figures["rss_growth_bytes"] <= 1 << 20, figures
    assert figures["ok"] and result.returncode == 0, figures
