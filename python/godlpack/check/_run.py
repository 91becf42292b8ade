"""Running the checks: in this process, or in worker processes where a library's crash is only a failed check.

An isolated run starts one worker per library (python -m godlpack.check._worker), which announces each check
before it runs it and reports each result on a pipe of its own (the library may print what it likes on stdout).
When the worker dies, by a signal, an abort or an exit, the check it had announced fails with what was seen, and a
new worker goes on with the checks after it; one that says nothing for `timeout` seconds is killed the same way.
"""

from __future__ import annotations

import fnmatch
import gc
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Iterable, Optional

from godlpack.check._model import Check, Result, Side, attribute_causes, failure, run_body
from godlpack.check._adapters import load_target
from godlpack.check._target import Target


def all_checks() -> list[Check]:
    from godlpack.check import _consumer, _producer

    return _producer.CHECKS + _consumer.CHECKS


def select_checks(only: Optional[Side] = None, pattern: Optional[str] = None) -> list[Check]:
    """The checks of one side (or both) whose id matches pattern: a glob when it has * ? or [, else a substring."""
    chosen = []
    for c in all_checks():
        if only is not None and c.side != only:
            continue
        if pattern:
            glob = any(ch in pattern for ch in "*?[")
            if not (fnmatch.fnmatchcase(c.id, pattern) if glob else pattern in c.id):
                continue
        chosen.append(c)
    return chosen


@dataclass
class Report:
    """One library's results."""

    spec: str
    name: str
    version: str
    results: list[Result]
    notes: list[str]

    def failed(self, strict: bool = False) -> bool:
        """Whether a must rule failed (or a should rule, when strict): what the exit status counts."""
        return any(r.counts(strict) for r in self.results)

    def to_json(self) -> dict[str, object]:
        return {
            "target": self.spec,
            "name": self.name,
            "version": self.version,
            "notes": self.notes,
            "results": [r.to_json() for r in self.results],
        }


def run_in_process(target: Target, checks: Iterable[Check], spec: str = "") -> Report:
    """Every check on target in this process: quick, but a crash of the library ends the process.

    What existed when the run began (the library's import above all) is frozen for the run (gc.freeze), so that
    the checks' many collections do not scan it. Where nothing was frozen before, it is thawed afterwards; where
    the caller had frozen objects itself (a test session that froze its imports), it stays frozen, since
    gc.unfreeze() would thaw the caller's objects too and every later collection would scan them again.
    """
    thaw = gc.get_freeze_count() == 0
    gc.collect()
    gc.freeze()
    try:
        results = [run_body(c, target) for c in checks]
    finally:
        if thaw:
            gc.unfreeze()
    return Report(spec or target.name, target.name, target.version, attribute_causes(results), list(target.notes))


class TargetError(Exception):
    """The library could not be loaded (not installed, not a namespace, its adapter failed)."""


def run_isolated(spec: str, checks: list[Check], timeout: float = 120.0) -> Report:
    """Every check on the library spec names, in worker processes (see the module's docstring)."""
    by_id = {c.id: c for c in checks}
    remaining = [c.id for c in checks]
    results: list[Result] = []
    name, version, notes = spec, "", list[str]()
    while remaining:
        header, got, lost = _run_worker(spec, remaining, timeout)
        if header.get("error"):
            raise TargetError(str(header["error"]))
        name, version = str(header["name"]), str(header["version"])
        notes = [str(note) for note in header["notes"]] if isinstance(header["notes"], list) else []
        results += got
        done = {r.check for r in got}
        if lost is not None:
            check_id, what = lost
            results.append(failure(by_id[check_id], name, what))
            done.add(check_id)
        elif not got and remaining:
            raise TargetError("the worker ended without running a check")
        remaining = [i for i in remaining if i not in done]
    order = {c.id: n for n, c in enumerate(checks)}
    results.sort(key=lambda r: order[r.check])
    return Report(spec, name, version, attribute_causes(results), notes)


def _run_worker(
    spec: str, ids: list[str], timeout: float
) -> tuple[dict[str, object], list[Result], Optional[tuple[str, str]]]:
    """One worker over ids: its header, the results it sent, and (check, what happened) if it died in one."""
    read_end, write_end = os.pipe()
    with tempfile.TemporaryFile() as stderr, tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as idfile:
        idfile.write("\n".join(ids))
        idfile.close()
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "godlpack.check._worker", spec, str(write_end), idfile.name],
                pass_fds=[write_end], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                start_new_session=True,
            )
        finally:
            os.close(write_end)
        header: dict[str, object] = {}
        results: list[Result] = []
        current: Optional[str] = None
        lost: Optional[tuple[str, str]] = None
        buffer = b""
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            deadline = time.monotonic() + timeout
            while True:
                ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    _kill(process)
                    if current is not None:
                        lost = (current, f"hung: no answer in {timeout:.0f} s (the worker was killed)")
                    else:
                        header.setdefault("error", f"{spec} did not load in {timeout:.0f} s")
                    break
                chunk = pipe.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if "header" in message:
                        header = message["header"]
                    elif "start" in message:
                        current = message["start"]
                        deadline = time.monotonic() + timeout
                    elif "result" in message:
                        results.append(Result.from_json(message["result"]))
                        current = None
        status = process.wait()
        os.unlink(idfile.name)
        if lost is None and current is not None:
            stderr.seek(0)
            tail = stderr.read().decode("utf-8", "replace").strip().splitlines()[-3:]
            lost = (current, f"the process died while running it ({_status_text(status)})"
                    + (": " + " | ".join(tail) if tail else ""))
        if not header:
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace").strip().splitlines()
            header = {"error": f"the worker for {spec} ended ({_status_text(status)}) before it loaded the library"
                      + (": " + text[-1] if text else "")}
    return header, results, lost


def _kill(process: "subprocess.Popen[bytes]") -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _status_text(status: int) -> str:
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


def load(spec: str) -> Target:
    """load_target(spec), its failures as TargetError."""
    try:
        return load_target(spec)
    except Exception as error:
        raise TargetError(f"{spec}: {type(error).__name__}: {error}") from error
