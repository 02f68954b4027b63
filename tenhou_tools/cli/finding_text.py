"""Findings in words for people: what a finding's two values mean, the command that shows its
hand, and the tenhou.net viewer link of a game.

A ``Finding`` carries the value the rules give (``expected``) and the one the log claims
(``actual``) as data (ids, lists, booleans; see docs/findings.md). The text report of
``validate`` and the view of ``replay`` say what they are, with tiles in notation, seats as
``S2``, yaku and limits by name, and leave out a side that has no value:

    points (ten): 48000 by the rules, the log says 36000
    liable seat (paoWho): S3 by the rules, the log says none
    winning tiles in the winner's river: 3m 6m
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from ..errors import InputError
from ..findings import Finding, FindingCode
from ..ids import validate_log_id
from ..rules.yaku import limit_name, yaku_list_text, yakuman_names
from ..tiles import format_tiles, kind_name

F = FindingCode
VIEWER = "https://tenhou.net/0/?log={log_id}"

Format = Callable[[Any], str]


# -- values -----------------------------------------------------------------------------------------


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


def _yaku(value: Any) -> str:
    return yaku_list_text(value)


def _yakuman(value: Any) -> str:
    return yakuman_names(value)


def _limit(value: Any) -> str:
    return limit_name(value)


SPECS: dict[FindingCode, tuple[str, Format]] = {
    F.AGARI_HAND: ("winning hand (hai)", _hand),
    F.AGARI_MELDS: ("melds (m)", _melds),
    F.AGARI_WIN_TILE: ("winning tile (machi)", _tile),
    F.AGARI_YAKU: ("yaku and han", _yaku),
    F.AGARI_YAKUMAN: ("yakuman", _yakuman),
    F.AGARI_FU: ("fu", _plain),
    F.AGARI_POINTS: ("points (ten)", _plain),
    F.AGARI_LIMIT: ("limit (ten)", _limit),
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

_NONE_IS_A_VALUE = frozenset({F.AGARI_PAO, F.DRAW_ORDER, F.CALL_CHI_SEAT, F.RIICHI_TSUMOGIRI})
"""Codes where ``None`` means "no seat" or "no tile" rather than "no value"."""


def _both(what: str, expected: str, actual: str) -> str:
    return f"{what}: {expected} by the rules, the log says {actual}"


def _special(finding: Finding) -> str | None:
    """Codes whose values are not one quantity on both sides."""
    code, e, a = finding.code, finding.expected, finding.actual
    if code in (F.FURITEN_DISCARD, F.FURITEN_SAME_TURN, F.FURITEN_RIICHI) and a is not None:
        where = {F.FURITEN_DISCARD: "in the winner's river", F.FURITEN_SAME_TURN: "passed since the winner's discard",
                 F.FURITEN_RIICHI: "passed since the winner's riichi"}[code]
        return f"winning tiles {where}: {_kinds(a)}"
    if code is F.RIICHI_NOT_TENPAI and isinstance(a, str):
        return f"hand after the riichi discard: {a}"
    if code is F.RIICHI_POINTS and a is not None:
        return f"points: {a}, at least {e} needed"
    if code is F.RIICHI_LATE and a is not None:
        return f"tiles left in the live wall: {a}, at least {e} needed"
    if code is F.KAN_LIMIT and a is not None:
        return f"kans in the hand: {a}, at most {e}"
    if code is F.CALL_KUIKAE and a is not None:
        return f"kinds that may not be discarded: {_kinds(e or [])}; the log discards {_kinds(a)}"
    if code is F.CALL_TILE and isinstance(a, list) and len(a) == 2:
        last = "none" if not e else f"{_tile(e[1])} from {_seat(e[0])}"
        called = "no tile" if a[1] is None else _tile(a[1])
        return f"last discard: {last}; the log calls {called} from {_seat(a[0])}"
    if code is F.DRAW_TENPAI:
        if isinstance(e, bool) and isinstance(a, bool):
            return f"tenpai: {_plain(e)} by the rules; the log shows the hand: {_plain(a)}"
        if e is not None and a is not None:
            return _both("tiles left in the live wall", _plain(e), _plain(a))
    if code is F.NAGASHI and a is not None:
        return f"nagashi mangan by the rules: {_seats(e or [])}; declared in the log: {_plain(a)}"
    if code is F.CARRY_ROUND and e is not None and a is not None:
        if isinstance(e, list):
            return _both("round, honba and riichi sticks", _plain(e), _plain(a))
        if "dealer" in finding.message:
            return _both("dealer", _seat(e), _seat(a))
        return _both("round", _round(e), _round(a))
    if code is F.ABORT_MISSING and e is not None:
        return f"by the rules the hand ends in an abortive draw ({e}); the log goes on ({a})"
    if code is F.TRIPLE_RON and a is not None:
        return f"wins on the tile: {a}; by the rules an abortive draw ({e})"
    if code is F.ABORT_CONDITION and a is not None:
        if isinstance(a, int):
            return f"declared by {_seat(a)}"
        if isinstance(e, int):
            return f"kans by seat: {_plain(a)} ({e} in all needed, by two or more players)"
        return f"seats shown: {_seats(a)}"
    return None


def _round(value: Any) -> str:
    if isinstance(value, int) and value >= 0:
        return f"{'ESWN'[(value // 4) % 4]}{value % 4 + 1}"
    return _plain(value)


def values_text(finding: Finding) -> str | None:
    """What the finding's values mean, in a line (``None`` when it carries none, or when its
    message says it all)."""
    text = _values_text(finding)
    if text is not None and text.split(": ", 1)[-1] in finding.message:
        return None
    return text


def _values_text(finding: Finding) -> str | None:
    if finding.expected is None and finding.actual is None:
        return None
    try:
        special = _special(finding)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        special = None
    if special is not None:
        return special
    spec = SPECS.get(finding.code)
    fmt: Callable[[Any], str]
    if spec is None:
        what, fmt = "value", _plain
    else:
        what, fmt = spec
    if finding.code in (F.TILE_NOT_IN_HAND, F.TILE_DUPLICATE):
        return None  # the message names the tile
    e, a = finding.expected, finding.actual
    try:
        if e is None and finding.code not in _NONE_IS_A_VALUE:
            return f"{what}: the log says {fmt(a)}"
        if a is None and finding.code not in _NONE_IS_A_VALUE:
            return f"{what}: {fmt(e)} by the rules, none in the log"
        return _both(what, fmt(e), fmt(a))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):  # an unexpected shape
        return _both(what, _plain(e), _plain(a))


# -- where to look --------------------------------------------------------------------------------


def real_log_id(log_id: str | None) -> str | None:
    """``log_id`` when it is a canonical Tenhou game id (ids.py's grammar), else ``None``: a
    file name that merely looks like one gets no viewer link and no download."""
    if not log_id:
        return None
    try:
        return validate_log_id(log_id)
    except InputError:
        return None


def viewer_url(log_id: str | None, **params: int) -> str | None:
    """``https://tenhou.net/0/?log=ID&ts=3`` for a real game id, else ``None``."""
    real = real_log_id(log_id)
    if real is None:
        return None
    return VIEWER.format(log_id=real) + "".join(f"&{k}={v}" for k, v in params.items())


def replay_command(target: str, label: str | None = None) -> str:
    """``tenhou-tools replay PATH --hand E2-1``, the path quoted for a POSIX shell when needed."""
    command = f"tenhou-tools replay {shlex.quote(target)}"
    if label:
        command += f" --hand {shlex.quote(label)}"
    return command
