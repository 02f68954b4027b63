"""Build small hand-made mjlog games (no seed) from readable tiles, for legality tests.

    b = Scenario(hands=["123m456m789m1123p", "...", "...", "..."])
    b.draw(0, "1z"); b.discard(0, "1z")
    xml = b.agari(who=0, from_who=1)

Tile strings use the notation of ``tenhou_tools.tiles``; every tile gets its own id, so a
string names "a free copy of this kind" (``take``) or, for discards, the copy in that hand.
"""

from __future__ import annotations

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.mjlog import encode_meld
from tenhou_tools.tiles import format_tiles, parse_tiles

DRAW = "TUVW"
DISCARD = "DEFG"


class Scenario:
    def __init__(self, hands: list[str], *, players: int = 4, scores: list[int] | None = None,
                 dora: str = "9s", go_type: int | None = None, round_index: int = 0, honba: int = 0,
                 sticks: int = 0):
        """``round_index`` (4 x wind + hand - 1: 11 is West 4), ``honba`` and ``sticks`` start the
        log at a later hand (its dealer is the round's); ``scores`` are in hundreds."""
        self.players = players
        self.go_type = go_type if go_type is not None else (169 if players == 4 else 185)
        self.scores = scores or ([250] * 4 if players == 4 else [350, 350, 350, 0])
        self.finished: list[str] = []
        """The hands already played, each its INIT, events and end tag."""
        self.deal(hands, dora=dora, round_index=round_index, honba=honba, sticks=sticks)

    def deal(self, hands: list[str], *, dora: str = "9s", round_index: int = 0, honba: int = 0,
             sticks: int = 0) -> None:
        """A new hand: fresh tiles, the given hands and dora indicator (``begin`` freezes it)."""
        self.used: set[int] = set()
        self.hands = [self.take_many(h) if h else [] for h in hands]
        self.dora = self.take(dora)
        self.round_index, self.honba, self.sticks = round_index, honba, sticks
        self.tags: list[str] = []
        self.melds: list[list[int]] = [[], [], [], []]

    # -- tiles -----------------------------------------------------------------------------

    def take(self, text: str) -> int:
        (k,) = {t >> 2 for t in parse_tiles(text)}
        for copy in (1, 2, 3, 0):
            tile = k * 4 + copy
            if tile not in self.used:
                self.used.add(tile)
                return tile
        raise ValueError(f"no free copy of {text}")

    def take_many(self, text: str) -> list[int]:
        return [self.take(format_tiles([t])) for t in parse_tiles(text)]

    def held(self, seat: int, text: str) -> int:
        k = parse_tiles(text)[0] >> 2
        return next(t for t in self.hands[seat] if t >> 2 == k)

    # -- events ----------------------------------------------------------------------------

    def draw(self, seat: int, text: str | None = None, *, tile: int | None = None) -> int:
        tile = tile if tile is not None else self.take(text)
        self.hands[seat].append(tile)
        self.tags.append(f"<{DRAW[seat]}{tile}/>")
        return tile

    def discard(self, seat: int, text: str | None = None, *, tile: int | None = None) -> int:
        tile = tile if tile is not None else self.held(seat, text)
        self.hands[seat].remove(tile)
        self.tags.append(f"<{DISCARD[seat]}{tile}/>")
        return tile

    def turn(self, seat: int, text: str) -> int:
        """Draw a tile and discard it at once (tsumogiri)."""
        tile = self.draw(seat, text)
        return self.discard(seat, tile=tile)

    def riichi(self, seat: int, discard: str, *, accept: bool = True) -> None:
        self.tags.append(f'<REACH who="{seat}" step="1"/>')
        self.discard(seat, discard)
        if accept:
            self.scores[seat] -= 10
            self.tags.append(f'<REACH who="{seat}" ten="{",".join(map(str, self.scores))}" step="2"/>')

    def call(self, seat: int, kind: CallKind, tiles: list[int], called: int | None,
             from_seat: int | None, added: int | None = None) -> None:
        meld = Meld(kind, tuple(sorted(tiles)), called, from_seat, added, 0)
        for t in tiles:
            if t != called and t in self.hands[seat]:
                self.hands[seat].remove(t)
        code = encode_meld(meld, seat)
        self.melds[seat].append(code)
        self.tags.append(f'<N who="{seat}" m="{code}"/>')

    def pon(self, seat: int, from_seat: int, called: int) -> None:
        k = called >> 2
        mine = [t for t in self.hands[seat] if t >> 2 == k][:2]
        self.call(seat, CallKind.PON, [*mine, called], called, from_seat)

    def chi(self, seat: int, from_seat: int, called: int, with_: str) -> None:
        mine = [self.held(seat, format_tiles([t])) for t in parse_tiles(with_)]
        self.call(seat, CallKind.CHI, [*mine, called], called, from_seat)

    def closed_kan(self, seat: int, text: str) -> None:
        k = parse_tiles(text)[0] >> 2
        self.call(seat, CallKind.CLOSED_KAN, [k * 4 + i for i in range(4)], None, None)

    def raw(self, tag: str) -> None:
        self.tags.append(tag)

    # -- endings ---------------------------------------------------------------------------

    def header(self) -> str:
        # players who may sit at a ranked Houou table (七段, R2000); a three-player table's fourth seat is empty
        seat3 = 'n3="%44" dan="16,16,16,16" rate="2000,2000,2000,2000" sx="M,M,M,M"' if self.players == 4 else \
            'n3="" dan="16,16,16,0" rate="2000,2000,2000,1500" sx="M,M,M,C"'
        return (f'<mjloggm ver="2.3"><GO type="{self.go_type}" lobby="0"/>'
                f'<UN n0="%41" n1="%42" n2="%43" {seat3}/>'
                '<TAIKYOKU oya="0"/>')

    def init(self) -> str:
        hai = " ".join(f'hai{s}="{",".join(map(str, h))}"' for s, h in enumerate(self._dealt))
        seed = f"{self.round_index},{self.honba},{self.sticks},0,0,{self.dora}"
        return (f'<INIT seed="{seed}" ten="{",".join(map(str, self._start))}" oya="{self.round_index % 4}" {hai}/>')

    def begin(self) -> Scenario:
        """Freeze the deal (call after creating, before events)."""
        self._dealt = [list(h) for h in self.hands]
        self._start = list(self.scores)
        return self

    def xml(self, end: str) -> bytes:
        return (self.header() + "".join(self.finished) + self.init() + "".join(self.tags) + end
                + "</mjloggm>").encode()

    def next_hand(self, end: str, hands: list[str], **deal) -> Scenario:
        """Close the hand with its end tag (``agari_tag``, ``ryuukyoku_tag`` with ``owari=False``)
        and deal the next (``deal``'s arguments); the scores carry over unchanged."""
        self.finished.append(self.init() + "".join(self.tags) + end)
        self.deal(hands, **deal)
        return self.begin()

    def agari_tag(self, who: int, from_who: int, win_tile: int | None = None, *, owari: bool = True,
                  yaku: str = "1,1", pao: int | None = None, yakuman: str | None = None) -> str:
        """The win's tag; ``yakuman`` (ids) replaces ``yaku`` as Tenhou writes a yakuman win."""
        hand = sorted(self.hands[who] + ([win_tile] if win_tile is not None else []))
        liable = f' paoWho="{pao}"' if pao is not None else ""
        value = f'yakuman="{yakuman}"' if yakuman is not None else f'yaku="{yaku}"'
        m = f' m="{",".join(map(str, self.melds[who]))}"' if self.melds[who] else ""
        sc = ",".join(f"{v},0" for v in self.scores)
        machi = win_tile if win_tile is not None else hand[-1]
        return (f'<AGARI ba="{self.honba},{self.sticks}" hai="{",".join(map(str, hand))}"{m} machi="{machi}" '
                f'ten="30,1000,0" {value} doraHai="{self.dora}" who="{who}" fromWho="{from_who}"{liable} '
                f'sc="{sc}"'
                + (f' owari="{self.owari()}"' if owari else "") + "/>")

    def agari(self, who: int, from_who: int, win_tile: int | None = None, *, owari: bool = True,
              yaku: str = "1,1", pao: int | None = None, yakuman: str | None = None) -> bytes:
        return self.xml(self.agari_tag(who, from_who, win_tile, owari=owari, yaku=yaku, pao=pao, yakuman=yakuman))

    def owari(self) -> str:
        """The final result: the scores as they are, game points left at 0 (not what the rules
        give: a test of the end of a game reads ``GAME_END``, not ``OWARI_POINTS``)."""
        return ",".join(f"{v},0.0" for v in self.scores)

    def ryuukyoku_tag(self, kind: str | None = None, shown: dict[int, list[int]] | None = None, *,
                      owari: bool = True) -> str:
        t = f' type="{kind}"' if kind else ""
        hands = "".join(f' hai{s}="{",".join(map(str, h))}"' for s, h in (shown or {}).items())
        sc = ",".join(f"{v},0" for v in self.scores)
        return (f'<RYUUKYOKU ba="{self.honba},{self.sticks}" sc="{sc}"{t}{hands}'
                + (f' owari="{self.owari()}"' if owari else "") + "/>")

    def ryuukyoku(self, kind: str | None = None, shown: dict[int, list[int]] | None = None) -> bytes:
        return self.xml(self.ryuukyoku_tag(kind, shown))
