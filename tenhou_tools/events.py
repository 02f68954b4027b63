"""The typed event stream of one game: frozen, slotted value classes.

A ``Game`` is a ``Header`` (rules, players, lobby, shuffle seed) and a tuple of ``Hand`` values;
each hand is its ``Init`` and the events that follow it up to the next ``INIT``. Seats are
absolute (seat 0 is the first dealer), tiles are ids 0-135 (see ``tiles``), and every score is
in points (the log's units of 100 are multiplied out). ``docs/events.md`` documents each field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class CallKind(Enum):
    """What a meld (``N`` tag) is."""

    CHI = "chi"
    """Chi: a sequence called from the player on the left."""
    PON = "pon"
    """Pon: a triplet called from any player."""
    ADDED_KAN = "added_kan"
    """Kakan (shouminkan): the fourth tile added to one's own pon."""
    OPEN_KAN = "open_kan"
    """Daiminkan: a kan called on a discard with three tiles in hand."""
    CLOSED_KAN = "closed_kan"
    """Ankan: four tiles from one's own hand."""
    KITA = "kita"
    """Kita (nukidora): a North set aside in three-player games."""

    @property
    def is_kan(self) -> bool:
        return self in (CallKind.ADDED_KAN, CallKind.OPEN_KAN, CallKind.CLOSED_KAN)

    @property
    def is_open(self) -> bool:
        """Whether the meld opens the hand (closed kans and kita do not)."""
        return self not in (CallKind.CLOSED_KAN, CallKind.KITA)


class DrawKind(Enum):
    """How a hand ended without a win (``RYUUKYOKU type``)."""

    EXHAUSTIVE = "exhaustive"
    """Ryuukyoku (howanpai): the live wall ran out. No ``type`` attribute."""
    NINE_TERMINALS = "yao9"
    """Kyuushu kyuuhai: nine or more kinds of terminals and honours on the first draw."""
    FOUR_RIICHI = "reach4"
    """Suucha riichi: all four players declared riichi."""
    TRIPLE_RON = "ron3"
    """Sanchahou: three players called ron on the same tile."""
    FOUR_KANS = "kan4"
    """Suukaikan: four kans by more than one player."""
    FOUR_WINDS = "kaze4"
    """Suufon renda: the four first discards were the same wind."""
    NAGASHI_MANGAN = "nm"
    """Nagashi mangan, declared at an exhaustive draw."""

    @property
    def is_abortive(self) -> bool:
        """Tochuu ryuukyoku: the hand stopped before the wall ran out."""
        return self not in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN)


class Room(Enum):
    """The lobby level encoded in ``GO type`` bits 0x20 and 0x80 (see ``Room.from_type``)."""

    IPPAN = "ippan"
    """Ippan (一般), the general room: neither bit."""
    JOUKYUU = "joukyuu"
    """Joukyuu (上級), the upper room: 0x80."""
    TOKUJOU = "tokujou"
    """Tokujou (特上), the special room: 0x20."""
    HOUOU = "houou"
    """Houou (鳳凰), the phoenix room: 0x20 and 0x80."""

    @classmethod
    def from_type(cls, type_code: int) -> Room:
        return _ROOM_BITS[type_code & 0xA0]


_ROOM_BITS = {0x00: Room.IPPAN, 0x80: Room.JOUKYUU, 0x20: Room.TOKUJOU, 0xA0: Room.HOUOU}


