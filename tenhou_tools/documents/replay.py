"""The replay document of ``tenhou-tools replay``: one typed value, built here, with one JSON form.

``replay_document(game, report, ...)`` turns a game and the engine's report on it into a
``ReplayDocument``: each hand (``HandDocument``) with its results (``WinResult``,
``DrawResult``), the scores before and after it, the dora indicators and the riichi it had,
its findings and verdict; the game-level findings, the score progression, the final standings
(``FinalStandings``) and, when asked for, the discard analysis. The facts about the table come
from the one fold (``replay.fold.walk_hand``): the scores after a hand are its last state's, the
dora indicators and riichi seats are what the fold revealed and accepted, and what a winner
collects of the honba and sticks is read off the state before its win (Tenhou pays them to the
first winner of a double ron only).

Its JSON form is ``ReplayDocument.to_json()`` (the README's ``replay --format json``): what
``replay --format json`` prints and the replay page (``views.html``) embeds. Nothing in it is a
sentence: results carry yaku ids and names, han, fu and the limit; findings their values written
for people with what they are (``documents.findings``); each renderer — the text view of
``cli/``, the page's script — composes its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..check import label_findings
from ..errors import InputError
from ..events import Agari, Event, Game, Hand, Ryuukyoku
from ..findings import Finding, Severity
from ..ids import game_start
from ..replay.checks import GameReport
from ..replay.fold import FoldStop, follow_hand
from ..replay.state import TableState
from ..rules import game_end
from ..rules.yaku import DORA_IDS, LIMIT_NAMES, yaku_name
from ..serialize import to_json
from .findings import finding_json
from .seat import seat_view

if TYPE_CHECKING:
    from ..analysis import GameAnalysis

__all__ = [
    "DrawResult",
    "FinalStandings",
    "HandDocument",
    "ReplayDocument",
    "WinResult",
    "replay_document",
    "select_hands",
]

DORA_COUNTS = DORA_IDS
"""Yaku ids that count tiles (dora, red fives, ura dora): their han is the number of tiles, and
a count of 0 is listed by Tenhou but is no yaku."""


@dataclass(frozen=True, slots=True)
class WinResult:
    """A win (one ``AGARI``; a double ron has two) and what its winner collects besides the hand."""

    agari: Agari
    players: int
    honba: int
    """Honba this winner collects: the hand's, for its first winner; 0 for the second winner of
    a double ron (Tenhou pays honba and sticks to the first winner only, 上家取り)."""
    sticks: int
    """Riichi sticks this winner collects: those on the table before the win (0 for a second winner)."""

    def to_json(self) -> dict[str, Any]:
        a = self.agari
        return {
            "type": "agari",
            "kind": "tsumo" if a.is_tsumo else "ron",
            "who": a.who,
            "from_who": a.from_who,
            "points": a.points,
            "han": a.han,
            "fu": a.fu,
            "limit": LIMIT_NAMES.get(a.limit) if a.limit else None,
            "limit_id": a.limit,
            "yaku": [{"id": y, "name": yaku_name(y), "han": h, "dora": y in DORA_COUNTS} for y, h in a.yaku],
            "yakuman": [{"id": y, "name": yaku_name(y)} for y in a.yakuman],
            "pao_who": a.pao_who,
            "deltas": list(a.deltas[:self.players]),
            "honba": self.honba,
            "sticks": self.sticks,
            "win_tile": a.win_tile,
            "dora_indicators": list(a.dora_indicators),
            "ura_indicators": list(a.ura_indicators),
        }


@dataclass(frozen=True, slots=True)
class DrawResult:
    """A draw (ryuukyoku): exhaustive, abortive, or nagashi mangan."""

    ryuukyoku: Ryuukyoku
    players: int

    def to_json(self) -> dict[str, Any]:
        r = self.ryuukyoku
        return {
            "type": "ryuukyoku",
            "kind": r.kind.value,
            "abortive": r.kind.is_abortive,
            "shown": [s for s in range(self.players) if r.hands[s] is not None],
            "deltas": list(r.deltas[:self.players]),
        }


Result = WinResult | DrawResult


@dataclass(frozen=True, slots=True)
class HandDocument:
    """One replayed hand: its events, results, scores, findings and verdict."""

    hand: Hand
    players: int
    before: tuple[int, ...]
    """Each seat's points at the INIT (one entry per player)."""
    after: tuple[int, ...]
    """Each seat's points after the hand's last event (the fold's last state: riichi sticks paid,
    the results' payments made)."""
    dora_indicators: tuple[int, ...]
    """The dora indicators the hand revealed, the first one first."""
    riichi: tuple[int, ...]
    """The seats whose riichi was accepted (the stick paid)."""
    results: tuple[Result, ...]
    findings: tuple[Finding, ...]

    @property
    def label(self) -> str:
        return self.hand.init.label()

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def deltas(self) -> tuple[int, ...]:
        """Each seat's net change over the hand (riichi sticks paid included)."""
        return tuple(a - b for a, b in zip(self.after, self.before, strict=True))

    @property
    def finished(self) -> bool:
        """The log has the hand's result (a log that stops early cuts its last hand)."""
        return bool(self.results)

    @property
    def verdict(self) -> str:
        """``verified``; ``incomplete`` (no error, but the log ends before the hand's result);
        ``failed`` (an error finding)."""
        return ("verified" if self.finished else "incomplete") if self.ok else "failed"

    def to_json(self) -> dict[str, Any]:
        hand = self.hand
        init = hand.init
        return {
            "index": hand.index,
            "label": init.label(),
            "round": init.round,
            "honba": init.honba,
            "sticks": init.sticks,
            "dealer": init.dealer,
            "init": to_json(init),
            "events": [to_json(e) for e in hand.events],
            "dora_indicators": list(self.dora_indicators),
            "riichi": list(self.riichi),
            "result": [r.to_json() for r in self.results],
            "scores_before": list(self.before),
            "scores_after": list(self.after),
            "deltas": list(self.deltas),
            "findings": [finding_json(f) for f in self.findings],
            "ok": self.ok,
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class FinalStandings:
    """The game's final result (``owari``) with the places and the table's uma."""

    scores: tuple[int, ...]
    points: tuple[float, ...]
    ranking: tuple[int, ...]
    """Seats from first to last place (ties to the seat nearer the first dealer)."""
    uma: tuple[int, ...] | None
    """Each seat's uma, when the table's uma is known."""
    chips: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "points": list(self.points),
            "ranking": list(self.ranking),
            "uma": list(self.uma) if self.uma is not None else None,
            "chips": list(self.chips) if self.chips is not None else None,
        }


