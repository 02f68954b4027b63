"""A finding as the documents carry it: the NDJSON finding, its step, and its two values written
for people as data (``FindingValues``), never as a sentence.

A ``Finding`` carries the value the rules give (``expected``) and the one the log claims
(``actual``) as raw data (ids, lists, booleans; docs/findings.md). ``finding_values`` says what
they are and writes each side for people — tiles in notation, seats as ``S2``, yaku and limits by
name — and how the two relate (``ValuesForm``); each renderer composes its own words from that:
the text views (``cli.finding_text.values_text``: ``points (ten): 48000 by the rules, the log
says 36000``) and the replay page's script alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..events import DAN_NAMES
from ..findings import Finding, FindingCode
from ..rules.yaku import limit_name, yaku_list_text, yakuman_names
from ..tiles import format_tiles, kind_name

__all__ = ["FindingValues", "ValuesForm", "finding_json", "finding_values"]

F = FindingCode

Format = Callable[[Any], str]


class ValuesForm(Enum):
    """How a finding's two values relate: what the words around them say (each renderer has
    its own words for each form; docs/findings.md gives the text view's)."""

    COMPARE = "compare"
    """The same quantity by the rules (``expected``) and in the log (``actual``)."""
    LOG_ONLY = "log_only"
    """Only the log's value (the rules give none, or it is not one value)."""
    RULES_ONLY = "rules_only"
    """Only the rules' value: the log has none."""
    FACT = "fact"
    """One fact about the log (``actual``): the tiles that make a ron furiten, the seats shown."""
    AT_LEAST = "at_least"
    """The log's value (``actual``) is below the least the rules allow (``expected``)."""
    AT_MOST = "at_most"
    """The log's value (``actual``) is above the most the rules allow (``expected``)."""
    FORBIDDEN = "forbidden"
    """Kinds the rules forbid (``expected``) and the one the log discards (``actual``)."""
    CALLED = "called"
    """The last discard (``expected``) and the tile the log calls, with its seat (``actual``)."""
    SHOWN = "shown"
    """Tenpai by the rules (``expected``) and whether the log shows the hand (``actual``)."""
    DECLARED = "declared"
    """The seats the rules give (``expected``) and what the log declares (``actual``)."""
    GOES_ON = "goes_on"
    """The abortive draw the rules make happen (``expected``) and what the log has instead."""
    TRIPLE_RON = "triple_ron"
    """The wins the log has on one tile (``actual``) where the rules make a draw (``expected``)."""
    KANS_NEEDED = "kans_needed"
    """Kans by seat in the log (``actual``) and how many in all the rules need (``expected``)."""


@dataclass(frozen=True, slots=True)
class FindingValues:
    """A finding's two values written for people, with what they are and how they relate."""

    form: ValuesForm
    what: str
    """What the values are (``points (ten)``, ``liable seat (paoWho)``); empty when the form says
    it (``CALLED``, ``SHOWN``, ...)."""
    expected: str | None
    """The rules' value as people read it (``48000``, ``S3``, ``riichi 1, pinfu 1``), or ``None``."""
    actual: str | None
    """The log's value as people read it, or ``None``."""

    def to_json(self) -> dict[str, Any]:
        return {"form": self.form.value, "what": self.what, "expected": self.expected, "actual": self.actual}


# -- each value written for people -------------------------------------------------------------------


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    return str(value)


def _seat(value: Any) -> str:
    return "none" if value is None else f"S{value}"


def _seats(value: Any) -> str:
    return ", ".join(_seat(v) for v in value) or "none"


def _tile(value: Any) -> str:
    return f"{format_tiles([value])} (id {value})"


def _tiles_apart(value: Any) -> str:
    """Tiles one by one in the log's order (dora indicators, dice-ordered deals): ``2m 6m``."""
    if isinstance(value, str):
        return value
    return " ".join(format_tiles([t]) for t in value) or "none"


def _hand(value: Any) -> str:
    return value if isinstance(value, str) else format_tiles(value)


def _melds(value: Any) -> str:
    return "; ".join(format_tiles(m) for m in value) or "none"


def _kinds(value: Any) -> str:
    if isinstance(value, int):
        return kind_name(value)
    return " ".join(kind_name(k) for k in value) or "none"


def _round(value: Any) -> str:
    if isinstance(value, int) and value >= 0:
        return f"{'ESWN'[(value // 4) % 4]}{value % 4 + 1}"
    return _plain(value)


