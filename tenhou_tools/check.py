"""One log in, one validation record out: the unit of work of ``validate``.

``check_log`` never raises for a bad log: an unreadable one becomes a record with a
``PARSE_ERROR`` finding, an engine failure one with ``INTERNAL_ERROR`` (and the traceback).
Records are plain values that serialise to the NDJSON contract of DESIGN.md. A log is mjlog XML
or tenhou.net/6 JSON (``formats.load_game`` tells them apart by content).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .crossgame import CrossReport, GameFacts, game_facts
from .errors import ParseError
from .events import Game
from .findings import Finding, FindingCode, Severity
from .formats import LogFormat, load_game
from .replay.engine import replay_game


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The verdict on one log."""

    path: str
    log_id: str | None
    hands: int
    checks: tuple[tuple[str, int], ...]
    findings: tuple[Finding, ...]
    facts: GameFacts | None = None
    """What ``validate``'s cross-game pass needs of a ranked game (``crossgame``); not part of
    the record's JSON."""

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def __reduce__(self) -> tuple[type[GameRecord], tuple[Any, ...]]:
        """Pickled as a call of the class with its fields: each record comes back from a pool
        worker so. Unpickling 1,000 records took ``validate``'s process 62.7 M instructions with
        the dataclass's own ``__setstate__`` (``fields()``, then a loop over them), 50.6 M so."""
        return GameRecord, (self.path, self.log_id, self.hands, self.checks, self.findings, self.facts)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "game",
            "path": self.path,
            "log_id": self.log_id,
            "ok": self.ok,
            "hands": self.hands,
            "checks": dict(self.checks),
            "findings": [f.to_json() for f in self.findings],
        }


def check_log(data: bytes | None, *, path: str, log_id: str | None = None,
              error: str | None = None, log_format: LogFormat | None = None) -> GameRecord:
    """Parse and replay one log given as bytes (``error`` when the source could not be read).

    ``log_format`` (``"mjlog"`` or ``"tenhou6"``) forces the format; by default the content decides.
    """
    if data is None:
        finding = Finding(FindingCode.PARSE_ERROR, Severity.ERROR, error or "the log could not be read")
        return GameRecord(path, log_id, 0, (), (finding,))
    try:
        game = load_game(data, source=path, log_id=log_id, log_format=log_format)
    except ParseError as exc:
        finding = Finding(FindingCode.PARSE_ERROR, Severity.ERROR, str(exc))
        return GameRecord(path, log_id, 0, (), (finding,))
    except Exception as exc:  # noqa: BLE001 - a parser bug must not stop a batch
        finding = Finding(FindingCode.INTERNAL_ERROR, Severity.ERROR,
                          f"the parser failed: {type(exc).__name__}: {exc}",
                          detail=traceback.format_exc())
        return GameRecord(path, log_id, 0, (), (finding,))
    report = replay_game(game)
    warnings = tuple(
        Finding(FindingCode.PARSE_WARNING, Severity.WARNING, w) for w in game.warnings
    )
    record = GameRecord(
        path,
        game.log_id,
        len(game.hands),
        tuple(sorted(report.checks.items())),
        warnings + label_findings(game, report.findings),
    )
    facts = game_facts(game, path)
    return record if facts is None else replace(record, facts=replace(facts, ok=record.ok, clean=not record.findings))


def label_findings(game: Game, findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings with their hand's label (``E2-1``, as ``replay --hand`` takes it) filled in.

    Only findings are touched (a clean game costs nothing); a hand index outside the game keeps
    no label."""
    out = []
    hands = game.hands
    for finding in findings:
        if finding.label is None and finding.hand is not None and 0 <= finding.hand < len(hands):
            finding = replace(finding, label=hands[finding.hand].init.label())
        out.append(finding)
    return tuple(out)


def _count(into: dict[str, int], counts: Iterable[tuple[str, int]]) -> None:
    """Add ``(key, n)`` pairs to the totals ``into``."""
    get = into.get
    for key, n in counts:
        into[key] = get(key, 0) + n


@dataclass
class Summary:
    """Totals over many records (additive)."""

    games: int = 0
    ok: int = 0
    failed: int = 0
    findings_by_code: dict[str, int] = field(default_factory=dict)
    checks: dict[str, int] = field(default_factory=dict)
    """Checks run, by kind, over the records added (plain dicts, added to by ``_count``: a
    ``Counter``'s own ``update`` took three times as long, 7.5 against 2.2 us a record, where
    ``validate``'s parent process adds one record per game)."""

    cross: CrossReport | None = None
    """The cross-game pass over the batch (``validate``), once it has run."""

    def add(self, record: GameRecord) -> None:
        self.games += 1
        if record.ok:
            self.ok += 1
        else:
            self.failed += 1
        if record.findings:
            _count(self.findings_by_code, ((f.code.value, 1) for f in record.findings))
        _count(self.checks, record.checks)

    def add_cross(self, report: CrossReport) -> None:
        """The cross-game pass: its check counts and findings; a game its findings fail that
        passed on its own moves from ``ok`` to ``failed``."""
        self.cross = report
        _count(self.checks, report.checks)
        for record in report.records:
            _count(self.findings_by_code, ((f.code.value, 1) for f in record.findings))
            if record.game_ok and not record.ok:
                self.ok -= 1
                self.failed += 1

    def to_json(self, elapsed_s: float, *, interrupted: bool = False) -> dict[str, Any]:
        """The summary line; ``interrupted`` says the run was stopped (Ctrl-C) and covers only
        the games counted here."""
        return {
            "type": "summary",
            "games": self.games,
            "ok": self.ok,
            "failed": self.failed,
            "findings_by_code": dict(sorted(self.findings_by_code.items())),
            "checks": dict(sorted(self.checks.items())),
            "elapsed_s": round(elapsed_s, 3),
            "interrupted": interrupted,
            **({"cross_game": self.cross.to_json()} if self.cross is not None else {}),
        }
