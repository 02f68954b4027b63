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
