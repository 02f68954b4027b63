"""A seat's replay document: what one seat sees of the game, nothing more (``replay --seat N --html``).

``seat_view(doc, seat)`` takes the JSON form of a replay document (``ReplayDocument.to_json()``,
the whole game, every tile) and keeps only what ``seat`` sees over the game, so a page built on
it can be shared as a "what would you cut?" page without giving away the other hands:

- the other seats' starting tiles and their draws are ``HIDDEN`` (-1): their number stays, so
  the board still counts the tiles each seat holds; a discard, a call, a kan, a kita, a riichi,
  a new dora indicator are public and stay as they are (a tsumogiri discard shows its tile
  when it is discarded, as at the table);
- what a result shows stays: a winner's hand and its ura indicators, the tenpai hands at a
  draw, a nine-terminals hand (in the ``agari`` and ``ryuukyoku`` events, at their step);
- the shuffle seed is gone (the header's and each ``init``'s): it rebuilds the whole wall;
- the analysis keeps this seat's discards and its own row of the summary only (another seat's
  analysis is made of its hand). This seat's entries are computed from its own view (what it
  holds and what is public: ``analysis.game``); a deal-in's wait comes from the winner's hand,
  which its ron shows;
- a finding that may name concealed tiles (the wall's, the tile accounting's, a hand compared
  with the replayed one: ``CONCEALED_CODES``) keeps its code, severity and moment, not its
  values or its message; an unknown element keeps its tag, not its attributes.

The document holds the whole game as that seat lives it: later discards and the hands later
results show are in it, each for the page to show at its step; nothing the seat never sees is.
``"seat_view": true`` marks it (the key is there only in a seat's document).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..findings import FindingCode

__all__ = ["CONCEALED_CODES", "HIDDEN", "HIDDEN_FINDING", "seat_view"]

HIDDEN = -1
"""A tile this seat does not see (another seat's concealed tile or draw)."""

F = FindingCode

CONCEALED_CODES = frozenset({
    F.WALL_SEED, F.WALL_DICE, F.WALL_DEAL, F.WALL_DRAW, F.WALL_DORA, F.WALL_URA,
    F.TILE_NOT_IN_HAND, F.TILE_DUPLICATE, F.HAND_SIZE,
    F.AGARI_HAND, F.DRAW_HAND, F.DRAW_TENPAI, F.RIICHI_NOT_TENPAI,
    F.INTERNAL_ERROR,
})
"""The findings whose values or message may name tiles a seat does not see: the wall by the seed,
the tile accounting, a shown hand against the replayed one, tenpai at a draw or a riichi."""

HIDDEN_FINDING = "its values name concealed tiles: left out of a seat's page"
"""The message of a finding of ``CONCEALED_CODES`` in a seat's document."""

_FINDING_KEYS = ("code", "severity", "hand", "label", "event_index", "step")


def seat_view(doc: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The replay document ``doc`` (its JSON form) as ``seat`` sees it (the module's docstring)."""
    out = dict(doc)
    out["viewer"] = seat
    out["all_hands"] = False
    out["seat_view"] = True
    out["header"] = {**doc["header"], "shuffle": None}
    out["hands"] = [_hand(h, seat) for h in doc["hands"]]
    out["findings"] = [_finding(f) for f in doc.get("findings", ())]
    analysis = doc.get("analysis")
    if analysis is not None:
        out["analysis"] = {
            **analysis,
            "discards": [d for d in analysis.get("discards", ()) if d.get("seat") == seat],
            "summary": [r for r in analysis.get("summary", ()) if r.get("seat") == seat],
        }
        if "stopped" in analysis:  # where the analysis stopped; its reason may name any hand's tiles
            out["analysis"]["stopped"] = [{**stop, "reason": HIDDEN_FINDING} for stop in analysis["stopped"]]
    return out


def _hand(hand: Mapping[str, Any], seat: int) -> dict[str, Any]:
    init = hand["init"]
    hands = [list(tiles) if s == seat else [HIDDEN] * len(tiles) for s, tiles in enumerate(init["hands"])]
    return {
        **hand,
        "init": {**init, "hands": hands, "shuffle": None},
        "events": [_event(e, seat) for e in hand["events"]],
        "findings": [_finding(f) for f in hand.get("findings", ())],
    }


def _event(event: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
    kind = event.get("type")
    if kind == "draw" and event.get("seat") != seat:
        return {**event, "tile": HIDDEN}
    if kind == "unknown":
        return {**event, "attributes": []}
    return event


def _finding(finding: Mapping[str, Any]) -> Mapping[str, Any]:
    try:
        concealed = FindingCode(finding.get("code")) in CONCEALED_CODES
    except ValueError:  # a code this version does not know: it may name anything
        concealed = True
    if not concealed:
        return finding
    kept = {k: finding[k] for k in _FINDING_KEYS if k in finding}
    return {**kept, "message": HIDDEN_FINDING, "expected": None, "actual": None, "readable": None}
