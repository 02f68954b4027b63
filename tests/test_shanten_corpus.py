"""Shanten, waits and acceptance on real games against the ``mahjong`` package.

Every 30th genuine log (about 140 games, four- and three-player): each discard's concealed hand
before it (3n+2) and after it (3n+1), open hands included, tracked from the events by
``tests/positions.py`` (which checks itself against every win's hand). Our shanten must equal
``mahjong.shanten.Shanten``'s; every 3n+1 hand is tenpai exactly when ``rules.hand.waits`` finds
waits, and then our waits equal those and the kinds that make the hand complete by
``mahjong.agari.Agari``; on every 30th 3n+1 hand the accepted kinds must equal the kinds whose
draw lowers the package's shanten.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from tenhou_tools.mjlog import parse_game
from tenhou_tools.rules.hand import counts34, waits
from tenhou_tools.rules.shanten import acceptance, shanten

from .conftest import corpus_files
from .positions import positions

SAMPLE_EVERY = 30
ACCEPTANCE_EVERY = 30
MIN_POSITIONS = 100_000


def _their_waits(c: list[int], sanma: bool) -> tuple[int, ...]:
    found = []
    for k in range(34):
        if c[k] < 4 and not (sanma and 1 <= k <= 7):
            c[k] += 1
            if Agari.is_agari(c):
                found.append(k)
            c[k] -= 1
    return tuple(found)


def _their_acceptance(c: list[int], sanma: bool, value: int) -> tuple[int, ...]:
    found = []
    for k in range(34):
        if c[k] < 4 and not (sanma and 1 <= k <= 7):
            c[k] += 1
            if Shanten.calculate_shanten(c, is_three_player=sanma) < value:
                found.append(k)
            c[k] -= 1
    return tuple(found)


def cross_check(files: list[Path]) -> tuple[dict[str, int], list[str]]:
    """(what was compared, by kind; the disagreements) over the games in ``files``."""
    counted = {"games": 0, "positions": 0, "open": 0, "three_player": 0, "tenpai": 0, "acceptance": 0}
    disagreements: list[str] = []
    for path in files:
        game = parse_game(path.read_bytes(), source=str(path))
        counted["games"] += 1
        for pos in positions(game):
            before = counts34(pos.concealed)
            after = list(before)
            after[pos.discarded >> 2] -= 1
            for c in (before, after):
                ours = shanten(c, pos.melds, sanma=pos.sanma)
                theirs = Shanten.calculate_shanten(c, is_three_player=pos.sanma)
                if ours != theirs:
                    disagreements.append(f"{path.name}: {c} melds={pos.melds}: ours {ours}, mahjong {theirs}")
                counted["positions"] += 1
                counted["open"] += pos.melds > 0
                counted["three_player"] += pos.sanma
            ours_after = acceptance(after, pos.melds, pos.unseen, sanma=pos.sanma)
            if (ours_after.shanten == 0) != bool(waits(after)) or (
                    ours_after.shanten == 0 and frozenset(ours_after.kinds) != waits(after)):
                disagreements.append(f"{path.name}: {after}: waits {ours_after.kinds}, rules.hand {waits(after)}")
            if ours_after.shanten == 0:
                counted["tenpai"] += 1
                theirs_waits = _their_waits(after, pos.sanma)
                if ours_after.kinds != theirs_waits:
                    disagreements.append(f"{path.name}: {after}: waits {ours_after.kinds}, mahjong {theirs_waits}")
            if counted["positions"] % (2 * ACCEPTANCE_EVERY) == 0 and ours_after.shanten > 0:
                counted["acceptance"] += 1
                theirs_kinds = _their_acceptance(after, pos.sanma, ours_after.shanten)
                if ours_after.kinds != theirs_kinds:
                    disagreements.append(f"{path.name}: {after}: accepts {ours_after.kinds}, mahjong {theirs_kinds}")
    return counted, disagreements


@pytest.mark.corpus
def test_shanten_waits_and_acceptance_agree_with_the_mahjong_package(corpus):
    counted, disagreements = cross_check(corpus_files()[::SAMPLE_EVERY])
    assert not disagreements, "\n".join(disagreements[:20])
    assert counted["positions"] >= MIN_POSITIONS, counted
    assert counted["open"] > 10_000 and counted["three_player"] > 10_000, counted
    assert counted["tenpai"] > 5_000 and counted["acceptance"] > 1_000, counted
