"""The board document of ``tenhou-tools replay --at HAND:STEP``: the table at one moment, one
typed value built here, with one JSON form (docs/board.md).

``board_document(game, moment, ...)`` takes the fold's board at that moment
(``replay.fold.board_at``: the board after a result *is* the scores after it, the sticks a win
took are gone) and adds what people and programs read beside it: each seat's name, standard
shanten and waits, and, when asked for, the discard analysis the moment shows
(``GameAnalysis.at_moment``). ``BoardDocument.to_json()`` is ``{"board": {...}}``; every seat
is complete whatever the view (the text view of ``cli/`` hides what a seat cannot see).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import DiscardNote, GameAnalysis
from ..errors import InputError
from ..events import Agari, Event, Game, Hand, Meld, Ryuukyoku
from ..replay.board import Board, SeatBoard
from ..replay.fold import board_at
from ..rules.hand import counts34, meld_count, waits
from ..rules.shanten import shanten
from ..serialize import to_json

__all__ = ["BoardDocument", "Moment", "SeatDocument", "board_document", "parse_moment", "seat_shanten",
           "seat_waits"]


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a game: the hand's position in ``game.hands`` and the step (0 = the deal,
    k = after the hand's k-th event)."""

    position: int
    step: int


def parse_moment(game: Game, text: str) -> Moment:
    """``E2-1:12`` (hand label as the view writes it, case does not matter; step 0 to the
    number of the hand's events). ``InputError`` names the valid labels or steps."""
    label, colon, step_text = text.strip().rpartition(":")
    if not colon or not label or not step_text.strip().isdigit():
        raise InputError(f"--at {text!r}: expected HAND:STEP, such as E1-0:12 (step 0 is the deal)")
    labels = [h.init.label() for h in game.hands]
    wanted = label.strip().upper()
    position = next((i for i, name in enumerate(labels) if name.upper() == wanted), None)
    if position is None:
        listed = ", ".join(labels) if labels else "none"
        raise InputError(f"--at {text!r}: no hand {label.strip()!r} in this game (its hands: {listed})")
    step = int(step_text)
    steps = len(game.hands[position].events)
    if step > steps:
        raise InputError(f"--at {text!r}: hand {labels[position]} has steps 0-{steps} "
                         f"(0 is the deal, {steps} the last event)")
    return Moment(position, step)


def seat_shanten(concealed: Sequence[int], melds: Sequence[Meld], *, sanma: bool) -> int | None:
    """Standard shanten (the lowest of regular, seven pairs, thirteen orphans) of the concealed
    tiles; ``None`` when their number does not fit the melds (a damaged log)."""
    try:
        return shanten(counts34(concealed), meld_count(melds), sanma=sanma)
    except ValueError:
        return None


def seat_waits(concealed: Sequence[int]) -> tuple[int, ...]:
    """The kinds that complete a tenpai 3n+1 hand (by shape); empty otherwise, and for a seat
    that holds 3n+2 tiles (between its draw or call and its discard)."""
    if len(concealed) % 3 != 1:
        return ()
    return tuple(sorted(waits(counts34(concealed))))


@dataclass(frozen=True, slots=True)
class SeatDocument:
    """One seat at the moment: the fold's ``SeatBoard`` and what is read off it."""

    board: SeatBoard
    name: str
    """The player's name as the log has it."""
    shanten: int | None
    """Standard shanten of the concealed tiles (``seat_shanten``)."""
    waits: tuple[int, ...]
    """``seat_waits``."""
    shown: bool = False
    """A result by this moment has shown the hand (the winner's, a tenpai hand at a draw, a
    nine-terminals declaration): public from then on, whatever the view."""

    def to_json(self) -> dict[str, Any]:
        s = self.board
        furiten = s.furiten
        return {
            "seat": s.seat,
            "name": self.name,
            "hand": list(s.concealed),
            "melds": [to_json(m) for m in s.melds],
            "discards": [{"tile": p.tile, "tsumogiri": p.tsumogiri, "riichi": p.riichi, "called": p.called,
                          "step": p.step} for p in s.pond],
            "score": s.score,
            "riichi": s.riichi,
            "declared": s.declared,
            "connected": s.connected,
            "shanten": self.shanten,
            "waits": list(self.waits),
            "furiten": furiten.any,
            "furiten_kinds": {"discard": list(furiten.discard), "same_turn": list(furiten.same_turn),
                              "riichi": list(furiten.riichi)},
            "shown": self.shown,
        }


@dataclass(frozen=True, slots=True)
class BoardDocument:
    """The table at one moment (docs/board.md)."""

    log_id: str | None
    hand: Hand
    board: Board
    players: int
    seats: tuple[SeatDocument, ...]
    with_analysis: bool = False
    """``--analysis`` asked for the analysis (the JSON then has an ``analysis`` member)."""
    analysis: DiscardNote | None = None
    """The discard analysis the moment shows, or ``None``."""

    @property
    def step(self) -> int:
        return self.board.step

    @property
    def event(self) -> Event | None:
        """The event just applied; ``None`` at the deal."""
        return self.hand.events[self.step - 1] if self.step else None

    @property
    def before(self) -> Event | None:
        """The event before that one (it tells a replacement draw and a riichi discard)."""
        return self.hand.events[self.step - 2] if self.step >= 2 else None

    def to_json(self) -> dict[str, Any]:
        """``{"board": {...}}``."""
        board = self.board
        event = self.event
        out: dict[str, Any] = {
            "log_id": self.log_id,
            "hand": self.hand.init.label(),
            "hand_index": self.hand.index,
            "step": board.step,
            "steps": len(self.hand.events),
            "event": to_json(event) if event is not None else None,
            "players": self.players,
            "round": board.round,
            "dealer": board.dealer,
            "honba": board.honba,
            "sticks": board.sticks,
            "dora_indicators": list(board.dora_indicators),
            "wall_remaining": board.live_remaining,
            "seats": [s.to_json() for s in self.seats],
        }
        if self.with_analysis:
            out["analysis"] = None if self.analysis is None else self.analysis.to_json()
        return {"board": out}


def _shown_by_results(events: Sequence[Event]) -> frozenset[int]:
    """The seats whose hands the results among ``events`` show."""
    seats: set[int] = set()
    for event in events:
        if isinstance(event, Agari):
            seats.add(event.who)
        elif isinstance(event, Ryuukyoku):
            seats.update(s for s, shown in enumerate(event.hands) if shown is not None)
    return frozenset(seats)


def board_document(game: Game, moment: Moment, analysis: GameAnalysis | None = None) -> BoardDocument:
    """The table at ``moment``, every seat complete; with ``analysis`` (``analyze_game``), the
    entry that moment shows."""
    hand = game.hands[moment.position]
    board = board_at(game, moment.position, moment.step)
    players = game.header.ruleset.players
    sanma = players == 3
    names = game.header.players
    shown = _shown_by_results(hand.events[:moment.step])
    seats = tuple(SeatDocument(s, names[s.seat].name if s.seat < len(names) else "",
                               seat_shanten(s.concealed, s.melds, sanma=sanma), seat_waits(s.concealed),
                               shown=s.seat in shown)
                  for s in board.seats)
    note = analysis.at_moment(hand, moment.step) if analysis is not None else None
    return BoardDocument(game.log_id, hand, board, players, seats, with_analysis=analysis is not None,
                         analysis=note)
