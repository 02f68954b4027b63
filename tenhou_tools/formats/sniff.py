"""What a file is when it is not a Tenhou log: read from its first bytes (gunzipped), before any
parser sees it, so that every command names an HTML page or a foreign XML or JSON file the same
way (``not_a_log``), and a damaged log is still handed to the parser (it reports what is wrong).
"""

from __future__ import annotations

import re

__all__ = ["BLANKS", "not_a_log"]

BLANKS = b" \t\r\n\xef\xbb\xbf"
"""What may come before a log's first character: blanks and a UTF-8 byte order mark."""

_HTML = (b"<!doctype html", b"<html")
_ROOT = re.compile(rb"<([A-Za-z_][-.\w:]{0,40})")
_FIRST_KEY = re.compile(rb'\{\s*"([A-Za-z_]{1,20})"\s*:\s*(.)', re.S)
_TENHOU6_KEYS: dict[bytes, bytes] = {
    b"title": b"[", b"name": b"[", b"rule": b"{", b"log": b"[", b"sc": b"[", b"dan": b"[", b"rate": b"[",
    b"sx": b"[", b"connection": b"[", b"ref": b'"', b"ratingc": b'"', b"ver": b'"0123456789',
    b"lobby": b"0123456789",
}
"""A tenhou.net/6 log's keys (``formats.tenhou6``) and how each value starts."""


_MJLOG_MARKS = (b"<SHUFFLE", b"<GO ", b"<UN ", b"<TAIKYOKU", b"<INIT ", b"mjloggm")
"""What only a Tenhou log's XML carries: a file that holds any of these is a log (damaged,
perhaps), never "not a log" (the parser reports what is wrong with it)."""


def not_a_log(start: bytes) -> str | None:
    """What a file is when its first bytes (``peek``) say it is not a Tenhou log, or None (it
    may be one: the parser decides): an HTML page (a saved viewer page, say), XML whose root is
    not ``<mjloggm>``, or JSON that is not a tenhou.net/6 log (an array, or an object whose first
    member is not one of a log's: ``package.json``, this tool's own JSON outputs). XML that
    carries a log's marks (``_MJLOG_MARKS``: a shuffle seed, an ``INIT``...) under a damaged root
    is a log for the parser to judge."""
    text = start.lstrip(BLANKS)
    if text.startswith(b"<"):
        if text[:14].lower().startswith(_HTML):
            return "an HTML page, such as a saved viewer page"
        at = 0
        while text.startswith((b"<?", b"<!"), at):  # the XML declaration, comments, a doctype
            end = text.find(b"-->", at) + 3 if text.startswith(b"<!--", at) else text.find(b">", at) + 1
            if end <= 0:
                return None
            at = len(text) - len(text[end:].lstrip(BLANKS))
        root = _ROOT.match(text, at)
        if root is None or root.group(1) == b"mjloggm" or root.end() == len(text):  # (a name cut short)
            return None
        if root.group(1).lower() == b"html":
            return "an HTML page, such as a saved viewer page"
        if any(mark in text for mark in _MJLOG_MARKS):
            return None
        return f"XML whose root is <{root.group(1).decode('ascii', 'replace')}>, not <mjloggm>"
    if text.startswith(b"["):
        return "a JSON array"
    if text.startswith(b"{"):
        first = _FIRST_KEY.match(text)
        if first is None:  # an empty object is no log; anything else the parser tells
            empty = text[1:].lstrip().startswith(b"}")
            return "an empty JSON object" if empty else None
        key, value = first.groups()
        if value not in _TENHOU6_KEYS.get(key, b""):
            return f"JSON whose first member is {key.decode()!r}, not a tenhou.net/6 log's"
    return None


