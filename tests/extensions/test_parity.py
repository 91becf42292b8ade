"""One protocol core: every producer call answers the same on godlpack.Tensor and on an extension's Tensor.

The producer rows of docs/python-api.md's table, and the calls where the two once drifted apart, run against a godlpack.Tensor and
against the normalize.Tensor that examples/normalize returns (a Go extension built only on the public packages,
with its own copy of package capsule's tensor type). Each runs in a process of its own, so that neither sees the
other; the outcomes, exception types and messages included, must be equal: docs/protocol.md#versions-and-scope.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from child_env import SUPPORT, child_env
from go_examples import build_normalize  # other tests import it from here too
from repository import ROOT

WORKER = SUPPORT / "parity_worker.py"

# Where the two once answered differently, and what every producer must refuse the same way.
EXTRA_CALLS = [
    "t.__dlpack__(max_version=(1, -1))",
    "t.__dlpack__(max_version=(2**70, 0))",
    "t.__dlpack__(max_version=(1, 2**70))",
    "t.__dlpack__(dl_device=(1, 'x'))",
    "t.__dlpack__(dl_device=(1, 0, 0))",
    "t.__dlpack__(copy=1)",
    "t.__dlpack__(1)",
    "t.__dlpack__(nope=1)",
    "t.__dlpack__(stream=True)",
    "t.__dlpack__(stream=2**80)",
    "t.__dlpack__(copy=True)",
    "t.__dlpack__(copy=True, max_version=(1, 0))",
    "t.__dlpack__(copy=False, max_version=(1, 2))",
    "t.__dlpack_device__()",
    "t.__dlpack_device__(1)",
    "type(t).__dlpack_c_exchange_api__",
]


def readme_producer_calls() -> list[str]:
    text = (ROOT / "docs" / "python-api.md").read_text()
    section = text[text.index("<!-- conformance:start -->") : text.index("<!-- conformance:end -->")]
    calls = [c for c in re.findall(r"^\| `(.+?)` \|", section, flags=re.M) if c.startswith("t.")]
    assert len(calls) >= 10, "the table of docs/python-api.md lost its producer rows"
    return calls


@pytest.fixture(scope="module")
def normalize_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalize(tmp_path_factory.mktemp("normalize"))


def run_worker(kind: str, calls: list[str], extra_path: Path | None = None) -> list[list[object]]:
    env = child_env(*([extra_path] if extra_path else []))
    done = subprocess.run([sys.executable, str(WORKER), kind], input=json.dumps(calls), capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    outcomes: list[list[object]] = json.loads(done.stdout)
    return outcomes


def test_tensor_and_exporter_answer_alike(normalize_dir: Path) -> None:
    calls = readme_producer_calls() + EXTRA_CALLS
    tensor = run_worker("godlpack", calls)
    exporter = run_worker("normalize", calls, normalize_dir)
    for call, a, b in zip(calls, tensor, exporter):
        assert a == b, f"{call}: godlpack.Tensor gave {a}, normalize.Tensor gave {b}"
    # The rows are not vacuous: both kinds of outcome occur.
    kinds = {o[0] for o in tensor}
    assert {"raise", "capsule"} <= kinds, kinds
