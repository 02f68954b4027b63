"""The offline HTML replay page: ``tenhou-tools replay SOURCE --html FILE``.

One self-contained file that works from ``file://`` with no network: the page's markup, CSS and
JS are package data (``views/static/replay.html``, ``replay.css`` and the script's parts,
``SCRIPTS["replay"]``) inlined into the page, the tiles are SVG that the JS draws, and the game
is embedded as

    <script type="application/json" id="tenhou-tools-game">{...}</script>

holding the replay document (``documents.replay.ReplayDocument.to_json()``: the very document
``replay --format json --analysis`` prints, with ``hands`` holding each hand's ``init`` and
``events`` in the ``parse`` format, results, findings, verdicts, scores, ``progression``,
``final``), whose ``analysis`` member is always there: ``None`` for a document without one
(``docs/replay-html.md`` gives the shape the page reads). The page's JS computes the board at
every step from the ``init`` and the events; ``tests/test_html_replay.py`` holds it equal to the
one fold's board (``replay.fold.hand_boards``) at every step of a sample of corpus games.

No request of any kind: a Content-Security-Policy ``<meta>`` allows nothing (``default-src
'none'``) but the page's own inline script and style, each named by its SHA-256 hash, so even a
script that got into the page could not run, and nothing could be fetched, sent or framed.

Log text is data, never markup: the JSON is embedded with every ``<``, ``>`` and ``&`` written
as a ``\\u`` escape (a player called ``</script><script>...`` or ``<!--`` cannot end the
element; JSON.parse reads the escapes back), the JS writes text with ``textContent`` only, and
the title is HTML-escaped.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..documents.replay import ReplayDocument
from ..documents.seat import seat_view
from ..serialize import json_text, readable

GAME_ELEMENT_ID = "tenhou-tools-game"
"""The ``id`` of the ``<script type="application/json">`` element that holds the game."""

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def embed_json(value: Any) -> str:
    """``value`` as compact JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or
    ``&`` appears literally (each is a ``\\u`` escape, which JSON.parse reads back), so the text
    can neither close the element (``</script``) nor open a comment (``<!--``)."""
    text = json_text(value, separators=(",", ":"), allow_nan=False)
    for raw, escaped in _JSON_ESCAPES.items():
        text = text.replace(raw, escaped)
    return text


SHARED_SCRIPT = "shared_text.js"
"""The part both pages' scripts begin with: what they show the same way (a number by the one
rounding rule, ``rounding.py``; text from a log or a path with its hidden characters as escapes,
``serialize.visible``), as one object, ``TenhouText``, before each page's own scope."""

SCRIPTS: dict[str, tuple[str, ...]] = {
    "replay": (
        SHARED_SCRIPT,
        "replay_base.js",  # the document, constants, small helpers; opens the one function scope
        "replay_words.js",  # results, findings, waits and danger classes in words
        "replay_board.js",  # the board at a moment (computeBoard)
        "replay_controls.js",  # the state, the address (#E2-1:12), the API, auto-play, the view
        "replay_tiles.js",  # the tiles' faces as SVG symbols
        "replay_table.js",  # drawing the table: hands, melds, ponds, danger marks, the centre
        "replay_panels.js",  # the event line, results, seats, the hand list, header, standings
        "replay_chart.js",  # the score chart
        "replay_analysis.js",  # the discard analysis panel and the verdicts over the game
        "replay_main.js",  # render, the keys and buttons, window.TenhouReplay, the start; closes the scope
    ),
    "stats": (SHARED_SCRIPT, "stats.js"),
}
"""Each page's script, in the files that make it up, in order: the page's concerns, each short
enough to read whole. The page inlines them joined exactly as they are (nothing added or taken
away) as its one script: after the shared part (``SHARED_SCRIPT``), the page's parts share one
function scope (the first opens it, the last closes it), and the page's policy names the one
script's hash."""


@cache
def asset(name: str) -> str:
    """One of the pages' static files (``replay.html``, ``stats.css``, ...)."""
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def script(name: str) -> str:
    """The script of page ``name`` (``replay``, ``stats``): its parts (``SCRIPTS``) joined."""
    return "".join(asset(part) for part in SCRIPTS[name])


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def content_security_policy(script: str, style: str) -> str:
    """Nothing may load or run but the one inline script and the one inline style (by hash)."""
    return (
        f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
        "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; "
        "object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


def page_title(doc: Mapping[str, Any]) -> str:
    """The game id, else the source it was read from."""
    return str(doc.get("log_id") or doc.get("source") or "game")


def replay_page(doc: ReplayDocument | Mapping[str, Any], *, analysis: Any = None) -> str:
    """The whole page for a replay document (``ReplayDocument``, or its JSON form).

    A document viewed from a seat (``--seat``, without ``--all-hands``: ``page_seat``) becomes
    that seat's page: it embeds ``to_json(seat=...)``, only what the seat sees
    (``documents.seat``). A JSON form is embedded as it is.

    ``analysis`` (JSON, ``{"discards": [...]}``) becomes the embedded document's ``analysis``
    member; without it the document's own ``analysis`` stays (``None`` if it has none: the page
    shows no analysis panel). See ``docs/replay-html.md`` for the shape the page reads.
    """
    if isinstance(doc, ReplayDocument):
        game = doc.to_json()
        if analysis is not None or "analysis" not in game:
            game["analysis"] = analysis
        if doc.page_seat is not None:  # a seat's page: the analysis given too, as the seat sees it
            game = seat_view(game, doc.page_seat)
    else:
        game = dict(doc)
        if analysis is not None or "analysis" not in game:
            game["analysis"] = analysis
    return inline_page("replay", page_title(game), {"@@GAME@@": embed_json(game)})


def inline_page(name: str, title: str, data: Mapping[str, str]) -> str:
    """The page ``static/<name>.html`` with ``<name>.css`` and its script (``SCRIPTS[name]``)
    inlined, its policy, its (escaped) ``title`` and the ``data`` markers (``@@GAME@@``: already
    embedded JSON), in the order the template has them: ``@@CSP@@``, ``@@TITLE@@``,
    ``@@STYLE@@``, the data markers, ``@@SCRIPT@@``."""
    code, style = script(name), asset(f"{name}.css")
    forbidden = ((" + ".join(SCRIPTS[name]), code, ("</script", "<script", "<!--")),
                 (f"{name}.css", style, ("</style",)))
    for file, text, bad in forbidden:
        if any(b in text.lower() for b in bad):  # a packaging mistake, not a user's input
            raise ValueError(f"{file} contains one of {bad} and cannot be inlined")
    # One pass, left to right: an inserted value (a log's text) is never searched for markers.
    page = asset(f"{name}.html")
    parts = {
        "@@CSP@@": html.escape(content_security_policy(code, style), quote=True),
        "@@TITLE@@": html.escape(readable(title), quote=True),
        "@@STYLE@@": style,
        **data,
        "@@SCRIPT@@": code,
    }
    out = []
    rest = page
    for marker, value in parts.items():
        before, found, rest = rest.partition(marker)
        if not found:
            raise ValueError(f"{name}.html has no {marker} (or not in the expected order)")
        out += [before, value]
    out.append(rest)
    return "".join(out)
