"""Issue 36, across games: a player's consecutive games, found by the rate formula, and the dan
moves between them. Every forgery is a real consecutive pair of the corpus with one claim of the
later game changed; the genuine pairs (promotions and demotions among them) are clean."""

from __future__ import annotations

import dataclasses
import functools
import math
import pickle
from collections import Counter
from pathlib import Path

import pytest

from tenhou_tools.check import GameRecord
from tenhou_tools.crossgame import (
    CrossGameRecord,
    GameFacts,
    SeatFacts,
    check_across,
    consecutive_pairs,
    game_facts,
)
from tenhou_tools.events import DAN_NAMES
from tenhou_tools.findings import Finding, FindingCode, Severity
from tenhou_tools.rules.standing import dan_moves, next_rate, rate_follows, whole_rates
from tenhou_tools.sources.files import read_game
from tenhou_tools.validate import ValidateSummary, validate_paths

from .conftest import corpus_files
from .tamper import elements, nth, serialize, xml_of

# -- the rules, with readable values -----------------------------------------------------------


def test_dan_moves_by_placement():
    assert dan_moves(16, 1, 4) == {16, 17}  # 1st: up one at most
    assert dan_moves(16, 2, 4) == {16, 17}  # 2nd earns points in every four-player room
    assert dan_moves(16, 3, 4) == {16}  # 3rd earns nothing
    assert dan_moves(16, 4, 4) == {15, 16}  # last: down one at most
    assert dan_moves(16, 2, 3) == {16}  # a three-player 2nd place earns nothing
    assert dan_moves(16, 3, 3) == {15, 16}
    assert dan_moves(7, 4, 4) == {7}  # 3級: last place costs nothing
    assert dan_moves(8, 4, 4) == {7, 8}  # 2級: it does
    assert dan_moves(20, 1, 4) == {20}  # 天鳳位 is final
    assert dan_moves(19, 1, 4) == {19, 20}


def test_the_next_rate_is_the_formula_rounded_up_to_the_hundredth():
    # a corpus pair: 2269.51 at a table of 2269.51, 2180.27, 2096.10, 2148.12, 2nd place
    predicted = next_rate(2269.51, [2269.51, 2180.27, 2096.10, 2148.12], 2, 4)
    assert predicted == pytest.approx(2269.51 + 0.2 * (10 + (2173.5 - 2269.51) / 40))
    assert rate_follows(predicted, 2271.03)
    assert rate_follows(predicted, 2271.04)  # Tenhou's arithmetic: within the slack
    assert not rate_follows(predicted, 2271.05)
    assert not rate_follows(predicted, 2271.01)
    assert whole_rates([1500.0, 1732.0, 1611.0]) and not whole_rates([1500.0, 1732.5])


# -- real pairs --------------------------------------------------------------------------------

DAY = "20200101*.gz"
"""One day of the corpus (783 games): its consecutive pairs include promotions and demotions."""


@functools.cache
def _day() -> tuple[dict[str, Path], list[GameFacts]]:
    paths, facts = {}, []
    for path in corpus_files("mjlog", DAY):
        game = read_game(path)
        got = game_facts(game, str(path))
        if got is not None and got.log_id not in paths:
            paths[got.log_id] = path
            facts.append(got)
    return paths, facts


def test_a_record_pickles_whole(corpus):
    """A pool worker's record comes back pickled (``GameRecord.__reduce__``): every field of it,
    the cross-game facts and the findings too."""
    facts = _day()[1][0]
    finding = Finding(FindingCode.PARSE_WARNING, Severity.WARNING, "a warning")
    record = GameRecord("a.xml", facts.log_id, 3, (("turn", 2),), (finding,), facts)
    assert pickle.loads(pickle.dumps(record)) == record
    assert len(record.__reduce__()[1]) == len(dataclasses.fields(GameRecord))


def _pairs(corpus):
    return consecutive_pairs(_day()[1])


def _run(paths: list[Path]) -> tuple[list[GameRecord], list[CrossGameRecord], ValidateSummary]:
    games, cross, end = [], [], None
    for item in validate_paths([str(p) for p in paths], jobs=1):
        if isinstance(item, GameRecord):
            games.append(item)
        elif isinstance(item, CrossGameRecord):
            cross.append(item)
        elif isinstance(item, ValidateSummary):
            end = item
    assert end is not None
    return games, cross, end


def _write(tmp_path: Path, log_id: str, xml: bytes) -> Path:
    path = tmp_path / f"{log_id}.xml"
    path.write_bytes(xml)
    return path


