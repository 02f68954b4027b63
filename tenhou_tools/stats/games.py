"""Each player's games one by one (対戦履歴): placement, dan and rate at that game, dan points and
the expected rate change; and the figures built from them (table kinds, latest rank, history).

``game_entries(game, key, day)`` reads a parsed game (its ``GO``/``UN`` header and final scores:
no replay) and returns one ``GameEntry`` per seat. Entries are plain values that merge by
concatenation, so one game, a worker's batch, the SQLite store's rows and several accounts
(``--as``) combine exactly; everything else here is computed from a list of them at report time:

- ``table_kinds(entries)``: per table kind (room or private lobby, length, player count) the
  games, rank counts, average rank, dan points per game and stable dan (安定段位);
- ``latest(entries)``, ``history(entries)``: the last game's dan and rate, and every game in
  date order;
- ``rate_change_summary(entries)``: the expected rate change per game (Tenhou's R formula).

Definitions and sources: ``docs/stats.md`` ("Per table kind", "History, latest rank and rate").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, overload

from ..events import Game, Room
from ..mjlog import ruleset_from_type
from ..rounding import rounded
from ..rules.game_end import ranking
from ..rules.lobby import RANKED_LOBBY, is_ranked  # is_ranked(ruleset, lobby): ask rules.lobby
from . import dan as dan_rules
from .dan import Length

__all__ = [
    "REPORT_DIGITS",
    "GameEntry",
    "TableKind",
    "TableRow",
    "game_entries",
    "history",
    "latest",
    "rate_change_summary",
    "report_value",
    "sorted_entries",
    "stable_dan_name",
    "table_kind",
    "table_kinds",
]



@dataclass(frozen=True, slots=True)
class GameEntry:
    """One player's one game: what the report's history, table kinds and latest rank need."""

    game: str
    """The game's key: its log id, or ``sha256:<hex>`` of the XML for a log without id."""
    day: date | None
    """The day in the game id (Japan time); ``None`` without a dated id."""
    type_code: int
    """``GO type`` (room, length, player count, rules)."""
    lobby: int
    """``GO lobby``: 0 for the ranked lobbies, else a private lobby's number."""
    rank: int
    """Placement, 1-based (final score order; a tie goes to the seat nearer the first dealer)."""
    dan: int | None
    """``UN dan`` of the player at this game (0 新人 ... 20 天鳳位); ``None`` if out of range."""
    rate: float | None
    """``UN rate`` of the player before this game."""
    final_points: int
    """The game result in ``owari`` (after return, oka and uma), in tenths."""
    dan_pt: int | None
    """Dan points this game earned or cost (``dan.dan_pt``, ``entry_dan_pt``): ``None`` outside
    the ranked lobbies, for 天鳳位, and for chip and unranked tables."""
    rate_change: float | None
    """The expected rate change of this game by Tenhou's formula, assuming 400+ games played
    (factor 0.2: an estimate); ``None`` outside the ranked lobbies."""

    @property
    def players(self) -> int:
        return _rules(self.type_code).players

    @property
    def room(self) -> str:
        """``ippan``, ``joukyuu``, ``tokujou``, ``houou`` or ``lobby:NNNN`` (a private lobby)."""
        if self.lobby != RANKED_LOBBY:
            return f"lobby:{self.lobby:04d}"
        return _rules(self.type_code).room.value

    @property
    def length(self) -> str:
        """``east`` (東風戦) or ``south`` (東南戦)."""
        return Length.from_east_south(_rules(self.type_code).east_south).value

    def to_json(self) -> dict[str, Any]:
        """One entry of the JSON ``history`` (docs/stats.md)."""
        return {
            "game": self.game,
            "date": self.day.isoformat() if self.day else None,
            "rank": self.rank,
            "players": self.players,
            "room": self.room,
            "length": self.length,
            "dan": self.dan,
            "dan_name": None if self.dan is None else dan_rules.dan_name(self.dan),
            "rate": report_value(self.rate),
            "final_points": self.final_points / 10,
            "dan_pt": self.dan_pt,
            "rate_change": report_value(self.rate_change),
        }


