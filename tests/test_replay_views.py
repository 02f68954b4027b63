"""What the replay's text views promise (issue 26): numbers whole and names readable down to 40
columns, the winner of a double ron who collects the honba named once, nothing a seat cannot see
in its view, the analysis of the discard a seat makes next across kans, kita and disconnects,
and every number with its label."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from tenhou_tools.cli import cli

from .conftest import FIXTURES
from .test_cli_output import LONG, with_names

CORPUS_GAME = "Agony5757__mahjong/2020010100gm-00a9-0000-0b366d75.xml.gz"
"""A corpus hanchan with long Japanese names, a double ron on 1 honba (E2-1) and riichi sticks."""


def run(*args, width: int = 80):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"COLUMNS": str(width)})


# -- 40 columns ------------------------------------------------------------------------------------


def _numbers_whole(wide: str, narrow: str) -> None:
    """Every score of the wide view's ``Scores:`` lines and standings is in the narrow one, whole."""
    tokens = set(re.findall(r"[-+]?\d{3,}", narrow))
    for line in wide.splitlines():
        if line.startswith(("Scores:", "1st", "2nd", "3rd", "4th")):
            for number in re.findall(r"[-+]?\d{3,}", line):
                assert number in tokens, (number, line)


@pytest.mark.parametrize("tiles", ["--ascii", "--glyphs"])
def test_replay_at_40_columns_cuts_nothing(tmp_path, tiles):
    path = tmp_path / "long.xml"
    path.write_text(with_names(LONG))
    for source in (path, FIXTURES / "sanma_kita.xml"):
        narrow = run("replay", source, tiles, "--analysis", width=40)
        assert narrow.exit_code == 0, narrow.output
        wide = run("replay", source, tiles, width=200).stdout
        assert "…" not in narrow.stdout
        assert max(cell_len(line) for line in narrow.stdout.splitlines()) <= 40
        _numbers_whole(wide, narrow.stdout)
        for name in LONG:  # a name folds, but every character of it is there, in order
            if name in wide:
                assert name in "".join(narrow.stdout.split()), name
    lines = run("replay", FIXTURES / "one_hand.xml", "--ascii", width=40).stdout.splitlines()
    assert "S0 E  Alice    25000  123m99p55566677z" in lines  # a starting hand is whole
    assert lines[lines.index("Scores:") + 1:lines.index("Scores:") + 5] == [
        "  S0 73000 (+48000)", "  S1 -23000 (-48000)", "  S2 25000 (0)", "  S3 25000 (0)"]
    assert "Narrow terminal: each seat's chart is under its name and numbers." in " ".join(lines)


@pytest.mark.corpus
def test_a_corpus_hanchan_at_40_columns(corpus):
    source = corpus / "mjlog" / CORPUS_GAME
    for tiles in ("--ascii", "--glyphs"):
        narrow = run("replay", source, tiles, "--seat", 2, width=40).stdout
        assert "…" not in narrow
        long_lines = [line for line in narrow.splitlines() if cell_len(line) > 40]
        # only the viewer link is longer: it stays whole to be clicked and copied
        assert all(line.startswith("https://tenhou.net/0/?log=") for line in long_lines), long_lines
        _numbers_whole(run("replay", source, tiles, width=200).stdout, narrow)


# -- a double ron: the honba and sticks go to the first winner -------------------------------------


def double_ron_on_one_honba(tmp_path):
    """A hand-made double ron on 1 honba with a riichi stick carried in: S0's 5p is won by S1
    and S2; S1 (the first after the discarder) collects the 300 and the stick, S2 neither.
    The log's second AGARI keeps ``ba="1,1"``, as Tenhou writes the counters on the table."""
    from .scenario import Scenario

    b = Scenario(hands=["19m19p19s1234567z", "123456789m123p5p", "123456789s1114z", "2468m2468p2468s3z"],
                 scores=[250, 250, 250, 240]).begin()
    b.turn(0, "5p")
    five = int(b.tags[-1][2:-2])

    def agari(who: int, sc: str, owari: bool) -> str:
        hand = sorted(b.hands[who] + [five])
        return (f'<AGARI ba="1,1" hai="{",".join(map(str, hand))}" machi="{five}" ten="30,1000,0" yaku="8,1" '
                f'doraHai="{b.dora}" who="{who}" fromWho="0" sc="{sc}"'
                + (' owari="217,0.0,273,0.0,260,0.0,240,0.0"' if owari else "") + "/>")

    ends = agari(1, "250,-13,250,23,250,0,240,0", False) + agari(2, "237,-10,273,0,250,10,240,0", True)
    path = tmp_path / "double.xml"
    path.write_bytes(b.xml(ends).replace(b'seed="0,0,0,', b'seed="0,1,1,'))
    return path


def test_the_second_winner_of_a_double_ron_collects_no_honba(tmp_path):
    path = double_ron_on_one_honba(tmp_path)
    doc = json.loads(run("replay", path, "--format", "json").stdout)
    first, second = doc["hands"][0]["result"]
    assert (first["who"], first["honba"], first["sticks"]) == (1, 1, 1)
    assert (second["who"], second["honba"], second["sticks"]) == (2, 0, 0)
    text = run("replay", path, "--ascii", width=200).stdout
    wins = [line for line in text.splitlines() if line.startswith("  S1: ") or line.startswith("  S2: ")]
    assert len(wins) == 2
    assert wins[0].endswith(" · +1 honba and 1 riichi stick")
    assert "honba" not in wins[1] and "stick" not in wins[1]


