"""godlpack.check's command line (docs/check.md): selection, exit status by the level of the rules, a library that
crashes, hangs, forks a helper that holds the result pipe, or reports a message that the terminal cannot print,
and a library that cannot be loaded beside one that can. The awkward libraries are tests/support/check_targets.py."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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


def listed(*args: str) -> list[str]:
    done = run_cli("--list", "godlpack", *args)
    assert done.returncode == 0, done.stderr
    return [line.split()[0] for line in done.stdout.splitlines() if line and not line.startswith(" ")]


def test_k_takes_substrings_and_globs_that_match_part_of_an_id() -> None:
    """-k 'max_version*' selected nothing when a glob had to match the whole id."""
    assert set(listed("-k", "max_version*")) == {
        "producer.max_version.absent", "producer.max_version.0.x", "producer.max_version.1.0",
        "producer.max_version.1.3", "producer.max_version.2.0", "consumer.asks.max_version"}
    assert listed("-k", "copy.true-l") == ["producer.copy.true-legacy"]
    assert listed("-k", "consumer.*.cpu") == ["consumer.device.cpu", "consumer.stream.cpu"]
    assert listed("-k", "dtype.float8_e4m3fnuz", "-k", "layout.0-d") == [
        "producer.dtype.float8_e4m3fnuz", "producer.layout.0-d", "consumer.dtype.float8_e4m3fnuz",
        "consumer.layout.0-d"]


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

def test_a_consumer_that_dies_in_its_first_kernel_on_unaligned_data_fails_once(tmp_path: Path) -> None:
    """TensorFlow imports data off a 64-byte boundary and aborts in its first kernel on it (tensor.cc 'Check
    failed: IsAligned()'): the checker computes on each unaligned import, and the abort fails
    consumer.layout.unaligned (a should rule: dlpack.h 'recommended to not rely on the data pointer being correctly
    aligned'); the unaligned tensor with a byte_offset is not applicable because of it. A library that crashes
    cannot answer: the run fails, though the rule is a should rule."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:aborting_kernel", "--only", "consumer", "-k", "layout", "--json", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("the library could not answer: it crashed in consumer.layout.unaligned. That fails the run, whatever the "
            "level of the check.") in done.stdout
    results = results_of(out)
    failed = {c: r for c, r in results.items() if r["outcome"] == "fail"}
    assert list(failed) == ["consumer.layout.unaligned"]
    unaligned = failed["consumer.layout.unaligned"]
    assert "SIGABRT" in unaligned["detail"] and unaligned["level"] == "should"
    assert results["consumer.layout.unaligned-byte-offset"]["cause"] == "consumer.layout.unaligned"


def test_a_target_that_cannot_load_keeps_the_others_results(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = run_cli("check_targets:not_loading", "godlpack", "-k", "producer.copy.none", "--json", str(out))
    assert done.returncode == 2
    assert "cannot check check_targets:not_loading" in done.stderr and "not installed here" in done.stderr
    data = json.loads(out.read_text())
    assert [t["name"] for t in data["targets"]] == ["godlpack"]
    assert data["targets"][0]["results"][0]["outcome"] == "pass"
    assert [e["target"] for e in data["errors"]] == ["check_targets:not_loading"]
    assert "godlpack" in done.stdout and "producer.copy.none" in done.stdout


def test_a_library_that_hangs_twice_in_a_row_is_stopped(tmp_path: Path) -> None:
    """Every export of check_targets:hanging hangs: the first hang fails, the second stops the library, and every
    check after it is not applicable because of the first, instead of each waiting for --timeout."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:hanging", "--only", "producer", "-k", "max_version.1", "-k", "copy.none",
                   "--timeout", "8", "--json", str(out))
    assert done.returncode == 1, done.stderr
    results = list(results_of(out).values())
    assert [r["outcome"] for r in results] == ["fail"] + ["n/a"] * (len(results) - 1)
    assert "hung" in results[0]["detail"]
    first = results[0]["check"]
    assert all(r["cause"] == first and r["detail"].startswith(f"because of {first}") for r in results[1:])
    assert "the library hung in" in results[1]["detail"]


@pytest.mark.parametrize("fault, lost", [("hang", "hung"), ("stop", "stopped"), ("exit", "exited")])
@pytest.mark.parametrize("at, check", [("first", "producer.max_version.absent"),
                                       ("later", "producer.max_version.0.x")])
def test_a_library_that_cannot_answer_a_should_check_fails_the_run(tmp_path: Path, fault: str, lost: str, at: str,
                                                                     check: str) -> None:
    """Issue 48, defect 2: a library that hung in its first check, a should check, got exit status 0, every later
    check n/a. Not answering (hang, stop, exit) fails the run whatever the check's level, and the report says so in
    one line, in the table and in the JSON."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:unanswering", "--only", "producer", "-k", "max_version", "--timeout", "4",
                   "--json", str(out), CHECK_TARGET_FAULT=fault, CHECK_TARGET_AT=at)
    assert done.returncode == 1, (done.stdout, done.stderr)
    report = json.loads(out.read_text())
    assert report["failed"] is True
    target = report["targets"][0]
    line = f"the library could not answer: it {lost} in {check}. That fails the run, whatever the level of the check."
    assert target["unanswered"] == line
    assert line in done.stdout
    results = {r["check"]: r for r in target["results"]}
    assert results[check]["outcome"] == "fail" and results[check]["level"] == "should"
    assert results[check]["lost"] == lost
    assert all(r["lost"] == "" for c, r in results.items() if c != check)
    assert all(r["outcome"] == "pass" for c, r in results.items() if c != check)  # a new worker went on


def test_a_library_that_closes_the_result_pipe_and_hangs_still_times_out(tmp_path: Path) -> None:
    """The checker itself waited forever for a worker whose library closed the worker's result pipe (closerange, as a
    library that daemonizes does) and then hung: the closed pipe ended the wait for messages, and nothing bounded the
    wait for the worker to end."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:closing_then_hanging", "--only", "producer", "-k", "max_version", "--timeout", "4",
                   "--json", str(out), timeout=120)
    assert done.returncode == 1, done.stderr
    results = results_of(out)
    assert results["producer.max_version.absent"]["lost"] == "hung"
    assert all(r["outcome"] == "pass" for c, r in results.items() if c != "producer.max_version.absent")


def test_a_library_that_answers_has_no_unanswered_line(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = run_cli("numpy", "--only", "producer", "-k", "max_version", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["targets"][0]["unanswered"] == ""
    assert "could not answer" not in done.stdout


def test_a_message_the_terminal_cannot_print_still_gives_the_report(tmp_path: Path) -> None:
    """Issue 41, defect 7: a BufferError holding a lone surrogate (os.fsdecode of a path), on a strict UTF-8
    stdout, raised UnicodeEncodeError after every check ran, and the JSON was never written."""
    out = tmp_path / "r.json"
    done = run_cli("check_targets:surrogate_message", "--only", "producer", "-k", "max_version.absent",
                   "--json", str(out), PYTHONIOENCODING="utf-8")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0
    detail = results_of(out)["producer.max_version.absent"]["detail"]
    assert "tensor-\udcff.bin" in detail
    assert "tensor-\\udcff.bin" in done.stdout


def test_a_helper_process_holding_the_pipe_does_not_hold_the_report(tmp_path: Path) -> None:
    """Issue 41, defect 8: a library whose import forks a helper that inherits the result pipe. The checker waited
    for the pipe's end until --timeout, then reported that the library 'did not load' and exited 2; the worker's
    results are read by message instead, and the helper is ended with the worker."""
    out, helper = tmp_path / "r.json", tmp_path / "helper.pid"
    done = run_cli("check_targets:forking_helper", "--only", "producer", "-k", "copy.none", "--timeout", "60",
                   "--json", str(out), timeout=50, CHECK_HELPER_PID=str(helper))
    assert done.returncode == 0, done.stdout + done.stderr
    assert results_of(out)["producer.copy.none"]["outcome"] == "pass"
    pid = int(helper.read_text())
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        state = "gone"
    assert state in ("gone", "Z", "X"), f"the helper {pid} still runs ({state})"


def test_the_json_escapes_what_a_file_cannot_hold() -> None:
    """The JSON document is ASCII: a lone surrogate goes out as an escape, and reads back as itself."""
    from godlpack.check import Outcome, Report, Result
    from godlpack.check._report import document

    result = Result("x", "producer.copy.none", "producer", "copy", Outcome.PASS, "at /tmp/\udcff", "rule")
    text = json.dumps(document([Report("x", "x", "1", [result], [])]))
    assert text.isascii() and json.loads(text)["targets"][0]["results"][0]["detail"] == "at /tmp/\udcff"
    assert os.fsencode(json.loads(text)["targets"][0]["results"][0]["detail"]) == b"at /tmp/\xff"
