"""Riichi (立直): when it may be declared, what it allows afterwards.

Pure functions over explicit values. Sources: GAME_RULES.md §6.6 and the rule list's
「リーチ宣言は得点が1000点以上でツモ巡がある場合に可能」, 「リーチ後の暗槓は待ちが変わらない場合のみ。
送り槓不可」, 「リーチ宣言牌で放銃した場合は供託料は発生しない」.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..events import Meld
from ..ids import JST
from .payments import RIICHI_STICK

RIICHI_COST = RIICHI_STICK
"""A declaration costs one riichi stick (kyoutaku, ``payments.RIICHI_STICK``): paid when the
declaration discard is not won on."""


STEP2_SCORES_SEEN_LAST_WITHOUT = datetime(2010, 2, 10, 4, tzinfo=JST)
"""The last game start of the corpus whose ``REACH step="2"`` carries no ``ten``."""
STEP2_SCORES_SEEN_FIRST_WITH = datetime(2010, 2, 13, 23, tzinfo=JST)
"""The first game start of the corpus whose ``REACH step="2"`` carries ``ten`` (every later one does)."""


def step2_scores_required(start: datetime | None) -> bool | None:
    """Whether ``REACH step="2"`` must state the scores after the stick (``ten``) in a game that
    started at ``start``: False before the change (early 2010), True after it, None when the
    date is unknown or falls between the last log seen without and the first seen with them."""
    if start is None:
        return None
    if start <= STEP2_SCORES_SEEN_LAST_WITHOUT:
        return False
    if start >= STEP2_SCORES_SEEN_FIRST_WITH:
        return True
    return None


def riichi_live_minimum(players: int) -> int:
    """Live tiles that must remain at a riichi declaration so the player draws again: 4 (4p),
    3 (3p: one draw fewer per go-around)."""
    return 4 if players == 4 else 3


def can_afford_riichi(score: int) -> bool:
    """At least the stick's points (exactly 1,000 is allowed and leaves 0)."""
    return score >= RIICHI_COST


def may_declare_riichi(melds: Iterable[Meld], score: int, live_remaining: int, players: int) -> bool:
    """What the table allows a declaration on, tenpai aside: a closed hand (``is_closed``), the
    stick's points (``can_afford_riichi``) and a draw still to come (``riichi_live_minimum``). The
    replay's checks ask each part for its own finding; the analysis asks this."""
    return is_closed(melds) and can_afford_riichi(score) and live_remaining >= riichi_live_minimum(players)


def is_closed(melds: Iterable[Meld]) -> bool:
    """Menzen: no chi, pon, open or added kan (closed kans and kita keep the hand closed)."""
    return not any(m.kind.is_open for m in melds)


def is_double_riichi(own_discards: int, any_call: bool) -> bool:
    """Double riichi (ダブル立直): declared on the player's first discard with no call (closed
    kans and kita included) made by anyone before it."""
    return own_discards == 0 and not any_call


def is_ankan_allowed_in_riichi(waits_before: frozenset[int], waits_after: frozenset[int],
                               kan_kind: int, drawn_kind: int | None) -> bool:
    """In riichi a closed kan must use the tile just drawn (no okuri-kan) and keep the waits."""
    return drawn_kind == kan_kind and waits_before == waits_after and bool(waits_after)
