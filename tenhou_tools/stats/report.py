"""Rates, averages and 95 % confidence intervals from ``PlayerCounters`` (computed at report time).

``PlayerReport(name, players, counters)`` turns one player's counters into ``Metric`` values,
each with its numerator and denominator, grouped in sections. The same list feeds the JSON and
CSV output (``to_json``, ``to_row``) and the text tables of the CLI, so the three never disagree.
Definitions: ``docs/stats.md``.

Intervals: a rate (a count out of a count, e.g. wins out of hands) gets the Wilson score
interval; an average of per-game or per-hand values whose squares are counted (rank, final
points, hand balance) gets the normal interval ``mean ± z·s/√n`` with the sample standard
deviation ``s``. Both at 95 % (``z = 1.96``). Nothing here does I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..rounding import rounded
from ..rules.danger import DangerClass
from ..rules.yaku import DORA_IDS, YAKU, yaku_name
from . import dan as dan_rules
from .counters import INT_FIELDS, PlayerCounters
from .games import GameEntry, history, latest, rate_change_summary, report_value, table_kinds

__all__ = ["Z95", "Metric", "PlayerReport", "csv_columns", "mean_interval", "merge_rows", "set_averages",
           "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

MetricKind = Literal["count", "rate", "mean"]
"""What a ``Metric``'s value is (``Kind`` alone names a tile kind: ``tiles.Kind``)."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for ``successes`` out of ``trials``; ``None`` with no trials."""
    if trials <= 0:
        return None
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """``mean ± z·s/√n`` from a sum and a sum of squares; ``None`` below two values."""
    if n < 2:
        return None
    mean = total / n
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean - half, mean + half


@dataclass(frozen=True, slots=True)
class Metric:
    """One reported value: a count, a rate (``num``/``den``) or an average (``num``/``den``)."""

    key: str
    """The JSON key (and CSV column)."""
    label: str
    """For people (the text table)."""
    kind: MetricKind
    value: float | int | None
    num: int | float | None = None
    den: int | None = None
    ci: tuple[float, float] | None = None
    unit: str = ""
    """``points``, ``turn``, ``rank``, ``han`` or empty (how the text table formats it)."""
    has_ci: bool = False
    """Whether the metric carries an interval (then JSON has ``<key>_ci``, possibly null)."""


def _rate(key: str, label: str, num: int, den: int, *, ci: bool = True) -> Metric:
    value = num / den if den else None
    return Metric(key, label, "rate", value, num, den, wilson(min(num, den), den) if ci else None,
                  has_ci=ci)


def _mean(key: str, label: str, num: int | float, den: int, unit: str = "",
          sq: int | float | None = None) -> Metric:
    value = num / den if den else None
    ci = mean_interval(num, sq, den) if sq is not None else None
    return Metric(key, label, "mean", value, num, den, ci, unit, has_ci=sq is not None)


def _count(key: str, label: str, value: int) -> Metric:
    return Metric(key, label, "count", value)


def _total(key: str, label: str, value: int | float, unit: str) -> Metric:
    return Metric(key, label, "count", value, unit=unit)


