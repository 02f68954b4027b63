"""The values of the rules: frozen dataclasses, enums and the wall's error, in one plain module.

The rule modules beside this one (``rules.scoring``, ``rules.wall``, ``rules.furiten``, ...) are
compiled in a compiled install (docs/development.md, ``tenhou_tools/_build.py``). A class defined
in a compiled module becomes a native class, which ``_native.build`` cannot make fast and which
pickles differently, so the values live here, plain Python in every build. Each is also a name
of the rule module that uses it, where callers import it: ``rules.scoring.ScoredHand``,
``rules.scoring.WinContext``, ``rules.payments.Limit``, ``rules.furiten.Furiten``,
``rules.game_end.EndDecision``, ``rules.wall.HandWall``, ``rules.wall.WallSeedError``, ...
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from ..events import Meld, Ruleset

__all__ = [
    "TENHOU_3P",
    "TENHOU_4P",
    "Danger",
    "DangerClass",
    "DangerFlag",
    "RiichiOpponent",
    "EndDecision",
    "EndPeriod",
    "Furiten",
    "HandWall",
    "Limit",
    "RefusalReason",
    "ScoredHand",
    "ScoringRefusal",
    "ScoringRules",
    "TableRules",
    "WallSeedError",
    "WinContext",
]


# --------------------------------------------------------------------------------------------
# Payments and scoring (rules.payments, rules.scoring)


class Limit(IntEnum):
    """The limit a hand reached: ``AGARI ten[2]``."""

    NONE = 0
    """Below mangan: points from han and fu."""
    MANGAN = 1
    """Mangan (満貫): 5 han, or fewer han whose base points reach 2000."""
    HANEMAN = 2
    """Haneman (跳満): 6-7 han."""
    BAIMAN = 3
    """Baiman (倍満): 8-10 han."""
    SANBAIMAN = 4
    """Sanbaiman (三倍満): 11-12 han."""
    YAKUMAN = 5
    """Yakuman (役満), including kazoe yakuman (数え役満, 13+ han)."""


class RefusalReason(Enum):
    """Why a hand cannot be scored as a win."""

    INVALID_TILES = "invalid_tiles"
    """The tiles do not make a hand: wrong count, a repeated tile id, an id outside 0-135."""
    WIN_TILE_NOT_IN_HAND = "win_tile_not_in_hand"
    """The winning tile is not among the concealed tiles."""
    NOT_WINNING = "not_winning"
    """和了形でない: no decomposition into four sets and a pair, seven pairs or kokushi."""
    NO_YAKU = "no_yaku"
    """役なし: a complete hand with no yaku (dora alone do not count)."""
    CONFLICTING_CONDITIONS = "conflicting_conditions"
    """The situation is impossible (riichi with an open hand, rinshan by ron, ...)."""


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The table rules that change a hand's value."""

    players: int = 4
    """4, or 3 for sanma (三人麻雀)."""
    red_fives: bool = True
    """Aka ari (赤あり): ids 16, 52, 88 are red fives."""
    open_tanyao: bool = True
    """Kuitan ari (喰いタンあり): tanyao counts in an open hand."""
    kiriage: bool = False
    """Kiriage mangan (切り上げ満貫): 30 fu 4 han and 60 fu 3 han round up to mangan.

    Off on Tenhou's ranked tables, on at chip (祝儀) tables."""

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError(f"players must be 3 or 4, not {self.players}")

    @property
    def sanma(self) -> bool:
        return self.players == 3

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset) -> ScoringRules:
        """The scoring rules of a lobby (chip tables use kiriage mangan)."""
        return cls(
            players=ruleset.players,
            red_fives=ruleset.red_fives,
            open_tanyao=ruleset.open_tanyao,
            kiriage=ruleset.chips > 0,
        )


