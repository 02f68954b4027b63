"""One pass over every genuine log of the corpus, shared by the two tests that read them all:
``test_scan.py`` (the scan reader's game is lxml's) and ``test_corpus_parse.py`` (each log
parses cleanly and completely, every element accounted for).

Each log is read once through the public reader (``read_game``: gunzip, ``scan``, the parse) and
once through lxml alone; what each test asserts is kept, not the games (four thousand games
would not fit in memory). The tests that use it are marked ``xdist_group("genuine_logs")``, so
one worker process reads the corpus once for both.
"""

from __future__ import annotations

import functools
import gzip
from dataclasses import dataclass

from lxml import etree

from tenhou_tools.ids import log_id_from_name
from tenhou_tools.mjlog._parse import parse_xml_game
from tenhou_tools.mjlog.read import decompress
from tenhou_tools.mjlog.scan import scan
from tenhou_tools.sources.files import read_game

from .conftest import genuine_files

HEADER_TAGS = {"SHUFFLE", "GO", "TAIKYOKU"}


@dataclass(frozen=True)
class LogRead:
    name: str
    in_subset: bool
    """``scan`` reads the document (it is in the XML subset Tenhou writes)."""
    same_as_lxml: bool
    """The public reader's game equals the game read by lxml alone, with the same source and id."""
    incomplete: tuple | None
    """Why the game is not read whole (warnings, hands against INIT tags, elements not accounted
    for, no final result), else None."""


@functools.cache
def genuine_logs_read() -> tuple[LogRead, ...]:
    reads = []
    for path in genuine_files():
        data = path.read_bytes()
        xml = decompress(data)
        game = read_game(path)
        by_lxml = parse_xml_game(xml, str(path), log_id_from_name(path.name), True, False)
        tags = [el.tag for el in etree.fromstring(gzip.decompress(data))]
        n_init = tags.count("INIT")
        header = sum(1 for t in tags if t in HEADER_TAGS) + 1  # + the first UN
        accounted = header + len(game.prelude) + sum(1 + len(h.events) for h in game.hands)
        incomplete = None
        if game.warnings or len(game.hands) != n_init or accounted != len(tags) or game.owari is None:
            incomplete = (path.name, game.warnings[:2], len(game.hands), n_init, accounted, len(tags))
        reads.append(LogRead(path.name, scan(xml) is not None, game == by_lxml, incomplete))
    return tuple(reads)
