"""When a game started, from its Tenhou game id (``YYYYMMDDHHgm-TTTT-LLLL-KKKKKKKK``).

The one place the date is read from an id: the engine (the rules in force that day), the replay
view, the statistics' ``--since``/``--until`` and the downloader all ask ``game_start``. The full
grammar of ids (what may go into a URL or a file name) is ``sources.ids``.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

__all__ = ["JST", "game_start"]

JST = timezone(timedelta(hours=9), "JST")
"""Tenhou's ids carry Japan Standard Time."""

_START = re.compile(r"([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})?")
"""The id's leading ``YYYYMMDD[HH]`` (``[0-9]``: ``\\d`` also matches non-ASCII digits). A few old
ids (the yakuman lists) carry no hour."""


def game_start(log_id: str | None) -> datetime | None:
    """When the game started (Japan time): the date and hour at the start of its id (hour 0 for
    an 8-digit date); ``None`` without an id, or when the id does not start with a possible
    date."""
    if not log_id:
        return None
    m = _START.match(log_id)
    if m is None:
        return None
    year, month, day, hour = m.groups()
    try:
        return datetime(int(year), int(month), int(day), int(hour or 0), tzinfo=JST)
    except ValueError:
        return None
