"""godlpack.build's advice when a Go author's module cannot find godlpack's, which the Go module proxy does not serve
until godlpack is published: Go's own ("missing go.sum entry ...; to add: go get <your module>") points the wrong way,
and the helper names the `replace` to add instead (docs/go-extensions.md, Depend on godlpack from a Go module)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from go_examples import go_command, go_env
from godlpack.build import GODLPACK_MODULE, _unpublished_hint
from repository import ROOT


def vendor(module: Path) -> subprocess.CompletedProcess[str]:
    """`go mod vendor` in module, offline."""
    return subprocess.run([go_command(), "mod", "vendor"], cwd=module, capture_output=True, text=True, timeout=600,
                          env=dict(go_env(), GOFLAGS="-mod=mod", GOPROXY="off"))


def test_a_module_without_the_replace_is_told_to_add_one(tmp_path: Path) -> None:
    module = tmp_path / "rowstats"
    shutil.copytree(ROOT / "examples" / "rowstats", module, ignore=shutil.ignore_patterns("build", "*.so"))
    go = go_command()
    subprocess.run([go, "mod", "edit", f"-dropreplace={GODLPACK_MODULE}"], cwd=module, check=True)
    done = vendor(module)
    assert done.returncode != 0 and GODLPACK_MODULE in done.stderr, done
    hint = _unpublished_hint(go, module, done.stderr)
    assert f"requires {GODLPACK_MODULE}, which the Go module proxy does not serve" in hint, hint
    assert f"go mod edit -replace={GODLPACK_MODULE}=/path/to/godlpack" in hint, hint
    # With the replace, Go finds the checkout, and a failure that still names godlpack gets no such advice.
    subprocess.run([go, "mod", "edit", f"-replace={GODLPACK_MODULE}={ROOT}"], cwd=module, check=True)
    assert vendor(module).returncode == 0
    assert _unpublished_hint(go, module, f"{GODLPACK_MODULE}/capsule: some other failure") == ""
    assert _unpublished_hint(go, module, "main.go:3: syntax error") == ""
