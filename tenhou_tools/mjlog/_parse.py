"""mjlog tags -> typed events: the only code that knows the tag and attribute names.

``parse_game(data)`` turns the bytes of one log (plain or gzip XML) into a ``Game``. Everything a
real log carries is decoded; a tag the parser does not know becomes an ``Unknown`` event and a
warning. A log that cannot be a complete game (not XML, not an mjlog, a hand with no ending, no
final result) raises ``ParseError`` with a one-line message naming the file and the element.
One fault Tenhou's own server made is read with a warning instead: an attribute written twice
with the same value in one element (``owari``, in some logs of 2010-05-10), which lxml refuses.
"""

from __future__ import annotations

import dataclasses
import math
import re
import sys
from typing import Any, Final
from urllib.parse import unquote

# build: a frozen value made by setting its slots (the _native kernel), not through the __init__
# the dataclass decorator writes (object.__setattr__ once a field): for the events read most
# (INIT, AGARI, RYUUKYOKU, calls, riichi), the melds (_meld.py) and each Hand, about 1.2 M of a
# game's 6.5 M instructions in check_log (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29);
# the seats (UN), kan dora indicators, BYE and SHUFFLE, about 0.04 M more; the final result
# (owari), the header and the game, about 0.03 M.
from .._native import build, numbers
from ..errors import ParseError
from ..events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Game,
    Hand,
    Header,
    Init,
    Layout,
    Meld,
    NewDora,
    Owari,
    Player,
    Reconnect,
    Riichi,
    Room,
    Ruleset,
    Ryuukyoku,
    Shuffle,
    Unknown,
)
from ._meld import MeldError, decode_meld
from .read import MAX_BYTES, decompress, decompress_prefix, parse_xml
from .scan import Item, scan, scan_python

Attrs = dict[str, str]
"""An element's attributes, as ``scan()`` or ``read_tree()`` give them."""

# The tables below are Final: compiled, a module name read in the loop over the elements is
# otherwise a dictionary lookup each time.
# Draw and discard events are immutable values from a small domain (4 seats x 136 tiles x one
# flag), so each one is built once here and shared: a tag costs one dictionary lookup.
_TILE_TAGS: Final[dict[str, tuple[bool, int, int, Draw | Discard, Draw | Discard]]] = {
    **{
        sys.intern(f"{letter}{tile}"): (True, seat, tile, Draw(seat=seat, tile=tile, rinshan=False),
                                         Draw(seat=seat, tile=tile, rinshan=True))
        for seat, letter in enumerate("TUVW")
        for tile in range(136)
    },
    **{
        sys.intern(f"{letter}{tile}"): (False, seat, tile, Discard(seat=seat, tile=tile, tsumogiri=False),
                                          Discard(seat=seat, tile=tile, tsumogiri=True))
        for seat, letter in enumerate("DEFG")
        for tile in range(136)
    },
}
"""Tag name -> (is a draw, seat, tile, the plain event, the rinshan draw / tsumogiri discard). The
names are interned, as ``scan`` interns the tags it shares: a lookup compares them by identity."""
_TILE_TAG_LETTERS: Final = frozenset("TUVWDEFG")
_DRAW_KINDS: Final = {k.value: k for k in DrawKind if k is not DrawKind.EXHAUSTIVE}
_KAN_OR_KITA: Final = (CallKind.ADDED_KAN, CallKind.OPEN_KAN, CallKind.CLOSED_KAN, CallKind.KITA)

