"""What a check is, what it finds, and how a check body reports it."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Callable, Literal, TypeVar, Union

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


class Failed(Exception):
    """Raised by a check body: the library broke the rule; the message says what was seen."""


class NotApplicable(Exception):
    """Raised by a check body: the rule cannot apply to this library; the message says why."""


class Difference(Exception):
    """Raised by a check body: the library follows one standard where they differ; the message says which."""


# A check's own verdicts: a body that catches what the library raises (`except Exception`) lets these through.
VERDICTS = (Failed, NotApplicable, Difference)


@dataclass(frozen=True)
class Check:
    """One rule held to a library: `body` returns what it saw when the rule holds and raises otherwise.

    `rule` quotes the DLPack header (dlpack.h), DLPack's Python specification or the array API standard
    (2024.12) that the check holds the library to.
    """

    id: str
    side: Side
    group: str
    rule: str
    body: Callable[["Target"], str]


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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Result":
        return cls(**{**data, "outcome": Outcome(data["outcome"])})


Body = TypeVar("Body", bound=Callable[["Target"], str])


def registrar(side: Side, checks: list[Check]) -> Callable[[str, str, str], Callable[[Body], Body]]:
    """The decorator factory of one side's checks: check(id, group, rule)(body) appends the Check "side.id" to
    checks and returns body as it was (its signature too)."""

    def check(id: str, group: str, rule: str) -> Callable[[Body], Body]:
        def register(body: Body) -> Body:
            checks.append(Check(f"{side}.{id}", side, group, rule, body))
            return body

        return register

    return check


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
    try:
        detail = check.body(target)
        outcome = Outcome.PASS
    except Failed as error:
        outcome, detail = Outcome.FAIL, str(error)
    except NotApplicable as error:
        outcome, detail = Outcome.NOT_APPLICABLE, str(error)
    except Difference as error:
        outcome, detail = Outcome.DIFFERENCE, str(error)
    except Exception as error:  # the library raised where the rule expects an answer
        outcome, detail = Outcome.FAIL, f"raised {describe_exception(error)}"
    return Result(target.name, check.id, check.side, check.group, outcome, detail, check.rule)
