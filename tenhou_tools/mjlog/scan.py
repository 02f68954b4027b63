"""A fast reader for the narrow XML subset Tenhou writes, with lxml as the judge of the rest.

A real mjlog is one flat document: ``<mjloggm ver="2.3">``, then hundreds of self-closing
elements with double-quoted ASCII attributes (``<T52/>``, ``<INIT seed="..." .../>``), then
``</mjloggm>``, with no declaration, comment, entity or nested element. Building a tree of Python
element objects for it costs more than the whole replay of the hand, so ``scan()`` reads that
subset directly from the text: it splits the document at ``<`` (which XML forbids inside
attribute values and which only comments and CDATA, declined here, could hide), checks each
piece against the grammar of a self-closing element, and returns the same tags and attributes the
XML parser would.

It accepts a document only when it is certainly well-formed XML that lxml would read to exactly
these values, and declines (returns ``None``) on anything else, however legal: a declaration, a
byte-order mark, non-ASCII or control bytes, entity or character references, line breaks or tabs
inside attribute values (which XML normalises), names with colons, duplicate attributes, nested
or non-empty elements, text between elements, very long names. Whitespace before the root is
read (XML allows it where there is no declaration; one corpus log starts with a line break). The
caller then parses with lxml,
which reports the errors of a malformed document. A test compares both paths over the corpus,
the fixtures and fuzz-mutated logs.

When the C extension is built, its kernel (``tenhou_tools._native.scan_tenhou_form``) reads
first, and only the exact form Tenhou writes: one space before each attribute, double quotes,
whitespace only between elements. For anything else it answers ``None`` and the Python reader
here (``scan_python``, the reference it is tested against, and all there is without the
extension) takes the whole document.
"""

from __future__ import annotations

import re
import sys
from typing import Final

from .._native import scan_tenhou_form

Item = tuple[str, dict[str, str]]
"""One child element of the root: its tag and its attributes in document order."""

_WS = "[ \t\r\n]"
_NAME = "[A-Za-z_][A-Za-z0-9_.-]{0,199}"
_VALUE = "\"[ !#-%'-;=-~]*\"|'[ -%(-;=-~]*'"
"""A quoted value of printable ASCII without its quote, ``&`` or ``<`` (so no control character,
and nothing XML would replace or normalise)."""
_MAX_NAME: Final = 200
_WS_CHARS: Final = " \t\r\n"
_ATTRS = f"((?:{_WS}+{_NAME}{_WS}*={_WS}*(?:{_VALUE}))*)"

_ELEMENT = re.compile(f"({_NAME}){_ATTRS}{_WS}*/>{_WS}*")
"""A self-closing child element and the whitespace after it (one piece after a ``<``)."""
_ROOT = re.compile(f"mjloggm{_ATTRS}{_WS}*>{_WS}*")
"""The root's start tag (not self-closing) and the whitespace after it."""
_ROOT_END = re.compile(f"/mjloggm{_WS}*>{_WS}*")
"""The root's end tag, and only whitespace after it to the end of the document."""
_ATTR = re.compile(f"({_NAME}){_WS}*={_WS}*(?:\"([^\"]*)\"|'([^']*)')")
"""One attribute of an element the grammar above has accepted."""

_TILE_PIECES: dict[str, Item] = {
    f"{letter}{tile}/>": (sys.intern(f"{letter}{tile}"), {}) for letter in "TUVWDEFG" for tile in range(136)
}
"""The pieces of the draw and discard tags as Tenhou writes them (nine in ten of all elements),
each read once here and shared: the dictionaries are empty and nobody writes to them. The tag
names are interned (the parser's table of these tags uses the same objects)."""
_TILE_ITEMS: Final = tuple(_TILE_PIECES.values())
"""The same items in the extension's order: letters ``TUVWDEFG``, then ids 0..135."""


def simple_element(piece: str) -> Item | None:
    """An element as Tenhou writes it: ``NAME a="..." b="..." />``, one space before each
    attribute, double quotes, whitespace only before ``/>`` and after it; ``None`` for any other
    form (the grammar in ``_ELEMENT`` then decides). Names are ASCII identifiers; the whole tag is
    printable (no control character, tab or line break) and has no ``&``."""
    body = piece.rstrip(_WS_CHARS)
    if not body.endswith("/>") or not body.isprintable() or "&" in body:
        return None
    parts = body[:-2].split('"')
    count = len(parts)
    if count % 2 == 0 or (count > 1 and parts[count - 1].strip(_WS_CHARS)):
        return None
    head = parts[0]
    if count == 1:
        tag, rest = head.rstrip(_WS_CHARS), ""
    else:
        space = head.find(" ")
        if space < 0:
            return None
        tag, rest = head[:space], head[space:]
    if len(tag) > _MAX_NAME or not tag.isidentifier():
        return None
    attrs: dict[str, str] = {}
    for i in range(1, count, 2):
        if i > 1:
            rest = parts[i - 1]
        value = parts[i]
        if not (len(rest) > 2 and rest[0] == " " and rest[-1] == "="):
            return None
        name = rest[1:-1]
        if len(name) > _MAX_NAME or not name.isidentifier() or name in attrs:
            return None
        attrs[name] = value
    return tag, attrs


def attributes(text: str, repeated: list[str] | None = None) -> dict[str, str] | None:
    """The attributes of an accepted tag, in order; ``None`` if a name is repeated. With
    ``repeated``, a name repeated with the same value is read once and added to that list (a
    different value is still ``None``)."""
    found: dict[str, str] = {}
    for name, double, single in _ATTR.findall(text):
        value = double or single  # one of the two groups matched; the other is empty
        if name in found:
            if repeated is None or found[name] != value:
                return None
            repeated.append(name)
            continue
        found[name] = value
    return found


def scan(xml: bytes) -> tuple[dict[str, str], list[Item]] | None:
    """The root's attributes and its child elements, or ``None`` to leave the document to lxml."""
    found = scan_tenhou_form(xml, _TILE_ITEMS)
    return found if found is not None else scan_python(xml)


def scan_python(xml: bytes, repeats: list[tuple[int, str, str]] | None = None,
                ) -> tuple[dict[str, str], list[Item]] | None:
    """``scan`` in Python: every form of the subset (the native core reads only Tenhou's own).

    With ``repeats``, an element may carry one attribute twice with the same value, which is not
    well-formed XML (lxml refuses it) but is how Tenhou wrote ``owari`` in some logs of
    2010-05-10: it is read once and ``(element index, tag, name)`` added to ``repeats``. Only for
    a document lxml has refused: the result is then no longer what lxml would read."""
    if not xml.isascii():
        return None
    pieces = xml.decode("ascii").split("<")
    if len(pieces) < 3 or pieces[0].strip(_WS_CHARS):
        return None
    root = _ROOT.fullmatch(pieces[1])
    if root is None or _ROOT_END.fullmatch(pieces[-1]) is None:
        return None
    root_attrs = attributes(root.group(1))
    if root_attrs is None:
        return None
    items: list[Item] = []
    tile_pieces = _TILE_PIECES
    for i in range(2, len(pieces) - 1):
        piece = pieces[i]
        item = tile_pieces.get(piece)
        if item is None:
            item = simple_element(piece)
        if item is None:
            m = _ELEMENT.fullmatch(piece)
            if m is None:
                return None
            repeated: list[str] | None = [] if repeats is not None else None
            attrs = attributes(m.group(2), repeated)
            if attrs is None:
                return None
            item = (m.group(1), attrs)
            if repeats is not None and repeated:
                repeats.extend((i - 2, item[0], name) for name in repeated)
        items.append(item)
    return root_attrs, items