class Layout(Enum):
    """How an mjlog document is laid out: who wrote the file last (書式).

    Tenhou's server writes a log's elements back to back (``<mjloggm ver="2.3"><SHUFFLE .../><GO
    .../>...``): 4,869 of the 4,897 games of the corpus's mjlog/, flagged/ and anomalies/.
    Whitespace between two elements (one element a line, indented: the other 28, from eight
    repositories) means the log was written again, by another program (an editor's or a script's
    pretty-printer, a converter, an anonymiser) or by hand (the project's fixtures). Such a writer
    may also have left out or replaced what Tenhou wrote (the corpus's one log without a seed,
    MJLogDecoder's; the anonymised MahjongPantheon logs, whose names were replaced and one whose
    reconnects were dropped), so what such a log lacks cannot be held against Tenhou."""

    TENHOU = "tenhou"
    """Elements back to back, as Tenhou's server writes them."""
    REWRITTEN = "rewritten"
    """Whitespace between elements: written again, by another program or by hand."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The table rules, decoded from the ``GO type`` bitfield."""

    type_code: int
    players: int
    """4, or 3 for sanma."""
    red_fives: bool
    """Aka ari: ids 16, 52, 88 are red fives."""
    open_tanyao: bool
    """Kuitan ari: tanyao counts in an open hand."""
    east_south: bool
    """Hanchan (East-South) when true, tonpuusen (East only) when false."""
    fast: bool
    """Soku (速): short thinking time."""
    room: Room
    online: bool
    """Bit 0x01: a game against humans."""
    dark: bool
    """Bit 0x100 (暗)."""
    chips: int
    """Shuugi (chip) table: 0, 2 or 5 chips."""
    special: bool
    """Bit 0x800: a special lobby family whose rules are not the ranked ones."""

    @property
    def sanma(self) -> bool:
        return self.players == 3

    def name_ja(self) -> str:
        """The lobby's name as Tenhou writes it, e.g. ``四鳳南喰赤``."""
        if self.chips:
            level = {Room.IPPAN: "若", Room.JOUKYUU: "銀", Room.TOKUJOU: "琥", Room.HOUOU: "孔"}
        else:
            level = {Room.IPPAN: "般", Room.JOUKYUU: "上", Room.TOKUJOU: "特", Room.HOUOU: "鳳"}
        parts = ["三" if self.sanma else "四", level[self.room], "南" if self.east_south else "東"]
        parts += ["喰"] if self.open_tanyao else []
        parts += ["赤"] if self.red_fives else []
        parts += ["速"] if self.fast else []
        parts += ["暗"] if self.dark else []
        parts += [f"祝{self.chips}"] if self.chips else []
        return "".join(parts)

    def name_en(self) -> str:
        """The lobby in English words, e.g. ``Houou 4-player East-South, red fives, open tanyao``."""
        words = [
            self.room.name.capitalize(),
            f"{self.players}-player",
            "East-South" if self.east_south else "East-only",
        ]
        extras = ["red fives" if self.red_fives else "no red fives"]
        extras.append("open tanyao" if self.open_tanyao else "no open tanyao")
        if self.fast:
            extras.append("fast")
        if self.chips:
            extras.append(f"{self.chips} chips")
        if self.dark:
            extras.append("dark")
        if self.special:
            extras.append("special lobby")
        if not self.online:
            extras.append("not online")
        return " ".join(words) + ", " + ", ".join(extras)


