"""Hands that end without a win: the exhaustive draw (tenpai, nagashi mangan) and the abortive
draws (tochuu ryuukyoku).

Pure functions over explicit values. Sources: GAME_RULES.md §6.10-6.12 and the rule list's
「途中流局(九種九牌/四家立直/三家和了/四槓散了/四風連打)あり」, 「九種九牌はポン/カン/チー/暗槓のない
第1ツモで幺九牌が9種以上」, 「流し満貫は、自分の河が鳴かれていない場合に成立」, 「形式聴牌あり」. Defined in
the private ``rules._draws``, which a compiled install compiles (docs/development.md); this is
their public name.
"""

from __future__ import annotations

from ._draws import (
    four_kans_abort,
    four_riichi,
    four_winds,
    is_tenpai,
    nagashi_mangan,
    nine_terminal_kinds,
    nine_terminals_allowed,
    wins_on,
)

__all__ = [
    "four_kans_abort",
    "four_riichi",
    "four_winds",
    "is_tenpai",
    "nagashi_mangan",
    "nine_terminal_kinds",
    "nine_terminals_allowed",
    "wins_on",
]
