"""Helpers to alter real-shaped logs in memory and see what the engine says."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator
from pathlib import Path

from lxml import etree

from tenhou_tools.check import check_log
from tenhou_tools.events import Game
from tenhou_tools.sources.files import read_game

from .conftest import corpus_files


def xml_of(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def elements(xml: bytes) -> tuple[etree._Element, list[etree._Element]]:
    root = etree.fromstring(xml)
    return root, list(root)


def nth(children: list, tag: str, n: int = 0):
    """The n-th element with this tag (negative n counts from the end)."""
    found = [el for el in children if el.tag == tag]
    return found[n]


def serialize(root) -> bytes:
    return etree.tostring(root)


def codes(xml: bytes, log_id: str | None = None) -> list[str]:
    record = check_log(xml, path="altered.xml", log_id=log_id)
    return [f.code.value for f in record.findings]


def assert_clean(xml: bytes, log_id: str | None = None) -> None:
    assert codes(xml, log_id) == []


_READ: list[tuple[Path, Game]] = []
"""The games of the sample read so far, in path order (a search reads no further than it must)."""


def _games() -> Iterator[tuple[Path, Game]]:
    """Every third game of the corpus's mjlog/, in path order: each read once, when a search
    first comes to it, and kept for the searches after."""
    for i, path in enumerate(corpus_files("mjlog")[::3]):
        if i == len(_READ):
            _READ.append((path, read_game(path)))
        yield _READ[i]


def find_game(predicate: Callable[[Game], bool]) -> tuple[Path, Game]:
    for path, game in _games():
        if predicate(game):
            return path, game
    raise LookupError("no corpus game fits")


def clean_game(predicate: Callable[[Game], bool]) -> tuple[bytes, Game]:
    """The XML and the game of the first corpus game that fits (``find_game``), checked clean:
    a forgery built on it owes every finding to the change made."""
    path, game = find_game(predicate)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    return xml, game