DAN_NAMES = (
    "新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位",
)
"""Tenhou's names of the rank ids 0-20 of ``UN dan`` (``Player.dan``): 新人, the kyu ranks 9級-1級,
the dan ranks 初段-十段, and 天鳳位."""


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's player, from the ``UN`` tag."""

    seat: int
    name: str
    dan: int
    """Rank id: 0 新人, 1-9 = 9級..1級, 10 初段 ... 19 十段, 20 天鳳位."""
    rate: float
    sex: str
    """``M``, ``F`` or ``C`` (computer / empty seat)."""


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The wall seed: ``SHUFFLE seed`` (or, in early 2009 logs, none: see ``Init.shuffle``)."""

    seed: str
    ref: str = ""

    @property
    def method(self) -> str:
        """The part before the comma, e.g. ``mt19937ar-sha512-n288-base64``."""
        return self.seed.split(",", 1)[0]


@dataclass(frozen=True, slots=True)
class Header:
    """What a game says about itself before the first hand."""

    version: str
    ruleset: Ruleset
    lobby: int | None
    players: tuple[Player, ...]
    """One entry per seat (four; the empty fourth seat of a sanma game has an empty name)."""
    shuffle: Shuffle | None
    first_dealer: int = 0
    """``TAIKYOKU oya``: always 0 in downloaded logs."""
    go_extra: tuple[tuple[str, str], ...] = ()
    """Other ``GO`` attributes (``title``, ``rule``, ``ranking``, ``csrule`` in private lobbies)."""
    un_extra: tuple[tuple[str, str], ...] = ()
    """Other ``UN`` attributes (``rc`` on chip tables)."""
    layout: Layout | None = None
    """An mjlog's layout (``Layout``: Tenhou's own, or rewritten by another program); ``None``
    for the other formats, whose readers build the header."""

    @property
    def csrule(self) -> str | None:
        return dict(self.go_extra).get("csrule")


@dataclass(frozen=True, slots=True)
class Meld:
    """A decoded ``m`` bitfield: one chi, pon, kan or kita.

    ``tiles`` holds every tile of the meld in ascending id order (four for kans, the pon's three
    plus the added tile for an added kan, one for kita).
    """

    kind: CallKind
    tiles: tuple[int, ...]
    called: int | None
    """The tile taken from another player (for an added kan: the tile of the original pon)."""
    from_seat: int | None
    """Absolute seat the called tile came from; ``None`` for closed kans and kita."""
    added: int | None
    """Added kan: the tile added to the pon."""
    code: int
    """The raw ``m`` value."""


@dataclass(frozen=True, slots=True)
class Init:
    """``INIT``: the start of a hand."""

    round: int
    """Round index: 4 x wind + hand number - 1 (0-3 East 1-4, 4-7 South, 8-11 West, 12-15 North)."""
    honba: int
    """Repeat counters (tsumibou) on the table."""
    sticks: int
    """Riichi sticks (kyoutaku) carried over."""
    dice: tuple[int, int]
    """The two dice (1-6 each; the log stores them minus one)."""
    dora_indicator: int
    scores: tuple[int, ...]
    """Each seat's points at the start of the hand (four entries)."""
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    """Each seat's 13 dealt tiles in dealing order (empty for the missing sanma seat)."""
    shuffle: str | None = None
    """Early 2009 logs: the per-hand ``shuffle`` seed attribute."""
    chips: tuple[int, ...] | None = None
    """Chip tables: each seat's chip balance."""

    @property
    def wind(self) -> int:
        """Prevailing wind: 0 East, 1 South, 2 West, 3 North."""
        return self.round // 4

    @property
    def hand_number(self) -> int:
        return self.round % 4 + 1

    def label(self) -> str:
        """``E1-0`` style: wind letter, hand number and honba."""
        return f"{'ESWN'[self.wind % 4]}{self.hand_number}-{self.honba}"


@dataclass(frozen=True, slots=True)
class Draw:
    """``T``/``U``/``V``/``W``: a seat draws a tile."""

    seat: int
    tile: int
    rinshan: bool = False
    """A replacement draw: the seat's previous action was a kan or a kita."""


@dataclass(frozen=True, slots=True)
class Discard:
    """``D``/``E``/``F``/``G``: a seat discards a tile."""

    seat: int
    tile: int
    tsumogiri: bool = False
    """The tile just drawn was discarded (derived: the log does not mark it)."""


@dataclass(frozen=True, slots=True)
class Call:
    """``N``: a meld call (chi, pon, kan) or a kita."""

    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Riichi:
    """``REACH``: step 1 is the declaration, step 2 the accepted riichi (stick paid)."""

    seat: int
    step: int
    scores: tuple[int, ...] | None = None
    """Step 2: every seat's points after the stick was paid (absent in 2009-2010 logs)."""


@dataclass(frozen=True, slots=True)
class NewDora:
    """``DORA``: a kan dora indicator is revealed."""

    tile: int


