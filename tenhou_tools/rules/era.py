"""The era (時代) a log's own marks belong to, held against the date in its game id.

Tenhou changed what its logs write on known days; a log whose marks belong to another era than
its id's date has been renamed or rewritten. Pure functions of the marks and the start hour
(``ids.game_start``); the rule changes of play (uma, the extension limit, tenpai-yame, the game
points' rounding, ``REACH ten``) are applied by date where they are ruled (``game_end``,
``riichi``). What is here is the format's own marks, each with the last genuine game seen in
the old form and the first seen in the new one (the corpus's id-named logs, 2008-2024,
docs/findings.md "ERA"); between the two both are allowed, and before the corpus's first game
or without a date nothing is held (``era_not_checkable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from ..ids import JST
from .wall import FORMAT_BASE64, FORMAT_HEX, FORMAT_LEGACY

__all__ = ["ERA_MARKS", "EraMark", "Mark", "allowed"]


class Mark(Enum):
    """A mark of the log's format that changed on a known day."""

    SEED = "seed"
    """The wall seed's method: ``INIT shuffle="mt19937ar,..."`` per hand (一局ごと), then one
    ``SHUFFLE seed`` of ``mt19937ar-sha512-n288`` (hex key), then ``...-n288-base64``."""
    LOBBY_ATTRIBUTE = "lobby_attribute"
    """Whether ``GO`` writes a ``lobby`` attribute (``True``) or not (``False``)."""
    RATE_HUNDREDTHS = "rate_hundredths"
    """Whether a ``UN rate`` has hundredths: whole numbers only until October 2010. Held one way
    only: a later log may show whole rates too (a new player's 1500.00 reads as 1500)."""


@dataclass(frozen=True, slots=True)
class EraMark:
    """One change of one mark: ``old`` up to ``last_old``, ``new`` from ``first_new`` (the
    genuine games that bound it), both possible between."""

    mark: Mark
    old: object
    new: object
    last_old: datetime
    first_new: datetime
    first_seen: datetime
    """The corpus's first game with this mark: before it nothing is held."""


def _jst(y: int, m: int, d: int, h: int) -> datetime:
    return datetime(y, m, d, h, tzinfo=JST)


_FIRST = _jst(2008, 9, 20, 0)
"""The corpus's earliest id-named game (2008092000gm-0009-0000-10db094d)."""

ERA_MARKS: tuple[EraMark, ...] = (
    # INIT shuffle: 824 games, 2008-09-20 .. 2009-07-13 00h; hex: 59 games, 2009-07-22 22h ..
    # 2010-02-28 02h; base64: 3,723 games from 2010-03-02 11h
    EraMark(Mark.SEED, FORMAT_LEGACY, FORMAT_HEX, _jst(2009, 7, 13, 0), _jst(2009, 7, 22, 22), _FIRST),
    EraMark(Mark.SEED, FORMAT_HEX, FORMAT_BASE64, _jst(2010, 2, 28, 2), _jst(2010, 3, 2, 11), _FIRST),
    # GO lobby: absent in 915 games up to 2010-09-25 23h, present in 3,692 from 2010-10-27 07h
    EraMark(Mark.LOBBY_ATTRIBUTE, False, True, _jst(2010, 9, 25, 23), _jst(2010, 10, 27, 7), _FIRST),
    # UN rate: whole numbers in 916 games up to 2010-10-27 07h, hundredths in 3,691 from
    # 2010-10-30 09h
    EraMark(Mark.RATE_HUNDREDTHS, False, True, _jst(2010, 10, 27, 7), _jst(2010, 10, 30, 9), _FIRST),
)


def allowed(mark: Mark, start: datetime | None) -> frozenset[object] | None:
    """The values ``mark`` may take in a game that started at ``start`` (the id's hour), or
    ``None`` when that cannot be told (no date, or before the corpus's first game). A value no
    era names (an unknown seed method) is left to the checks that read it."""
    changes = [c for c in ERA_MARKS if c.mark is mark]  # in time order, each ``old`` the last ``new``
    if start is None or start < changes[0].first_seen:
        return None
    values: frozenset[object] = frozenset({changes[-1].new})
    for change in changes:
        if start <= change.last_old:
            values = frozenset({change.old})
            break
        if start < change.first_new:
            values = frozenset({change.old, change.new})
            break
    if mark is Mark.RATE_HUNDREDTHS:
        values |= {False}  # whole rates are possible in any era (see the mark)
    return values
