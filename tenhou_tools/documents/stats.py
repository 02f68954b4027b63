"""The statistics report of ``tenhou-tools stats``: one typed value, built here, with one JSON form.

``stats_report(collected, ...)`` turns what ``stats.collect.collect_stats`` counted (or what a
``StatsStore`` holds) into a ``StatsReport``: the rows (``stats.report.PlayerReport``, one per
player and table size, filtered by ``--player`` and ``--min-games``, merged by ``--as``, most
games first), the number of games selected, every player's counters per table size (the whole
set a row is compared with) and how the logs were read (``StatsInputs``).

Its JSON form is ``StatsReport.to_json()`` (docs/stats.md, "The report document")::

    {"players": [row, ...], "set": {...}, "inputs": {...}}

``stats --format json`` prints its ``players`` (``players_text``: an array, one object a line)
and ``--format csv`` a row per player (``csv_text``). The HTML page (``views.stats_html``) embeds
``StatsReport.page_json()`` instead: the members its script draws, of the same values, packed as
columns (``PAGE_COLUMNS``; docs/stats-html.md, "The data in the page"). The command line renders
these and the text tables; nothing here prints.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..serialize import csv_cell, json_text
from ..stats.collect import Collected
from ..stats.counters import PlayerCounters, PlayerKey
from ..stats.dan import DAN_NAMES
from ..stats.games import GameEntry
from ..stats.names import NameMatcher
from ..stats.records import GameFilter
from ..stats.report import PlayerReport, csv_columns, merge_rows, set_averages
from ..stats.store import StatsStore, StoreError

__all__ = ["PAGE_COLUMNS", "StatsInputs", "StatsReport", "check_store", "page_row", "player_rows", "stats_report"]

PAGE_COLUMNS: dict[str, tuple[str, ...]] = {
    "row": ("name", "players", "games", "hands", "rank_counts", "avg_rank", "top2_rate",
            "win_rate", "win_rate_ci", "deal_in_rate", "deal_in_rate_ci", "riichi_rate", "riichi_rate_ci",
            "call_rate", "call_rate_ci", "rank1_rate", "rank1_rate_ci", "last_rate", "last_rate_ci",
            "latest", "rate_change_per_game", "play_quality", "tables", "history"),
    "latest": ("date", "dan", "rate"),
    "rate_change_per_game": ("value", "estimate", "note"),
    "play_quality": ("share", "share_ci", "table_share", "loss_rate", "discards", "mean_cost"),
    "tables": ("room", "length", "players", "games", "ranks", "avg_rank", "dan_pt_per_game", "stable_dan",
               "stable_dan_name"),
    "history": ("when", "rank", "dan", "rate"),
}
"""The page document's columns: the members of a JSON row (``PlayerReport.to_json``) that the HTML
page draws, and nothing else. A row of the page is a list in ``row`` order (``last_rate`` is the
JSON's ``rank4_rate``, ``rank3_rate`` three-player: the last place's); ``latest``, each of
``tables`` and ``play_quality`` are lists in their own column order; ``history`` is one list per
column (``when``: the game's date, or its key when its id has no date; ``dan``: the dan id, named
by the document's ``dan_names``); ``rate_change_per_game``'s ``note`` and ``latest``'s ``dan`` are
indexes into the document's ``notes`` and ``dan_names``."""


@dataclass(frozen=True, slots=True)
class StatsInputs:
    """How the logs of a report were read: every input accounted for."""

    read: int
    """Logs read and counted (with ``--db``: read, and added or found in the database)."""
    unreadable: int
    """Logs that could not be read (not counted)."""
    duplicates: int
    """Copies of a game read before (by its id, else its bytes), skipped (``--no-dedupe`` reads them)."""
    not_logs: int = 0
    """Files in folders and archive members named like logs that are not Tenhou logs, skipped."""
    filtered: int = 0
    """Games read but left out by ``--lobby``/``--since``/``--until`` (without ``--db``)."""
    added: int | None = None
    """With ``--db``: games added to the database; ``None`` without."""
    known: int | None = None
    """With ``--db``: games the database held already (not read again); ``None`` without."""
    interrupted: bool = False
    """Ctrl-C stopped the reading: the report covers the games read before."""
    unreadable_examples: tuple[str, ...] = ()
    """The first of the logs that could not be read (``stats.collect.MAX_ERROR_EXAMPLES``), each
    as the text report names it on stderr: the log and why (``fixtures/truncated.mjlog: byte
    305: gzip data is truncated``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"read": self.read, "unreadable": self.unreadable,
                               "unreadable_examples": list(self.unreadable_examples),
                               "duplicates": self.duplicates, "not_logs": self.not_logs, "filtered": self.filtered}
        if self.added is not None:
            out["added"] = self.added
            out["known"] = self.known
        out["interrupted"] = self.interrupted
        return out


@dataclass(frozen=True, slots=True)
class StatsReport:
    """What ``stats`` reports (docs/stats.md)."""

    rows: tuple[PlayerReport, ...]
    """A row per player and table size, most games first."""
    games: int
    """The games selected."""
    everyone: Mapping[int, PlayerCounters] = field(default_factory=dict)
    """Every player's counters of the games selected, per table size (4, 3), whatever the rows
    keep: the whole set's averages (``set``) are theirs. Empty: the averages are the rows'."""
    inputs: StatsInputs | None = None
    """How the logs were read; ``None`` for a report from a database alone (``stats --db FILE``)."""

    def set_json(self) -> dict[str, Any]:
        """The ``set`` member: the whole set's averages (``stats.report.set_averages``), and the same
        per table size under ``by_players`` (``"4"``, ``"3"``), since three-player placements and
        rates are not four-player ones: over every player of the games selected (``"over": "every
        player"``) when ``everyone`` is known, else over the rows (``"over": "rows"``)."""
        rows = self.rows
        sizes = sorted({r.players for r in rows}, reverse=True)
        if self.everyone:
            shown = {n: self.everyone[n] for n in sizes if n in self.everyone}
            averages = set_averages(rows, sum(shown.values(), PlayerCounters()), max(shown, default=0))
            averages["by_players"] = {str(n): set_averages([r for r in rows if r.players == n], shown[n], n)
                                      for n in sizes if n in shown}
        else:
            averages = set_averages(rows)
            averages["by_players"] = {str(n): set_averages([r for r in rows if r.players == n]) for n in sizes}
        return averages

    def to_json(self) -> dict[str, Any]:
        """The report document: ``{"players": [...], "set": {...}}``, and ``inputs`` when logs were
        read."""
        doc: dict[str, Any] = {"players": [r.to_json() for r in self.rows], "set": self.set_json()}
        if self.inputs is not None:
            doc["inputs"] = self.inputs.to_json()
        return doc

    def page_json(self) -> dict[str, Any]:
        """The document the HTML page embeds (``views.stats_html``): the same values as
        ``to_json()``, but only the members the page draws, each row a list of ``PAGE_COLUMNS``
        instead of an object repeating its keys, and each history a list per column::

            {"columns": {...}, "dan_names": [...], "notes": [...], "rows": [[...], ...],
             "set": {...}, "inputs": {...}}

        ``set`` and ``inputs`` are ``to_json()``'s. A whole number held as a float (a rate of
        1556.0, an interval's 0.0) is written as an integer: JavaScript reads the same number."""
        notes: dict[str, int] = {}
        doc: dict[str, Any] = {
            "columns": {k: list(v) for k, v in PAGE_COLUMNS.items()},
            "dan_names": list(DAN_NAMES),
            "notes": [],
            "rows": [page_row(r.to_json(), notes) for r in self.rows],
            "set": _whole(self.set_json()),
        }
        doc["notes"] = list(notes)
        if self.inputs is not None:
            doc["inputs"] = self.inputs.to_json()
        return doc

    def players_text(self) -> str:
        """``stats --format json``: the ``players`` of the document as a JSON array, one object a
        line."""
        lines = [json_text(r.to_json()) for r in self.rows]
        return "[\n" + ",\n".join(lines) + ("\n" if lines else "") + "]\n"

    def csv_text(self) -> str:
        """``stats --format csv``: a header line, then a row per player (``PlayerReport.to_row``;
        empty cells where a value is undefined; text that a spreadsheet would run as a formula
        escaped, ``serialize.csv_cell``)."""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=csv_columns(), restval="", lineterminator="\n")
        writer.writeheader()
        for report in self.rows:
            writer.writerow({k: csv_cell(v) for k, v in report.to_row().items()})
        return buffer.getvalue()


def _whole(value: Any) -> Any:
    """``value`` with each float that is a whole number as an int, in lists and dicts too."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, list | tuple):
        return [_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    return value


def _pick(obj: Mapping[str, Any] | None, columns: Sequence[str]) -> list[Any] | None:
    return None if obj is None else [_whole(obj.get(c)) for c in columns]


def page_row(row: Mapping[str, Any], notes: dict[str, int]) -> list[Any]:
    """One JSON row (``PlayerReport.to_json()``) as a row of the page document (``PAGE_COLUMNS``);
    ``notes`` numbers the rate-change notes met so far (a new one is added)."""
    size = row["players"]
    out: dict[str, Any] = {c: _whole(row.get(c)) for c in PAGE_COLUMNS["row"]}
    out["last_rate"] = _whole(row.get(f"rank{size}_rate"))
    out["last_rate_ci"] = _whole(row.get(f"rank{size}_rate_ci"))
    latest = row.get("latest")
    out["latest"] = None if latest is None else _pick(latest, PAGE_COLUMNS["latest"])
    change = row.get("rate_change_per_game")
    if change is not None:
        change = dict(change)
        change["note"] = None if change.get("note") is None else notes.setdefault(change["note"], len(notes))
    out["rate_change_per_game"] = _pick(change, PAGE_COLUMNS["rate_change_per_game"])
    out["play_quality"] = _pick(row.get("play_quality"), PAGE_COLUMNS["play_quality"])
    out["tables"] = [_pick(t, PAGE_COLUMNS["tables"]) for t in row.get("tables") or ()]
    games = row.get("history") or ()
    history = [[g["date"] or g["game"] for g in games]]
    history += [[_whole(g.get(c)) for g in games] for c in PAGE_COLUMNS["history"][1:]]
    out["history"] = history
    return [out[c] for c in PAGE_COLUMNS["row"]]


def player_rows(totals: Mapping[PlayerKey, PlayerCounters], *, min_games: int = 1,
                wanted: NameMatcher | None = None, entries: Mapping[PlayerKey, Sequence[GameEntry]] | None = None,
                quality: bool = False, set_quality: tuple[int, int] | None = None,
                as_name: str | None = None) -> list[PlayerReport]:
    """The rows of a report: a ``PlayerReport`` per player and table size that ``wanted`` keeps
    (all without it), their games from ``entries``, added into one row per table size named
    ``as_name`` when given (``merge_rows``), those of fewer than ``min_games`` games left out, most
    games first (then by name, four-player first)."""
    entries = entries or {}
    rows = [PlayerReport(name, players, c, entries.get((name, players), ()), quality=quality,
                         set_quality=set_quality)
            for (name, players), c in totals.items() if wanted is None or wanted.matches(name)]
    if as_name is not None:
        rows = merge_rows(rows, as_name)
    rows = [r for r in rows if r.counters.games >= min_games]
    rows.sort(key=lambda r: (-r.counters.games, r.name, -r.players))
    return rows


def _store_totals(store: StatsStore, games: GameFilter,
                  wanted: NameMatcher | None) -> dict[PlayerKey, PlayerCounters]:
    """The database's totals, of the players ``wanted`` asks for (by their names as stored)."""
    if wanted is None:
        return store.totals(games)
    wanted.see(store.names())
    return store.totals(games, wanted.matched())


def _check_sums(rows: Sequence[PlayerReport], name: str) -> None:
    """Counters read from a database must add up (e.g. no more wins than hands): a damaged file
    can hold numbers that parse but cannot be reported. ``StoreError`` when they do not."""
    for report in rows:
        try:
            report.sections()
        except (ValueError, ArithmeticError) as exc:
            raise StoreError(f"{name!r} is damaged: the counters of {report.name!r} do not "
                             f"add up ({exc}): not written to") from None


def check_store(store: StatsStore, games: GameFilter, wanted: NameMatcher | None, name: str) -> None:
    """Before anything is added to ``store``: what a report of it would sum must add up
    (``StoreError`` naming the file as ``name`` when it does not)."""
    _check_sums(player_rows(_store_totals(store, games, wanted), wanted=wanted), name)


def stats_report(collected: Collected | None, *, store: StatsStore | None = None, store_name: str = "",
                 games: GameFilter | None = None, wanted: NameMatcher | None = None, min_games: int = 1,
                 quality: bool = False, as_name: str | None = None) -> StatsReport:
    """The report of what ``collect_stats`` counted (``collected``; None when no log was read), or,
    with ``store``, of every game the database holds that ``games`` selects (``store_name``: the
    file as the user named it, for messages). ``StoreError`` when the database cannot be read or
    its counters do not add up."""
    games = games if games is not None else GameFilter()
    inputs = None
    if collected is not None:
        s = collected.summary
        inputs = StatsInputs(read=s.read, unreadable=s.unreadable, duplicates=s.duplicates, not_logs=s.not_logs,
                             filtered=s.filtered if store is None else 0,
                             added=s.added if store is not None else None,
                             known=s.known if store is not None else None,
                             interrupted=collected.interrupted, unreadable_examples=tuple(s.errors))
    set_quality: tuple[int, int] | None
    if store is not None:
        totals = _store_totals(store, games, wanted)
        entries: Mapping[PlayerKey, Sequence[GameEntry]] = store.entries(
            games, None if wanted is None else wanted.matched())
        n_games = store.game_count(games)
        everyone: dict[int, PlayerCounters] = {}
        for (_, size), counters in store.totals(games).items():
            everyone[size] = everyone[size] + counters if size in everyone else counters
        set_quality = None
        if quality:
            judged = sum(everyone.values(), PlayerCounters())
            set_quality = (judged.quality_discards, judged.quality_best)
    else:
        c = collected if collected is not None else Collected({})
        totals, entries, everyone, set_quality = c.totals, c.entries, c.everyone, c.set_quality
        n_games = c.summary.read - c.summary.filtered
    rows = player_rows(totals, min_games=min_games, wanted=wanted, entries=entries, quality=quality,
                       set_quality=set_quality, as_name=as_name)
    if store is not None:
        _check_sums(rows, store_name)
    return StatsReport(tuple(rows), n_games, everyone, inputs)
