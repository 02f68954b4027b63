"""Convert many logs: the run behind ``tenhou-tools convert``, for the CLI and for scripts.

``convert_logs(items, to)`` reads each log item (``sources.items.LogItem``: its bytes, or why
they could not be read) and yields one ``Converted`` per item, in input order: the game in the
target format (``formats.dumps``: mjai JSON lines or tenhou.net/6 JSON) with the file name it
takes in an output folder, or the reason it could not be read. Nothing here prints or writes:
the command line writes the text to stdout or the file (atomically) and says what failed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from .errors import ParseError
from .formats import SUFFIXES, Target, dumps, load_game

__all__ = ["Converted", "convert_logs", "output_name"]

_NAME_ENDINGS = re.compile(r"(\.(xml|mjlog|json|gz|mjson))+$", re.IGNORECASE)


class _Item(Protocol):
    """What a log item gives (``sources.items.LogItem``)."""

    @property
    def source(self) -> str: ...
    @property
    def log_id(self) -> str | None: ...
    @property
    def data(self) -> bytes | None: ...
    @property
    def error(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Converted:
    """One input's conversion: ``text`` and its file ``name``, or the ``error``."""

    source: str
    text: str | None = None
    name: str | None = None
    """``<game id>`` (or the input's base name) with the target's suffix, unique in the run."""
    error: str | None = None


def convert_logs(items: Iterable[_Item], to: Target) -> Iterator[Converted]:
    """Each item converted to ``to`` (or why not), in order; file names unique in the run."""
    used: set[str] = set()
    for item in items:
        if item.data is None:
            yield Converted(item.source, error=f"{item.source}: {item.error}")
            continue
        try:
            game = load_game(item.data, source=item.source, log_id=item.log_id)
        except ParseError as exc:
            yield Converted(item.source, error=str(exc))
            continue
        yield Converted(item.source, dumps(game, to), output_name(game.log_id, item.source, used) + SUFFIXES[to])


def output_name(log_id: str | None, source: str, used: set[str]) -> str:
    """``<game id>``, else the input's base name without its endings; ``-2``, ``-3``... when a
    name is taken already in this run (``used``, which it joins). Only safe characters are kept."""
    base = log_id or _NAME_ENDINGS.sub("", re.split(r"[/\\:#]", source)[-1]) or "game"
    base = re.sub(r"[^\w.\-]", "_", base).lstrip(".") or "game"
    name, k = base, 1
    while name in used:
        k += 1
        name = f"{base}-{k}"
    used.add(name)
    return name
