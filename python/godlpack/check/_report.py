"""The terminal table and the JSON document of a run."""

from __future__ import annotations

import os
import shutil
from typing import IO, Any, Optional

from godlpack.check._model import Outcome
from godlpack.check._verdicts import LEVELS
from godlpack.check._run import Report

MARK = {Outcome.PASS: "pass", Outcome.FAIL: "FAIL", Outcome.NOT_APPLICABLE: "n/a", Outcome.DIFFERENCE: "diff"}
COLOUR = {Outcome.PASS: "32", Outcome.FAIL: "1;31", Outcome.NOT_APPLICABLE: "2", Outcome.DIFFERENCE: "33"}


def use_colour(stream: IO[str]) -> bool:
    """Colour where the stream is a terminal that shows it, unless NO_COLOR says otherwise (no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def counts(report: Report) -> dict[Outcome, int]:
    tally = {o: 0 for o in Outcome}
    for r in report.results:
        tally[r.outcome] += 1
    return tally


def summary(report: Report) -> str:
    tally = counts(report)
    failed = {level: sum(1 for r in report.results if r.outcome is Outcome.FAIL and r.level == level)
              for level in LEVELS}
    split = ", ".join(f"{failed[level]} {level}" for level in LEVELS if failed[level])
    return ", ".join(f"{tally[o]} {name}" + (f" ({split})" if o is Outcome.FAIL and split else "") for o, name in (
        (Outcome.PASS, "passed"), (Outcome.FAIL, "failed"), (Outcome.DIFFERENCE, "differences"),
        (Outcome.NOT_APPLICABLE, "not applicable")))


def write_table(reports: list[Report], stream: IO[str], colour: bool) -> None:
    """One block per library, grouped by side and group, one line a check: mark, the level of the rule, id, what
    was seen."""
    width = shutil.get_terminal_size((120, 24)).columns

    def paint(code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if colour else text

    for report in reports:
        title = f"{report.name} {report.version}".strip()
        stream.write(paint("1", title) + "\n")
        for note in report.notes:
            stream.write(f"  ({note})\n")
        if report.unanswered():
            stream.write("  " + paint(COLOUR[Outcome.FAIL], report.unanswered()) + "\n")
        side = group = None
        id_width = max((len(r.check) for r in report.results), default=0)
        for r in report.results:
            if (r.side, r.group) != (side, group):
                side, group = r.side, r.group
                stream.write(paint("1", f"  {side}: {group}") + "\n")
            line = f"{r.level:<6}  {r.check:<{id_width}}  {r.detail}"
            room = max(20, width - 11)
            if colour and len(line) > room:  # a terminal gets one line a check; a file or pipe every word
                line = line[: room - 3] + "..."
            stream.write(f"    {paint(COLOUR[r.outcome], f'{MARK[r.outcome]:<4}')}  {line}\n")
        stream.write(f"  {summary(report)}\n\n")


def document(reports: list[Report], strict: bool = False, errors: Optional[dict[str, str]] = None) -> dict[str, Any]:
    """The run as JSON: "failed" says what the exit status says (a must rule failed, or a should rule under
    --strict, or a library could not answer a check: each target's "unanswered" says so in a line); "errors" names
    the targets that could not be loaded and why."""
    from godlpack._version import __version__

    return {
        "checker": f"godlpack.check {__version__}",
        "strict": strict,
        "failed": any(r.failed(strict) for r in reports),
        "targets": [r.to_json() for r in reports],
        "errors": [{"target": spec, "error": error} for spec, error in (errors or {}).items()],
    }
