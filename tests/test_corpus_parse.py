"""Every genuine log parses cleanly and completely; every broken one is a one-line ParseError."""

from __future__ import annotations

import pytest

from tenhou_tools.errors import ParseError
from tenhou_tools.sources.files import read_game

from .conftest import corpus_files, genuine_files
from .genuine_logs import genuine_logs_read


@pytest.mark.corpus  # every log of the corpus: a long run
@pytest.mark.xdist_group("genuine_logs")
def test_every_genuine_log_parses_completely(corpus):
    """No warning, a hand for every INIT, every element of the document accounted for (the
    header's, the prelude's, each hand's INIT and events) and a final result: what
    ``genuine_logs_read`` records of each log (read with ``read_game``; the elements counted by
    lxml)."""
    files = genuine_files()
    assert len(files) >= 4000 and any(path.parent.parent.name == "flagged" for path in files)
    reads = genuine_logs_read()
    assert [r.name for r in reads] == [p.name for p in files]
    assert [r.incomplete for r in reads if r.incomplete is not None] == []


@pytest.mark.parametrize("path", corpus_files("broken", "*"), ids=lambda p: p.name)
def test_broken_logs_fail_in_one_line(path):
    with pytest.raises(ParseError) as info:
        read_game(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
