"""The offline HTML statistics page: ``tenhou-tools stats PATHS --html FILE``.

One self-contained file like the replay page (``views/html.py``: the markup, CSS and JS of
``views/static/stats.*`` inlined, a Content-Security-Policy that allows nothing but the page's
own script and style, no request of any kind), with the page document embedded as

    <script type="application/json" id="tenhou-tools-stats">{"players": [...], "set": {...}}</script>

``players`` holds the very objects ``stats --format json`` prints, one per player row; ``set``
the whole set's averages the page compares each player with. The page's JS draws every chart
from that document alone, and draws a chart only when its members are there: a document
without ``history`` or ``tables`` (the figures of ``docs/stats.md``) gets a line saying so in
place of the chart. ``docs/stats-html.md`` gives each chart's members.

Two parts, kept apart on purpose: ``stats_page(document)`` renders any such document and knows
nothing of how its figures were computed; ``page_document(players, games)`` is a provisional
builder of the document (the set's averages from the JSON objects, and the per-game figures
from parsed games when given), to be replaced by the figures' own ``stats_document``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..events import Game, Room
from .html import embed_json, inline_page

__all__ = ["STATS_ELEMENT_ID", "page_document", "set_averages", "stats_page"]

STATS_ELEMENT_ID = "tenhou-tools-stats"
"""The ``id`` of the ``<script type="application/json">`` element that holds the document."""


def stats_page(document: Mapping[str, Any], title: str = "statistics") -> str:
    """The whole page for a page document ``{"players": [...], "set": {...}}``."""
    return inline_page("stats", title, {"@@STATS@@": embed_json(dict(document))})


# -- the page document (provisional: the figures' ``stats_document`` replaces it) ----------------

_RATES = (("win_rate", "wins", "hands"), ("deal_in_rate", "deal_in_hands", "hands"),
          ("riichi_rate", "riichi", "hands"), ("call_rate", "calls", "hands"))


def set_averages(players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The averages of the whole set of rows, each pooled over the rows' games or hands (a rate
    is the sum of the numerators over the sum of the denominators). ``None`` where nothing is
    counted. ``rank_rates`` has as many entries as the most players at a table in the set."""
    games = sum(p["games"] for p in players)
    width = max((len(p["rank_counts"]) for p in players), default=0)
    ranks = [sum(p["rank_counts"][i] for p in players if i < len(p["rank_counts"])) for i in range(width)]
    out: dict[str, Any] = {
        "rows": len(players),
        "games": games,
        "avg_rank": _ratio(sum(r * n for r, n in enumerate(ranks, 1)), games),
        "rank_rates": [_ratio(n, games) for n in ranks],
    }
    for key, num, den in _RATES:
        out[key] = _ratio(sum(p[num] for p in players), sum(p[den] for p in players))
    quality = [p["play_quality"] for p in players if p.get("play_quality")]
    out["play_quality_share"] = _ratio(sum(q["efficient"] for q in quality), sum(q["discards"] for q in quality))
    return out


def page_document(players: Sequence[Mapping[str, Any]], games: Iterable[Game] = ()) -> dict[str, Any]:
    """The page document for ``stats --format json`` objects: ``set`` (the whole set's
    averages, and ``by_players``: the same per table size, since a three-player rate is not a
    four-player one), and, for each row that lacks them and has games among ``games``, the
    per-game members ``history``, ``latest`` and ``tables`` (provisional, see the module)."""
    rows = [dict(p) for p in players]
    figures = _game_figures(games) if games else {}
    for row in rows:
        found = figures.get((row["name"], row["players"]))
        if found is not None:
            for key, value in found.items():
                row.setdefault(key, value)
    averages = set_averages(rows)
    sizes = sorted({row["players"] for row in rows}, reverse=True)
    averages["by_players"] = {str(n): set_averages([r for r in rows if r["players"] == n]) for n in sizes}
    return {"players": rows, "set": averages}


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def _game_figures(games: Iterable[Game]) -> dict[tuple[str, int], dict[str, Any]]:
    from ..game_id import game_start
    from ..stats.dan import DAN_NAMES, Length, dan_pt, stable_dan

    history: dict[tuple[str, int], list[dict[str, Any]]] = {}
    dated = []
    for game in games:
        start = game_start(game.log_id)
        dated.append((start.isoformat() if start else "", game.log_id or "", game))
    dated.sort(key=lambda t: (t[0], t[1]))
    for _, log_id, game in dated:
        owari = game.owari
        if owari is None:
            continue
        rules = game.header.ruleset
        n = rules.players
        start = game_start(log_id)
        day = start.date() if start else None
        room = f"lobby:{game.header.lobby:04d}" if game.header.lobby else rules.room.value
        length = Length.from_east_south(rules.east_south)
        order = sorted(range(n), key=lambda s: (-owari.scores[s], (s - game.header.first_dealer) % 4))
        for rank, seat in enumerate(order, 1):
            player = game.header.players[seat]
            ranked = not game.header.lobby and player.sex != "C"
            pt = dan_pt(rank, rules.room, length, n, player.dan, day) if ranked else None
            history.setdefault((player.name, n), []).append({
                "game": log_id, "date": day.isoformat() if day else None, "rank": rank, "players": n,
                "room": room, "length": length.value, "dan": player.dan, "dan_name": DAN_NAMES[player.dan],
                "rate": player.rate, "final_points": owari.points[seat], "dan_pt": pt, "rate_change": None,
            })
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for key, games_of in history.items():
        kinds: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for g in games_of:
            kinds.setdefault((g["room"], g["length"]), []).append(g)
        tables = []
        for (room, kind_length), rows in kinds.items():
            ranks = [sum(1 for g in rows if g["rank"] == r) for r in range(1, key[1] + 1)]
            pts = [g["dan_pt"] for g in rows if g["dan_pt"] is not None]
            stable = None
            if not room.startswith("lobby:"):
                stable = stable_dan(ranks, Room(room), Length(kind_length), key[1])
            tables.append({
                "room": room, "length": kind_length, "players": key[1], "games": len(rows), "ranks": ranks,
                "avg_rank": round(sum(g["rank"] for g in rows) / len(rows), 4),
                "dan_pt_per_game": round(sum(pts) / len(pts), 4) if pts else None,
                "stable_dan": None if stable is None else round(stable, 4),
                "stable_dan_name": None if stable is None else _stable_name(stable),
            })
        tables.sort(key=lambda t: -t["games"])
        last = games_of[-1]
        out[key] = {
            "tables": tables,
            "latest": {k: last[k] for k in ("game", "date", "dan", "dan_name", "rate")},
            "history": games_of,
        }
    return out


def _stable_name(scale: float) -> str:
    """A stable dan's rank by name: the rank it reached (1 = 初段 ... 10 = 十段, 0 = 1級 ...)."""
    from ..stats.dan import DAN_NAMES

    whole = max(-2, min(10, int(scale // 1)))
    return DAN_NAMES[9 + whole]