class PlayerReport:
    """One player's statistics: counters in, ``Metric``\\ s out (see ``docs/stats.md``).

    ``entries``: the player's games one by one (``games.GameEntry``), for the table kinds, the
    latest rank and the history. ``quality``: the run judged the discards (``--quality``), so
    ``play_quality`` is reported, against ``set_quality`` (judged and efficient discards of
    everyone in the games selected)."""

    def __init__(self, name: str, players: int, counters: PlayerCounters,
                 entries: Sequence[GameEntry] = (), *, quality: bool = False,
                 set_quality: tuple[int, int] | None = None):
        self.name = name
        self.players = players
        self.counters = counters
        self.entries = list(entries)
        self.quality = quality
        self.set_quality = set_quality

    @property
    def ranks(self) -> list[int]:
        c = self.counters
        return [c.rank1, c.rank2, c.rank3, c.rank4][: self.players]

    def sections(self) -> list[tuple[str, list[Metric]]]:
        c = self.counters
        games, hands = c.games, c.hands
        ranks = self.ranks
        rank_sum = sum(r * n for r, n in enumerate(ranks, 1))
        rank_sq = sum(r * r * n for r, n in enumerate(ranks, 1))
        non_dealer_wins = c.wins - c.dealer_wins
        placement = [
            _count("games", "Games", games),
            _count("hands", "Hands", hands),
            _count("dealer_hands", "Hands as dealer", c.dealer_hands),
            _mean("avg_rank", "Average rank", rank_sum, games, "rank", sq=rank_sq),
            *[_rate(f"rank{r}_rate", f"{_ordinal(r)} place", n, games) for r, n in enumerate(ranks, 1)],
            _rate("top2_rate", "1st or 2nd (rentai)", ranks[0] + ranks[1], games),
            _rate("bust_rate", "Bust (below zero)", c.busts, games),
            _total("total_final_points", "Total game points (owari)", c.final_points / 10, "pt"),
            _mean("avg_final_points", "Average game points (owari)", c.final_points / 10, games, "pt",
                  sq=c.final_points_sq / 100),
            _mean("avg_final_score", "Average final score", c.final_score, games, "points"),
        ]
        winning = [
            _rate("win_rate", "Win rate (of hands)", c.wins, hands),
            _rate("tsumo_share", "Tsumo (of wins)", c.tsumo_wins, c.wins),
            _rate("dealer_win_share", "As dealer (of wins)", c.dealer_wins, c.wins),
            _rate("riichi_win_share", "With riichi (of wins)", c.riichi_wins, c.wins),
            _rate("open_win_share", "Open (of wins)", c.open_wins, c.wins),
            _rate("dama_win_share", "Closed without riichi (of wins)", c.dama_wins, c.wins),
            _mean("avg_win_points", "Average win points", c.win_points, c.wins, "points"),
            _mean("avg_win_points_dealer", "  as dealer", c.dealer_win_points, c.dealer_wins, "points"),
            _mean("avg_win_points_non_dealer", "  as non-dealer", c.win_points - c.dealer_win_points,
                  non_dealer_wins, "points"),
            _mean("avg_win_points_riichi", "  with riichi", c.riichi_win_points, c.riichi_wins, "points"),
            _mean("avg_win_points_open", "  open", c.open_win_points, c.open_wins, "points"),
            _mean("avg_win_points_dama", "  closed without riichi", c.dama_win_points, c.dama_wins, "points"),
            _mean("avg_win_balance", "Average hand balance of a win", c.win_balance, c.wins, "points"),
            _mean("avg_win_turn", "Average winning turn", c.win_turns, c.wins, "turn"),
            _mean("avg_dora_han", "Average dora han per win", c.dora_han, c.wins, "han"),
            _count("yakuman", "Yakuman", c.yakuman),
            _count("kazoe_yakuman", "Kazoe yakuman", c.kazoe_yakuman),
        ]
        dealing = [
            _rate("deal_in_rate", "Deal-in rate (of hands)", c.deal_in_hands, hands),
            _mean("avg_deal_in_points", "Average points dealt", c.deal_in_points, c.deal_ins, "points"),
            _mean("avg_deal_in_balance", "Average hand balance of a deal-in", c.deal_in_balance,
                  c.deal_in_hands, "points"),
            _mean("avg_deal_in_turn", "Average deal-in turn", c.deal_in_turns, c.deal_in_hands, "turn"),
            _rate("deal_in_to_riichi_share", "To riichi (of deal-ins)", c.deal_ins_to_riichi, c.deal_ins),
            _rate("deal_in_to_open_share", "To open hands (of deal-ins)", c.deal_ins_to_open, c.deal_ins),
            _rate("deal_in_to_dama_share", "To closed without riichi (of deal-ins)", c.deal_ins_to_dama,
                  c.deal_ins),
            _rate("deal_in_to_dealer_share", "To the dealer (of deal-ins)", c.deal_ins_to_dealer, c.deal_ins),
            _mean("avg_deal_in_points_riichi", "Average points dealt to riichi", c.deal_in_points_to_riichi,
                  c.deal_ins_to_riichi, "points"),
            _mean("avg_deal_in_points_open", "Average points dealt to open hands", c.deal_in_points_to_open,
                  c.deal_ins_to_open, "points"),
            _mean("avg_deal_in_points_dama", "Average points dealt to closed without riichi",
                  c.deal_in_points_to_dama, c.deal_ins_to_dama, "points"),
            _mean("avg_deal_in_points_dealer", "Average points dealt to the dealer",
                  c.deal_in_points_to_dealer, c.deal_ins_to_dealer, "points"),
            _rate("tsumo_paid_rate", "Another player's tsumo (of hands)", c.tsumo_paid, hands),
            _mean("avg_tsumo_paid_points", "Average paid to a tsumo", c.tsumo_paid_points, c.tsumo_paid,
                  "points"),
        ]
        riichi = [
            _rate("riichi_rate", "Riichi rate (of hands)", c.riichi, hands),
            _rate("riichi_first_share", "First riichi (of riichi)", c.riichi - c.riichi_chasing, c.riichi),
            _rate("riichi_chasing_share", "Chasing riichi (of riichi)", c.riichi_chasing, c.riichi),
            _rate("riichi_chased_share", "Chased by another riichi (of riichi)", c.riichi_chased, c.riichi),
            _mean("avg_riichi_turn", "Average riichi turn", c.riichi_turns, c.riichi, "turn"),
            _rate("riichi_win_rate", "Won after riichi", c.riichi_won, c.riichi),
            _rate("riichi_deal_in_rate", "Dealt in after riichi", c.riichi_dealt_in, c.riichi),
            _rate("riichi_tsumo_by_other_rate", "Another player's tsumo after riichi",
                  c.riichi_tsumo_by_other, c.riichi),
            _rate("riichi_other_ron_rate", "Ron between others after riichi", c.riichi_other_ron, c.riichi),
            _rate("riichi_exhaustive_rate", "Exhaustive draw after riichi", c.riichi_exhaustive, c.riichi),
            _rate("riichi_abortive_rate", "Abortive draw after riichi", c.riichi_abortive, c.riichi),
            _mean("avg_riichi_balance", "Average hand balance of a riichi", c.riichi_balance, c.riichi,
                  "points"),
        ]
        calls = [
            _rate("call_rate", "Call rate (hands with an open call)", c.calls, hands),
            _mean("avg_calls_per_call_hand", "Average open calls per such hand", c.call_count, c.calls),
            _rate("call_win_rate", "Won after calling", c.call_won, c.calls),
            _rate("call_deal_in_rate", "Dealt in after calling", c.call_dealt_in, c.calls),
            _mean("avg_call_balance", "Average hand balance after calling", c.call_balance, c.calls,
                  "points"),
        ]
        draws = [
            _rate("exhaustive_draw_rate", "Exhaustive draw (of hands)", c.exhaustive_draws, hands),
            _rate("tenpai_at_draw_rate", "Tenpai at the draw", c.tenpai_at_draw, c.exhaustive_draws),
            _mean("avg_draw_balance", "Average hand balance of a draw", c.draw_balance, c.exhaustive_draws,
                  "points"),
            _count("nagashi_mangan", "Nagashi mangan", c.nagashi_mangan),
            _rate("abortive_draw_rate", "Abortive draw (of hands)", c.abortive_draws, hands),
            _count("nine_terminals", "Nine terminals declared", c.nine_terminals),
        ]
        balance = [
            _total("total_hand_balance", "Total hand balance", c.hand_balance, "points"),
            _mean("avg_hand_balance", "Average hand balance (per hand)", c.hand_balance, hands, "points",
                  sq=c.hand_balance_sq),
        ]
        return [("Placement", placement), ("Winning", winning), ("Dealing in", dealing),
                ("Riichi", riichi), ("Calls", calls), ("Draws", draws), ("Score balance", balance)]

    def yaku(self) -> list[tuple[int, str, int]]:
        """``(id, name, wins)`` for each yaku the player won with, most frequent first."""
        return sorted(((k, yaku_name(k), n) for k, n in self.counters.yaku),
                      key=lambda row: (-row[2], row[0]))

    def metrics(self) -> list[Metric]:
        return [m for _, section in self.sections() for m in section]

    def tables(self) -> list[dict[str, Any]]:
        """The ``tables`` member: one object per table kind (``games.table_kinds``)."""
        return [row.to_json() for row in table_kinds(self.entries)]

    def latest(self) -> dict[str, Any] | None:
        """The ``latest`` member: the last game's id, day, dan and rate (``None`` without games)."""
        last = latest(self.entries)
        if last is None:
            return None
        return {
            "game": last.game,
            "date": last.day.isoformat() if last.day else None,
            "dan": last.dan,
            "dan_name": None if last.dan is None else dan_rules.dan_name(last.dan),
            "rate": report_value(last.rate),
        }

    def dan_pt_per_game(self) -> float | None:
        """Dan points per game over every game that has them (all ranked table kinds)."""
        points = [e.dan_pt for e in self.entries if e.dan_pt is not None]
        return sum(points) / len(points) if points else None

    def play_quality(self) -> dict[str, Any] | None:
        """The ``play_quality`` member; ``None`` unless the run judged the discards."""
        c = self.counters
        if not self.quality or not c.quality_discards:
            return None
        ci = wilson(c.quality_best, c.quality_discards)
        judged, best = self.set_quality or (0, 0)
        by_class = {cls.value: getattr(c, f"quality_deal_ins_{cls.value}") for cls in DangerClass}
        return {
            "games": c.quality_games,
            "discards": c.quality_discards,
            "best": c.quality_best,
            "share": report_value(c.quality_best / c.quality_discards),
            "share_ci": None if ci is None else [report_value(ci[0]), report_value(ci[1])],
            "table_share": report_value(best / judged) if judged else None,
            "loss_rate": report_value(c.quality_losses / c.quality_discards),
            "mean_cost": rounded(c.quality_cost_points / c.quality_discards, 1),
            "verdicts": {"best": c.quality_best, "forced": c.quality_forced, "close": c.quality_close,
                         "loss": c.quality_losses},
            "pushes": c.quality_pushes,
            "deal_ins_into_riichi_by_class": {k: n for k, n in by_class.items() if n},
        }

    def yaku_list(self) -> list[dict[str, Any]]:
        """The ``yaku`` member: ``{"id", "name", "count"}`` per yaku won with, most frequent first."""
        return [{"id": k, "name": name, "count": n} for k, name, n in self.yaku()]

    def to_json(self) -> dict[str, Any]:
        """One JSON object: identity, the headline counts, every metric, yaku and raw counters."""
        c = self.counters
        out: dict[str, Any] = {
            "name": self.name,
            "players": self.players,
            "games": c.games,
            "hands": c.hands,
            "rank_counts": self.ranks,
            "wins": c.wins,
            "deal_ins": c.deal_ins,
            "deal_in_hands": c.deal_in_hands,
            "riichi": c.riichi,
            "calls": c.calls,
        }
        for m in self.metrics():
            if m.key in out:
                continue
            out[m.key] = report_value(m.value)
            if m.has_ci:
                out[f"{m.key}_ci"] = None if m.ci is None else [report_value(m.ci[0]), report_value(m.ci[1])]
        out["riichi_outcomes"] = {
            "won": c.riichi_won, "dealt_in": c.riichi_dealt_in,
            "tsumo_by_other": c.riichi_tsumo_by_other, "other_ron": c.riichi_other_ron,
            "exhaustive_draw": c.riichi_exhaustive, "abortive_draw": c.riichi_abortive,
        }
        out["yaku"] = self.yaku_list()
        out["tables"] = self.tables()
        out["latest"] = self.latest()
        out["history"] = history(self.entries)
        out["rate_change_per_game"] = rate_change_summary(self.entries)
        out["play_quality"] = self.play_quality()
        out["counters"] = {k: getattr(c, k) for k in INT_FIELDS}
        return out

    def to_row(self) -> dict[str, Any]:
        """A flat CSV row: the JSON values, lists and intervals spread over columns, one column
        per counter and one per yaku (``yaku_<id>``, every Tenhou yaku, so the header is fixed)."""
        doc = self.to_json()
        row: dict[str, Any] = {}
        for key, value in doc.items():
            if key == "rank_counts":
                for r in range(4):
                    row[f"rank{r + 1}"] = value[r] if r < len(value) else ""
            elif key.endswith("_ci"):
                row[f"{key}_low"] = "" if value is None else value[0]
                row[f"{key}_high"] = "" if value is None else value[1]
            elif key == "riichi_outcomes":
                for k, v in value.items():
                    row[f"riichi_outcome_{k}"] = v
            elif key in ("yaku", "counters", "tables", "history", "latest", "rate_change_per_game",
                         "play_quality"):
                continue
            else:
                row[key] = "" if value is None else value
        last = doc["latest"] or {}
        row["latest_dan"] = last.get("dan_name") or ""
        row["latest_rate"] = "" if last.get("rate") is None else last["rate"]
        row["dan_pt_per_game"] = _blank(report_value(self.dan_pt_per_game()))
        row.update(_stable_dan_columns(doc["tables"]))
        change = doc["rate_change_per_game"]
        row["rate_change_per_game"] = _blank(change["value"])
        quality = doc["play_quality"] or {}
        row["play_quality_share"] = _blank(quality.get("share"))
        row["play_quality_share_ci_low"] = _blank((quality.get("share_ci") or [None, None])[0])
        row["play_quality_share_ci_high"] = _blank((quality.get("share_ci") or [None, None])[1])
        counts = self.counters.yaku_counts()
        for yid in sorted(YAKU):
            if yid not in DORA_IDS:
                row[f"yaku: {yaku_name(yid)}"] = counts.get(yid, 0)
        for k in INT_FIELDS:
            row[f"n_{k}"] = getattr(self.counters, k)
        return row


