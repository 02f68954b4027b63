"""Points and payments under Tenhou rules: base points, limits, win and draw settlements.

Pure arithmetic with explicit inputs; no tiles, no library. ``rules/scoring.py`` values a hand
(han, fu, yakuman) and this module turns a value into points and per-seat deltas, following
``docs/spec/YAKU_SCORING.md`` §5.2-5.9. Every amount is in points (the log's units of 100
multiplied out) and every delta tuple has four entries, one per absolute seat; in three-player
(sanma) games the empty fourth seat is always 0.

* Base points (基本点): ``fu x 2^(han+2)``, capped at mangan (満貫) 2000; haneman (跳満) 3000,
  baiman (倍満) 4000, sanbaiman (三倍満) 6000, yakuman (役満) 8000 per yakuman; kazoe (数え役満,
  13+ han) is one yakuman. No kiriage mangan (切り上げ満貫) on ranked tables: 30 fu 4 han stays
  7700; chip tables (祝儀) round it up, so ``kiriage`` is a switch.
* Ron (ロン): the discarder pays ``ceil100(4 x base)``, or ``ceil100(6 x base)`` to the dealer.
* Tsumo (ツモ): a dealer is paid ``ceil100(2 x base)`` by everyone; a non-dealer
  ``ceil100(2 x base)`` by the dealer and ``ceil100(base)`` by each other player. Three-player
  games use the same per-payer amounts and simply lose the absent share (ツモ損).
* Honba (積み棒): 100 per counter from each payer on a tsumo, ``100 x (players - 1)`` per counter
  from the discarder on a ron (300 four-player, 200 three-player). Riichi sticks (供託) are 1000
  each. In a double ron (ダブロン) only the winner nearest the discarder collects honba and
  sticks (上家取り).
* Pao (責任払い) for daisangen / daisuushii: on a tsumo the liable seat pays the whole value and
  all honba; on a ron by another player the discarder and the liable seat pay half each and the
  liable seat pays the honba.
* Exhaustive draw (荒牌平局): a pool of 3000 (four-player) or 2000 (three-player) moves from the
  noten seats to the tenpai seats. Nagashi mangan (流し満貫) is paid as a mangan tsumo without
  honba and replaces the tenpai payments.

Compiled in a compiled install (the replay pays every win and draw); the limit code ``Limit`` is
defined in ``rules.values``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from .values import Limit

__all__ = [
    "MANGAN_BASE",
    "RIICHI_STICK",
    "YAKUMAN_BASE",
    "Limit",
    "base_points",
    "ceil100",
    "draw_pool",
    "exhaustive_draw_deltas",
    "hand_points",
    "limit_for",
    "nagashi_deltas",
    "ron_payment",
    "tsumo_payments",
    "win_deltas",
]

MANGAN_BASE = 2000
YAKUMAN_BASE = 8000
RIICHI_STICK = 1000


def ceil100(points: int) -> int:
    """Round up to a multiple of 100 (the Tenhou rounding of every payment)."""
    return -(-points // 100) * 100


def limit_for(han: int, fu: int, *, yakuman: int = 0) -> Limit:
    """The limit code (``ten[2]``) of a hand of ``han`` and ``fu``, or of ``yakuman`` yakuman.

    A kiriage mangan (chip tables: 30 fu 4 han, 60 fu 3 han) keeps code 0 although it is paid
    as a mangan: Tenhou writes ``ten="30,12000,0"`` for a chip-table dealer tsumo of 30 fu 4 han.
    """
    if yakuman > 0 or han >= 13:
        return Limit.YAKUMAN
    if han >= 11:
        return Limit.SANBAIMAN
    if han >= 8:
        return Limit.BAIMAN
    if han >= 6:
        return Limit.HANEMAN
    if han >= 5:
        return Limit.MANGAN
    if fu * (1 << (han + 2)) >= MANGAN_BASE:
        return Limit.MANGAN
    return Limit.NONE


def _is_kiriage(han: int, fu: int) -> bool:
    return (han == 4 and fu == 30) or (han == 3 and fu == 60)


_LIMIT_BASE = {
    Limit.MANGAN: 2000,
    Limit.HANEMAN: 3000,
    Limit.BAIMAN: 4000,
    Limit.SANBAIMAN: 6000,
    Limit.YAKUMAN: YAKUMAN_BASE,
}

_LIMIT_BASE_BY_HAN: Final[tuple[int, ...]] = tuple(_LIMIT_BASE[limit_for(han, 20)] for han in range(5, 14))
"""The base points of 5 to 13 han (``limit_for``'s limits, which from 5 han do not depend on
the fu), read by han: ``base_points`` ranks every reading the scorer finds, and the Limit member
as a dict key is hashed by Enum's own ``__hash__``, a Python call (callgrind, compiled, 3 corpus
games' analyze_game: the hand value's scorer took 214 M instructions, 208 M by han)."""


def base_points(han: int, fu: int, *, yakuman: int = 0, kiriage: bool = False) -> int:
    """Base points (基本点) of a hand.

    ``yakuman`` is the number of yakuman (each listed yakuman id counts once on Tenhou); a hand of
    13 or more han without yakuman is kazoe yakuman, worth exactly one yakuman.

    >>> base_points(4, 30), base_points(4, 30, kiriage=True), base_points(1, 20, yakuman=2)
    (1920, 2000, 16000)
    """
    if yakuman > 0:
        return YAKUMAN_BASE * yakuman
    if han >= 5:
        return _LIMIT_BASE_BY_HAN[min(han, 13) - 5]
    # below 5 han the limit is mangan or none: the table's sum is read here without the Limit
    # member (the scorer ranks every reading by it; callgrind, compiled, 3 corpus games'
    # analyze_game: 3,421 M instructions against 3,469 M through limit_for)
    base = fu * (1 << (han + 2))
    if base >= MANGAN_BASE or (kiriage and _is_kiriage(han, fu)):
        return MANGAN_BASE
    return base


def ron_payment(base: int, *, dealer: bool) -> int:
    """What the discarder pays for a ron (before honba): 4x base, 6x for a dealer winner."""
    return ceil100(base * (6 if dealer else 4))


def tsumo_payments(base: int, *, dealer: bool) -> tuple[int, int]:
    """``(dealer pays, each non-dealer pays)`` for a tsumo (before honba).

    For a dealer winner both entries are the amount each other player pays.
    """
    if dealer:
        each = ceil100(base * 2)
        return each, each
    return ceil100(base * 2), ceil100(base)


def hand_points(base: int, *, dealer: bool, tsumo: bool, players: int = 4) -> int:
    """The hand's value as ``AGARI ten[1]`` states it (without honba and sticks).

    Ron: the discarder's payment. Tsumo: the sum of all payments, so a three-player tsumo is
    worth less than a ron (ツモ損).
    """
    if not tsumo:
        return ron_payment(base, dealer=dealer)
    from_dealer, from_other = tsumo_payments(base, dealer=dealer)
    if dealer:
        return from_other * (players - 1)
    return from_dealer + from_other * (players - 2)


def _check_seat(seat: int, players: int, what: str) -> None:
    if not 0 <= seat < players:
        raise ValueError(f"{what} seat {seat} is not one of the {players} seats")


def win_deltas(
    base: int,
    *,
    winner: int,
    discarder: int | None,
    dealer: int,
    players: int = 4,
    honba: int = 0,
    sticks: int = 0,
    collects_bonus: bool = True,
    pao: int | None = None,
) -> tuple[int, int, int, int]:
    """Per-seat point changes of one win (one ``AGARI`` tag's ``sc`` deltas).

    ``discarder`` is ``None`` (or the winner) for a tsumo. ``honba`` and ``sticks`` are the
    counters on the table (``ba``); ``collects_bonus`` is false for the second winner of a double
    ron, who gets neither. ``pao`` is the seat liable (責任払い) for a daisangen / daisuushii.
    """
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")
    _check_seat(winner, players, "winner")
    _check_seat(dealer, players, "dealer")
    tsumo = discarder is None or discarder == winner
    if not tsumo:
        _check_seat(discarder, players, "discarder")  # type: ignore[arg-type]
    if pao is not None:
        _check_seat(pao, players, "pao")
        if pao == winner:
            raise ValueError("the winner cannot be liable (pao) for their own hand")
    deltas = [0, 0, 0, 0]
    is_dealer = winner == dealer
    honba_each = 100 * honba if collects_bonus else 0
    honba_all = honba_each * (players - 1)
    if tsumo:
        if pao is not None:
            # The liable seat pays the hand as a ron and every honba.
            deltas[pao] -= ron_payment(base, dealer=is_dealer) + honba_all
        else:
            from_dealer, from_other = tsumo_payments(base, dealer=is_dealer)
            for seat in range(players):
                if seat != winner:
                    deltas[seat] -= (from_dealer if seat == dealer else from_other) + honba_each
    else:
        value = ron_payment(base, dealer=is_dealer)
        if pao is not None and pao != discarder:
            half = value // 2
            deltas[discarder] -= value - half  # type: ignore[index]
            deltas[pao] -= half + honba_all
        else:
            deltas[discarder] -= value + honba_all  # type: ignore[index]
    deltas[winner] = -sum(deltas)
    if collects_bonus:
        deltas[winner] += RIICHI_STICK * sticks
    return deltas[0], deltas[1], deltas[2], deltas[3]


def draw_pool(players: int) -> int:
    """The noten penalty pool (不聴罰符): 3000 four-player, 2000 three-player."""
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")
    return 3000 if players == 4 else 2000


def exhaustive_draw_deltas(tenpai: Sequence[bool], *, players: int = 4) -> tuple[int, int, int, int]:
    """Tenpai / noten payments (聴牌料) of an exhaustive draw; ``tenpai[seat]`` per seat.

    Nobody pays when every seat or no seat is tenpai.
    """
    if len(tenpai) < players:
        raise ValueError(f"need a tenpai flag for each of the {players} seats")
    flags = [bool(tenpai[seat]) for seat in range(players)]
    count = sum(flags)
    deltas = [0, 0, 0, 0]
    if 0 < count < players:
        pool = draw_pool(players)
        gain, loss = pool // count, pool // (players - count)
        for seat, is_tenpai in enumerate(flags):
            deltas[seat] = gain if is_tenpai else -loss
    return deltas[0], deltas[1], deltas[2], deltas[3]


def nagashi_deltas(
    seats: Collection[int], *, dealer: int, players: int = 4
) -> tuple[int, int, int, int]:
    """Nagashi mangan (流し満貫) payments: each seat in ``seats`` is paid a mangan tsumo.

    No honba, no sticks; several nagashi seats are each paid separately.
    """
    deltas = [0, 0, 0, 0]
    for seat in seats:
        one = win_deltas(MANGAN_BASE, winner=seat, discarder=None, dealer=dealer, players=players)
        for i in range(4):
            deltas[i] += one[i]
    return deltas[0], deltas[1], deltas[2], deltas[3]
