"""Running the checks: in this process, or in worker processes where a library's crash is only a failed check.

An isolated run starts one worker per library (python -m godlpack.check._worker), which announces each check
before it runs it, reports each result, and says when it is done, each a message (one JSON line) on a pipe of its
own (the library may print what it likes on stdout). The results are read message by message: a process the
library's import forked (a worker pool, a server) may hold the pipe open long after the worker ended, so neither
the end of the pipe nor the end of the worker alone says that the run is over. When the worker dies, by a signal,
an abort or an exit, or stops itself (SIGSTOP), the check it had announced fails with what was seen, and a new worker
goes on with the checks after it; one that says nothing for `timeout` seconds is killed the same way. A library that
could not answer a check so fails the run whatever the check's level (Result.lost). A library that hangs in two checks
in a row is stopped there: the first hang is its one failure, and the checks after it are not applicable because
of it. Whatever the worker's process group still holds when it ends (the processes the library started) is
killed with it.
"""

from __future__ import annotations

import fnmatch
import gc
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Union

from godlpack.check._adapters import load_target
from godlpack.check._model import Check, Outcome, Result, Side, attribute_causes, failure, run_body
from godlpack.check._target import Target


def all_checks() -> list[Check]:
    from godlpack.check import _consumer, _producer

    return _producer.CHECKS + _consumer.CHECKS


def matches(check_id: str, pattern: str) -> bool:
    """Whether pattern selects check_id: a substring of it, or a glob (* ? [) that matches some part of it."""
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(check_id, f"*{pattern}*")
    return pattern in check_id


def select_checks(only: Optional[Side] = None, pattern: Union[str, Sequence[str], None] = None) -> list[Check]:
    """The checks of one side (or both) whose id matches pattern (or any of several; see matches)."""
    patterns = [pattern] if isinstance(pattern, str) else list(pattern or [])
    return [c for c in all_checks()
            if (only is None or c.side == only) and (not patterns or any(matches(c.id, p) for p in patterns))]