@dataclass(frozen=True, slots=True)
class ReplayDocument:
    """What ``replay`` reports on one game (the README's ``replay --format json``)."""

    game: Game
    source: str
    """Where the game was read from, as the user named it."""
    viewer: int | None
    """The seat the view is from (``--seat``, a URL's ``tw``); it hides nothing in ``to_json()``
    (``to_json(seat=...)`` does: ``page_seat``)."""
    all_hands: bool
    ok: bool
    """No error finding in the game."""
    checks: Mapping[str, int]
    """The checks that ran, by kind (``CheckKind``)."""
    hands: tuple[HandDocument, ...]
    """Every hand of the game, in order."""
    shown: tuple[int, ...]
    """The positions (in ``hands``) of the hands the document holds: all of them, or the one
    ``--hand`` names."""
    findings: tuple[Finding, ...]
    """The findings that belong to no hand (game level)."""
    progression: tuple[tuple[int, ...], ...]
    """Each seat's points at the start of every hand, then at the end: ``[seat][point]``."""
    final: FinalStandings | None
    analysis: GameAnalysis | None = None
    """The discard analysis (``--analysis``, and always on the page), of the hands shown."""
    hand_label: str | None = None
    """The hand ``--hand`` asked for (``shown`` holds it), or ``None``: the whole game."""

    @property
    def complete(self) -> bool:
        """False for a log read up to where it stops (``Game.complete``)."""
        return self.game.complete

    @property
    def verdict(self) -> str:
        """``verified``; ``incomplete`` (no error, but the log stops before the game's end);
        ``failed`` (an error finding)."""
        return ("verified" if self.complete else "incomplete") if self.ok else "failed"

    @property
    def date(self) -> datetime | None:
        """When the game started (from its id), or ``None``."""
        return game_start(self.game.log_id)

    @property
    def check_count(self) -> int:
        """The checks that ran, in all (the kinds that count what could not be checked left out)."""
        return sum(n for kind, n in self.checks.items() if not kind.endswith("_not_checkable"))

    @property
    def errors(self) -> tuple[Finding, ...]:
        """Every error finding of the game, its hands' and its own."""
        found = [f for h in self.hands for f in h.findings] + list(self.findings)
        return tuple(f for f in found if f.severity is Severity.ERROR)

    @property
    def failed_hands(self) -> tuple[str, ...]:
        """The labels of the hands with an error finding, in game order."""
        return tuple(h.label for h in self.hands if not h.ok)

    @property
    def shown_hands(self) -> tuple[HandDocument, ...]:
        return tuple(self.hands[i] for i in self.shown)

    @property
    def page_seat(self) -> int | None:
        """The seat whose page this is: the viewer, unless ``all_hands`` shows every seat. Its
        page embeds ``to_json(seat=page_seat)``: only what that seat sees."""
        return None if self.all_hands else self.viewer

    def to_json(self, *, seat: int | None = None) -> dict[str, Any]:
        """The document: ``replay --format json`` prints it, the replay page embeds it. The
        ``analysis`` member is there only when the document has an analysis. With ``seat``, the
        document as that seat sees it (``documents.seat.seat_view``: what a seat's page embeds)."""
        game = self.game
        when = self.date
        shown = self.shown_hands
        doc: dict[str, Any] = {
            "type": "replay",
            "source": self.source,
            "log_id": game.log_id,
            "date": when.isoformat() if when is not None else None,
            "lobby": game.header.ruleset.name_en(),
            "viewer": self.viewer,
            "all_hands": self.all_hands,
            "ok": self.ok,
            "complete": self.complete,
            "verdict": self.verdict,
            "checks": dict(sorted(self.checks.items())),
            "check_count": self.check_count,
            "hand_count": len(self.hands),
            "hand_labels": [h.label for h in self.hands],
            "error_count": len(self.errors),
            "failed_hands": list(self.failed_hands),
            "warnings": list(game.warnings),
            "header": to_json(game.header),
            "hands": [h.to_json() for h in shown],
            "findings": [finding_json(f) for f in self.findings],
            "progression": [list(line) for line in self.progression],
            "final": self.final.to_json() if self.final is not None else None,
        }
        if self.analysis is not None:
            kept = {h.hand.index for h in shown}
            shown_analysis = replace(self.analysis,
                                     discards=tuple(n for n in self.analysis.discards if n.hand in kept),
                                     stopped=tuple(stop for stop in self.analysis.stopped if stop.hand in kept))
            doc["analysis"] = shown_analysis.to_json()
        return doc if seat is None else seat_view(doc, seat)


