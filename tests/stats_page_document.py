"""The statistics page's document (``StatsReport.page_json``) read back in Python, independently
of the page's script, to compare it with ``stats --format json``: the page's tests and its
corpus test share these."""

from __future__ import annotations

import json
import re
from typing import Any

DATA_RE = re.compile(r'<script type="application/json" id="tenhou-tools-stats">(.*?)</script>', re.S)


def embedded(page: str) -> dict:
    """The document a page embeds."""
    (text,) = DATA_RE.findall(page)
    return json.loads(text)


def _zip(names: list[str], values: list[Any] | None) -> dict[str, Any] | None:
    return None if values is None else dict(zip(names, values, strict=True))


def page_players(doc: dict) -> list[dict[str, Any]]:
    """Each row of a page document as an object with the JSON report's member names (only the
    members the page has): ``last_rate`` as ``rank4_rate`` (``rank3_rate`` three-player), dan ids
    and notes as their texts, the history's columns as a list of games."""
    cols = doc["columns"]
    out = []
    for row in doc["rows"]:
        p = dict(zip(cols["row"], row, strict=True))
        size = p["players"]
        if "last_rate" in p:
            p[f"rank{size}_rate"] = p.pop("last_rate")
            p[f"rank{size}_rate_ci"] = p.pop("last_rate_ci")
        if p.get("latest") is not None:
            p["latest"] = _zip(cols["latest"], p["latest"])
            dan = p["latest"]["dan"]
            p["latest"]["dan_name"] = None if dan is None else doc["dan_names"][dan]
        if p.get("rate_change_per_game") is not None:
            change = _zip(cols["rate_change_per_game"], p["rate_change_per_game"])
            if change["note"] is not None:
                change["note"] = doc["notes"][change["note"]]
            p["rate_change_per_game"] = change
        if p.get("play_quality") is not None:
            p["play_quality"] = _zip(cols["play_quality"], p["play_quality"])
        if "tables" in p:
            p["tables"] = [_zip(cols["tables"], t) for t in p["tables"]]
        if "history" in p:
            by = _zip(cols["history"], p["history"])
            games = [dict(zip(by, values, strict=True)) for values in zip(*by.values(), strict=True)]
            for g in games:
                g["dan_name"] = None if g["dan"] is None else doc["dan_names"][g["dan"]]
            p["history"] = games
        out.append(p)
    return out


def as_on_the_page(row: dict[str, Any], keys) -> dict[str, Any]:
    """The members ``keys`` of a ``stats --format json`` row, shaped as ``page_players`` gives
    them: ``latest``, ``play_quality`` and each game of ``history`` keep the members the page
    has, a game's ``when`` is its date (its key when undated)."""
    out = {}
    for k in keys:
        v = row[k]
        if k == "latest" and v is not None:
            v = {m: v[m] for m in ("date", "dan", "dan_name", "rate")}
        elif k == "play_quality" and v is not None:
            v = {m: v[m] for m in ("share", "share_ci", "table_share", "loss_rate", "discards", "mean_cost")}
        elif k == "history":
            v = [{"when": g["date"] or g["game"], "rank": g["rank"], "dan": g["dan"], "dan_name": g["dan_name"],
                  "rate": g["rate"]} for g in v]
        out[k] = v
    return out


def page_matches_json(doc: dict, rows: list[dict[str, Any]]) -> None:
    """Assert that the page document holds the figures of the JSON rows, row by row."""
    players = page_players(doc)
    assert len(players) == len(rows)
    for got, row in zip(players, rows, strict=True):
        assert got == as_on_the_page(row, got), row["name"]


def leaves_only(value: Any) -> bool:
    """No object (no repeated keys) anywhere in ``value``: lists, numbers, texts and nulls."""
    if isinstance(value, dict):
        return False
    if isinstance(value, list):
        return all(leaves_only(v) for v in value)
    return True