def _with_dan(xml: bytes, seat: int, dan: int) -> bytes:
    root, kids = elements(xml)
    un = nth(kids, "UN")
    dans = un.get("dan").split(",")
    dans[seat] = str(dan)
    un.set("dan", ",".join(dans))
    return serialize(root)


def _with_rate(xml: bytes, seat: int, delta: float) -> bytes:
    root, kids = elements(xml)
    un = nth(kids, "UN")
    rates = un.get("rate").split(",")
    rates[seat] = f"{float(rates[seat]) + delta:.2f}"
    un.set("rate", ",".join(rates))
    return serialize(root)


def _pair_files(tmp_path, pair, later_xml: bytes | None = None) -> list[Path]:
    paths = _day()[0]
    (game_a, _), (game_b, _) = pair
    a = _write(tmp_path, game_a.log_id, xml_of(paths[game_a.log_id]))
    b = _write(tmp_path, game_b.log_id, later_xml or xml_of(paths[game_b.log_id]))
    return [a, b]


def _find(corpus, test) -> tuple:
    for pair in _pairs(corpus):
        if test(*pair):
            return pair
    pytest.fail("no such pair in the day's games (the corpus changed?)")


def test_the_day_has_consecutive_pairs_with_promotions_and_demotions(corpus):
    moves = Counter(b[1].dan - a[1].dan for a, b in _pairs(corpus))
    assert moves[0] > 100 and moves[1] >= 1 and moves[-1] >= 1, moves


def test_genuine_consecutive_pairs_are_clean(corpus):
    """Every established pair of the day, the promotions and demotions included: no finding."""
    report = check_across(_day()[1])
    assert report.records == ()
    assert dict(report.checks)["cross_dan"] == report.consecutive > 100


@pytest.mark.parametrize("move", [1, -1])
def test_a_genuine_promotion_or_demotion_is_clean_in_a_batch(corpus, tmp_path, move):
    pair = _find(corpus, lambda a, b: b[1].dan - a[1].dan == move)
    games, cross, end = _run(_pair_files(tmp_path, pair))
    assert cross == [] and all(g.ok for g in games)
    assert end.summary.checks["cross_dan"] >= 1  # the pair was established, and checked


def test_a_pair_read_in_reverse_order_is_the_same_pair(corpus, tmp_path):
    """The batch's order does not matter (games of one hour have no order of their own)."""
    pair = _find(corpus, lambda a, b: a[0].start == b[0].start)
    _, cross, end = _run(list(reversed(_pair_files(tmp_path, pair))))
    assert cross == [] and end.summary.checks["cross_dan"] >= 1


def _forged_dan(tmp_path, pair, dan: int) -> list[CrossGameRecord]:
    (_, _), (game_b, seat_b) = pair
    later = _with_dan(xml_of(_day()[0][game_b.log_id]), seat_b.seat, dan)
    games, cross, _ = _run(_pair_files(tmp_path, pair, later))
    assert all(g.findings == () for g in games)  # each game alone passes
    return cross


def test_a_dan_two_steps_up_is_caught(corpus, tmp_path):
    pair = _find(corpus, lambda a, b: a[1].dan == b[1].dan and a[1].dan <= 17)
    cross = _forged_dan(tmp_path, pair, pair[0][1].dan + 2)
    assert [f.code.value for r in cross for f in r.findings] == ["CROSS_DAN"]
    record = cross[0]
    assert record.log_id == pair[1][0].log_id  # on the later game
    assert record.earlier[0][2] == pair[0][0].log_id  # naming the earlier
    assert pair[0][0].log_id in record.findings[0].message


@pytest.mark.parametrize(("rank", "step"), [(3, 1), (4, 1), (1, -1), (2, -1)])
def test_a_dan_move_the_placement_does_not_allow_is_caught(corpus, tmp_path, rank, step):
    """Up after a 3rd or 4th place, down after a 1st or 2nd: four-player Houou pairs."""
    pair = _find(corpus, lambda a, b: a[0].players == 4 and a[1].rank == rank
                 and a[1].dan == b[1].dan and 16 < a[1].dan < 19)
    cross = _forged_dan(tmp_path, pair, pair[0][1].dan + step)
    assert [f.code.value for r in cross for f in r.findings] == ["CROSS_DAN"]


def test_a_three_player_second_place_does_not_promote(corpus, tmp_path):
    pair = _find(corpus, lambda a, b: a[0].players == 3 and a[1].rank == 2
                 and a[1].dan == b[1].dan and a[1].dan < 19)
    cross = _forged_dan(tmp_path, pair, pair[0][1].dan + 1)
    assert [f.code.value for r in cross for f in r.findings] == ["CROSS_DAN"]