_AGARI_ATTRS: Final = frozenset(
    ["ba", "hai", "m", "machi", "ten", "yaku", "yakuman", "doraHai", "doraHaiUra", "who", "fromWho", "paoWho", "sc",
     "owari"]
)
_AGARI_OPAQUE: Final = frozenset({"chip", "ratio"})
_AGARI_KNOWN: Final = _AGARI_ATTRS | _AGARI_OPAQUE
MAX_POINTS = 1_000_000
"""Final points (``owari``) beyond this (or not finite) are a parse error: real ones are a few
hundred, and infinity or NaN cannot be rounded to tenths."""
MAX_SCORE = 1_000_000
"""Scores and score changes (``ten``, ``sc``, in hundreds) beyond this are a parse error: real
ones stay within a few thousand (a few hundred thousand points), and a 400-digit score would
only make every later sum meaningless."""
_RYUU_ATTRS: Final = frozenset(["ba", "sc", "type", "hai0", "hai1", "hai2", "hai3", "owari"])
_RYUU_OPAQUE: Final = frozenset({"ratio"})
_RYUU_KNOWN: Final = _RYUU_ATTRS | _RYUU_OPAQUE
_HAI: Final = ("hai0", "hai1", "hai2", "hai3")
_INIT_ATTRS: Final = frozenset(["seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3", "shuffle", "chip"])
_GO_KNOWN: Final = frozenset({"type", "lobby"})
_GO_OPAQUE: Final = frozenset({"title", "rule", "ranking", "csrule"})
_UN_OPAQUE: Final = frozenset({"rc"})
_N_ATTRS: Final = frozenset({"who", "m"})
_HEADER_TAGS: Final = frozenset({"SHUFFLE", "GO", "TAIKYOKU"})
_ROOT_ATTRS: Final = frozenset({"ver"})
_SHUFFLE_ATTRS: Final = frozenset({"seed", "ref"})
_TAIKYOKU_ATTRS: Final = frozenset({"oya"})
KNOWN_VERSION: Final = "2.3"
"""The one ``mjloggm ver`` Tenhou writes (every genuine log of the corpus, 2008-2024)."""
_REACH_ATTRS: Final = frozenset({"who", "step", "ten"})
_DORA_ATTRS: Final = frozenset({"hai"})
_BYE_ATTRS: Final = frozenset({"who"})
_UN_KNOWN: Final = frozenset({"n0", "n1", "n2", "n3", "dan", "rate", "sx"})


def player_name(text: str) -> str:
    """A player name as ``UN`` writes it: UTF-8, percent-encoded (``%E3%83%81...``), decoded as
    ``urllib.parse.unquote(text, errors="replace")`` would. Tenhou encodes every byte, so the
    usual name is read in one step; any other form goes through ``unquote``."""
    size = len(text) // 3
    if size and len(text) % 3 == 0 and text[::3] == "%" * size:
        digits = text.replace("%", "")
        if len(digits) == 2 * size and digits.isalnum():
            try:
                return bytes.fromhex(digits).decode("utf-8", errors="replace")
            except ValueError:  # letters beyond f
                pass
    return unquote(text, errors="replace")


def ruleset_from_type(type_code: int) -> Ruleset:
    """Decode the ``GO type`` bitfield."""
    chips = 0
    if type_code & 0x200:
        chips = 5 if type_code & 0x400 else 2
    return Ruleset(
        type_code=type_code,
        players=3 if type_code & 0x10 else 4,
        red_fives=not type_code & 0x02,
        open_tanyao=not type_code & 0x04,
        east_south=bool(type_code & 0x08),
        fast=bool(type_code & 0x40),
        room=Room.from_type(type_code),
        online=bool(type_code & 0x01),
        dark=bool(type_code & 0x100),
        chips=chips,
        special=bool(type_code & 0x800),
    )


def parse_game(
    data: bytes,
    *,
    source: str = "<bytes>",
    log_id: str | None = None,
    require_complete: bool = True,
    max_bytes: int = MAX_BYTES,
) -> Game:
    """Parse the bytes of one log into a ``Game``; ``max_bytes`` caps them, before and after
    gunzip (the read limit).

    With ``require_complete`` (the default) a log whose game did not reach its end (a hand with
    no ``AGARI``/``RYUUKYOKU``, no ``owari`` on the last one) is a ``ParseError``.

    Without it, a log that stops early (a game cut by a disconnect or still running) is read up
    to where it stops: the game is not ``complete``, and its ``warnings`` say where and why
    (each starting with ``incomplete game:``): the last hand may have no result and the game no
    final result; a document cut off in the middle of an element (or missing its
    ``</mjloggm>``) is read up to its last complete element. A gzip stream that ends early is
    read the same way as the plain XML it decompresses to (a warning says so), whatever the
    cut: its game is complete when what decompresses reaches the game's end, and when even
    that cannot be read, the error is the one that plain XML gets. Anything else that is wrong
    is still a ``ParseError``.
    """
    if require_complete:
        return parse_xml_game(decompress(data, source=source, max_bytes=max_bytes), source, log_id, True, True,
                              max_bytes)
    xml, gzip_cut = decompress_prefix(data, source=source, max_bytes=max_bytes)
    if not gzip_cut:
        return _parse_incomplete(xml, source, log_id, max_bytes)
    try:
        game = _parse_incomplete(xml, source, log_id, max_bytes)
    except ParseError as exc:
        raise ParseError(f"{exc.message} (in what the gzip data decompresses to: it ends early, at byte "
                         f"{len(data)})", source=source, where=exc.where) from None
    note = ("incomplete game: the gzip data ends early; read what could be decompressed" if not game.complete
            else "the gzip data ends early, after the game's end; read what could be decompressed")
    return _with_notes(game, [note])