def _stable_dan_columns(tables: list[dict[str, Any]]) -> dict[str, Any]:
    """The CSV's stable dan: that of the table kind the row played most (``tables`` is sorted
    so, the first), named in ``stable_dan_kind`` (``houou south``, ``lobby:1234 east``); empty
    cells without games or where it is undefined."""
    main = tables[0] if tables else None
    return {
        "stable_dan_kind": "" if main is None else f"{main['room']} {main['length']}",
        "stable_dan": "" if main is None else _blank(main["stable_dan"]),
        "stable_dan_name": "" if main is None else _blank(main["stable_dan_name"]),
    }


def csv_columns() -> list[str]:
    """The CSV header: the columns of a four-player ``to_row``, a superset of a three-player one
    (whose ``rank4`` columns stay empty)."""
    return list(PlayerReport("", 4, PlayerCounters()).to_row())


def merge_rows(reports: Iterable[PlayerReport], name: str) -> list[PlayerReport]:
    """Several rows as one per table size, named ``name`` (``stats --as``): counters add, games
    concatenate, so the merged row is exactly what one account with all those games would get."""
    by_size: dict[int, list[PlayerReport]] = {}
    for r in reports:
        by_size.setdefault(r.players, []).append(r)
    out = []
    for players, group in sorted(by_size.items(), key=lambda item: -item[0]):
        first = group[0]
        out.append(PlayerReport(name, players, sum((r.counters for r in group), PlayerCounters()),
                                [e for r in group for e in r.entries], quality=first.quality,
                                set_quality=first.set_quality))
    return out


