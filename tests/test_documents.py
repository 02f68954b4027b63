"""The replay and board documents are the library's (``tenhou_tools.documents``): built without
``cli/``, one JSON form each (``to_json``) that the command line prints and the page embeds as it
is, JSON through and through (it reads back equal), no sentence of a renderer in it, and the
facts about the table read off the one fold.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from click.testing import CliRunner

from tenhou_tools.analysis import analyze_game
from tenhou_tools.cli import cli
from tenhou_tools.documents.board import Moment, board_document
from tenhou_tools.documents.replay import replay_document
from tenhou_tools.documents.seat import seat_view
from tenhou_tools.events import Agari
from tenhou_tools.formats import load_game
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.replay.fold import game_states
from tenhou_tools.serialize import json_text

from .conftest import FIXTURES, REPO
from .test_html_page import embedded

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()
TAMPERED = ONE_HAND.replace(b'ten="50,48000,5"', b'ten="50,36000,5"')


def run(*args: Any):
    return CliRunner().invoke(cli, [str(a) for a in args])


def reads_back(value: Any) -> bool:
    """The value is JSON through and through: written and read back, it is equal (no tuple, no
    enum, no key that is not a string, no NaN)."""
    return json.loads(json_text(value, allow_nan=False)) == value


def test_documents_are_built_without_the_command_line():
    """A program that imports the library alone builds both documents: nothing of ``cli`` (nor
    rich, which only the terminal needs) is imported on the way."""
    code = """
import sys
from tenhou_tools.analysis import analyze_game
from tenhou_tools.documents.board import Moment, board_document
from tenhou_tools.documents.replay import replay_document
from tenhou_tools.formats import load_game
from tenhou_tools.replay.engine import replay_game
game = load_game(open(sys.argv[1], "rb").read(), source="x")
doc = replay_document(game, replay_game(game), source="x", analysis=analyze_game(game)).to_json()
board = board_document(game, Moment(0, 4), analyze_game(game)).to_json()
assert doc["hands"][0]["label"] == "E1-0" and board["board"]["step"] == 4, (doc, board)
loaded = sorted(m for m in sys.modules if m.startswith(("tenhou_tools.cli", "rich", "click")))
print(" ".join(loaded))
"""
    result = subprocess.run([sys.executable, "-c", code, str(FIXTURES / "one_hand.xml")], capture_output=True,
                            text=True, cwd=REPO, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_the_replay_json_is_the_documents_one_form(tmp_path):
    """``replay --format json`` prints ``ReplayDocument.to_json()`` and the page embeds it: the
    same value, which reads back equal (a seat's page: ``to_json(seat=...)``, the seat's view of
    it; with ``--all-hands``, the whole of it)."""
    for name, data in (("one_hand.xml", ONE_HAND), ("sanma_kita.xml", SANMA), ("tampered.xml", TAMPERED)):
        path = tmp_path / name
        path.write_bytes(data)
        game = load_game(data, source=str(path))
        document = replay_document(game, replay_game(game), source=str(path), viewer=1,
                                   analysis=analyze_game(game))
        doc, seat_doc = document.to_json(), document.to_json(seat=1)
        assert reads_back(doc) and reads_back(seat_doc)
        printed = json.loads(run("replay", path, "--format", "json", "--seat", 1, "--analysis").stdout)
        assert printed == doc
        page = tmp_path / f"{name}.html"
        run("replay", path, "--seat", 1, "--html", page)
        assert embedded(page.read_text(encoding="utf-8")) == seat_doc == seat_view(doc, 1)
        run("replay", path, "--seat", 1, "--all-hands", "--html", page)
        assert embedded(page.read_text(encoding="utf-8")) == {**doc, "all_hands": True}
        plain = replay_document(game, replay_game(game), source=str(path)).to_json()
        assert "analysis" not in plain and reads_back(plain)


def test_the_board_json_is_the_documents_one_form(tmp_path):
    path = tmp_path / "sanma.xml"
    path.write_bytes(SANMA)
    game = load_game(SANMA, source=str(path))
    analysis = analyze_game(game)
    hand = game.hands[0]
    for step in range(len(hand.events) + 1):
        doc = board_document(game, Moment(0, step), analysis).to_json()
        assert reads_back(doc)
        printed = run("replay", path, "--at", f"E1-0:{step}", "--format", "json", "--analysis").stdout
        assert json.loads(printed) == doc


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_no_sentence_of_a_renderer_in_the_json():
    """Results, findings and deal-ins carry data; the text view's sentences are its own."""
    game = load_game(TAMPERED, source="t.xml")
    doc = replay_document(game, replay_game(game), source="t.xml", analysis=analyze_game(game)).to_json()
    assert not _keys(doc) & {"text", "values"}
    text = json_text(doc)
    for sentence in ("by the rules, the log says", "Ron S0<-S1", "dealt 7z into", "yakuman: daisangen"):
        assert sentence not in text
    (finding,) = doc["hands"][0]["findings"]
    assert finding["readable"] == {"form": "compare", "what": "points (ten)", "expected": "48000", "actual": "36000"}
    (win,) = doc["hands"][0]["result"]
    assert win["yakuman"] == [{"id": 39, "name": "daisangen"}] and win["points"] == 36000


def test_the_table_facts_are_the_folds():
    """Scores after each hand, its dora indicators and its riichi seats are the fold's last state
    (the board after a result is the scores after it; a riichi stick of a hand the log cuts off
    is off its owner's score)."""
    game = load_game(SANMA, source="s.xml")
    doc = replay_document(game, replay_game(game), source="s.xml")
    n = game.header.ruleset.players
    for (_, state), hand in zip(game_states(game), doc.hands, strict=True):
        assert hand.after == tuple(state.scores[:n])
        assert hand.dora_indicators == tuple(state.dora)
        assert hand.riichi == tuple(s for s in range(n) if state.seats[s].riichi == 2)
    from .scenario import Scenario

    b = Scenario(hands=["123456789m1234p", "19m19p19s1234567z", "2468m2468p2468s", "2468m2468p2468s"]).begin()
    b.draw(0, "5p")
    b.riichi(0, "1p")  # S0 declares riichi and its stick is paid: then the log stops
    cut = load_game(b.xml(""), source="cut.xml", require_complete=False)
    (hand,) = replay_document(cut, replay_game(cut), source="cut.xml").hands
    assert not hand.finished and hand.riichi == (0,)
    assert hand.after == (24000, 25000, 25000, 25000) and hand.deltas == (-1000, 0, 0, 0)
    assert not any(isinstance(e, Agari) for e in hand.hand.events)