@dataclass
class Report:
    """One library's results."""

    spec: str
    name: str
    version: str
    results: list[Result]
    notes: list[str]

    def failed(self, strict: bool = False) -> bool:
        """Whether a must rule failed (or a should rule, when strict), or the library could not answer a check:
        what the exit status counts."""
        return any(r.counts(strict) for r in self.results)

    def unanswered(self) -> str:
        """One line that says which checks the library could not answer and how, "" where it answered every one."""
        lost = [f"{r.lost} in {r.check}" for r in self.results if r.lost and r.outcome is Outcome.FAIL]
        if not lost:
            return ""
        return (f"the library could not answer: it {'; '.join(lost)}. That fails the run, whatever the level of the "
                f"check{'s' if len(lost) > 1 else ''}.")

    def to_json(self) -> dict[str, object]:
        return {
            "target": self.spec,
            "name": self.name,
            "version": self.version,
            "notes": self.notes,
            "unanswered": self.unanswered(),
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


@dataclass
class Lost:
    """The check a worker was running when it died, stopped or hung, what was seen, and how it was lost (LOST)."""

    check: str
    what: str
    how: str


def run_isolated(spec: str, checks: list[Check], timeout: float = 120.0) -> Report:
    """Every check on the library spec names, in worker processes (see the module's docstring)."""
    by_id = {c.id: c for c in checks}
    remaining = [c.id for c in checks]
    results: list[Result] = []
    name, version, notes = spec, "", list[str]()
    first_hang: Optional[str] = None  # the check of the last hang, where no check finished since
    while remaining:
        header, got, lost = _run_worker(spec, remaining, timeout)
        if header.get("error"):
            raise TargetError(str(header["error"]))
        name, version = str(header["name"]), str(header["version"])
        notes = [str(note) for note in header["notes"]] if isinstance(header["notes"], list) else []
        results += got
        done = {r.check for r in got}
        if got:
            first_hang = None
        if lost is not None:
            c = by_id[lost.check]
            done.add(lost.check)
            hung = lost.how == "hung"
            if hung and first_hang is not None:
                # The second hang in a row: the library is stopped, its first hang named as the cause of the rest.
                stopped = f"not run: the library hung in {first_hang} and again in {c.id}, and was stopped"
                results += [failure(by_id[i], name, stopped, cause=first_hang) for i in remaining if i not in done]
                results.append(failure(c, name, stopped, cause=first_hang, lost=lost.how))
                break
            if hung:
                first_hang = c.id
            results.append(failure(c, name, lost.what, cause=c.id if hung else None, lost=lost.how))
        elif not got and remaining:
            raise TargetError("the worker ended without running a check")
        remaining = [i for i in remaining if i not in done]
    order = {c.id: n for n, c in enumerate(checks)}
    results.sort(key=lambda r: order[r.check])
    return Report(spec, name, version, attribute_causes(results), notes)


class _Messages:
    """The worker's messages as they arrive on the pipe (read end `fd`), each a JSON line, and what they said."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.closed = False
        self.header: dict[str, Any] = {}
        self.results: list[Result] = []
        self.current: Optional[str] = None  # the check announced and not yet reported
        self.done = False

    def take(self, wait: float) -> bool:
        """Read what arrives within wait seconds (what is complete already, when wait is 0): whether anything did."""
        messages = self.read(wait)
        for message in messages:
            if "header" in message:
                self.header = dict(message["header"])
            elif "start" in message:
                self.current = str(message["start"])
            elif "result" in message:
                self.results.append(Result.from_json(message["result"]))
                self.current = None
            elif "done" in message:
                self.done = True
        return bool(messages)

    def read(self, wait: float) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        while not self.closed and select.select([self.fd], [], [], wait)[0]:
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.closed = True
                break
            self.buffer += chunk
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                messages.append(json.loads(line))
            if messages:
                break
            wait = 0.0
        return messages


# How often a run that waits for the worker looks whether it has ended.
_POLL = 0.2


def _run_worker(spec: str, ids: list[str], timeout: float) -> tuple[dict[str, object], list[Result], Optional[Lost]]:
    """One worker over ids: its header, the results it sent, and what happened in the check it died or hung in."""
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
        lost: Optional[Lost] = None
        messages = _Messages(read_end)
        try:
            deadline = time.monotonic() + timeout
            while not messages.done:
                if messages.take(min(_POLL, max(0.0, deadline - time.monotonic()))):
                    deadline = time.monotonic() + timeout  # an answer: the check (or the next) has its time anew
                    continue
                if _ended(process):
                    # Whatever the worker wrote before it ended is in the pipe: read it, then stop waiting (a
                    # process the library forked may keep the pipe open).
                    while messages.take(0.0):
                        pass
                    break
                if messages.closed:
                    # The pipe closed under a worker that runs on (the library closed the descriptor): nothing more
                    # will come, and the worker is given until the deadline to end.
                    time.sleep(_POLL)
                stopped = _stopped(process)
                if stopped or time.monotonic() >= deadline:
                    _kill(process)
                    if messages.current is None:
                        messages.header.setdefault("error", f"{spec} {'stopped' if stopped else 'did not load in'} "
                                                   f"{'its process' if stopped else f'{timeout:.0f} s'}")
                    elif stopped:
                        lost = Lost(messages.current, f"stopped: the process stopped itself ({stopped}) while running "
                                    "it (the worker was killed)", "stopped")
                    else:
                        lost = Lost(messages.current, f"hung: no answer in {timeout:.0f} s (the worker was killed)",
                                    "hung")
                    break
        finally:
            os.close(read_end)
        header, results, current = messages.header, messages.results, messages.current
        status = _finish(process)
        os.unlink(idfile.name)
        if lost is None and current is not None:
            stderr.seek(0)
            tail = _last_words(stderr.read().decode("utf-8", "replace"))
            how = _how_it_ended(status)
            lost = Lost(current, f"the process {'exited' if how == 'exited' else 'died'} while running it "
                        f"({_status_text(status)})" + (": " + " | ".join(tail) if tail else ""), how)
        if not header:
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace").strip().splitlines()
            header = {"error": f"the worker for {spec} ended ({_status_text(status)}) before it loaded the library"
                      + (": " + text[-1] if text else "")}
    return header, results, lost


_SAYS_WHY = re.compile(r"Check failed|Fatal|FATAL|Abort|Segmentation fault|[A-Za-z]Error\b|[A-Za-z]Exception\b|"
                       r"terminate called|[Aa]ssertion")


def _last_words(stderr: str) -> list[str]:
    """What a dead worker's stderr says of its death: the last lines among its last 40 that name an error (a
    failed CHECK, a fatal error), else its last 3 lines (a stack trace's frames say little)."""
    lines = [line.strip() for line in stderr.strip().splitlines()[-40:] if line.strip()]
    telling = [line for line in lines if _SAYS_WHY.search(line)]
    return (telling or lines)[-3:]


def _ended(process: "subprocess.Popen[bytes]") -> bool:
    """Whether the worker has ended, leaving it unreaped: its process group stays ours to kill (_finish)."""
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _stopped(process: "subprocess.Popen[bytes]") -> str:
    """The signal that stopped the worker (SIGSTOP, SIGTSTP ...), "" while it runs or after it ended."""
    try:
        info = os.waitid(os.P_PID, process.pid, os.WSTOPPED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return ""
    if info is None or info.si_code != os.CLD_STOPPED:
        return ""
    try:
        return signal.Signals(info.si_status).name
    except ValueError:
        return f"signal {info.si_status}"


# The signals a process dies of by its own fault, rather than another's kill.
_CRASHES = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT, signal.SIGSYS, signal.SIGTRAP}


def _how_it_ended(status: int) -> str:
    """How a worker that ended in a check was lost (LOST): it crashed, was killed by another signal, or exited."""
    if status >= 0:
        return "exited"
    return "crashed" if -status in {int(s) for s in _CRASHES} else "killed"


def _finish(process: "subprocess.Popen[bytes]") -> int:
    """Wait for the worker to end, kill what its process group still holds, then reap it: its exit status.

    The group is killed while the worker is a zombie, so that its id cannot name anyone else's processes yet.
    """
    try:
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        pass
    _kill(process)
    return process.wait()


def _kill(process: "subprocess.Popen[bytes]") -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
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