def test_a_changed_rate_makes_the_pair_not_established(corpus, tmp_path):
    """Honest, not caught: a later rate changed looks like games played outside the batch, so the
    pair is not established (counted not checkable), and no dan is held against the earlier."""
    pair = _find(corpus, lambda a, b: a[1].dan == b[1].dan and a[1].dan <= 17)
    (_, _), (game_b, seat_b) = pair
    later = _with_dan(_with_rate(xml_of(_day()[0][game_b.log_id]), seat_b.seat, 0.5), seat_b.seat,
                      seat_b.dan + 2)
    _, _, genuine = _run(_pair_files(tmp_path, pair))
    _, cross, forged = _run(_pair_files(tmp_path, pair, later))
    assert cross == []
    assert genuine.summary.cross is not None and forged.summary.cross is not None
    assert forged.summary.cross.consecutive == genuine.summary.cross.consecutive - 1
    assert forged.summary.checks["cross_dan"] == genuine.summary.checks["cross_dan"] - 1
    assert (dict(forged.summary.cross.reasons)["no_match"]
            == dict(genuine.summary.cross.reasons).get("no_match", 0) + 1)


def test_the_text_report_names_the_dans_the_rules_allow(corpus, tmp_path):
    """The text report of a forged pair: the finding under the later game, its values as dan
    names (what the rules allow, what the log says), and exit 1."""
    from click.testing import CliRunner

    from tenhou_tools.cli import cli
    from tenhou_tools.events import DAN_NAMES

    pair = _find(corpus, lambda a, b: a[1].dan == b[1].dan and a[1].dan <= 17)
    (_, seat_a), (game_b, seat_b) = pair
    forged = seat_b.dan + 2
    later = _with_dan(xml_of(_day()[0][game_b.log_id]), seat_b.seat, forged)
    paths = _pair_files(tmp_path, pair, later)
    result = CliRunner().invoke(cli, ["validate", "--jobs", "1", *map(str, paths)])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    allowed = sorted(dan_moves(seat_a.dan, seat_a.rank, game_b.players))
    names = ", ".join(DAN_NAMES[d] for d in allowed)
    rules = names if len(allowed) == 1 else f"one of {names}"
    assert f"dan: {rules} by the rules, the log says {DAN_NAMES[forged]}" in text


def test_a_cross_game_line_has_a_game_lines_keys(corpus, tmp_path):
    """A reader of the NDJSON's game lines reads a ``cross_game`` line with the same keys."""
    from tenhou_tools.check import GameRecord as Record

    pair = _find(corpus, lambda a, b: a[1].dan == b[1].dan and a[1].dan <= 17)
    cross = _forged_dan(tmp_path, pair, pair[0][1].dan + 2)
    games, _, _ = _run(_pair_files(tmp_path, pair))
    line = cross[0].to_json()
    assert set(games[0].to_json()) - {"type"} <= set(line) and line["type"] == "cross_game"
    assert (line["hands"], line["checks"]) == (0, {})
    assert isinstance(games[0], Record)


# -- dan points carried from an observed promotion or demotion ---------------------------------
#
# A promotion or a demotion between consecutive games sets the player's dan points (the new
# rank's starting points, rules.dan_points); each game after it along established pairs carries
# them by its placement, and the dan must follow them (DAN_POINTS). The day's genuine chains
# start 1400 points or more from their rank's promotion and from zero, so they cannot reach
# either; the forgeries below change dans of a real chain.


def _chains(corpus) -> list[list]:
    """The day's chains of established pairs that start with a dan move: the game before the
    move, the game after it, then every game that follows along established pairs."""
    pairs = _pairs(corpus)
    after = {(a[0].log_id, a[1].name): b for a, b in pairs}
    chains = []
    for a, b in pairs:
        if a[1].dan != b[1].dan:
            chain = [a, b]
            while (chain[-1][0].log_id, chain[-1][1].name) in after:
                chain.append(after[(chain[-1][0].log_id, chain[-1][1].name)])
            chains.append(chain)
    return chains


def test_the_days_genuine_chains_are_held_to_their_carried_points(corpus):
    chains = _chains(corpus)
    report = check_across(_day()[1])
    assert report.records == ()
    assert report.anchors == len(chains) >= 5  # every promotion and demotion between established pairs
    held = sum(len(chain) - 2 for chain in chains)  # no chain of the day holds a second move
    assert dict(report.checks)["dan_points"] == held >= 10


