"""Calls (naki): chi, pon, kans and kita, and what the Tenhou rules allow of each.

Pure functions over explicit values; the replay decides when to ask. Sources: GAME_RULES.md §6.8
(kuikae), §6.9 (kans), §6.11 (three-player), and the rule list's 「喰い替えなし」, 「海底牌は鳴けない」,
「チーなし（三人麻雀）」, 「ポン直後の北抜きなし」. Defined in the private ``rules._calls``, which a
compiled install compiles (docs/development.md); this is their public name.
"""

from __future__ import annotations

from ._calls import (
    CALLS_ON_A_DISCARD,
    KAN_LIMIT,
    allowed_in_riichi,
    chi_allowed,
    discard_callable,
    kan_allowed,
    kita_allowed,
    kuikae_forbidden,
    opens_a_set,
    server_discard,
)

__all__ = [
    "CALLS_ON_A_DISCARD",
    "KAN_LIMIT",
    "allowed_in_riichi",
    "chi_allowed",
    "discard_callable",
    "kan_allowed",
    "kita_allowed",
    "kuikae_forbidden",
    "opens_a_set",
    "server_discard",
]
