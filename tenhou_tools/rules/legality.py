"""Pure predicates for what the Tenhou rules allow: calls, kuikae, riichi, abortive draws, furiten.

Each function takes explicit values and returns a verdict; the replay engine decides when to ask.
Sources: GAME_RULES.md §6.2, §6.6-6.12 and the rule texts in ``docs/rules``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..events import CallKind, Meld
from ..tiles import TERMINAL_HONOR_KINDS, WIND_KINDS

RIICHI_COST = 1000


def kuikae_forbidden(meld: Meld) -> frozenset[int]:
    """Kinds the caller may not discard right after a chi or pon (kuikae, forbidden since 2007).

    The called tile's kind; for a chi called on an end of the run, also the kind that would
    extend the two held tiles on the other side (called 3 with 45 -> 6; called 6 with 45 -> 3).
    """
    if meld.kind not in (CallKind.CHI, CallKind.PON) or meld.called is None:
        return frozenset()
    called = meld.called >> 2
    forbidden = {called}
    if meld.kind is CallKind.CHI:
        kinds = sorted(t >> 2 for t in meld.tiles)
        number = kinds[0] % 9
        if called == kinds[0] and number + 3 <= 8:
            forbidden.add(kinds[0] + 3)
        elif called == kinds[2] and number >= 1:
            forbidden.add(kinds[0] - 1)
    return frozenset(forbidden)


def chi_allowed(caller: int, from_seat: int | None, players: int) -> bool:
    """Chi only from the player on the left (kamicha), and never in three-player games (nor
    from no seat at all)."""
    return players == 4 and from_seat == (caller - 1) % 4


def riichi_live_minimum(players: int) -> int:
    """Live tiles that must remain at a riichi declaration so the player draws again: 4 (4p),
    3 (3p: one draw fewer per go-around)."""
    return 4 if players == 4 else 3


def nine_terminal_kinds(tiles: Iterable[int]) -> int:
    """Distinct terminal and honour kinds among the tiles (kyuushu kyuuhai needs nine)."""
    return len({t >> 2 for t in tiles} & TERMINAL_HONOR_KINDS)


def four_winds(first_discards: Sequence[int]) -> bool:
    """Suufon renda: the four first discards are the same wind (tile ids)."""
    if len(first_discards) != 4:
        return False
    kinds = {t >> 2 for t in first_discards}
    return len(kinds) == 1 and next(iter(kinds)) in WIND_KINDS


def four_kans_abort(kans_by_seat: Sequence[int]) -> bool:
    """Suukaikan: four kans declared, and not all by one player."""
    return sum(kans_by_seat) >= 4 and max(kans_by_seat) < 4


def is_ankan_allowed_in_riichi(waits_before: frozenset[int], waits_after: frozenset[int],
                               kan_kind: int, drawn_kind: int | None) -> bool:
    """In riichi a closed kan must use the tile just drawn (no okuri-kan) and keep the waits."""
    return drawn_kind == kan_kind and waits_before == waits_after and bool(waits_after)