def _find_in_chain(corpus, test, move: int) -> tuple[list, int]:
    """A chain (``_chains``) that starts with a promotion (``move`` 1) or a demotion (-1) and the
    index ``i`` of a game in it, after its move, with ``test(chain[i - 1], chain[i])``."""
    for chain in _chains(corpus):
        if chain[1][1].dan - chain[0][1].dan != move:
            continue
        for i in range(2, len(chain)):
            if test(chain[i - 1], chain[i]):
                return chain, i
    pytest.fail("no such chain in the day's games (the corpus changed?)")


def _forged_chain(tmp_path, chain: list, i: int, dan: int) -> list[CrossGameRecord]:
    """Validate the chain's files up to ``chain[i]``, whose player's dan is forged to ``dan``."""
    paths = _day()[0]
    files = []
    for j, (game, seat) in enumerate(chain[: i + 1]):
        xml = xml_of(paths[game.log_id])
        files.append(_write(tmp_path, game.log_id, _with_dan(xml, seat.seat, dan) if j == i else xml))
    games, cross, end = _run(files)
    assert all(g.findings == () for g in games)  # each game alone passes
    assert end.summary.checks["dan_points"] >= 1
    return cross


def test_a_promotion_the_carried_points_do_not_reach_is_caught(corpus, tmp_path):
    """After a 1st place one rank up is allowed (CROSS_DAN), but the points carried from the
    chain's move are far below the promotion: DAN_POINTS, on the later game, naming the earlier."""
    chain, i = _find_in_chain(corpus, lambda a, b: a[1].rank == 1 and a[1].dan == b[1].dan < 19, 1)
    cross = _forged_chain(tmp_path, chain, i, chain[i][1].dan + 1)
    assert [f.code.value for r in cross for f in r.findings] == ["DAN_POINTS"]
    record, finding = cross[0], cross[0].findings[0]
    assert record.log_id == chain[i][0].log_id and record.earlier[0][2] == chain[i - 1][0].log_id
    assert (finding.expected, finding.actual) == (chain[i][1].dan, chain[i][1].dan + 1)
    assert chain[i - 1][0].log_id in finding.message
    assert f"promotion to {DAN_NAMES[chain[1][1].dan]} seen in {chain[1][0].log_id}" in finding.message


def test_a_demotion_while_the_carried_points_stay_above_zero_is_caught(corpus, tmp_path):
    """After a last place one rank down is allowed at these ranks (CROSS_DAN), but the points
    carried from a demotion (the lower rank's starting points, 1400 or more, less a few losses)
    stay above zero."""
    chain, i = _find_in_chain(corpus, lambda a, b: a[1].rank == a[0].players and a[1].dan == b[1].dan > 16, -1)
    cross = _forged_chain(tmp_path, chain, i, chain[i][1].dan - 1)
    assert [f.code.value for r in cross for f in r.findings] == ["DAN_POINTS"]
    finding = cross[0].findings[0]
    assert (finding.expected, finding.actual) == (chain[i][1].dan, chain[i][1].dan - 1)
    assert f"demotion to {DAN_NAMES[chain[1][1].dan]} seen in {chain[1][0].log_id}" in finding.message


SHODAN_PT = {1: 135, 2: 0, 3: -45}
"""A three-player Houou East-South game's points at 初段 (starting points 200, promotion at 400)."""


def _promoting_chain(corpus) -> tuple[list, int, int]:
    """A three-player Houou East-South chain after a promotion whose placements, moved down to
    初段 (200 points), reach 400 in game ``k`` (so game ``k + 1`` is promoted); and the last game
    ``j <= k`` after a 1st place, where the points are below 400 but the placement allows one
    rank up (CROSS_DAN)."""
    for chain in _chains(corpus):
        if chain[1][1].dan <= chain[0][1].dan or chain[0][0].players != 3:
            continue
        if any((g.room.value, g.length.value) != ("houou", "south") for g, _ in chain):
            continue
        points = 200
        for k in range(1, len(chain) - 1):
            points += SHODAN_PT[chain[k][1].rank]
            if points >= 400:
                early = [j for j in range(2, k + 1) if chain[j - 1][1].rank == 1]
                if early:
                    return chain, k, early[-1]
                break
    pytest.fail("no such chain in the day's games (the corpus changed?)")