SPECS: dict[FindingCode, tuple[str, Format]] = {
    F.AGARI_HAND: ("winning hand (hai)", _hand),
    F.AGARI_MELDS: ("melds (m)", _melds),
    F.AGARI_WIN_TILE: ("winning tile (machi)", _tile),
    F.AGARI_YAKU: ("yaku and han", yaku_list_text),
    F.AGARI_YAKUMAN: ("yakuman", yakuman_names),
    F.AGARI_FU: ("fu", _plain),
    F.AGARI_POINTS: ("points (ten)", _plain),
    F.AGARI_LIMIT: ("limit (ten)", limit_name),
    F.AGARI_DORA: ("dora indicators (doraHai)", _tiles_apart),
    F.AGARI_URA: ("number of ura dora indicators", _plain),
    F.AGARI_PAO: ("liable seat (paoWho)", _seat),
    F.AGARI_ORDER: ("winners in the log's order", _seats),
    F.PAYMENT: ("score changes (sc)", _plain),
    F.SCORES_BEFORE: ("scores before (sc)", _plain),
    F.BA: ("honba and riichi sticks (ba)", _plain),
    F.RIICHI_SCORES: ("scores after the riichi stick", _plain),
    F.DRAW_HAND: ("shown hand", _hand),
    F.DRAW_PAYMENT: ("score changes (sc)", _plain),
    F.CARRY_SCORES: ("scores", _plain),
    F.CARRY_HONBA: ("honba", _plain),
    F.CARRY_STICKS: ("riichi sticks", _plain),
    F.GAME_END: ("the game ends", _plain),
    F.OWARI_SCORES: ("final scores", _plain),
    F.OWARI_POINTS: ("game points", _plain),
    F.HAND_SIZE: ("tiles in hand", _plain),
    F.DRAW_ORDER: ("seat to act", _seat),
    F.DOUBLE_DISCARD: ("seat to discard", _seat),
    F.DORA_TIMING: ("kan dora indicators to reveal", _plain),
    F.CALL_CHI_SEAT: ("called from", _seat),
    F.RIICHI_TSUMOGIRI: ("discard", lambda v: _tile(v) if v is not None else "none"),
    F.WALL_DICE: ("dice", _plain),
    F.WALL_DEAL: ("dealt tiles", _hand),
    F.WALL_DRAW: ("tile drawn", _tile),
    F.WALL_DORA: ("dora indicator", _tile),
    F.WALL_URA: ("ura dora indicators", _tiles_apart),
}
"""Codes whose two values are the same quantity: what it is, and how to write a value."""

_NONE_IS_A_VALUE = frozenset({F.AGARI_PAO, F.DRAW_ORDER, F.DOUBLE_DISCARD, F.CALL_CHI_SEAT, F.RIICHI_TSUMOGIRI})
"""Codes where ``None`` means "no seat" or "no tile" rather than "no value"."""

_FURITEN_WHERE = {
    F.FURITEN_DISCARD: "winning tiles in the winner's river",
    F.FURITEN_SAME_TURN: "winning tiles passed since the winner's discard",
    F.FURITEN_RIICHI: "winning tiles passed since the winner's riichi",
}