# -- building it -------------------------------------------------------------------------------------


class _Collected:
    """The fold's facts a hand's document needs, read while walking it once: what each winner
    collects of the honba and sticks (from the state just before its win)."""

    def __init__(self) -> None:
        self.bonus: list[tuple[int, int]] = []

    def before(self, state: TableState, index: int, event: Event) -> None:
        if isinstance(event, Agari):
            first = not state.wins  # the first winner collects (上家取り); Tenhou's order is the log's
            self.bonus.append((state.honba, state.sticks) if first else (0, 0))


def _hand_document(game: Game, position: int, findings: tuple[Finding, ...]) -> HandDocument:
    hand = game.hands[position]
    n = game.header.ruleset.players
    collected = _Collected()
    followed = follow_hand(game, position, collected)
    # a damaged log the fold cannot follow (the engine's findings say where): the log's own numbers
    state = None if isinstance(followed, FoldStop) else followed
    results: list[Result] = []
    wins = iter(collected.bonus)
    for ending in hand.endings:
        if isinstance(ending, Agari):
            honba, sticks = next(wins, (ending.honba, ending.sticks))
            results.append(WinResult(ending, n, honba, sticks))
        else:
            results.append(DrawResult(ending, n))
    before = tuple(hand.init.scores[:n])
    if state is not None:
        after = tuple(state.scores[:n])
        dora = tuple(state.dora)
        riichi = tuple(s for s in range(n) if state.seats[s].riichi == 2)
    else:
        last = hand.endings[-1] if hand.endings else None
        after = tuple(last.scores_before[s] + last.deltas[s] for s in range(n)) if last is not None else before
        dora = (hand.init.dora_indicator,)
        riichi = ()
    return HandDocument(hand, n, before, after, dora, riichi, tuple(results), findings)


