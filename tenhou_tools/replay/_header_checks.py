"""What a game says about its table and its seats, held against what can verify it.

The header's claims switch other checks on and off (a private lobby's start points, a chip
table's uma, the 0x800 family's rotation): none may do so unverified. Where the log has a game
id, the ``GO`` type and lobby are held against it, and the table rules the other checks follow
are the id's (``verified_table``); a ``csrule`` (a private lobby's own rules) in a ranked lobby
is a finding and is not followed; a chip table's claims (``INIT chip``, ``sc`` pairs 5-8,
``UN rc``) go with its chip bit; the seats of a ranked Houou or Tokujou table meet the room's
entry conditions (``rules.lobby``).
"""

from __future__ import annotations

from ..events import Bye, Game, Reconnect, Ruleset
from ..findings import FindingCode as F
from ..ids import game_start
from ..mjlog import ruleset_from_type
from ..rules.era import Mark, allowed
from ..rules.lobby import (
    COMPUTER,
    DAN_MAX,
    SEXES,
    WITHHELD_BEFORE,
    distinct_names,
    is_ranked,
    may_sit,
    room_minimum,
    seats_withheld,
)
from ..rules.values import WallSeedError
from ..rules.wall import FORMAT_LEGACY, seed_format
from ._recorder import NO_INDEX, Recorder
from .checks import CheckKind as K

__all__ = ["VerifiedTable", "check_header", "verified_table"]

_THREE_PLAYERS = 0x10
"""The ``GO type`` bit of a three-player table."""


VerifiedTable = tuple[Ruleset, int, str | None]
"""The table rules the checks follow (``verified_table``): the ruleset, the lobby number and the
``csrule``."""


def verified_table(game: Game, announced: tuple[int, int] | None) -> VerifiedTable:
    """The table rules the checks follow: the ruleset and lobby number the game id announces
    (``announced``: ``ids.announced_table`` of its id; the header's when there is no id) and the
    ``csrule``, which only a private lobby (not 0) has. A claim the id contradicts is reported by
    ``check_header`` and not followed. The engine works it out once a game."""
    header = game.header
    if game.log_format != "mjlog":  # a JSON log's header is the reader's reconstruction, not a claim
        return header.ruleset, header.lobby or 0, header.csrule
    ruleset, lobby = header.ruleset, header.lobby or 0
    if announced is not None:
        type_code, lobby = announced
        # the id's table, with the log's player count: the deal shows how many sit (a three-player
        # id on a four-player log is GAME_ID, and the replay stays one of four seats)
        type_code = (type_code & ~_THREE_PLAYERS) | (ruleset.type_code & _THREE_PLAYERS)
        if type_code != ruleset.type_code:
            ruleset = ruleset_from_type(type_code)
    return ruleset, lobby, header.csrule if lobby != 0 else None


def check_header(rec: Recorder, game: Game, announced: tuple[int, int] | None, verified_rules: VerifiedTable) -> None:
    """The header's claims (game-level findings: no hand, no event), in an mjlog: the other
    formats do not state them (a tenhou.net/6 JSON has no ``sx``, its type is rebuilt from the
    lobby's name). ``announced``: the table the game id announces; ``verified_rules``: the
    ``verified_table``."""
    if game.log_format != "mjlog":
        return
    rec.hand_index = rec.event_index = NO_INDEX
    header = game.header
    rules = header.ruleset
    lobby = header.lobby or 0
    if announced is None:
        rec.not_checkable(K.GAME_ID_NOT_CHECKABLE)
    else:
        id_type, id_lobby = announced
        if not rec.check(K.GAME_ID, id_type == rules.type_code):
            rec.find(F.GAME_ID, f"the table (GO type {rules.type_code:#x}) is not the one the game id "
                     f"announces ({id_type:#x})", id_type, rules.type_code)
        if not rec.check(K.GAME_ID, id_lobby == lobby):
            rec.find(F.GAME_ID, f"the lobby (GO lobby {lobby}) is not the one the game id announces ({id_lobby})",
                     id_lobby, lobby)
    verified, verified_lobby, _ = verified_rules
    if header.csrule is not None and not rec.check(K.LOBBY_RULES, verified_lobby != 0):
        rec.find(F.LOBBY_RULES, "a ranked lobby (0) has no rules of its own, but GO carries a csrule",
                 None, header.csrule[:40])
    _seats(rec, game, verified, verified_lobby)
    _chips(rec, game)
    _era(rec, game)
    _not_checkable(rec, game)


_MARK_WORDS = {
    Mark.SEED: "the wall seed's method",
    Mark.LOBBY_ATTRIBUTE: "a GO lobby attribute",
    Mark.RATE_HUNDREDTHS: "UN rates with hundredths",
}


