"""On real games: no deal-in into a riichi player lands on a tile classed genbutsu against that
player (a fact of the furiten rules: a genbutsu kind is in their pond, or passed them in riichi).

Every 5th genuine log (four- and three-player): at each ron on a discard whose winner had made
their riichi declaration discard before it, the dealt tile's class from the discarder's view
(``analysis.defence.danger_against`` on the board just before the discard) must not be
genbutsu. ``scripts/measure_danger.py`` checks the whole corpus the same way (docs/analysis.md
gives its count). A hand-made furiten ron shows the check can fail.
"""

from __future__ import annotations

from tenhou_tools.analysis.defence import danger_against
from tenhou_tools.events import Agari, Discard, Game, Riichi
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.fold import board_at
from tenhou_tools.rules.danger import DangerClass

from .conftest import corpus_files
from .scenario import Scenario
from .test_danger import state_and_board_agree

SAMPLE_EVERY = 5
MIN_CHECKED = 1000


def genbutsu_deal_ins(game: Game) -> tuple[int, list[str]]:
    """(rons into a riichi checked, the ones on a genbutsu tile)."""
    sanma = game.header.ruleset.sanma
    checked, wrong = 0, []
    for position, hand in enumerate(game.hands):
        events = hand.events
        declared: dict[int, int] = {}  # seat -> index of the event after its declaration discard
        pending: set[int] = set()
        for i, event in enumerate(events):
            if isinstance(event, Riichi) and event.step == 1:
                pending.add(event.seat)
            elif isinstance(event, Discard):
                if event.seat in pending:
                    pending.discard(event.seat)
                    declared[event.seat] = i + 1
            elif isinstance(event, Agari) and not event.is_tsumo and event.who in declared:
                at = i
                while not isinstance(events[at], Discard):
                    at -= 1
                discard = events[at]
                assert isinstance(discard, Discard)
                if discard.seat != event.from_who or declared[event.who] > at:
                    continue  # a ron on a kan or kita tile, or on the declaration discard
                entries = danger_against(board_at(game, position, at), discard.seat, discard.tile, sanma=sanma)
                assert entries is not None
                (entry,) = [e for e in entries if e.seat == event.who]
                checked += 1
                if entry.tile_class is DangerClass.GENBUTSU:
                    wrong.append(f"{game.log_id} {hand.init.label()} event {at}")
    return checked, wrong


def test_no_deal_in_into_a_riichi_lands_on_genbutsu(corpus):
    checked, wrong = 0, []
    for path in corpus_files()[::SAMPLE_EVERY]:
        game = parse_game(path.read_bytes())
        n, bad = genbutsu_deal_ins(game)
        checked += n
        wrong += bad
    assert not wrong, wrong[:10]
    assert checked >= MIN_CHECKED, f"only {checked} rons into a riichi checked"


def test_the_check_finds_a_furiten_ron():
    # S1 declares riichi on a 1m-7z shanpon; S2 discards a 7z and S1 lets it pass; S3 discards
    # another 7z and S1 rons it: a furiten ron (the engine flags it) on a genbutsu tile.
    s = Scenario(hands=["123m456p789s1122z", "11m345p678s234s77z", "66m234p55s123s567s", "1239m79p19s13z567z"])
    s.begin()
    s.turn(0, "3z")
    s.draw(1, "6m")
    s.riichi(1, "6m")
    s.turn(2, "7z")
    s.draw(3, "8p")
    tile = s.discard(3, "7z")
    game = parse_game(s.agari(who=1, from_who=3, win_tile=tile))
    checked, wrong = genbutsu_deal_ins(game)
    assert (checked, len(wrong)) == (1, 1)


def test_the_analysis_reads_the_threats_of_the_board_off_the_table_state(corpus):
    # ``threats_at`` (the analysis, on the table state) against ``threats_against`` on the board
    # of the same moment, at every discard of every 100th genuine log
    with_threats = 0
    for path in corpus_files()[::100]:
        with_threats += state_and_board_agree(parse_game(path.read_bytes()))
    assert with_threats >= 100
