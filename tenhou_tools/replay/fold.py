"""Walking a hand through the one fold (``TableState.apply``): the state after any step, the
frozen board after every step in one pass, and a walk that lets an observer read the state
before each event.

Everything outside the replay that needs the table — the board view, the discard analysis, the
statistics, the mjai writer, the page's document — reads it through these functions; nothing
else applies a hand's events to rebuild hands, ponds, scores or sticks.

A log the fold cannot follow has one policy, ``follow_hand``: the walk stops there and says where
and why (``FoldStop``), and the caller records it (the analysis keeps it in
``GameAnalysis.stopped``; the page's document falls back to the log's own numbers for that hand;
the replay engine, which checks every event before it is applied, reports a finding instead).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ..events import Event, Game
from .board import Board, FoldStop
from .state import TableState

__all__ = ["FoldStop", "HandObserver", "board_at", "deal", "follow_hand", "game_states", "hand_boards",
           "walk_hand"]


class HandObserver(Protocol):
    """Reads the table state before each event of a hand (``walk_hand``)."""

    def before(self, state: TableState, index: int, event: Event) -> None:
        """``event`` is the hand's ``index``-th; ``state`` is the table just before it."""


def deal(game: Game, position: int) -> TableState:
    """The table of hand ``position`` (its index in ``game.hands``) as dealt."""
    rules = game.header.ruleset
    return TableState(game.hands[position].init, rules.players, bool(rules.chips))


def walk_hand(game: Game, position: int, observer: HandObserver | None = None, until: int = -1) -> TableState:
    """Apply hand ``position``'s events in order (the first ``until`` of them when ``until`` >= 0),
    showing ``observer`` the state before each; the state after the last one applied."""
    state = deal(game, position)
    for index, event in enumerate(game.hands[position].events):
        if index == until:
            break
        if observer is not None:
            observer.before(state, index, event)
        state.apply(event)
    return state


def follow_hand(game: Game, position: int, observer: HandObserver | None = None) -> TableState | FoldStop:
    """``walk_hand`` over the whole hand, for a log that may not hold together: the state after
    its last event, or where the walk stopped (the observer's error included: it reads the same
    state). The one place an error of the fold is caught outside the replay engine."""
    reached = -1
    try:
        state = deal(game, position)
        for reached, event in enumerate(game.hands[position].events):
            if observer is not None:
                observer.before(state, reached, event)
            state.apply(event)
    except Exception as exc:  # noqa: BLE001 - the caller records the stop (FoldStop), it is never dropped
        return FoldStop(position, reached, f"{type(exc).__name__}: {exc}")
    return state


def board_at(game: Game, position: int, step: int) -> Board:
    """The board of hand ``position`` after its first ``step`` events (``replay --at HAND:STEP``;
    0 is the deal)."""
    return walk_hand(game, position, until=step).board()


def hand_boards(game: Game, position: int) -> tuple[Board, ...]:
    """The board after every step of hand ``position``, in one pass: ``boards[k]`` is the table
    after its first ``k`` events (``boards[0]``: the deal)."""
    state = deal(game, position)
    boards = [state.board()]
    for event in game.hands[position].events:
        state.apply(event)
        boards.append(state.board())
    return tuple(boards)


def game_states(game: Game) -> Iterator[tuple[int, TableState]]:
    """Each hand's position and its state after its last event, in game order."""
    for position in range(len(game.hands)):
        yield position, walk_hand(game, position)