TENHOU_4P = ScoringRules()
"""Four-player ranked Tenhou: red fives, open tanyao, no kiriage."""
TENHOU_3P = ScoringRules(players=3)
"""Three-player ranked Tenhou."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything that decides a win's value (和了の状況).

    ``concealed`` holds the tiles in hand including the winning tile (``AGARI hai``), ``melds``
    every declared meld (chi, pon, kans, closed kans, kita). Winds are 0 East .. 3 North;
    ``seat_wind`` is relative to the dealer (the dealer's is 0).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    tsumo: bool
    """Tsumo (自摸) when true, ron (栄和) when false."""
    seat_wind: int
    """Jikaze (自風), 0 for the dealer."""
    round_wind: int
    """Bakaze (場風)."""
    riichi: bool = False
    """Riichi (立直), also true or implied for a double riichi."""
    double_riichi: bool = False
    """Double riichi (両立直)."""
    ippatsu: bool = False
    """Ippatsu (一発)."""
    haitei: bool = False
    """Haitei raoyue (海底摸月)."""
    houtei: bool = False
    """Houtei raoyui (河底撈魚)."""
    rinshan: bool = False
    """Rinshan kaihou (嶺上開花), including the replacement draw after a kita."""
    chankan: bool = False
    """Chankan (槍槓)."""
    tenhou: bool = False
    """Tenhou (天和)."""
    chiihou: bool = False
    """Chiihou (地和)."""
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    rules: ScoringRules = TENHOU_4P

    @property
    def dealer(self) -> bool:
        """Oya (親)."""
        return self.seat_wind == 0

    @property
    def in_riichi(self) -> bool:
        return self.riichi or self.double_riichi


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """A win's value as Tenhou states it in ``AGARI``."""

    yaku: tuple[tuple[int, int], ...]
    """``(yaku id, han)`` pairs as ``AGARI yaku`` writes them; empty on a yakuman win."""
    yakuman: tuple[int, ...]
    """Yakuman ids (``AGARI yakuman``), each worth one yakuman."""
    han: int
    """The sum of the yaku han (dora included); 0 on a yakuman win, as for ``Agari.han``."""
    fu: int
    """``ten[0]``. On a yakuman win it is the fu of the chosen reading (0 for kokushi), which the
    value ignores; it still equals Tenhou's ``ten[0]`` on all 64 yakuman wins of the corpus."""
    points: int
    """``ten[1]``: a ron's payment from the discarder, a tsumo's total of all payments."""
    limit: Limit
    """``ten[2]``."""
    base: int
    """Base points (基本点), what ``payments.win_deltas`` takes."""
    dealer: bool
    tsumo: bool
    fu_details: tuple[tuple[str, int], ...] = ()
    """Fu components (reason, fu) of the chosen reading, largest first."""

    @property
    def yakuman_count(self) -> int:
        """Number of yakuman: len(yakuman), or 1 for kazoe (数え役満), else 0."""
        if self.yakuman:
            return len(self.yakuman)
        return 1 if self.limit is Limit.YAKUMAN else 0

    def yaku_ids(self) -> tuple[int, ...]:
        return tuple(y for y, _ in self.yaku)


@dataclass(frozen=True, slots=True)
class ScoringRefusal:
    """A hand that cannot be scored as a win, and why."""

    reason: RefusalReason
    message: str


# --------------------------------------------------------------------------------------------
# Furiten (rules.furiten)


@dataclass(frozen=True, slots=True)
class Furiten:
    """A hand's furiten at one moment, by kind: the winning kinds that cause each (empty when
    that kind of furiten does not apply)."""

    discard: tuple[int, ...] = ()
    same_turn: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()

    @property
    def any(self) -> bool:
        """The hand may not win by ron now."""
        return bool(self.discard or self.same_turn or self.riichi)


# --------------------------------------------------------------------------------------------
# Between hands and the end of the game (rules.game_end)


@dataclass(frozen=True, slots=True)
class EndDecision:
    ends: bool | None
    """True the game ends, False it goes on, None the rules for this game cannot be established."""
    reason: str