@pytest.mark.corpus
def test_a_corpus_double_ron_names_the_honba_once(corpus):
    text = run("replay", corpus / "mjlog" / CORPUS_GAME, "--hand", "E2-1", "--ascii", width=200).stdout
    shown = [line for line in text.splitlines() if " · wins on " in line]
    assert len(shown) == 2
    assert shown[0].endswith(" · +1 honba and 2 riichi sticks")
    assert "honba" not in shown[1]


# -- #3: nothing a seat cannot see, at any moment -------------------------------------------------------


def test_a_deal_in_names_the_winners_wait_only_once_the_ron_shows_it():
    """At S1's discard the dealer's wait is S0's secret; at the ron the hand is shown."""
    source = FIXTURES / "one_hand.xml"
    before = run("replay", source, "--at", "E1-0:4", "--seat", 1, "--ascii", "--analysis").stdout
    assert "S1 -7z" in before and "dealt" not in before
    at_ron = run("replay", source, "--at", "E1-0:5", "--seat", 1, "--ascii", "--analysis").stdout
    assert "S1 dealt 7z into S0's 9p-7z wait (dama, 48,000)" in at_ron
    hidden = run("replay", source, "--at", "E1-0:5", "--seat", 2, "--ascii", "--analysis").stdout
    assert hidden.endswith("Analysis: S1's hand is hidden from this seat (--all-hands shows it).\n")
    for every_hand in ([], ["--seat", 1, "--all-hands"]):  # a view that shows S0's hand shows its wait
        shown = run("replay", source, "--at", "E1-0:4", "--ascii", "--analysis", *every_hand).stdout
        assert "S1 dealt 7z into S0's 9p-7z wait (dama, 48,000)" in shown


@pytest.mark.corpus
def test_no_moment_of_a_seats_view_shows_what_it_cannot_see(corpus):
    """Every moment of a corpus double-ron hand, viewed from each seat (the text ``--at HAND:STEP
    --seat N --analysis`` draws, rendered in this process): the analysis is the viewer's own
    or says it is hidden, a deal-in appears only from its ron on, and another seat's concealed
    tiles never."""
    from tenhou_tools.analysis import analyze_game
    from tenhou_tools.cli.board_render import board_view
    from tenhou_tools.cli.term import make_console, render_lines
    from tenhou_tools.cli.view import View
    from tenhou_tools.documents.board import Moment, board_document
    from tenhou_tools.events import Agari
    from tenhou_tools.sources.files import read_game

    game = read_game(corpus / "mjlog" / CORPUS_GAME)
    analysis = analyze_game(game)
    position = next(p for p, h in enumerate(game.hands) if h.init.label() == "E2-1")
    hand = game.hands[position]
    rons = [i + 1 for i, e in enumerate(hand.events) if isinstance(e, Agari)]
    assert len(rons) == 2
    console = make_console(width=200, color=False)
    shown_rows = 0
    for seat in range(4):
        view = View(viewer=seat, ascii=True)
        for step in range(len(hand.events) + 1):
            doc = board_document(game, Moment(position, step), analysis)
            text = render_lines(console, board_view(doc, game, view, "game"))
            rows = re.findall(r"^\s+\d+\s+S(\d) -", text, re.M)
            assert all(int(s) == seat for s in rows), (seat, step, text)
            shown_rows += len(rows)
            dealt = len(re.findall(r"dealt \S+(?: \([^)]*\))? into", text))
            assert dealt == (sum(1 for r in rons if r <= step) if rows else 0), (seat, step)
            for other in doc.seats:
                if other.board.seat != seat and not other.shown:  # a result shows the winners' hands
                    assert f"({len(other.board.concealed)} tiles, hidden)" in text, (seat, step, other.board.seat)
    assert shown_rows > 40


# -- #18: the discard a seat makes next, across kans, kita and disconnects ------------------------------


def test_the_analysis_at_a_draw_is_the_seats_next_discard_across_a_kita():
    """sanma_kita.xml: S0 draws, sets a North aside, draws its replacement and discards (step
    4); S1 draws and discards (step 6); S0 rons (step 7). Every moment shows the discard of the
    seat whose turn it is, in the JSON and in the text."""
    source = FIXTURES / "sanma_kita.xml"
    shown = []
    for step in range(8):
        board = json.loads(run("replay", source, "--at", f"E1-0:{step}", "--format", "json", "--analysis").stdout)
        entry = board["board"]["analysis"]
        shown.append(None if entry is None else (entry["seat"], entry["step"]))
        text = run("replay", source, "--at", f"E1-0:{step}", "--ascii", "--analysis").stdout
        if entry is None:
            assert "Analysis: step to a draw or a discard to see one." in text
        else:
            assert re.search(rf"^  {entry['step']}  S{entry['seat']} -", text, re.M), (step, text)
    assert shown == [None, (0, 4), (0, 4), (0, 4), (0, 4), (1, 6), (1, 6), (1, 6)]
    first = json.loads(run("replay", source, "--format", "json", "--analysis").stdout)["analysis"]["discards"][0]
    assert (first["step"], first["first_step"], first["last_step"]) == (4, 1, 4)