def _parse_incomplete(xml: bytes, source: str, log_id: str | None, max_bytes: int) -> Game:
    """``parse_game`` of plain XML without ``require_complete``; a log it cannot read even so
    gets the error the complete reading gives (``not well-formed XML``, ...)."""
    try:
        return parse_xml_game(xml, source, log_id, False, True, max_bytes)
    except ParseError:
        pass
    end = xml.rfind(b">")
    head = xml[: end + 1].rstrip()
    if end < 0 or head.endswith(b"</mjloggm>"):
        return parse_xml_game(xml, source, log_id, True, True, max_bytes)  # raises the error as it is
    try:  # the document stops inside an element, or after one without closing the root
        game = parse_xml_game(head + b"</mjloggm>", source, log_id, False, True, max_bytes)
    except ParseError:
        return parse_xml_game(xml, source, log_id, True, True, max_bytes)
    if xml[end + 1 :].strip():
        note = "the log is cut off in the middle of an element; read up to the last complete one"
    else:
        note = "the document has no </mjloggm> end tag"
    return _with_notes(game, [note if game.complete else f"incomplete game: {note}"])


def _with_notes(game: Game, notes: list[str]) -> Game:
    """The game with ``notes`` before its warnings."""
    return Game(header=game.header, hands=game.hands, prelude=game.prelude, warnings=tuple(notes) + game.warnings,
                log_id=game.log_id, complete=game.complete)


def parse_xml_game(xml: bytes, source: str, log_id: str | None, require_complete: bool,
                   fast: bool, max_bytes: int = MAX_BYTES) -> Game:
    """``parse_game`` of plain XML bytes. With ``fast``, a document in the subset Tenhou writes
    is read by ``scan()`` and any other by lxml; without, lxml reads every document (the tests
    compare the two paths)."""
    scanned = scan(xml) if fast else None
    notes: list[str] = []
    if scanned is None:
        try:
            root_attrs, items = read_tree(parse_xml(xml, source=source, max_bytes=max_bytes))
        except ParseError:
            repeats: list[tuple[int, str, str]] = []
            scanned = scan_python(xml, repeats)
            if scanned is None or not repeats:
                raise
            root_attrs, items = scanned
            notes = [f"element {index} <{tag}>: the attribute {name!r} is written twice with the same "
                     "value, which is not well-formed XML (as Tenhou wrote some logs); read once"
                     for index, tag, name in repeats]
    else:
        root_attrs, items = scanned
    game = _Parser(source, require_complete).run(root_attrs, items, log_id, layout_of(xml))
    if not notes:
        return game
    return dataclasses.replace(game, warnings=tuple(notes) + game.warnings)


_BETWEEN_ELEMENTS: Final = re.compile(rb">[ \t\r\n]+<")
"""Whitespace between two tags (``<`` cannot occur in an attribute value, so this is between
elements, or between the root's start tag and its first child)."""


def layout_of(xml: bytes) -> Layout:
    """Who wrote the document last, by its layout: Tenhou writes its elements back to back;
    whitespace between two of them means another program wrote it again (``Layout``)."""
    # The pattern needs a tag's end followed by whitespace. A log with no line break, tab or
    # carriage return (three byte scans) and no "> " (one search) has none, and Tenhou writes
    # none of them: the pattern's own scan of every log cost 0.23 M of validate's 6.9 M
    # instructions a game (bench_callgrind); only the others are searched with it.
    if b"\n" not in xml and b"\t" not in xml and b"\r" not in xml and b"> " not in xml:
        return Layout.TENHOU
    return Layout.REWRITTEN if _BETWEEN_ELEMENTS.search(xml) is not None else Layout.TENHOU


