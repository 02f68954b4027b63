"""Who may sit at a table: the room's entry conditions, and the seats a header may name.

Pure functions over the header's values (``Room``, dan ids, rates). Sources: the room
requirements of Tenhou's ranked lobbies (鳳凰卓: 七段以上かつR2000以上; 特上卓: 四段以上かつR1800以上),
as issue 36 states them and as every genuine ranked game of the corpus keeps them (the corpus's
Tokujou games: lowest dan 四段, lowest rate 1800.00; Houou: 七段, 2001.02).
"""

from __future__ import annotations

from datetime import datetime

from ..events import Room, Ruleset
from ..ids import JST

__all__ = ["COMPUTER", "DAN_MAX", "GUEST_NAME", "RANKED_LOBBY", "SEXES", "WITHHELD_BEFORE", "distinct_names",
           "is_ranked", "may_sit", "room_minimum", "seats_withheld"]

RANKED_LOBBY = 0
"""Tenhou's ranked lobbies (段位戦) are lobby 0; any other number is a private lobby (個室)."""


def is_ranked(ruleset: Ruleset, lobby: int) -> bool:
    """A ranked game (段位戦): the ranked lobby, against people, no chips, not a special family."""
    return lobby == RANKED_LOBBY and ruleset.online and not ruleset.chips and not ruleset.special

DAN_MAX = 20
"""The highest dan id: 20 is 天鳳位 (0 新人, 1-9 九級..一級, 10 初段 ... 19 十段)."""

SEXES = frozenset({"M", "F", "C"})
"""The ``UN sx`` values Tenhou writes: male, female, and ``C`` (computer: the empty seat of a
three-player table)."""

COMPUTER = "C"
"""``UN sx`` of a seat no player holds (コンピュータ): the empty seat of a three-player table, or every
seat of a log whose players the server withholds (``seats_withheld``). A ranked lobby seats no
computer beside its players: in the corpus's 4,897 games no other seat is marked ``C``."""

WITHHELD_BEFORE = datetime(2010, 1, 1, tzinfo=JST)
"""The withheld form (``seats_withheld``) is the server's only in a game before this (the one
genuine log in that form is of 2009-02): a later game, or one without a date, in that form is
held to the room's conditions like any other, so the form cannot excuse a forged header."""

WITHHELD_DAN = 0
WITHHELD_RATE = 1500.0
"""The dan id (新人) and rate of the seats of a log whose players Tenhou's server withholds."""

GUEST_NAME = "NoName"
"""The name Tenhou gives every guest (an account-less player): several may share a table (four of
the corpus's private-lobby games seat four ``NoName``)."""


def distinct_names(names: list[str]) -> bool:
    """Whether every seat names a player and no two seats the same one (guests aside)."""
    named = [name for name in names if name != GUEST_NAME]
    return all(names) and len(set(named)) == len(named)


_MINIMUM: dict[Room, tuple[int, float]] = {
    Room.HOUOU: (16, 2000.0),  # 七段 and R2000
    Room.TOKUJOU: (13, 1800.0),  # 四段 and R1800
}


def room_minimum(room: Room) -> tuple[int, float] | None:
    """The lowest dan id and rate a player needs to sit at a ranked table of ``room`` (鳳凰卓,
    特上卓), or ``None`` where this is not established (一般, 上級)."""
    return _MINIMUM.get(room)


def may_sit(room: Room, dan: int, rate: float) -> bool:
    """Whether a player of this dan and rate may sit at a ranked table of ``room``."""
    minimum = _MINIMUM.get(room)
    return minimum is None or (dan >= minimum[0] and rate >= minimum[1])


def seats_withheld(seats: list[tuple[str, int, float]]) -> bool:
    """Whether the header names no player at all: every seat (``sx``, dan id, rate) is a computer
    of 新人 and R1500, the form in which Tenhou's server gave one 2009 Houou log
    (2009020103gm-00a9-0000-47e70b77, downloaded from tenhou.net by kv2000/tenhoulog: names
    ``EXAMPLE`` ... ``EXAMPLE4``). Its seats' dan and rate say nothing of the players."""
    return bool(seats) and all(sex == COMPUTER and dan == WITHHELD_DAN and rate == WITHHELD_RATE
                               for sex, dan, rate in seats)