@dataclass(frozen=True, slots=True)
class EndPeriod:
    """The rules that decide the end of a game in one period of Tenhou's history."""

    extension_limit: bool
    """The extension stops after South 4 / West 4 (since 2009-07-04; a second North before)."""
    tenpai_yame: bool
    """The all-last dealer, top with the target score, stops on tenpai (since 2010-06-01)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """What the engine knows of a table's own rules beyond the ``GO type`` bits.

    Ranked lobbies (``lobby`` 0) follow the published rules. A private lobby may change start
    points, uma and more; with a ``csrule`` some of that is readable (field 4 is the start
    score, fields 21-23 the uma for 2nd-4th), and the csrule tables in the corpus also change
    dealer rotation in ways no field we can read states. ``None`` means "cannot be established".
    """

    start: int | None
    back: int | None
    umas: tuple[int, ...] | None
    flow_known: bool
    """Dealer rotation, honba and the end of the game follow the standard rules."""


# --------------------------------------------------------------------------------------------
# The wall (rules.wall)


class WallSeedError(ValueError):
    """The seed string is not one of the known formats, or is damaged."""


@dataclass(frozen=True, slots=True)
class HandWall:
    """One hand's wall as the players meet it.

    ``deal[s]`` is seat ``s``'s 13 tiles in dealing order (what ``INIT hai{s}`` lists; empty for
    the missing seat of a three-player game). ``live`` is the live wall in draw order, full
    length (70, or 55 in three-player): each replacement draw takes one tile off its *end*.
    ``rinshan`` are the replacement tiles in order of use (4, or 8 in three-player).
    ``dora_indicators[0]`` is the initial indicator, then one per kan; ``ura_indicators`` lie
    under them, index for index. (Three-player: the places of the third and fourth kan-dora
    pairs are also the last four places of the full live wall; they only open after kans have
    shortened it, so a log can never use one tile both ways.)
    """

    dice: tuple[int, int]
    deal: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    rinshan: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    ura_indicators: tuple[int, ...]

    def live_count(self, replacements: int) -> int:
        """How many live draws the hand has after ``replacements`` replacement draws."""
        return len(self.live) - replacements


# -- shanten and acceptance (rules/shanten.py) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class ShantenForms:
    """A hand's shanten in each form; ``None`` where the form does not apply (an open hand)."""

    regular: int
    """Four sets and a pair (the sets of the melds included)."""
    seven_pairs: int | None
    """Chiitoitsu: seven distinct pairs (closed hands only)."""
    thirteen_orphans: int | None
    """Kokushi musou (closed hands only)."""

    @property
    def value(self) -> int:
        """The hand's shanten: the minimum over the forms (-1 complete, 0 tenpai)."""
        values = [self.regular]
        if self.seven_pairs is not None:
            values.append(self.seven_pairs)
        if self.thirteen_orphans is not None:
            values.append(self.thirteen_orphans)
        return min(values)

    def to_json(self) -> dict[str, int | None]:
        return {
            "shanten": self.value,
            "regular": self.regular,
            "seven_pairs": self.seven_pairs,
            "thirteen_orphans": self.thirteen_orphans,
        }