@dataclass(frozen=True, slots=True)
class Owari:
    """``owari``: the final result on the game's last hand-end tag."""

    scores: tuple[int, ...]
    """Final points, with leftover riichi sticks given to first place."""
    points: tuple[float, ...]
    """The game result of each seat after return, oka and uma (e.g. ``54.0``)."""
    chips: tuple[int, ...] | None = None
    """Chip tables: each seat's final chip count (the last four pairs of a 16-value ``owari``)."""
    chip_points: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Agari:
    """``AGARI``: a win (one tag per winner; a double ron gives two)."""

    who: int
    from_who: int
    """The discarder for a ron, ``who`` itself for a tsumo."""
    hand: tuple[int, ...]
    """Concealed tiles including the winning tile, ascending (``hai``)."""
    melds: tuple[Meld, ...]
    """``m``: the winner's melds, including closed kans and kita (not necessarily in call order)."""
    win_tile: int
    """``machi``: the winning tile."""
    fu: int | None
    """``ten[0]``; ``None`` when the log does not state it (a tenhou.net/6 JSON gives no fu for
    mangan and above)."""
    points: int
    """``ten[1]``: the hand's value without honba and sticks."""
    limit: int
    """``ten[2]``: 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman."""
    yaku: tuple[tuple[int, int], ...]
    """``(yaku id, han)`` pairs in the log's order (empty on a yakuman win)."""
    yakuman: tuple[int, ...]
    """Yakuman ids, each one yakuman."""
    dora_indicators: tuple[int, ...]
    ura_indicators: tuple[int, ...]
    honba: int
    sticks: int
    scores_before: tuple[int, ...]
    deltas: tuple[int, ...]
    pao_who: int | None = None
    """The seat liable (pao) for a daisangen or daisuushii."""
    chips_before: tuple[int, ...] | None = None
    """Chip tables: the chip balances (``sc`` pairs 5-8)."""
    chip_deltas: tuple[int, ...] | None = None
    extra: tuple[tuple[str, str], ...] = ()
    """Attributes with no agreed meaning yet (``chip``, ``ratio``)."""
    owari: Owari | None = None

    @property
    def is_tsumo(self) -> bool:
        return self.who == self.from_who

    @property
    def han(self) -> int:
        return sum(h for _, h in self.yaku)


@dataclass(frozen=True, slots=True)
class Ryuukyoku:
    """``RYUUKYOKU``: a hand that ended without a win."""

    kind: DrawKind
    honba: int
    sticks: int
    scores_before: tuple[int, ...]
    deltas: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    """Per seat: the shown hand (tenpai hands, the nine-terminals hand, ...) or ``None``."""
    chips_before: tuple[int, ...] | None = None
    chip_deltas: tuple[int, ...] | None = None
    extra: tuple[tuple[str, str], ...] = ()
    """Attributes with no agreed meaning yet (``ratio`` in 0x800 lobbies)."""
    owari: Owari | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """``BYE``: a seat disconnected (auto-play follows)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reconnect:
    """``UN`` with a single name: a seat came back."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Unknown:
    """A tag the parser does not know, kept as it was."""

    tag: str
    attributes: tuple[tuple[str, str], ...]


Event = (
    Draw
    | Discard
    | Call
    | Riichi
    | NewDora
    | Agari
    | Ryuukyoku
    | Bye
    | Reconnect
    | Unknown
)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand (kyoku): its ``Init`` and the events up to the next ``INIT``."""

    index: int
    init: Init
    events: tuple[Event, ...]

    @property
    def endings(self) -> tuple[Agari | Ryuukyoku, ...]:
        """The hand-end tags (two for a double ron)."""
        return tuple(e for e in self.events if isinstance(e, (Agari, Ryuukyoku)))


@dataclass(frozen=True, slots=True)
class Game:
    """A parsed log."""

    header: Header
    hands: tuple[Hand, ...]
    prelude: tuple[Event, ...] = ()
    """Events before the first ``INIT`` (disconnects and reconnects)."""
    warnings: tuple[str, ...] = field(default=())
    log_id: str | None = None
    """The game id when known (from the file name or the source)."""
    complete: bool = True
    """Whether the log reaches the game's end: every hand has its result and the last one the
    final result (``owari``). Only a log read without ``require_complete`` (``show``,
    ``replay``) can be incomplete: one that stops early, cut by a disconnect or still running;
    its ``warnings`` say where and why."""
    log_format: str = "mjlog"
    """The format the game was read from: ``"mjlog"`` (the XML Tenhou writes: its header's
    claims, ``GO``, ``UN``, ``SHUFFLE``, are checked), ``"tenhou6"`` (tenhou.net/6 JSON) or
    ``"mjai"``, whose readers fill what their format does not state with defaults."""

    @property
    def owari(self) -> Owari | None:
        for hand in reversed(self.hands):
            for event in reversed(hand.events):
                if isinstance(event, (Agari, Ryuukyoku)) and event.owari is not None:
                    return event.owari
        return None