@lru_cache(maxsize=4096)
def _rules(type_code: int):
    return ruleset_from_type(type_code)


@lru_cache(maxsize=1024)
def _pt_points(room: Room, length: Length, players: int, dan: int,
               era: dan_rules.RuleEra | None) -> tuple[int, ...] | None:
    """``dan.pt_table(...).points`` for the era in force (kept: a few dozen distinct tables)."""
    if era is None:
        return None
    day = era.start or (era.end - timedelta(days=1) if era.end else None)  # a day the era covers
    table = dan_rules.pt_table(room, length, players, dan, day)
    return None if table is None else table.points


def entry_dan_pt(type_code: int, lobby: int, day: date | None, dan: int | None, rank: int) -> int | None:
    """The dan points of finishing ``rank`` at rank ``dan`` in a game of ``GO type``
    ``type_code`` in ``lobby`` on ``day``: ``None`` for a game that is not ranked (``is_ranked``),
    an unknown rank, or where ``dan`` has no table (天鳳位). The stats database works these out
    again when it reads its games, so a file written before a table was known reports it."""
    if dan is None or not is_ranked(_rules(type_code), lobby):
        return None
    rules = _rules(type_code)
    n = rules.players
    points = _pt_points(rules.room, Length.from_east_south(rules.east_south), n, dan, dan_rules.rule_era(n, day))
    return None if points is None else points[rank - 1]


def game_entries(game: Game, key: str, day: date | None) -> list[tuple[str, GameEntry]]:
    """``(name, entry)`` for every seat of a complete game (``ValueError`` without ``owari``).

    Placement as in ``counters.game_counters``; dan points and the rate change only for ranked
    games (``is_ranked``)."""
    owari = game.owari
    if owari is None:
        raise ValueError("the game has no final result (owari)")
    header = game.header
    rules = header.ruleset
    n = rules.players
    lobby = header.lobby or 0
    first = header.first_dealer
    order = ranking(owari.scores, n, first)
    ranks = {seat: rank for rank, seat in enumerate(order, 1)}
    seats = header.players[:n]
    ranked = is_ranked(rules, lobby)
    rates = [p.rate for p in seats]
    average = dan_rules.table_average_rate(rates) if ranked and len(rates) == n else None
    out = []
    for seat, player in enumerate(seats):
        rank = ranks[seat]
        dan = player.dan if 0 <= player.dan <= dan_rules.TENHOUI else None
        dan_pt = None
        change = None
        if ranked:
            dan_pt = entry_dan_pt(rules.type_code, lobby, day, dan, rank)
            if average is not None:
                change = dan_rules.rate_change(rank, player.rate, average, None, n).value
        out.append((player.name, GameEntry(
            game=key, day=day, type_code=rules.type_code, lobby=lobby, rank=rank, dan=dan,
            rate=player.rate, final_points=round(owari.points[seat] * 10), dan_pt=dan_pt,
            rate_change=change)))
    return out


# --- figures from a list of entries ---------------------------------------------------------------


def sorted_entries(entries: Iterable[GameEntry]) -> list[GameEntry]:
    """Date order: games without a date first (they cannot be placed), then by day and key (a
    game id starts with its hour, so the key orders the games of one day)."""
    return sorted(entries, key=lambda e: (e.day is not None, e.day or date.min, e.game))


@dataclass(frozen=True, slots=True)
class TableKind:
    """Where a game was played, as far as dan points care: room (or private lobby), length and
    the number of players."""

    room: str
    length: str
    players: int