@dataclass(frozen=True, slots=True)
class Acceptance:
    """Tile acceptance (ukeire) of a ``3n+1`` hand: the kinds whose draw lowers its shanten.

    ``left`` holds, for each kind, how many copies are unseen from the seat's view (0 for a kind
    every copy of which is visible: still accepted by shape, but no tile is left).
    """

    shanten: int
    """The shanten of the hand (0: tenpai, and ``kinds`` are its waits)."""
    kinds: tuple[int, ...]
    """Accepted kinds (0-33), ascending."""
    left: tuple[int, ...]
    """Unseen copies of each accepted kind, in the order of ``kinds``."""

    @property
    def total(self) -> int:
        """How many accepted tiles are left (the usual 'ukeire' number): ``sum(left)``."""
        return sum(self.left)

    def to_json(self) -> dict[str, object]:
        return {"shanten": self.shanten, "kinds": list(self.kinds), "left": list(self.left), "total": self.total}


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One possible discard of a ``3n+2`` hand and what the hand is left with."""

    kind: int
    """The discarded kind (0-33)."""
    acceptance: Acceptance
    """The ``3n+1`` hand after the discard: its shanten and acceptance."""

    @property
    def shanten(self) -> int:
        return self.acceptance.shanten

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, **self.acceptance.to_json()}


# -- danger against a riichi (rules/danger.py) ------------------------------------------------


class DangerClass(Enum):
    """The class of a kind against one opponent in riichi, safest first (by the measured
    deal-in rates; ``rank`` is the place in that order)."""

    GENBUTSU = "genbutsu"
    """現物: in the opponent's pond, or discarded by anyone after their declaration discard."""
    HONOUR_0_LEFT = "honour_0_left"
    """An honour of which the discarder sees all four copies (only thirteen orphans)."""
    HONOUR_1_LEFT = "honour_1_left"
    """An honour with one copy unseen (a single wait or thirteen orphans)."""
    HONOUR_2_LEFT = "honour_2_left"
    """An honour with two copies unseen."""
    NO_CHANCE = "no_chance"
    """ノーチャンス: every two-sided wait that could take it needs a tile the discarder sees
    all four of."""
    SUJI = "suji"
    """筋: every two-sided wait that could take it is furiten (nakasuji 4-6 included)."""
    HONOUR_LIVE = "honour_live"
    """An honour with three or four copies unseen (生牌 from the discarder's view)."""
    ONE_CHANCE = "one_chance"
    """ワンチャンス: every two-sided wait that could take it needs a tile the discarder sees
    three (or four) of."""
    HALF_SUJI = "half_suji"
    """片筋: a 4-6 with exactly one of its two suji genbutsu."""
    NON_SUJI = "non_suji"
    """無筋: any other number tile."""

    @property
    def rank(self) -> int:
        """0 for the safest class, growing with the measured deal-in rate."""
        return _RANK[self]

    @property
    def label(self) -> str:
        """Words for the text view: ``S1 dealt 5m (no suji) into S3's riichi``."""
        return _LABELS[self]


_RANK = {c: i for i, c in enumerate(DangerClass)}


_LABELS = {
    DangerClass.GENBUTSU: "genbutsu",
    DangerClass.HONOUR_0_LEFT: "honour, none left",
    DangerClass.HONOUR_1_LEFT: "honour, 1 left",
    DangerClass.HONOUR_2_LEFT: "honour, 2 left",
    DangerClass.NO_CHANCE: "no chance",
    DangerClass.SUJI: "suji",
    DangerClass.HONOUR_LIVE: "live honour",
    DangerClass.ONE_CHANCE: "one chance",
    DangerClass.HALF_SUJI: "half suji",
    DangerClass.NON_SUJI: "no suji",
}


class DangerFlag(Enum):
    """Finer grades of a kind's danger that do not change its class (they change its rate)."""

    RIICHI_SUJI = "riichi_suji"
    """A suji or half-suji made by the declaration tile (the genbutsu suji partner is the kind
    of the riichi declaration discard)."""
    EARLY_OUTSIDE = "early_outside"
    """A number tile outside one of the opponent's early discards of the same suit (below an
    early 2-4, above an early 6-8, a 3 or 7 beside an early 5)."""
    DORA = "dora"
    """The kind is a dora (by the indicators revealed)."""


@dataclass(frozen=True, slots=True)
class RiichiOpponent:
    """What the discarder knows of one opponent whose riichi declaration discard is made."""

    seat: int
    safe: frozenset[int]
    """Genbutsu kinds: their pond (called-away discards included) and every kind anyone
    discarded after their declaration discard."""
    turn: int
    """Their discards so far (pond length, the declaration and called-away discards included)."""
    declaration: int
    """The kind of their riichi declaration discard."""
    early: frozenset[int]
    """Kinds of their first ``EARLY_DISCARDS`` discards, those made before the declaration."""
    yakuhai: frozenset[int]
    """Honour kinds a triplet of which is a yaku for them: dragons, the round wind, their wind."""


@dataclass(frozen=True, slots=True)
class Danger:
    """One kind against one opponent: its class, its finer grade and the flags."""

    kind: int
    danger_class: DangerClass
    grade: str
    """Within the class: the number group ``19``, ``28``, ``37``, ``456`` (``5``, ``46_outer``,
    ``46_inner`` for half-suji: outer means the genbutsu suji is the terminal side, 1 for a 4,
    9 for a 6), ``yakuhai`` or ``guest`` for honours, empty for genbutsu."""
    flags: frozenset[DangerFlag]
    turn: int
    """The opponent's turn (``RiichiOpponent.turn``)."""
