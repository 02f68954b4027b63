"""Player names as people type them: ``--player naga`` finds ``Naga``, ``NAGA`` and ``Ｎａｇａ``.

Tenhou names are shown as written, but a person asking for one should not have to match its case
or its width (a Japanese keyboard types full-width Latin letters and digits as easily as ASCII).
Two names match when their *keys* are equal: Unicode NFKC (full-width ``Ｎ`` becomes ``N``,
half-width katakana ``ｱ`` becomes ``ア``), then case folding (``ß`` and ``ss``, ``A`` and ``a``),
then NFKC again (folding can undo a normal form), surrounding blanks removed. This is Unicode's
"NFKC_Casefold" closure in spirit, not a fuzzy match: ``Naga`` never matches ``Nagi``. A name
that matches nothing gets suggestions, the closest keys by ``difflib``'s ratio.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

__all__ = ["NameMatcher", "name_key", "suggest"]

MAX_SUGGESTIONS = 3
SUGGESTION_CUTOFF = 0.6
"""``difflib.get_close_matches``'s cutoff: 0.6 (its default) keeps ``Alcie`` -> ``Alice``, drops
unrelated names."""
SHORT_NAME = 2
"""A name this short (``太郎``) is one character away from its neighbours at a ratio of 0.5, under
the cutoff: for such a name the cutoff is 0.5, so ``太朗`` suggests ``太郎``."""


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, NFKC again, stripped."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


class NameMatcher:
    """Which player names the ``--player`` names ask for (``None``: every name).

    ``matches`` is called once per player per game, so each distinct name's verdict is kept;
    every name it was asked about is remembered for ``suggestions`` (a few bytes per player)."""

    def __init__(self, wanted: Iterable[str] | None):
        self.wanted: tuple[str, ...] | None = tuple(wanted) if wanted is not None else None
        self._keys = frozenset(name_key(n) for n in self.wanted) if self.wanted is not None else None
        self._seen: dict[str, bool] = {}

    def matches(self, name: str) -> bool:
        verdict = self._seen.get(name)
        if verdict is None:
            verdict = self._keys is None or name_key(name) in self._keys
            self._seen[name] = verdict
        return verdict

    def see(self, names: Iterable[str]) -> None:
        """Names known from elsewhere (a database), for ``matches`` and ``suggestions``."""
        for name in names:
            self.matches(name)

    def matched(self) -> list[str]:
        """The names seen so far that match, sorted."""
        return sorted(name for name, ok in self._seen.items() if ok)

    def unmatched(self) -> list[str]:
        """The ``--player`` names no name seen so far matches, in the order given."""
        if self.wanted is None:
            return []
        found = {name_key(name) for name, ok in self._seen.items() if ok}
        return [w for w in self.wanted if name_key(w) not in found]

    def suggestions(self, wanted: str) -> list[str]:
        """The names seen that are closest to ``wanted`` (at most ``MAX_SUGGESTIONS``)."""
        return suggest(wanted, self._seen)


def suggest(wanted: str, names: Iterable[str]) -> list[str]:
    """The names closest to ``wanted`` by their keys, best first: those that begin with it (a
    name typed in part: ``nag`` for ``Naga``), shortest first, then the closest by ``difflib``."""
    by_key: dict[str, list[str]] = {}
    for name in names:
        by_key.setdefault(name_key(name), []).append(name)
    key = name_key(wanted)
    if not key:
        return []
    begun = sorted((k for k in by_key if k.startswith(key)), key=lambda k: (len(k), k))
    cutoff = 0.5 if len(key) <= SHORT_NAME else SUGGESTION_CUTOFF
    close = difflib.get_close_matches(key, list(by_key), n=MAX_SUGGESTIONS, cutoff=cutoff)
    ordered = list(dict.fromkeys([*begun, *close]))
    return [name for k in ordered for name in sorted(by_key[k])][:MAX_SUGGESTIONS]