def table_kind(entry: GameEntry) -> TableKind:
    return TableKind(entry.room, entry.length, entry.players)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table kind's figures for one player."""

    kind: TableKind
    games: int
    ranks: tuple[int, ...]
    """Games finished 1st, 2nd, ... (3 or 4 entries)."""
    dan_pt_total: int
    dan_pt_games: int
    """Games that have dan points (denominator of ``dan_pt_per_game``)."""

    @property
    def avg_rank(self) -> float:
        return sum(r * n for r, n in enumerate(self.ranks, 1)) / self.games

    @property
    def dan_pt_per_game(self) -> float | None:
        return self.dan_pt_total / self.dan_pt_games if self.dan_pt_games else None

    @property
    def stable_dan(self) -> float | None:
        """安定段位 of the rank counts under this kind's table (``dan.stable_dan``); ``None`` in
        private lobbies, without a table, or without a last place."""
        kind = self.kind
        if kind.room.startswith("lobby:"):
            return None
        return dan_rules.stable_dan(self.ranks, Room(kind.room), Length(kind.length), kind.players)

    def to_json(self) -> dict[str, Any]:
        stable = self.stable_dan
        return {
            "room": self.kind.room,
            "length": self.kind.length,
            "players": self.kind.players,
            "games": self.games,
            "ranks": list(self.ranks),
            "avg_rank": report_value(self.avg_rank),
            "dan_pt_per_game": report_value(self.dan_pt_per_game),
            "stable_dan": report_value(stable),
            "stable_dan_name": stable_dan_name(stable),
        }


def table_kinds(entries: Iterable[GameEntry]) -> list[TableRow]:
    """One row per table kind played, most games first (then room, length, players)."""
    groups: dict[TableKind, list[GameEntry]] = {}
    for e in entries:
        groups.setdefault(table_kind(e), []).append(e)
    rows = []
    for kind, games in groups.items():
        ranks = [0] * kind.players
        for e in games:
            ranks[e.rank - 1] += 1
        with_pt = [e.dan_pt for e in games if e.dan_pt is not None]
        rows.append(TableRow(kind, len(games), tuple(ranks), sum(with_pt), len(with_pt)))
    rows.sort(key=lambda r: (-r.games, _ROOM_ORDER.get(r.kind.room, 9), r.kind.room, r.kind.length,
                             -r.kind.players))
    return rows


_ROOM_ORDER = {"houou": 0, "tokujou": 1, "joukyuu": 2, "ippan": 3}


def stable_dan_name(value: float | None) -> str | None:
    """The rank a stable dan falls in: the whole part on the scale (7.8 -> 七段, 0.5 -> 1級),
    kept between 3級 (its least value, -2) and 十段 (values past 10 extend the line)."""
    if value is None:
        return None
    scale = max(-2, min(10, math.floor(value)))
    return dan_rules.dan_name(scale + dan_rules.SHODAN - 1)


def latest(entries: Sequence[GameEntry]) -> GameEntry | None:
    """The player's last game in date order (``sorted_entries``)."""
    return sorted_entries(entries)[-1] if entries else None


def history(entries: Iterable[GameEntry]) -> list[dict[str, Any]]:
    """Every game in date order, as JSON (``GameEntry.to_json``)."""
    return [e.to_json() for e in sorted_entries(entries)]


RATE_NOTE_ESTIMATE = ("mean expected change per ranked game by Tenhou's formula, assuming 400 or "
                      "more games played (factor 0.2): with fewer games the change is up to 5 times larger")
RATE_NOTE_NONE = "no ranked game with the rates of the whole table"


def rate_change_summary(entries: Iterable[GameEntry]) -> dict[str, Any]:
    """``{"value", "estimate", "note"}``: the mean of the games' ``rate_change`` (ranked games).

    The games played before each game are not in a log, so the value is always an estimate."""
    changes = [e.rate_change for e in entries if e.rate_change is not None]
    if not changes:
        return {"value": None, "estimate": False, "note": RATE_NOTE_NONE}
    return {"value": report_value(sum(changes) / len(changes)), "estimate": True, "note": RATE_NOTE_ESTIMATE}


REPORT_DIGITS = 4
"""The decimals the report holds a figure to (a rate of 0.1234, an average rank of 2.4567): its
JSON, CSV and page, and the text, which shows each figure rounded from that value (the page does
the same: the two show one number alike)."""


@overload
def report_value(value: float) -> float: ...


@overload
def report_value(value: None) -> None: ...


def report_value(value: float | None) -> float | None:
    """A figure as the report holds it: ``REPORT_DIGITS`` decimals, a half away from zero
    (``rounding.rounded``, the one rule); an ``int`` and ``None`` as they are."""
    if value is None or isinstance(value, int):
        return value
    return rounded(value, REPORT_DIGITS)
