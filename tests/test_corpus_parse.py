"""Every genuine log parses cleanly and completely; every broken one is a one-line ParseError."""

from __future__ import annotations

import gzip

import pytest
from lxml import etree

from tenhou_tools.errors import ParseError
from tenhou_tools.sources.files import read_game

from .conftest import corpus_files, genuine_files

HEADER_TAGS = {"SHUFFLE", "GO", "TAIKYOKU"}


@pytest.mark.corpus  # every log of the corpus: a long run
def test_every_genuine_log_parses_completely(corpus):
    files = genuine_files()
    assert len(files) >= 4000 and any(path.parent.parent.name == "flagged" for path in files)
    problems = []
    for path in files:
        game = read_game(path)
        root = etree.fromstring(gzip.decompress(path.read_bytes()))
        tags = [el.tag for el in root]
        n_init = tags.count("INIT")
        header = sum(1 for t in tags if t in HEADER_TAGS) + 1  # + the first UN
        accounted = header + len(game.prelude) + sum(1 + len(h.events) for h in game.hands)
        if game.warnings or len(game.hands) != n_init or accounted != len(tags) or game.owari is None:
            problems.append((path.name, game.warnings[:2], len(game.hands), n_init, accounted, len(tags)))
    assert problems == []


@pytest.mark.parametrize("path", corpus_files("broken", "*"), ids=lambda p: p.name)
def test_broken_logs_fail_in_one_line(path):
    with pytest.raises(ParseError) as info:
        read_game(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