SET_RATES = (("win_rate", "wins"), ("deal_in_rate", "deal_in_hands"), ("riichi_rate", "riichi"),
             ("call_rate", "calls"))
"""The per-hand rates of the set: (key, counter over hands)."""


def set_averages(reports: Sequence[PlayerReport], everyone: PlayerCounters | None = None,
                 width: int | None = None) -> dict[str, Any]:
    """The averages of a set of rows, each pooled (the sum of the numerators over the sum of the
    denominators, so a row with more games or hands weighs more); ``None`` where nothing is
    counted. ``rows``, ``games``, ``avg_rank`` and ``rank_rates`` (as many entries as the most
    players at a table among the rows), the rates of ``SET_RATES`` (of hands), and
    ``play_quality_share``: over every player of the games selected when the run knows it
    (``set_quality``), else over the rows' judged discards, ``None`` when nothing was judged.
    ``everyone``: the counters of every player of the games selected (``--player`` keeps only some
    rows): the averages are then theirs, of ``width`` players a table, and ``over`` says so."""
    total = everyone if everyone is not None else sum((r.counters for r in reports), PlayerCounters())
    if width is None:
        width = max((r.players for r in reports), default=0)
    ranks = [total.rank1, total.rank2, total.rank3, total.rank4][:width]
    games = total.games
    out: dict[str, Any] = {
        "rows": len(reports),
        "over": "every player" if everyone is not None else "rows",
        "games": games,
        "avg_rank": _ratio(sum(r * n for r, n in enumerate(ranks, 1)), games),
        "rank_rates": [_ratio(n, games) for n in ranks],
    }
    for key, field in SET_RATES:
        out[key] = _ratio(getattr(total, field), total.hands)
    quality = next((r.set_quality for r in reports if r.quality and r.set_quality), None)
    if quality is None:
        quality = (total.quality_discards, total.quality_best)
    out["play_quality_share"] = _ratio(quality[1], quality[0])
    return out


def _ratio(num: float, den: float) -> float | None:
    return report_value(num / den) if den else None


def _blank(value: object) -> object:
    return "" if value is None else value


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
