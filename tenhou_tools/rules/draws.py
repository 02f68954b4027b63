"""Hands that end without a win: the exhaustive draw (tenpai, nagashi mangan) and the abortive
draws (tochuu ryuukyoku).

Pure functions over explicit values. Sources: GAME_RULES.md §6.10-6.12 and the rule list's
「途中流局(九種九牌/四家立直/三家和了/四槓散了/四風連打)あり」, 「九種九牌はポン/カン/チー/暗槓のない
第1ツモで幺九牌が9種以上」, 「流し満貫は、自分の河が鳴かれていない場合に成立」, 「形式聴牌あり」. Compiled in a
compiled install (the replay asks at every first discard).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..tiles import TERMINAL_HONOR_KINDS, WIND_KINDS
from .hand import counts34, is_complete, waits


def is_tenpai(concealed: Iterable[int]) -> bool:
    """Keishiki tenpai: one tile from a complete shape (yakuless and furiten hands count; a wait
    on a fifth copy held in the hand does not)."""
    return bool(waits(counts34(concealed)))


def nine_terminal_kinds(tiles: Iterable[int]) -> int:
    """Distinct terminal and honour kinds among the tiles (kyuushu kyuuhai needs nine)."""
    return len({t >> 2 for t in tiles} & TERMINAL_HONOR_KINDS)


def nine_terminals_allowed(hand: Iterable[int], own_discards: int, any_call: bool) -> bool:
    """Kyuushu kyuuhai: on the player's first draw (no discard yet), before any call (closed kan
    and kita included), with nine or more kinds of terminals and honours in the 14 tiles."""
    return own_discards == 0 and not any_call and nine_terminal_kinds(hand) >= 9


def four_winds(first_discards: Sequence[int]) -> bool:
    """Suufon renda: the four first discards (tile ids) are the same wind, with no call before."""
    if len(first_discards) != 4:
        return False
    kinds = {t >> 2 for t in first_discards}
    return len(kinds) == 1 and next(iter(kinds)) in WIND_KINDS


def four_riichi(riichi_accepted: Sequence[bool], players: int) -> bool:
    """Suucha riichi: all four players of a four-player game have an accepted riichi."""
    return players == 4 and len(riichi_accepted) == 4 and all(riichi_accepted)


def four_kans_abort(kans_by_seat: Sequence[int]) -> bool:
    """Suukaikan: four kans declared, and not all by one player (whose four kans are suukantsu,
    a yakuman to play for)."""
    return sum(kans_by_seat) >= 4 and max(kans_by_seat) < 4


def wins_on(concealed: Iterable[int], tile: int) -> bool:
    """Whether the tile completes the hand's shape (a triple ron needs three such hands)."""
    return is_complete(counts34([*concealed, tile]))


def nagashi_mangan(discarded: Sequence[int], called_away: int) -> bool:
    """Nagashi mangan: at the exhaustive draw, the player discarded at least once, only
    terminals and honours (tile ids), and nobody called any of them (the player's own calls do
    not matter)."""
    return bool(discarded) and called_away == 0 and all(t >> 2 in TERMINAL_HONOR_KINDS for t in discarded)