def _era(rec: Recorder, game: Game) -> None:
    """The format's dated marks (``rules.era``) against the id's date: one check per mark the
    log shows, ``era_not_checkable`` where the date cannot tell."""
    start = game_start(game.log_id)
    header = game.header
    marks: list[tuple[Mark, object]] = []
    if header.shuffle is not None:
        try:
            marks.append((Mark.SEED, seed_format(header.shuffle.seed)))
        except WallSeedError:
            pass  # WALL_SEED's to report
    elif any(hand.init.shuffle for hand in game.hands):
        marks.append((Mark.SEED, FORMAT_LEGACY))
    marks.append((Mark.LOBBY_ATTRIBUTE, header.lobby is not None))
    seats = header.players[:header.ruleset.players]
    marks.append((Mark.RATE_HUNDREDTHS, any(p.rate != int(p.rate) for p in seats)))
    for mark, value in marks:
        values = allowed(mark, start)
        if values is None:
            rec.not_checkable(K.ERA_NOT_CHECKABLE)
        elif not rec.check(K.ERA, value in values) and start is not None:
            rec.find(F.ERA, f"{_MARK_WORDS[mark]} ({value}) is not what Tenhou wrote on the game id's "
                     f"date ({start:%Y-%m-%d %H}h)", sorted(str(v) for v in values), str(value))


def _seats(rec: Recorder, game: Game, verified: Ruleset, lobby: int) -> None:
    header = game.header
    n = header.ruleset.players
    seats, rank = rec.of(K.SEATS), rec.of(K.SEAT_RANK)  # the checks of each seat, kept at hand
    players = header.players
    names = [p.name for p in players[:n]]
    if not seats.check(distinct_names(names)):
        rec.find(F.SEATS, "a seat's player name (UN n0-n3) is missing, or two seats name one player "
                 "(not a guest, NoName)", None, names)
    for p in players[:n]:
        if not seats.check(p.sex in SEXES):
            rec.find(F.SEATS, f"S{p.seat}'s sx is {p.sex!r}, not one of Tenhou's (M, F, C)", sorted(SEXES), p.sex)
        if not rank.check(0 <= p.dan <= DAN_MAX):
            rec.find(F.SEAT_RANK, f"S{p.seat}'s dan id {p.dan} is outside 0-{DAN_MAX}", DAN_MAX, p.dan)
    if n == 3:
        empty = players[3]
        if not seats.check(not empty.name and empty.sex == "C"):
            rec.find(F.SEATS, "the empty fourth seat of a three-player table names a player",
                     ["", "C"], [empty.name, empty.sex])
    if not seats.check(header.first_dealer == 0):
        rec.find(F.SEATS, "the first dealer (TAIKYOKU oya) is not seat 0", 0, header.first_dealer)
    # A ranked lobby seats players only: a seat marked C (computer) there is the server's form of
    # a log whose players it withholds, every seat alike (rules.lobby.seats_withheld), and excuses
    # no single seat from the room's conditions.
    start = game_start(game.log_id)
    withheld = (seats_withheld([(p.sex, p.dan, p.rate) for p in players[:n]])
                and start is not None and start < WITHHELD_BEFORE)
    if is_ranked(verified, lobby) and not withheld:
        for p in players[:n]:
            if not seats.check(p.sex != COMPUTER):
                rec.find(F.SEATS, f"S{p.seat} is marked a computer (sx C) at a ranked table (lobby 0), which "
                         "seats players only", ["M", "F"], p.sex)
    # The room's entry conditions bind the ranked lobby's plain tables; a private lobby, a chip
    # table (a Tokujou chip game of the corpus seats a player at R1443) and the 0x800 family set
    # their own, and withheld seats carry no rank of a player.
    minimum = room_minimum(verified.room)
    if minimum is None:
        return
    if lobby != 0 or verified.chips or verified.special:
        rec.not_checkable(K.SEAT_RANK_NOT_CHECKABLE)
        return
    for p in players[:n]:
        if withheld:
            rec.not_checkable(K.SEAT_RANK_NOT_CHECKABLE)
        elif not rank.check(may_sit(verified.room, p.dan, p.rate)):
            rec.find(F.SEAT_RANK, f"S{p.seat} (dan id {p.dan}, R{p.rate:.2f}) may not sit at a ranked "
                     f"{verified.room.value} table (dan id {minimum[0]} and R{minimum[1]:.0f} needed)",
                     list(minimum), [p.dan, p.rate])


def _chips(rec: Recorder, game: Game) -> None:
    """``UN rc`` (the seats' chips) only on a chip table (祝儀); ``INIT chip`` and the results'
    chip pairs are checked hand by hand (``HandChecks.deal``, ``HandChecks.chip_pairs``)."""
    if any(k == "rc" for k, _ in game.header.un_extra) and not rec.check(K.CHIPS, bool(game.header.ruleset.chips)):
        rec.find(F.CHIPS, "UN gives chips (rc) on a table without chips", False, True)


_GO_NOT_CHECKABLE = ("title", "rule", "ranking")
"""A private lobby's name, rule text and ranking: what the lobby's owner set, nowhere else stated."""


def _not_checkable(rec: Recorder, game: Game) -> None:
    """The header's claims no check can verify (docs/findings.md, "Claims"): each one made counts
    a ``claims_not_checkable``, so that a record shows them rather than passing them over."""
    header = game.header
    go = dict(header.go_extra)
    for name in _GO_NOT_CHECKABLE:
        if name in go:
            rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)
    if header.csrule is not None:
        rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)  # its fields beyond start points, return and uma
    if any(k == "rc" for k, _ in header.un_extra):
        rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)  # the seats' chips at the start
    rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)  # the seats' dan and rate beyond the room's conditions
    for event in game.prelude:
        if type(event) is Bye or type(event) is Reconnect:
            rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)