def _expected_discard(events, step: int) -> int | None:
    """A second reading of the rule: the index of the discard whose entry moment ``step``
    shows. The event just played belongs to a seat's turn when it is that seat's draw, call or
    riichi declaration, or anything else inside it (a dora, a disconnect); the turn ends at the
    seat's discard; a ron shows the discard it was on."""
    from tenhou_tools.events import Agari, Call, Discard, Draw, Riichi

    if step == 0:
        return None
    i = step - 1
    event = events[i]
    if isinstance(event, Agari):
        if event.is_tsumo:
            return None
        j = i - 1
        while j >= 0 and isinstance(events[j], Agari):
            j -= 1
        return j if j >= 0 and isinstance(events[j], Discard) else None
    owner = None  # the seat whose turn holds this event: the last draw or call before it, if no discard came between
    for j in range(i, -1, -1):
        e = events[j]
        if isinstance(e, Discard):
            if j == i:
                return i
            break
        if isinstance(e, Draw | Call) or (isinstance(e, Riichi) and e.step == 1):
            owner = e.seat
            break
    if owner is None:
        return None
    for j in range(i + 1, len(events)):
        e = events[j]
        if isinstance(e, Discard):
            return j if e.seat == owner else None
        if isinstance(e, Agari) or e.__class__.__name__ == "Ryuukyoku":
            return None
    return None


@pytest.mark.corpus
def test_the_analysis_follows_the_turn_over_corpus_games(corpus):
    """Three-player games with kita and four-player games with kans and disconnects: at every
    step, the entry the board document shows is the one the second reading expects; and some
    of those moments have a kan, a kita or a disconnect between them and the discard."""
    from tenhou_tools.analysis import analyze_game
    from tenhou_tools.events import Bye, Call, Discard, NewDora, Reconnect
    from tenhou_tools.sources.files import read_game

    from .conftest import corpus_files

    across = games = 0
    for path in corpus_files("mjlog")[::97]:
        game = read_game(path)
        events_all = [e for h in game.hands for e in h.events]
        if not any((isinstance(e, Call) and e.meld.kind.value in ("kita", "closed_kan", "added_kan", "open_kan"))
                   or isinstance(e, Bye) for e in events_all):
            continue
        games += 1
        analysis = analyze_game(game)
        analysed = {(n.hand, n.event_index) for n in analysis.discards}
        for hand in game.hands:
            for step in range(len(hand.events) + 1):
                want = _expected_discard(hand.events, step)
                if want is not None and (hand.index, want) not in analysed:
                    want = None  # a hand the analysis stopped following (none in genuine logs)
                note = analysis.at_moment(hand, step)
                assert (None if note is None else note.event_index) == want, (path, hand.init.label(), step)
                if want is not None and step < want + 1:
                    between = hand.events[step - 1:want]
                    if any(isinstance(e, Call | Bye | Reconnect | NewDora) for e in between) and not all(
                            isinstance(e, Discard) for e in between):
                        across += 1
        if games >= 12:
            break
    assert games >= 12 and across > 50, (games, across)


# -- #23: every number a person reads carries its label ------------------------------------------------


def test_numbers_carry_their_label(tmp_path):
    """A step is 1-based everywhere people read it, the JSON says both (``event_index`` 0-based,
    ``step`` = ``event_index + 1``), and a hand is named by its label, never counted."""
    from .scenario import Scenario

    b = Scenario(hands=["123456789m1234p", "19m19p19s1234567z", "2468m2468p2468s", "2468m2468p2468s"]).begin()
    b.draw(0, "5p")
    b.raw("<FOO/>")  # the hand's second event: step 2
    b.discard(0, "1p")
    path = tmp_path / "cut.xml"
    path.write_bytes(b.xml(""))  # and the log stops there
    text = run("replay", path, "--ascii", width=200)
    assert "Step 2: unknown tag <FOO> (kept, not shown)." in text.stdout
    assert "Warning: incomplete game: the log ends in hand E1-0, before its result" in text.stdout
    assert not re.search(r"\bhand \d", text.stdout)  # no hand by its count
    tampered = tmp_path / "tampered.xml"
    tampered.write_text((FIXTURES / "one_hand.xml").read_text().replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    doc = json.loads(run("replay", tampered, "--format", "json", "--analysis").stdout)
    (finding,) = doc["hands"][0]["findings"]
    assert (finding["hand"], finding["label"], finding["event_index"], finding["step"]) == (0, "E1-0", 4, 5)
    assert "(step 5: S0 ron on S1)" in run("replay", tampered, "--ascii").stdout
    for entry in doc["analysis"]["discards"]:
        assert entry["step"] == entry["event_index"] + 1
    assert doc["hand_labels"] == ["E1-0"] and doc["hands"][0]["index"] == 0
