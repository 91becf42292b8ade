"""What a check is, what it finds, and how a check body reports it."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, Optional, Sequence, TypeVar, Union

from godlpack.check._verdicts import LEVELS, Difference, Failed, Level, NotApplicable, causes

if TYPE_CHECKING:
    from godlpack.check._target import Target

# Literal["producer", "consumer"], spelled as a Union of Literals, which is what mypy's stubtest recognises at
# runtime as the alias's Union.
Side = Union[Literal["producer"], Literal["consumer"]]
class Outcome(enum.StrEnum):
    """A check's verdict."""

    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "n/a"
    # The library follows one text where the DLPack header and the array API standard (or two of the standard's
    # versions, or two of its pages) say different things or leave the choice open; the detail names both.
    DIFFERENCE = "difference"


# How a library may fail to answer a check at all (Result.lost): it hangs (no answer within --timeout), stops its
# own process (SIGSTOP), crashes (a signal such as SIGSEGV or SIGABRT), is killed by another signal, or exits.
# Such a library fails the run whatever the level of the check it hit: nothing after it could be asked.
LOST = ("hung", "stopped", "crashed", "killed", "exited")

# A check's own verdicts: a body that catches what the library raises (`except Exception`) lets these through.
VERDICTS = (Failed, NotApplicable, Difference)


@dataclass(frozen=True)
class Check:
    """One rule held to a library: `body` returns what it saw when the rule holds and raises otherwise.

    `rule` quotes the DLPack header (dlpack.h), DLPack's Python specification or the array API standard
    (2024.12) that the check holds the library to, and `level` is that rule's strength (see Level).
    """

    id: str
    side: Side
    group: str
    rule: str
    body: Callable[["Target"], str]
    level: Level = "must"
    # What a failure seen from outside the body (the process died in it) names as its defect (see Failed.cause).
    cause: str = ""


@dataclass(frozen=True)
class Result:
    """What one check found on one library."""

    target: str
    check: str
    side: Side
    group: str
    outcome: Outcome
    detail: str
    rule: str
    level: Level = "must"
    # The check whose failure made this one not applicable (see Failed.cause); "" where none did. Before
    # attribute_causes, the checks a failure names as the owners of its defect, space-separated.
    cause: str = ""
    # How the library failed to answer this check at all, seen from outside (LOST): "" where it answered.
    lost: str = ""

    def counts(self, strict: bool = False) -> bool:
        """Whether this result fails a run: a failure of a must rule, or of a should rule when strict; and a library
        that could not answer (it hung, stopped, crashed, was killed or exited), whatever the check's level."""
        return self.outcome is Outcome.FAIL and (bool(self.lost) or self.level == "must"
                                                 or (strict and self.level == "should"))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Result":
        return cls(**{**data, "outcome": Outcome(data["outcome"])})


Body = TypeVar("Body", bound=Callable[["Target"], str])


class Registrar:
    """The decorator factory of one side's checks: check(id, group, rule, level)(body) appends the Check "side.id"
    to checks and returns body as it was (its signature too)."""

    def __init__(self, side: Side, checks: list[Check]) -> None:
        self.side = side
        self.checks = checks

    def __call__(self, id: str, group: str, rule: str, level: Level = "must",
                 cause: Union[str, Sequence[str]] = "") -> Callable[[Body], Body]:
        def register(body: Body) -> Body:
            self.checks.append(Check(f"{self.side}.{id}", self.side, group, rule, body, level, causes(cause)))
            return body

        return register


def registrar(side: Side, checks: list[Check]) -> Registrar:
    return Registrar(side, checks)


def describe_exception(error: BaseException) -> str:
    """An exception as a report names it: its class (qualified unless built in) and its message."""
    kind = type(error)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if len(message) > 160:
        message = message[:157] + "..."
    return f"{name}: {message}" if message else name


def run_body(check: Check, target: "Target") -> Result:
    """Run one check's body on target, in this process, and turn what happened into a Result."""
    level, rule, cause = check.level, check.rule, ""
    try:
        detail = check.body(target)
        outcome = Outcome.PASS
    except Failed as error:
        outcome, detail = Outcome.FAIL, str(error)
        level, rule, cause = error.level or level, error.rule or rule, error.cause
    except NotApplicable as error:
        outcome, detail = Outcome.NOT_APPLICABLE, str(error)
    except Difference as error:
        outcome, detail = Outcome.DIFFERENCE, str(error)
    except Exception as error:  # the library raised where the rule expects an answer
        outcome, detail = Outcome.FAIL, f"raised {describe_exception(error)}"
    return Result(target.name, check.id, check.side, check.group, outcome, detail, rule, level, cause)


def failure(check: Check, target: str, detail: str, cause: Optional[str] = None, lost: str = "") -> Result:
    """A failure of check seen from outside its body (the process died, it hung: how, lost), at the check's own
    level; its cause is the check's own (Check.cause) unless given."""
    return Result(target, check.id, check.side, check.group, Outcome.FAIL, detail, check.rule, check.level,
                  check.cause if cause is None else cause, lost)


def attribute_causes(results: Iterable[Result]) -> list[Result]:
    """results, where each failure whose defect another check reports as its own failure (Failed.cause) is not
    applicable "because of" that check instead: one defect, one failure, named once.

    A failure goes to the first check it names that failed naming the same defect and stands itself (is not in
    turn attributed to another); where it names itself first, or none of them stands, it stands.
    """
    results = list(results)
    failing = {r.check: r for r in results if r.outcome is Outcome.FAIL}

    def owner(r: Result, seen: frozenset[str]) -> Optional[str]:
        for cause in r.cause.split():
            if cause == r.check:
                return None
            other = failing.get(cause)
            if other is not None and cause not in seen and cause in other.cause.split() \
                    and owner(other, seen | {r.check}) is None:
                return cause
        return None

    out = []
    for r in results:
        if r.outcome is Outcome.FAIL:
            root = owner(r, frozenset())
            if root is None:
                r = replace(r, cause="")
            else:
                detail = f"because of {root} ({failing[root].detail}): {r.detail}"
                r = replace(r, outcome=Outcome.NOT_APPLICABLE, detail=detail, cause=root)
        out.append(r)
    return out
