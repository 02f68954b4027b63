"""Events <-> JSON-ready values with stable field names (``docs/events.md``).

Every event class becomes an object whose ``"type"`` is the class's snake-case name
(``Draw`` -> ``"draw"``, ``NewDora`` -> ``"new_dora"``) and whose other keys are the dataclass
fields; enums become their values and tuples lists. ``from_json`` is the exact inverse, so
``from_json(to_json(x)) == x`` for every event, hand and game.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
import unicodedata
from collections.abc import Iterator
from enum import Enum
from functools import cache
from typing import Any

from . import events as ev

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet (Excel, LibreOffice) read a CSV cell as a formula."""


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet will not run: text that begins like a formula (a
    player named ``=HYPERLINK(...)``, ``@kkk``, ``-x-``) gets a leading ``'``, the usual escape;
    numbers, negative ones included, and every other text pass unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


_ENCODER = json.JSONEncoder(ensure_ascii=False)
"""``json_text``'s encoder when no option is given: ``json.dumps`` with an option makes a new one
at each call (13 M instructions over the 1,000 NDJSON lines of a ``validate`` run)."""


def json_text(value: Any, **options: Any) -> str:
    """``value`` as JSON text for the command line's machine outputs (NDJSON, JSON, the pages'
    data): non-ASCII written as itself (``ensure_ascii=False``), except a lone surrogate, which is
    written as its ``\\uXXXX`` escape. A file name that is not UTF-8 reaches Python as surrogate
    escapes (``os.fsdecode``); written as itself it would make the output invalid UTF-8 (or fail
    to encode), while the escape keeps the text valid and ``json.loads`` gives the same name back
    (``os.fsencode`` then gives the file's bytes). ``options`` go to ``json.dumps``."""
    text = json.dumps(value, ensure_ascii=False, **options) if options else _ENCODER.encode(value)
    if text.isascii():  # the usual case, told at once (a str knows its widest character): nothing to escape
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def readable(text: str) -> str:
    """``text`` for people on a page (its title): a lone surrogate (a byte of a file name that is
    not UTF-8) becomes U+FFFD, the replacement character, and a character that would move, hide
    or break the text is shown as its escape, as in the terminal (``visible``)."""
    return visible(_LONE_SURROGATE.sub("\ufffd", text))


_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Control characters (C0, DEL, C1), format characters (bidirectional controls such as U+202E and
U+2066-2069, zero-width space and joiners, U+FEFF, soft hyphen, tag characters) and the line and
paragraph separators: characters that move, hide or break text instead of showing."""


def is_hidden(ch: str) -> bool:
    """Whether ``ch`` is one of ``_HIDDEN_CATEGORIES``: shown as its escape, never as itself."""
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every character that would move, hide or break text on a terminal or a page
    shown as its escape: ``\\x1b`` (C0, DEL and C1 controls), ``\\u202e`` (bidirectional controls,
    zero-width marks and other format characters, line separators). Everything else, spaces and
    full-width characters included, stays as it is. Used by every text view for player names,
    paths and messages from logs; data outputs (JSON, CSV) keep the text as it is."""
    if text.isprintable():  # the common case, in C: no control, format or separator character
        return text
    return "".join(_escape(ch) if is_hidden(ch) else ch for ch in text)


_RECORD_CLASSES: tuple[type, ...] = (
    ev.Draw,
    ev.Discard,
    ev.Call,
    ev.Riichi,
    ev.NewDora,
    ev.Agari,
    ev.Ryuukyoku,
    ev.Bye,
    ev.Reconnect,
    ev.Unknown,
    ev.Init,
    ev.Header,
    ev.Hand,
    ev.Game,
)


def type_name(cls: type) -> str:
    """``NewDora`` -> ``new_dora``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


_BY_NAME = {type_name(c): c for c in _RECORD_CLASSES}


@cache
def _hints(cls: type) -> dict[str, Any]:
    """Each field's declared type (the annotations evaluated in the class's module)."""
    return typing.get_type_hints(cls)


_NOT_A_RECORD = ("", ())
_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}
"""Per class met by ``to_json``: its record type name (empty if none) and its field names, or
``_NOT_A_RECORD`` for a class that is no dataclass (worked out once per class, not per value)."""


def _shape(cls: type) -> tuple[str, tuple[str, ...]]:
    found = _SHAPES.get(cls)
    if found is None:
        if dataclasses.is_dataclass(cls):
            found = (type_name(cls) if cls in _RECORD_CLASSES else "",
                     tuple(f.name for f in dataclasses.fields(cls)))
        else:
            found = _NOT_A_RECORD
        _SHAPES[cls] = found
    return found


def to_json(value: Any) -> Any:
    """A JSON-ready value (dicts, lists, numbers, strings, booleans, None)."""
    shape = _shape(type(value))
    if shape is not _NOT_A_RECORD:
        name, fields = shape
        out: dict[str, Any] = {"type": name} if name else {}
        for field in fields:
            out[field] = to_json(getattr(value, field))
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    return value


def from_json(data: Any, cls: Any = None) -> Any:
    """Rebuild a value of type ``cls`` (or of the record type named by ``data["type"]``)."""
    if cls is None:
        cls = _BY_NAME[data["type"]]
    return _decode(data, cls)


def _decode(data: Any, tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        if isinstance(data, dict) and "type" in data:
            return from_json(data)
        for option in options:
            if option is type(None):
                continue
            return _decode(data, option)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(v, args[0]) for v in data)
        return tuple(_decode(v, a) for v, a in zip(data, args, strict=True))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: _decode(data[f.name], hints[f.name])
            for f in dataclasses.fields(tp)
            if f.name in data
        }
        return tp(**kwargs)
    if tp is float and isinstance(data, int):
        return float(data)
    return data


def game_records(game: ev.Game) -> Iterator[dict[str, Any]]:
    """The game as a flat stream of records, for NDJSON: a header, then per hand its ``init``
    and its events, each carrying ``"hand"`` (0-based)."""
    yield {"type": "game", "log_id": game.log_id, "warnings": list(game.warnings), "complete": game.complete}
    yield to_json(game.header)
    for event in game.prelude:
        yield {**to_json(event), "hand": None}
    for hand in game.hands:
        yield {**to_json(hand.init), "hand": hand.index}
        for event in hand.events:
            yield {**to_json(event), "hand": hand.index}