def _with_dans(chain: list, dans: list[int]) -> list[GameFacts]:
    """The day's facts with the chain's player holding ``dans[j]`` in ``chain[j]``, and without
    the player's other games (whose dans would not fit the forged ones)."""
    from dataclasses import replace

    name = chain[0][1].name
    forged = {game.log_id: dan for (game, _), dan in zip(chain, dans)}
    return [replace(g, seats=tuple(replace(s, dan=forged[g.log_id]) if s.name == name else s
                                   for s in g.seats)) if g.log_id in forged else g
            for g in _day()[1] if g.log_id in forged or all(s.name != name for s in g.seats)]


def test_points_carried_to_the_promotion_promote_exactly_there(corpus):
    """A real chain's facts, its player moved down to 1級 → 初段 at its promotion: the points
    (200, then +135 / 0 / -45 by place) reach 400 in game ``k``. Promoted in game ``k + 1``:
    clean; not promoted: DAN_POINTS there; promoted early (in game ``j``, after a 1st place,
    which CROSS_DAN allows, with fewer than 400 points): DAN_POINTS on that game."""
    chain, k, j = _promoting_chain(corpus)
    n = len(chain)
    right = [9] + [10] * k + [11] * (n - k - 1)
    report = check_across(_with_dans(chain, right))
    assert report.records == ()
    assert dict(report.checks)["dan_points"] >= n - 2

    missing = [9] + [10] * (n - 1)
    report = check_across(_with_dans(chain, missing))
    assert [(r.log_id, f.code.value, f.expected, f.actual) for r in report.records for f in r.findings] == [
        (chain[k + 1][0].log_id, "DAN_POINTS", 11, 10)]

    early = [9] + [10] * (j - 1) + [11] * (n - j)
    report = check_across(_with_dans(chain, early))
    assert [(r.log_id, f.code.value, f.expected, f.actual) for r in report.records for f in r.findings] == [
        (chain[j][0].log_id, "DAN_POINTS", 10, 11)]


def _made_up(log_id: str, hour: int, dan: int, rank: int, rate: float) -> GameFacts:
    """A four-player Houou East-South game of player ``A`` (rank ``rank`` at ``dan``) with three
    others at R2000.25 (rates with hundredths: whole ones establish nothing): made-up facts, not
    a log."""
    from datetime import datetime

    from tenhou_tools.events import Room
    from tenhou_tools.ids import JST
    from tenhou_tools.rules.standing import Length

    ranks = [rank] + [r for r in (1, 2, 3, 4) if r != rank]
    seats = tuple(SeatFacts(seat=i, name="A" if i == 0 else f"other{hour}-{i}", dan=dan if i == 0 else 16,
                            rate=rate if i == 0 else 2000.25, rank=ranks[i]) for i in range(4))
    return GameFacts(path=f"{log_id}.xml", log_id=log_id, start=datetime(2020, 1, 1, hour, tzinfo=JST), players=4,
                     room=Room.HOUOU, length=Length.SOUTH, table_rates=tuple(s.rate for s in seats),
                     seats=seats, ok=True, clean=True)


def _chain_of(dans_and_ranks: list[tuple[int, int]]) -> list[GameFacts]:
    """Player A's consecutive games, each rate the formula's from the one before (so each pair
    is established)."""
    from tenhou_tools.rules.standing import next_rate

    games, rate = [], 1900.5
    for hour, (dan, rank) in enumerate(dans_and_ranks):
        games.append(_made_up(f"20200101{hour:02d}gm-00a9-0000-{hour:08x}", hour, dan, rank, rate))
        rate = math.ceil(next_rate(rate, games[-1].table_rates, rank, 4) * 100) / 100
    return games


def test_a_kyu_rank_moving_down_stops_the_points_and_is_no_finding():
    """2級 and 1級 after a last place may be demoted or not (the sources state both): a batch that
    shows it is clean, whether points are carried into it or not, and it sets no points."""
    from tenhou_tools.crossgame import check_across

    # 1級 4th -> 2級 with no points carried before it
    report = check_across(_chain_of([(9, 4), (8, 1), (8, 2)]))
    assert report.records == ()
    assert dict(report.checks)["cross_dan"] == 2  # both pairs established and held to CROSS_DAN
    assert dict(report.checks).get("dan_points", 0) == 0
    # 初段 demoted to 1級 (points not known there), then 1級 4th -> 2級: nothing is carried
    report = check_across(_chain_of([(10, 4), (9, 4), (8, 1)]))
    assert report.records == ()
    assert dict(report.checks)["cross_dan"] == 2
    assert dict(report.checks).get("dan_points", 0) == 0