def _special(finding: Finding) -> FindingValues | None:
    """Codes whose values are not one quantity on both sides."""
    code, e, a = finding.code, finding.expected, finding.actual
    V = FindingValues
    if code in _FURITEN_WHERE and a is not None:
        return V(ValuesForm.FACT, _FURITEN_WHERE[code], None, _kinds(a))
    if code is F.RIICHI_NOT_TENPAI and isinstance(a, str):
        return V(ValuesForm.FACT, "hand after the riichi discard", None, a)
    if code is F.RIICHI_POINTS and a is not None:
        return V(ValuesForm.AT_LEAST, "points", _plain(e), _plain(a))
    if code is F.RIICHI_LATE and a is not None:
        return V(ValuesForm.AT_LEAST, "tiles left in the live wall", _plain(e), _plain(a))
    if code is F.KAN_LIMIT and a is not None:
        return V(ValuesForm.AT_MOST, "kans in the hand", _plain(e), _plain(a))
    if code is F.CALL_KUIKAE and a is not None:
        return V(ValuesForm.FORBIDDEN, "kinds that may not be discarded", _kinds(e or []), _kinds(a))
    if code is F.CALL_TILE and isinstance(a, list) and len(a) == 2:
        last = "none" if not e else f"{_tile(e[1])} from {_seat(e[0])}"
        called = "no tile" if a[1] is None else _tile(a[1])
        return V(ValuesForm.CALLED, "", last, f"{called} from {_seat(a[0])}")
    if code is F.DRAW_TENPAI:
        if isinstance(e, bool) and isinstance(a, bool):
            return V(ValuesForm.SHOWN, "tenpai", _plain(e), _plain(a))
        if e is not None and a is not None:
            return V(ValuesForm.COMPARE, "tiles left in the live wall", _plain(e), _plain(a))
    if code is F.NAGASHI and a is not None:
        return V(ValuesForm.DECLARED, "nagashi mangan", _seats(e or []), _plain(a))
    if code is F.CARRY_ROUND and e is not None and a is not None:
        if isinstance(e, list):
            return V(ValuesForm.COMPARE, "round, honba and riichi sticks", _plain(e), _plain(a))
        if "dealer" in finding.message:
            return V(ValuesForm.COMPARE, "dealer", _seat(e), _seat(a))
        return V(ValuesForm.COMPARE, "round", _round(e), _round(a))
    if code is F.ABORT_MISSING and e is not None:
        return V(ValuesForm.GOES_ON, "abortive draw", _plain(e), _plain(a))
    if code is F.TRIPLE_RON and a is not None:
        return V(ValuesForm.TRIPLE_RON, "wins on the tile", _plain(e), _plain(a))
    if code is F.CROSS_DAN and isinstance(e, list) and e and isinstance(a, int):
        allowed = ", ".join(DAN_NAMES[d] for d in e)
        return V(ValuesForm.COMPARE, "dan", allowed if len(e) == 1 else f"one of {allowed}", DAN_NAMES[a])
    if code is F.DAN_POINTS and isinstance(e, int) and isinstance(a, int):
        return V(ValuesForm.COMPARE, "dan", DAN_NAMES[e], DAN_NAMES[a])
    if code is F.ABORT_CONDITION and a is not None:
        if isinstance(a, int):
            return V(ValuesForm.FACT, "seat that declared it", None, _seat(a))
        if isinstance(e, int):
            return V(ValuesForm.KANS_NEEDED, "kans by seat", _plain(e), _plain(a))
        return V(ValuesForm.FACT, "seats shown", None, _seats(a))
    return None


def _values(finding: Finding) -> FindingValues | None:
    if finding.expected is None and finding.actual is None:
        return None
    try:
        special = _special(finding)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        special = None
    if special is not None:
        return special
    if finding.code in (F.TILE_NOT_IN_HAND, F.TILE_DUPLICATE):
        return None  # the message names the tile
    what, fmt = SPECS.get(finding.code, ("value", _plain))
    e, a = finding.expected, finding.actual
    try:
        if e is None and finding.code not in _NONE_IS_A_VALUE:
            return FindingValues(ValuesForm.LOG_ONLY, what, None, fmt(a))
        if a is None and finding.code not in _NONE_IS_A_VALUE:
            return FindingValues(ValuesForm.RULES_ONLY, what, fmt(e), None)
        return FindingValues(ValuesForm.COMPARE, what, fmt(e), fmt(a))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):  # an unexpected shape
        return FindingValues(ValuesForm.COMPARE, what, _plain(e), _plain(a))


def finding_values(finding: Finding) -> FindingValues | None:
    """What the finding's values are, written for people; ``None`` when it carries none, or when
    its message already gives both (``daisangen by the rules, the log says tenhou``)."""
    values = _values(finding)
    if values is None:
        return None
    said = _SAID.get(values.form)
    if said is not None and said.format(e=values.expected, a=values.actual) in finding.message:
        return None
    return values


_SAID = {
    ValuesForm.COMPARE: "{e} by the rules, the log says {a}",
    ValuesForm.LOG_ONLY: "the log says {a}",
    ValuesForm.RULES_ONLY: "{e} by the rules, none in the log",
}
"""How a message that already gives a comparison's values says them (then they are not
written again)."""


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding in a document: as in ``validate``'s NDJSON (``Finding.to_json``: ``hand`` the
    hand's 0-based index, ``label`` its name, ``event_index`` the event's 0-based index in the
    hand), plus ``step``: the moment as people and ``--at HAND:STEP`` count it (``event_index +
    1``, ``null`` without an event), and ``readable``: its values written for people
    (``FindingValues.to_json``), or ``null``."""
    out = finding.to_json()
    out["step"] = None if finding.event_index is None else finding.event_index + 1
    values = finding_values(finding)
    out["readable"] = None if values is None else values.to_json()
    return out
