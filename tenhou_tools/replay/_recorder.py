"""Counting one game's checks and collecting its findings (``Recorder``), for the replay.

Each check the replay makes is counted where it is made, by ``Check.check`` (one kind) or
``Recorder.check`` (any kind); ``replay.checks`` holds the kinds (``CheckKind``) and the report
(``GameReport``) the counts end in.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from ..findings import Finding, FindingCode, Severity
from .checks import ALL_KINDS, CheckKind, GameReport

_KEYS: tuple[str, ...] = tuple(kind.value for kind in ALL_KINDS)
_NOT_CHECKABLE: frozenset[CheckKind] = frozenset(kind for kind in ALL_KINDS if not kind.checkable)
"""The ``*_not_checkable`` kinds, worked out once: ``checkable`` is a property that reads the
enum's ``value`` (Python code, about 3,000 instructions a call)."""


class Check:
    """One kind of check and how many times it ran in this game."""

    def __init__(self, kind: CheckKind) -> None:
        self.kind = kind
        self.runs = 0

    def check(self, ok: bool) -> bool:
        """Count one run of this check and return its verdict (the caller reports a failure)."""
        self.runs += 1
        return ok


NO_INDEX: Final = -1
"""``Recorder.hand_index`` / ``event_index`` when there is none (the game as a whole, the INIT)."""


class Recorder:
    """Counts one game's checks and collects its findings, each placed at the hand and event
    being replayed."""

    def __init__(self) -> None:
        self.by_kind: dict[CheckKind, Check] = {kind: Check(kind) for kind in ALL_KINDS}
        self.findings: list[Finding] = []
        self.hand_index = NO_INDEX
        self.event_index = NO_INDEX

    def of(self, kind: CheckKind) -> Check:
        """The counter of one kind, to keep at hand where that check runs on every event."""
        return self.by_kind[kind]

    def check(self, kind: CheckKind, ok: bool) -> bool:
        """Count one check of ``kind`` and return its verdict."""
        return self.by_kind[kind].check(ok)

    def not_checkable(self, kind: CheckKind) -> None:
        """Count a check that could not run (a ``*_not_checkable`` kind)."""
        assert kind in _NOT_CHECKABLE, kind
        self.by_kind[kind].runs += 1

    def find(self, code: FindingCode, message: str, expected: Any = None, actual: Any = None,
             severity: Severity = Severity.ERROR, detail: str | None = None) -> None:
        """Report a finding at the current hand and event."""
        hand = None if self.hand_index == NO_INDEX else self.hand_index
        event = None if self.event_index == NO_INDEX else self.event_index
        self.findings.append(Finding(code=code, severity=severity, message=message, hand=hand, event_index=event,
                                     expected=expected, actual=actual, detail=detail))

    def counts(self) -> Counter:
        """The checks that ran, by kind value (kinds that never ran are left out)."""
        return Counter({key: c.runs for key, c in zip(_KEYS, self.by_kind.values(), strict=True) if c.runs})

    def report(self, log_id: str | None, hands: int) -> GameReport:
        return GameReport(log_id=log_id, hands=hands, checks=self.counts(), findings=self.findings)