def _uma(game: Game, ranking: Sequence[int]) -> tuple[int, ...] | None:
    """Each seat's uma (first place takes minus the others'), when the table's uma is known."""
    header = game.header
    start = game_start(game.log_id)
    table = game_end.table_rules(header.ruleset, header.lobby, header.csrule,
                                 start.date() if start is not None else None)
    if table.umas is None or len(table.umas) != len(ranking) - 1:
        return None
    uma = [0] * 4
    for seat, value in zip(ranking[1:], table.umas, strict=True):
        uma[seat] = value
    uma[ranking[0]] = -sum(table.umas)
    return tuple(uma[:len(ranking)])


def _final(game: Game) -> FinalStandings | None:
    owari = game.owari
    if owari is None:
        return None
    n = game.header.ruleset.players
    order = tuple(game_end.ranking(owari.scores, n, game.header.first_dealer))
    return FinalStandings(tuple(owari.scores[:n]), tuple(owari.points[:n]), order, _uma(game, order),
                          tuple(owari.chips[:n]) if owari.chips is not None else None)


def _progression(game: Game, hands: Sequence[HandDocument]) -> tuple[tuple[int, ...], ...]:
    n = game.header.ruleset.players
    owari = game.owari
    final: Sequence[int] = owari.scores[:n] if owari is not None else (hands[-1].after if hands else ())
    return tuple(tuple([h.before[s] for h in hands] + ([final[s]] if final else [])) for s in range(n))


def select_hands(hands: Sequence[HandDocument], label: str | None) -> tuple[int, ...]:
    """The positions of the hands ``--hand LABEL`` names (``E1-0``; case does not matter), or
    all of them. ``InputError`` names the game's hands when none is called so."""
    if label is None:
        return tuple(range(len(hands)))
    wanted = label.strip().upper()
    chosen = tuple(i for i, h in enumerate(hands) if h.label.upper() == wanted)
    if not chosen:
        labels = ", ".join(h.label for h in hands)
        raise InputError(f"no hand {label!r} in this game (its hands: {labels})")
    return chosen


def replay_document(game: Game, report: GameReport, *, source: str, viewer: int | None = None,
                    all_hands: bool = False, hand_label: str | None = None,
                    analysis: GameAnalysis | None = None) -> ReplayDocument:
    """The replay document of ``game``, replayed by the engine (``report``): every hand walked
    once through the fold. ``hand_label`` keeps one hand (``InputError`` when the game has none
    of that name); ``analysis`` (``analysis.analyze_game``) adds the discard analysis."""
    by_hand: dict[int, list[Finding]] = {}
    game_level: list[Finding] = []
    for finding in label_findings(game, report.findings):
        if finding.hand is not None and 0 <= finding.hand < len(game.hands):
            by_hand.setdefault(finding.hand, []).append(finding)
        else:
            game_level.append(finding)
    hands = tuple(_hand_document(game, position, tuple(by_hand.get(hand.index, ())))
                  for position, hand in enumerate(game.hands))
    return ReplayDocument(
        game=game, source=source, viewer=viewer, all_hands=all_hands, ok=report.ok,
        checks=dict(report.checks), hands=hands, shown=select_hands(hands, hand_label),
        findings=tuple(game_level), progression=_progression(game, hands), final=_final(game),
        analysis=analysis, hand_label=hand_label,
    )
