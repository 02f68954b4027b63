"""Calls (naki): chi, pon, kans and kita, and what the Tenhou rules allow of each.

Pure functions over explicit values; the replay decides when to ask. Sources: GAME_RULES.md §6.8
(kuikae), §6.9 (kans), §6.11 (three-player), and the rule list's 「喰い替えなし」, 「海底牌は鳴けない」,
「チーなし（三人麻雀）」, 「ポン直後の北抜きなし」. Compiled in a compiled install (the replay asks on
every call and discard).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..events import CallKind, Meld

# Call kinds read for every call and discard, bound once: a C global in compiled code, where
# ``CallKind.CHI`` goes through the enum's ``__getattr__`` hook each time. Measured: without this
# block check_log takes 0.14 M more of a game's 6.6 M instructions (2 %; scripts/bench_callgrind.py,
# 100 corpus games, 2026-11-29).
_CHI: Final = CallKind.CHI
_PON: Final = CallKind.PON
_CLOSED_KAN: Final = CallKind.CLOSED_KAN
_ADDED_KAN: Final = CallKind.ADDED_KAN
_KITA: Final = CallKind.KITA
_NO_KINDS: Final[frozenset[int]] = frozenset()

KAN_LIMIT: Final = 4
"""At most four kans in one hand: a fifth is never offered (四槓子 needs four by one player)."""

CALLS_ON_A_DISCARD = (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN)
"""The calls that take another player's discard; the others (closed kan, added kan, kita) are
made on one's own turn, right after one's own draw."""


def kuikae_forbidden(meld: Meld) -> frozenset[int]:
    """Kinds the caller may not discard right after a chi or pon (kuikae, forbidden since 2007).

    The called tile's kind; for a chi called on an end of the run, also the kind that would
    extend the two held tiles on the other side (called 3 with 45 -> 6; called 6 with 45 -> 3).
    """
    kind, called_tile = meld.kind, meld.called
    if (kind is not _CHI and kind is not _PON) or called_tile is None:
        return _NO_KINDS
    called = called_tile >> 2
    forbidden = {called}
    if kind is _CHI:
        kinds = sorted(t >> 2 for t in meld.tiles)
        number = kinds[0] % 9
        if called == kinds[0] and number + 3 <= 8:
            forbidden.add(kinds[0] + 3)
        elif called == kinds[2] and number >= 1:
            forbidden.add(kinds[0] - 1)
    return frozenset(forbidden)


def server_discard(concealed: Sequence[int], drawn: int | None) -> int:
    """The tile Tenhou's server discards for a player who is away (切断: a ``BYE``, written once
    the player's time has run out, after this discard): the tile just drawn (``drawn``), else,
    after a chi or pon, the last tile of the ``concealed`` hand, the highest id. The server does
    not avoid kuikae: that rule binds the player's own choice.

    In mjlog/ and flagged/, 305 discards are followed by the player's ``BYE`` before the next
    discard: after a draw, 288 of 298 discard the drawn tile (the other 10 are the player's own
    choice); after a call, 5 of 5 the hand's last tile (one a kuikae,
    2014090920gm-0029-0000-d487ff80). While away, players' 2,217 discards (games with an id) are
    all the drawn tile, with no call, riichi or win."""
    return drawn if drawn is not None else max(concealed)


def chi_allowed(caller: int, from_seat: int | None, players: int) -> bool:
    """Chi only from the player on the left (kamicha), and never in three-player games (nor
    from no seat at all)."""
    return players == 4 and from_seat == (caller - 1) % 4


def discard_callable(live_remaining: int) -> bool:
    """The last discard of a hand (houtei, when the live wall is empty) cannot be called."""
    return live_remaining > 0


def kan_allowed(live_remaining: int) -> bool:
    """A closed or added kan needs a tile left in the live wall (none on the last draw)."""
    return live_remaining > 0


def kita_allowed(players: int) -> bool:
    """Kita (setting a North aside as a dora) exists only in three-player games."""
    return players == 3


def allowed_in_riichi(kind: CallKind) -> bool:
    """In riichi only closed kans (under ``rules.riichi.is_ankan_allowed_in_riichi``) and kita
    may be declared: chi, pon, open and added kans would change the hand."""
    return kind is _CLOSED_KAN or kind is _KITA


def opens_a_set(kind: CallKind) -> bool:
    """Whether the call takes three tiles out of the hand's 3n + 1 count (every call but kita,
    and the added kan, which only adds a tile to a pon already counted)."""
    return kind is not _KITA and kind is not _ADDED_KAN
