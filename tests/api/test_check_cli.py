"""godlpack.check's command line (docs/check.md): selection, exit status by the level of the rules, a library that
crashes. The awkward libraries are tests/support/check_targets.py."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from child_env import TESTS, child_env
from godlpack.check import Target, load_target


def crashing_target() -> Target:
    """NumPy, except that exporting a 0-d array crashes the process (a NULL read)."""
    numpy = load_target("numpy")
    export = numpy.export

    def crash(x: Any, **kwargs: Any) -> Any:
        if len(x.shape) == 0:
            ctypes.memset(0, 0, 1)  # a write to NULL: SIGSEGV
        return export(x, **kwargs)

    return dataclasses.replace(numpy, name="crashing", export=crash)


def run_cli(*args: str, timeout: float = 300, **env: str) -> subprocess.CompletedProcess[str]:
    """The checker's command line in a child that imports this module (for test_check_cli:crashing_target) and the
    helpers (check_targets, numpy_namespace), with env's variables.

    Under make memcheck, AddressSanitizer is told to leave SIGSEGV alone in that child: the crash is the test's
    own, and the process must die of the signal, as it does without ASan, rather than leave a report that fails
    the run.
    """
    child = child_env(TESTS, **env)
    if "ASAN_OPTIONS" in child:
        child["ASAN_OPTIONS"] += ":handle_segv=0"
    return subprocess.run([sys.executable, "-m", "godlpack.check", *args], capture_output=True, text=True,
                          timeout=timeout, env=child)


def results_of(path: Path, target: int = 0) -> dict[str, dict[str, Any]]:
    return {r["check"]: r for r in json.loads(path.read_text())["targets"][target]["results"]}


def test_cli_reports_a_crash_as_a_failed_check_and_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = run_cli("test_check_cli:crashing_target", "--only", "producer", "-k", "layout", "--json", str(out))
    assert done.returncode == 1, done.stderr
    results = results_of(out)
    assert results["producer.layout.0-d"]["outcome"] == "fail"
    assert results["producer.layout.0-d"]["level"] == "must"
    assert "SIGSEGV" in results["producer.layout.0-d"]["detail"]
    assert all(r["outcome"] == "pass" for c, r in results.items() if c != "producer.layout.0-d")
    assert "FAIL" in done.stdout and "producer.layout.0-d" in done.stdout


def test_cli_exit_status_and_selection() -> None:
    done = run_cli("godlpack", "-k", "producer.copy", "--json", "-")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    checks = [r["check"] for r in data["targets"][0]["results"]]
    assert checks and all(c.startswith("producer.copy") for c in checks)
    assert all(r["level"] in ("must", "should", "note") for r in data["targets"][0]["results"])
    assert run_cli("no_such_module_here").returncode == 2


def test_list_shows_each_checks_level_and_rule() -> None:
    done = run_cli("--list", "godlpack", "-k", "consumer.asks.max_version")
    assert done.returncode == 0, done.stderr
    first, rule = done.stdout.splitlines()[:2]
    assert first == "consumer.asks.max_version  [should]"
    assert "may not be used by consumers until a later time" in rule


def test_the_exit_status_counts_must_rules_and_strict_counts_should_rules(tmp_path: Path) -> None:
    """A library that breaks only a should rule (and the notes NumPy's consumer gets) passes; --strict fails it."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:should_only", "--only", "consumer", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(out.read_text())
    assert data["failed"] is False and data["strict"] is False
    failed = {(r["check"], r["level"]) for r in data["targets"][0]["results"] if r["outcome"] == "fail"}
    assert ("consumer.device.other", "should") in failed and all(level != "must" for _, level in failed)
    assert {level for _, level in failed} == {"should", "note"}
    strict = run_cli("check_targets:should_only", "--only", "consumer", "--strict", "--json", str(out))
    assert strict.returncode == 1
    assert json.loads(out.read_text())["failed"] is True


def test_a_correct_library_without_an_adapter_exits_0(tmp_path: Path) -> None:
    """An array API namespace over NumPy, by a name no adapter knows: no must rule fails. It exited 1 when the
    checker failed consumers for what a broken producer did (the copy notes)."""
    out = tmp_path / "r.json"
    done = run_cli("numpy_namespace", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    results = results_of(out)
    assert not [c for c, r in results.items() if r["outcome"] == "fail" and r["level"] == "must"]
    assert results["consumer.copy.true-producer-shares"]["level"] == "note"
