"""The offline HTML statistics page: ``tenhou-tools stats PATHS --html FILE``.

One self-contained file like the replay page (``views/html.py``: the markup, CSS and JS of
``views/static/stats.*`` inlined, a Content-Security-Policy that allows nothing but the page's
own script and style, no request of any kind), with the page document embedded as

    <script type="application/json" id="tenhou-tools-stats">{"columns": {...}, "rows": [[...], ...], ...}</script>

the report's page form (``documents.stats.StatsReport.page_json``): per player row the members
the page draws, of the very values ``stats --format json`` prints, as lists in the order of
``columns`` (``documents.stats.PAGE_COLUMNS``); ``set`` the whole set's averages the page
compares each player with; ``inputs`` how the logs were read. The page's JS draws every chart
from that document alone, and draws a chart only when its members are there: a document
without the ``history`` or ``tables`` column gets a line saying so in place of the chart.
``docs/stats-html.md`` gives each chart's members.

``stats_page(document)`` renders any such document and knows nothing of how its figures were
computed; ``stats --html`` gives it ``StatsReport.page_json()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .html import embed_json, inline_page

__all__ = ["STATS_ELEMENT_ID", "stats_page"]

STATS_ELEMENT_ID = "tenhou-tools-stats"
"""The ``id`` of the ``<script type="application/json">`` element that holds the document."""


def stats_page(document: Mapping[str, Any], title: str = "statistics") -> str:
    """The whole page for a page document ``{"columns": {...}, "rows": [...], "set": {...}}``."""
    return inline_page("stats", title, {"@@STATS@@": embed_json(dict(document))})
