"""The verdicts a check body raises besides passing (Failed, NotApplicable, Difference), and the levels of rules:
the bottom of the checker's modules, which every other one may import and which imports none of them."""

from __future__ import annotations

from typing import Literal, Optional, Sequence, Union

# The strength of the rule a check holds a library to, in the words of the text it quotes: "must" (dlpack.h or the
# standard says must, or states what a tensor is), "should" (should, recommended, preferred), "note" (what the
# checker infers where no text binds: reported, never counted). The exit status counts failures of "must" rules;
# --strict counts "should" too.
Level = Union[Literal["must"], Literal["should"], Literal["note"]]
LEVELS: tuple[Level, ...] = ("must", "should", "note")


class Failed(Exception):
    """Raised by a check body: the library broke the rule; the message says what was seen.

    level and rule, where given, name another rule than the check's own that the failure broke (a refusal the text
    only recommends against, in a check whose values must be right). cause names the check (or checks, in order)
    that reports this failure's defect as its own: where one of them failed with that defect and stands, this
    result is not applicable "because of" it, so that one defect is one failure (attribute_causes). A check that
    names itself among them reports the defect where none before it does.
    """

    def __init__(self, message: str, *, level: Optional[Level] = None, rule: str = "",
                 cause: Union[str, Sequence[str]] = "") -> None:
        super().__init__(message)
        self.level = level
        self.rule = rule
        self.cause = causes(cause)


def causes(cause: Union[str, Sequence[str]]) -> str:
    """Failed's cause as Result.cause holds it: check ids, space-separated, in order."""
    return cause if isinstance(cause, str) else " ".join(cause)


class NotApplicable(Exception):
    """Raised by a check body: the rule cannot apply to this library; the message says why."""


class Difference(Exception):
    """Raised by a check body: the library follows one standard where they differ; the message says which."""