def read_tree(root: Any) -> tuple[dict[str, str], list[Item]]:
    """The root's attributes and its children as ``scan()`` gives them, from an lxml tree (the
    path for documents outside the subset ``scan()`` reads). A child that is not an element (an
    unresolved entity) keeps its place, so element numbers in messages count it, with tag ``""``."""
    items: list[Item] = []
    for el in root:
        tag = el.tag
        items.append((tag, dict(el.attrib)) if isinstance(tag, str) else ("", {}))
    return dict(root.attrib), items


_LARGEST: Final = 10**18 - 1
"""The widest range ``numbers`` is asked for (18 digits)."""


class _Parser:
    def __init__(self, source: str, require_complete: bool):
        self.source = source
        self.require_complete = require_complete
        self.warnings: list[str] = []
        self.hands_ended = True
        """False once a hand closes without its AGARI or RYUUKYOKU (read without require_complete)."""
        self.index = 0
        self.tag = ""
        self.n_seats = 4
        """Seats run 0 .. n_seats-1 (set from GO; seat 3 does not exist in three-player)."""

    # -- errors and attribute helpers -------------------------------------------------------

    def fail(self, message: str) -> ParseError:
        if self.tag == "end":
            return ParseError(message, source=self.source, where="at the end of the document")
        return ParseError(message, source=self.source, where=f"element {self.index} <{self.tag}>")

    def req(self, el: Attrs, name: str) -> str:
        value = el.get(name)
        if value is None:
            raise self.fail(f"missing attribute {name!r}")
        return value

    def ints(self, text: str, name: str, count: int | None = None) -> tuple[int, ...]:
        found = numbers(text, -_LARGEST, _LARGEST)  # the form Tenhou writes; else int() decides
        try:
            values = found if found is not None else tuple([int(part) for part in text.split(",")])
        except ValueError:
            raise self.fail(f"attribute {name!r} is not a list of integers: {text[:60]!r}") from None
        if count is not None and len(values) != count:
            raise self.fail(f"attribute {name!r} has {len(values)} values, expected {count}")
        return values

    def int1(self, el: Attrs, name: str, lo: int, hi: int, default: int | None = None) -> int:
        text = el.get(name)
        if text is None:
            if default is not None:
                return default
            raise self.fail(f"missing attribute {name!r}")
        try:
            value = int(text)
        except ValueError:
            raise self.fail(f"attribute {name!r} is not an integer: {text[:40]!r}") from None
        if not lo <= value <= hi:
            raise self.fail(f"attribute {name!r} = {value} is outside {lo}-{hi}")
        return value

    def scores(self, text: str, name: str, count: int) -> tuple[int, ...]:
        """Scores written in hundreds (``ten``), as points; beyond ``MAX_SCORE`` is an error."""
        values = self.ints(text, name, count)
        if any(abs(v) > MAX_SCORE for v in values):
            raise self.fail(f"attribute {name!r} has a score outside ±{MAX_SCORE} (hundreds of points)")
        return tuple(v * 100 for v in values)

    def tiles(self, text: str | None, name: str) -> tuple[int, ...]:
        if not text:
            return ()
        found = numbers(text, 0, 135)  # the usual case; anything else gets the checks and messages below
        if found is not None:
            return found
        values = self.ints(text, name)
        if min(values) < 0 or max(values) > 135:
            bad = next(t for t in values if not 0 <= t <= 135)
            raise self.fail(f"attribute {name!r} has tile id {bad}, outside 0-135")
        return values

    def seat(self, el: Attrs, name: str) -> int:
        return self.int1(el, name, 0, self.n_seats - 1)

    def unknown_attrs(self, el: Attrs, known: frozenset[str]) -> None:
        for key in el.keys():  # noqa: SIM118 - an lxml element iterates its children, not its attributes
            if key not in known:
                self.warnings.append(f"element {self.index} <{self.tag}>: unknown attribute {key!r}")

    # -- the walk ---------------------------------------------------------------------------

    def run(self, root: Attrs, items: list[Item], log_id: str | None, layout: Layout = Layout.TENHOU) -> Game:
        version = root.get("ver", "")
        for key in root.keys():  # noqa: SIM118 - an lxml element iterates its children, not its attributes
            if key not in _ROOT_ATTRS:
                self.warnings.append(f"<mjloggm>: unknown attribute {key!r}")
        if version != KNOWN_VERSION:  # a format this reader does not know: said, not guessed at
            self.warnings.append(f"<mjloggm>: format version (ver) {version[:20]!r} is not the known "
                                 f"{KNOWN_VERSION!r}")
        shuffle: Shuffle | None = None
        ruleset: Ruleset | None = None
        lobby: int | None = None
        go_extra: tuple[tuple[str, str], ...] = ()
        un_extra: tuple[tuple[str, str], ...] = ()
        players: tuple[Player, ...] | None = None
        first_dealer = 0
        prelude: list[Event] = []
        hands: list[Hand] = []
        current: list[Event] | None = None
        init: Init | None = None
        ended = False
        hand_ended = False
        seen_header: set[str] = set()
        # per-hand derivation state
        last_draw = [-1, -1, -1, -1]
        kan_pending = [False, False, False, False]

        tile_tags = _TILE_TAGS
        seats = 4
        for index, (tag, el) in enumerate(items):
            hit = tile_tags.get(tag)
            if hit is not None:
                is_draw, seat, tile, plain, special = hit
                if current is None or seat >= seats:
                    self.index, self.tag = index, tag
                    if current is None:
                        raise self.fail("a draw or discard before the first INIT")
                    raise self.fail(f"seat {seat} does not exist in a {seats}-player game")
                if el:
                    self.index, self.tag = index, tag
                    self.unknown_attrs(el, frozenset())
                if is_draw:
                    if kan_pending[seat]:
                        current.append(special)
                        kan_pending[seat] = False
                    else:
                        current.append(plain)
                    last_draw[seat] = tile
                else:
                    current.append(special if last_draw[seat] == tile else plain)
                    last_draw[seat] = -1
                    kan_pending[seat] = False
                continue
            if not tag:  # not an element (lxml keeps an unresolved entity in the tree)
                continue
            self.index, self.tag = index, tag
            if tag[0] in _TILE_TAG_LETTERS and tag[1:].isdigit():
                raise self.fail(f"tag <{tag[:20]}> names tile {tag[1:][:10]}, outside 0-135")
            if tag == "N":
                if current is None:
                    raise self.fail("a call before the first INIT")
                self.unknown_attrs(el, _N_ATTRS)
                who = self.seat(el, "who")
                meld = self.meld(self.int1(el, "m", 0, 0xFFFF), who)
                current.append(build(Call, seat=who, meld=meld))
                if meld.kind in _KAN_OR_KITA:
                    kan_pending[who] = True
                else:
                    last_draw[who] = -1
                continue
            if tag == "REACH":
                if current is None:
                    raise self.fail("a riichi before the first INIT")
                self.unknown_attrs(el, _REACH_ATTRS)
                who = self.seat(el, "who")
                step = self.int1(el, "step", 1, 2)
                ten = el.get("ten")
                scores = self.scores(ten, "ten", 4) if ten else None
                current.append(build(Riichi, seat=who, step=step, scores=scores))
                continue
            if tag == "DORA":
                if current is None:
                    raise self.fail("a DORA before the first INIT")
                self.unknown_attrs(el, _DORA_ATTRS)
                current.append(build(NewDora, tile=self.int1(el, "hai", 0, 135)))
                continue
            if tag == "INIT":
                if ruleset is None:
                    raise self.fail("INIT before the GO tag that gives the rules")
                if ended:
                    raise self.fail("a hand after the game's final result (owari)")
                if current is not None and init is not None:
                    self.close_hand(hands, init, current, hand_ended)
                init = self.init(el, ruleset)
                current = []
                hand_ended = False
                last_draw = [-1, -1, -1, -1]
                kan_pending = [False, False, False, False]
                continue
            if tag == "AGARI" or tag == "RYUUKYOKU":
                if current is None:
                    raise self.fail(f"{tag} before the first INIT")
                end = self.agari(el) if tag == "AGARI" else self.ryuukyoku(el)
                current.append(end)
                hand_ended = True
                ended = ended or end.owari is not None
                continue
            if tag == "BYE":
                self.unknown_attrs(el, _BYE_ATTRS)
                event: Event = build(Bye, seat=self.seat(el, "who"))
                (prelude if current is None else current).append(event)
                continue
            if tag == "UN":
                if players is None:
                    self.unknown_attrs(el, _UN_KNOWN | _UN_OPAQUE)
                    players = self.players(el)
                    un_extra = tuple((k, v) for k, v in el.items() if k not in _UN_KNOWN)
                    continue
                event = self.reconnect(el)
                (prelude if current is None else current).append(event)
                continue
            if tag in _HEADER_TAGS:
                if tag in seen_header:
                    self.warnings.append(f"element {index} <{tag}>: a second {tag} tag (the last one is used)")
                seen_header.add(tag)
            if tag == "SHUFFLE":
                self.unknown_attrs(el, _SHUFFLE_ATTRS)
                shuffle = build(Shuffle, seed=self.req(el, "seed"), ref=el.get("ref", ""))
                if shuffle.ref:  # always empty in genuine logs: what it would refer to is not known
                    self.warnings.append(f"element {index} <SHUFFLE>: ref {shuffle.ref[:40]!r} is not "
                                         "understood (genuine logs leave it empty): not checked")
                continue
            if tag == "GO":
                self.unknown_attrs(el, _GO_KNOWN | _GO_OPAQUE)
                ruleset = ruleset_from_type(self.int1(el, "type", 0, 0xFFFF))
                seats = self.n_seats = ruleset.players
                lob = el.get("lobby")
                if lob is not None:
                    lobby = self.int1(el, "lobby", 0, 10**9)
                go_extra = tuple((k, v) for k, v in el.items() if k not in _GO_KNOWN)
                continue
            if tag == "TAIKYOKU":
                self.unknown_attrs(el, _TAIKYOKU_ATTRS)
                first_dealer = self.int1(el, "oya", 0, 3, default=0)
                continue
            self.warnings.append(f"element {index} <{tag[:40]}>: unknown tag kept as Unknown")
            unknown = Unknown(tag=tag, attributes=tuple(el.items()))
            (prelude if current is None else current).append(unknown)

        self.index, self.tag = len(items), "end"
        if ruleset is None:
            raise self.fail("no GO tag: the table rules are missing")
        if current is not None and init is not None:
            self.close_hand(hands, init, current, hand_ended, last=True)
        if not hands:
            raise self.fail("no hands: the log has no INIT tag")
        if self.require_complete and not ended:
            raise self.fail("incomplete game: the last hand-end tag has no final result (owari)")
        complete = ended and self.hands_ended
        if not ended:
            last = hands[-1]
            if hand_ended:
                self.warnings.append(f"incomplete game: the log ends after hand {last.init.label()}, "
                                     "without the game's final result (owari)")
            else:
                self.warnings.append(f"incomplete game: the log ends in hand {last.init.label()}, "
                                     "before its result")
        if players is None:
            players = tuple(build(Player, seat=s, name="", dan=0, rate=0.0, sex="") for s in range(4))
        header = build(
            Header,
            version=version,
            ruleset=ruleset,
            lobby=lobby,
            players=players,
            shuffle=shuffle,
            first_dealer=first_dealer,
            go_extra=go_extra,
            un_extra=un_extra,
            layout=layout,
        )
        return build(Game, header=header, hands=tuple(hands), prelude=tuple(prelude), warnings=tuple(self.warnings),
                     log_id=log_id, complete=complete)

    def close_hand(self, hands: list[Hand], init: Init, events: list[Event], has_end: bool,
                   last: bool = False) -> None:
        if self.require_complete and not has_end:
            raise ParseError(
                f"incomplete game: hand {init.label()} has no AGARI or RYUUKYOKU",
                source=self.source,
                where=f"element {self.index} <{self.tag}>",
            )
        if not has_end:
            self.hands_ended = False
        if not has_end and not last:
            self.warnings.append(f"incomplete game: hand {init.label()} has no "
                                 f"AGARI or RYUUKYOKU (element {self.index} <{self.tag}> starts the next)")
        hands.append(build(Hand, index=len(hands), init=init, events=tuple(events)))

    def meld(self, code: int, who: int) -> Meld:
        try:
            return decode_meld(code, who)
        except MeldError as exc:
            raise self.fail(str(exc)) from None

    # -- tags -------------------------------------------------------------------------------

    def players(self, el: Attrs) -> tuple[Player, ...]:
        names = [player_name(el.get(f"n{s}", "")) for s in range(4)]
        dan_text, rate_text, sx_text = el.get("dan", ""), el.get("rate", ""), el.get("sx", "")
        dans = self.ints(dan_text, "dan", 4) if dan_text else (0, 0, 0, 0)
        try:
            rates = tuple(float(r) for r in rate_text.split(",")) if rate_text else (0.0,) * 4
        except ValueError:
            raise self.fail(f"attribute 'rate' is not a list of numbers: {rate_text[:60]!r}") from None
        if not all(math.isfinite(r) for r in rates):  # float() reads "nan" and "inf": no rate is either
            raise self.fail(f"attribute 'rate' is not a list of numbers: {rate_text[:60]!r}")
        sexes = tuple(sx_text.split(",")) if sx_text else ("",) * 4
        if len(rates) != 4 or len(sexes) != 4:
            raise self.fail("attributes 'rate' and 'sx' must have four entries")
        return tuple(build(Player, seat=s, name=names[s], dan=dans[s], rate=rates[s], sex=sexes[s]) for s in range(4))

    def reconnect(self, el: Attrs) -> Event:
        keys = list(el.keys())
        if len(keys) == 1 and keys[0] in ("n0", "n1", "n2", "n3"):
            return Reconnect(seat=int(keys[0][1]), name=player_name(el[keys[0]]))
        self.warnings.append(f"element {self.index} <UN>: a second full UN tag kept as Unknown")
        return Unknown(tag="UN", attributes=tuple(el.items()))

    def init(self, el: Attrs, ruleset: Ruleset) -> Init:
        self.unknown_attrs(el, _INIT_ATTRS)
        seed = self.ints(self.req(el, "seed"), "seed", 6)
        rnd, honba, sticks, d1, d2, dora = seed
        if not 0 <= rnd <= 15:
            raise self.fail(f"round index {rnd} is outside 0-15")
        if honba < 0 or sticks < 0:
            raise self.fail("negative honba or riichi sticks")
        if not (0 <= d1 <= 5 and 0 <= d2 <= 5):
            raise self.fail(f"dice {d1 + 1},{d2 + 1} are outside 1-6")
        if not 0 <= dora <= 135:
            raise self.fail(f"dora indicator {dora} is outside 0-135")
        scores = self.scores(self.req(el, "ten"), "ten", 4)
        dealer = self.int1(el, "oya", 0, ruleset.players - 1)
        hands = tuple(self.tiles(el.get(name), name) for name in _HAI)
        chip = el.get("chip")
        return build(
            Init,
            round=rnd,
            honba=honba,
            sticks=sticks,
            dice=(d1 + 1, d2 + 1),
            dora_indicator=dora,
            scores=scores,
            dealer=dealer,
            hands=hands,
            shuffle=el.get("shuffle"),
            chips=self.ints(chip, "chip", 4) if chip else None,
        )

    def score_pairs(self, el: Attrs) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None,
                                       tuple[int, ...] | None]:
        sc = self.ints(self.req(el, "sc"), "sc")
        if any(abs(v) > MAX_SCORE for v in sc):
            raise self.fail(f"attribute 'sc' has a value outside ±{MAX_SCORE} (hundreds of points)")
        if len(sc) not in (8, 16):
            raise self.fail(f"attribute 'sc' has {len(sc)} values, expected 8 (or 16 on chip tables)")
        before = (sc[0] * 100, sc[2] * 100, sc[4] * 100, sc[6] * 100)
        deltas = (sc[1] * 100, sc[3] * 100, sc[5] * 100, sc[7] * 100)
        if len(sc) == 16:
            return before, deltas, sc[8::2], sc[9::2]
        return before, deltas, None, None

    def ba(self, el: Attrs) -> tuple[int, int]:
        values = self.ints(self.req(el, "ba"), "ba", 2)
        if values[0] < 0 or values[1] < 0:
            raise self.fail("negative honba or sticks in 'ba'")
        return values[0], values[1]

    def owari(self, el: Attrs) -> Owari | None:
        text = el.get("owari")
        if text is None:
            return None
        parts = text.split(",")
        if len(parts) not in (8, 16):
            raise self.fail(
                f"attribute 'owari' has {len(parts) if text else 0} values, expected 8 (16 on chip tables)"
            )
        try:
            scores = tuple(int(parts[i]) * 100 for i in range(0, 8, 2))
            points = tuple(float(parts[i]) for i in range(1, 8, 2))
            chips = tuple(int(parts[i]) for i in range(8, 16, 2)) if len(parts) == 16 else None
            chip_points = tuple(float(parts[i]) for i in range(9, 16, 2)) if chips else None
        except ValueError:
            raise self.fail(f"attribute 'owari' is not scores and points: {text[:60]!r}") from None
        if not all(abs(p) <= MAX_POINTS for p in points + (chip_points or ())):  # also inf, nan
            raise self.fail(f"attribute 'owari' has points outside ±{MAX_POINTS}: {text[:60]!r}")
        return build(Owari, scores=scores, points=points, chips=chips, chip_points=chip_points)

    def agari(self, el: Attrs) -> Agari:
        self.unknown_attrs(el, _AGARI_KNOWN)
        who = self.seat(el, "who")
        from_who = self.seat(el, "fromWho")
        pao = el.get("paoWho")
        honba, sticks = self.ba(el)
        ten = self.ints(self.req(el, "ten"), "ten", 3)
        yaku_values = self.ints(el.get("yaku", ""), "yaku")
        if len(yaku_values) % 2:
            raise self.fail("attribute 'yaku' has an odd number of values")
        yaku = tuple(zip(yaku_values[::2], yaku_values[1::2]))
        yakuman = self.ints(el.get("yakuman", ""), "yakuman")
        for yid in (*yaku_values[::2], *yakuman):
            if not 0 <= yid <= 54:
                raise self.fail(f"yaku id {yid} is outside 0-54")
        m_text = el.get("m")
        melds = tuple(self.meld(code, who) for code in self.ints(m_text, "m")) if m_text else ()
        before, deltas, chips_before, chip_deltas = self.score_pairs(el)
        return build(
            Agari,
            who=who,
            from_who=from_who,
            hand=self.tiles(self.req(el, "hai"), "hai"),
            melds=melds,
            win_tile=self.int1(el, "machi", 0, 135),
            fu=ten[0],
            points=ten[1],
            limit=ten[2],
            yaku=yaku,
            yakuman=yakuman,
            dora_indicators=self.tiles(el.get("doraHai"), "doraHai"),
            ura_indicators=self.tiles(el.get("doraHaiUra"), "doraHaiUra"),
            honba=honba,
            sticks=sticks,
            scores_before=before,
            deltas=deltas,
            pao_who=self.seat(el, "paoWho") if pao is not None else None,
            chips_before=chips_before,
            chip_deltas=chip_deltas,
            extra=tuple((k, v) for k, v in el.items() if k in _AGARI_OPAQUE),
            owari=self.owari(el),
        )

    def ryuukyoku(self, el: Attrs) -> Ryuukyoku:
        self.unknown_attrs(el, _RYUU_KNOWN)
        kind_text = el.get("type")
        if kind_text is None:
            kind = DrawKind.EXHAUSTIVE
        else:
            named = _DRAW_KINDS.get(kind_text)
            if named is None:
                raise self.fail(f"unknown draw type {kind_text[:20]!r}")
            kind = named
        honba, sticks = self.ba(el)
        before, deltas, chips_before, chip_deltas = self.score_pairs(el)
        hands = tuple(self.tiles(el.get(name), name) if el.get(name) is not None else None for name in _HAI)
        return build(
            Ryuukyoku,
            kind=kind,
            honba=honba,
            sticks=sticks,
            scores_before=before,
            deltas=deltas,
            hands=hands,
            chips_before=chips_before,
            chip_deltas=chip_deltas,
            extra=tuple((k, v) for k, v in el.items() if k in _RYUU_OPAQUE),
            owari=self.owari(el),
        )
