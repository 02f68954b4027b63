"""What a replay checked and what it found: check kinds, their counts, and the findings.

Every check the engine makes is counted where it is made, by ``Check.check`` (one kind) or
``Recorder.check`` (any kind; both in ``replay._recorder``): the call counts one run of the
check and returns its verdict, and the caller reports a failure, building the message only
then::

    if not rec.check(CheckKind.BA, ok):
        rec.find(FindingCode.BA, "...", expected, actual)

so a count can never drift from the checks that ran. The counts go to the ``checks`` object of
``validate``'s NDJSON, keyed by ``CheckKind`` values: those names are a contract (new kinds may
be added, none renamed or removed).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from ..findings import Finding, Severity


class CheckKind(Enum):
    """A kind of check; its value is its key in ``checks`` (docs/findings.md lists them)."""

    __hash__ = object.__hash__
    """Members are singletons: hashing by identity keeps ``Recorder.check``'s lookup in C
    (``Enum``'s own hash is a Python method)."""

    # tiles and turn order, on every draw and discard
    DRAW_ORDER = "draw_order"
    """A draw by the seat whose turn it is, from a live wall that still has tiles."""
    TURN = "turn"
    """A discard by the seat that must discard."""
    TILES = "tiles"
    """Tile accounting: a dealt hand of 13, a drawn tile not seen before, a discard from a hand
    of the right size that holds it."""
    WALL_DRAW = "wall_draw"
    """A live or replacement draw is the seed's next tile."""
    DORA_TIMING = "dora_timing"
    """A kan dora indicator revealed when one is due, or one due and missing at the next draw
    or discard."""
    # calls and riichi
    CALL = "call"
    """One rule of a call: its timing, seat, tile, the wall, the kan limit, kuikae."""
    RIICHI = "riichi"
    """One rule of riichi: the declaration's conditions, the tenpai declaration discard,
    tsumogiri afterwards, a closed kan in riichi, the scores after the stick."""
    RIICHI_DECLARED = "riichi_declared"
    """A riichi declaration (REACH step 1)."""
    RIICHI_ACCEPTED = "riichi_accepted"
    """REACH step 2 follows its declaration discard, or a declaration discard passed without it."""
    # wins
    AGARI = "agari"
    """A win on a tile the winner could take: their own draw, or the discard, added-kan tile or
    kita just made by ``fromWho``."""
    AGARI_ORDER = "agari_order"
    AGARI_HAND = "agari_hand"
    AGARI_DORA = "agari_dora"
    AGARI_VALUE = "agari_value"
    AGARI_PAO = "agari_pao"
    FURITEN = "furiten"
    PAYMENT = "payment"
    SCORES_BEFORE = "scores_before"
    BA = "ba"
    # draws
    RYUUKYOKU = "ryuukyoku"
    DRAW_TENPAI = "draw_tenpai"
    DRAW_HAND = "draw_hand"
    DRAW_CONDITION = "draw_condition"
    DRAW_PAYMENT = "draw_payment"
    NAGASHI = "nagashi"
    ABORT = "abort"
    """An abortive draw's condition."""
    ABORT_REQUIRED = "abort_required"
    """The rules make the hand end in an abortive draw here (four winds, four riichi, four kans,
    a third ron on one tile): it must."""
    # between hands and the end
    CARRY = "carry"
    GAME_END = "game_end"
    OWARI = "owari"
    # the wall
    WALL_SEED = "wall_seed"
    """The seed is there and usable: the game's ``SHUFFLE seed`` once, or each 2009 ``INIT shuffle``."""
    WALL_DICE = "wall_dice"
    WALL_DORA = "wall_dora"
    WALL_DEAL = "wall_deal"
    WALL_URA = "wall_ura"
    # the header: the table and the seats
    GAME_ID = "game_id"
    """The ``GO`` type and lobby against the ones the game id announces."""
    LOBBY_RULES = "lobby_rules"
    """A ``csrule`` (a private lobby's rules) only in a private lobby."""
    CHIPS = "chips"
    """Chip claims (``INIT chip``, ``sc`` chip pairs, ``UN rc``) exactly on a chip table."""
    SEATS = "seats"
    """The seats' names and ``sx``, the empty three-player seat, the first dealer."""
    SEAT_RANK = "seat_rank"
    """A seat's dan id within 0-20, and its dan and rate at a ranked Houou or Tokujou table."""
    DISCONNECT = "disconnect"
    """A ``BYE`` by a seat that is present, a reconnecting ``UN`` by one that is away and naming
    its own player, and each discard of a player who is away (the server's; no call, riichi or
    win)."""
    ERA = "era"
    """A dated mark of the format (the seed's method, ``GO lobby``, hundredths in ``UN rate``)
    against the id's date (``rules.era``)."""
    # checks that could not run (docs/findings.md, "Not checkable")
    GAME_ID_NOT_CHECKABLE = "game_id_not_checkable"
    ERA_NOT_CHECKABLE = "era_not_checkable"
    SEAT_RANK_NOT_CHECKABLE = "seat_rank_not_checkable"
    RIICHI_SCORES_NOT_CHECKABLE = "riichi_scores_not_checkable"
    CLAIMS_NOT_CHECKABLE = "claims_not_checkable"
    """A claim no check can verify from the log (docs/findings.md, "Claims"), one per claim made."""
    WALL_NOT_CHECKABLE = "wall_not_checkable"
    FRAGMENT_NOT_CHECKABLE = "fragment_not_checkable"
    START_SCORES_NOT_CHECKABLE = "start_scores_not_checkable"
    ROTATION_NOT_CHECKABLE = "rotation_not_checkable"
    GAME_END_NOT_CHECKABLE = "game_end_not_checkable"
    OWARI_POINTS_NOT_CHECKABLE = "owari_points_not_checkable"
    PAYMENT_NOT_CHECKABLE = "payment_not_checkable"
    FU_NOT_CHECKABLE = "fu_not_checkable"
    DISCONNECT_NOT_CHECKABLE = "disconnect_not_checkable"
    """In a log another program wrote again: a reconnect naming another player, or an absence in
    which the player plays on (the program may have replaced the names or dropped the returns)."""

    @property
    def checkable(self) -> bool:
        """False for the kinds that count checks that could not run."""
        return not self.value.endswith("_not_checkable")


ALL_KINDS: tuple[CheckKind, ...] = tuple(CheckKind)


@dataclass
class GameReport:
    """What the replay found in one game: the checks that ran, by kind, and the findings."""

    log_id: str | None
    hands: int
    checks: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)
