"""Hand-made multi-hand mjlog games for the statistics tests.

The builder writes the tags a test describes and keeps the bookkeeping a person would do with
pencil and paper: the scores (``sc`` before/after, riichi sticks paid at ``REACH`` step 2 and
collected by the next winner), the round and sticks of each ``INIT``, and the ``owari`` of the
last hand (leftover sticks go to first place). It does not play mahjong: hands are not checked
against the rules (``stats`` reads events, it does not replay them), so a test can say exactly
what happens and work out the expected statistics from that.

    log = Log(["Ann", "Ben", "Cat", "Dov"])
    h = log.hand(dealer=0)
    h.go(0); h.riichi(1); h.go(2); h.go(3)
    h.go(0)                           # Ann's 2nd discard
    h.ron(1, 0, 8000, yaku=[(1, 1), (7, 1), (52, 2)])
    xml = log.xml(points=[...])
"""

from __future__ import annotations

from urllib.parse import quote

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.mjlog import encode_meld
from tenhou_tools.tiles import parse_tiles

_FILLER = [k for k in range(27) if k % 9 not in (0, 8)]  # 2-8 of each suit: never yaochuu


def _shown(n: int) -> str:
    """Tiles of a hand the statistics never look at (dealt hands, shown hands, a winner's hand)."""
    return ",".join(str(t) for t in range(n))


class Log:
    def __init__(self, names: list[str], *, players: int = 4, go_type: int | None = None,
                 start: int | None = None):
        self.players = players
        self.names = list(names) + [""] * (4 - len(names))
        start = start if start is not None else (25000 if players == 4 else 35000)
        self.scores = [start] * players + [0] * (4 - players)
        self.go_type = go_type if go_type is not None else (169 if players == 4 else 185)
        self.tags: list[str] = []
        self.sticks = 0
        self.round = -1
        self.last_end: int | None = None  # index in tags of the last hand-end tag

    def hand(self, dealer: int, *, honba: int = 0) -> HandLog:
        self.round += 1
        return HandLog(self, dealer, honba)

    def xml(self, points: list[float]) -> bytes:
        """The whole log; ``points`` are the owari game points of each seat."""
        final = list(self.scores)
        if self.sticks:
            first = sorted(range(self.players), key=lambda s: (-final[s], s))[0]
            final[first] += 1000 * self.sticks
        pairs = [f"{final[s] // 100},{points[s] if s < len(points) else 0.0:.1f}" for s in range(4)]
        tag = self.tags[self.last_end]
        self.tags[self.last_end] = tag[:-2] + f' owari="{",".join(pairs)}"/>'
        names = " ".join(f'n{s}="{quote(n)}"' for s, n in enumerate(self.names))
        head = (f'<mjloggm ver="2.3"><GO type="{self.go_type}" lobby="0"/>'
                f'<UN {names} dan="10,10,10,0" rate="1500,1500,1500,1500" sx="M,M,M,C"/>'
                '<TAIKYOKU oya="0"/>')
        return (head + "".join(self.tags) + "</mjloggm>").encode()


class HandLog:
    def __init__(self, log: Log, dealer: int, honba: int):
        self.log = log
        self.dealer = dealer
        self.honba = honba
        self.used: set[int] = set()
        self.filler = 0
        self.last_discard: tuple[int, int] | None = None
        self.pons: dict[int, Meld] = {}
        self.ended = False
        dora = self.tile("9p")
        hands = [_shown(13) if s < log.players else "" for s in range(4)]
        hai = " ".join(f'hai{s}="{h}"' for s, h in enumerate(hands))
        ten = ",".join(str(v // 100) for v in log.scores)
        log.tags.append(f'<INIT seed="{log.round},{honba},{log.sticks},0,0,{dora}" ten="{ten}" '
                        f'oya="{dealer}" {hai}/>')

    # -- tiles

    def tile(self, text: str) -> int:
        k = parse_tiles(text)[0] >> 2
        for copy in (1, 2, 3, 0):
            if k * 4 + copy not in self.used:
                self.used.add(k * 4 + copy)
                return k * 4 + copy
        raise ValueError(f"no free copy of {text}")

    def filler_tile(self) -> int:
        for _ in range(len(_FILLER) * 4):
            k = _FILLER[self.filler % len(_FILLER)]
            self.filler += 1
            for copy in (1, 2, 3, 0):
                if k * 4 + copy not in self.used:
                    self.used.add(k * 4 + copy)
                    return k * 4 + copy
        raise ValueError("out of filler tiles")

    def _pick(self, text: str | None) -> int:
        return self.tile(text) if text else self.filler_tile()

    # -- play

    def draw(self, seat: int, text: str | None = None) -> int:
        t = self._pick(text)
        self.log.tags.append(f"<{'TUVW'[seat]}{t}/>")
        return t

    def discard(self, seat: int, text: str | None = None) -> int:
        t = self._pick(text)
        self.log.tags.append(f"<{'DEFG'[seat]}{t}/>")
        self.last_discard = (seat, t)
        return t

    def go(self, seat: int, text: str | None = None) -> int:
        """A draw and a discard (of ``text``, or of a simple tile)."""
        self.draw(seat)
        return self.discard(seat, text)

    def rounds(self, order: list[int], times: int = 1) -> None:
        for _ in range(times):
            for seat in order:
                self.go(seat)

    def riichi(self, seat: int, *, accepted: bool = True, text: str | None = None) -> None:
        """Draw, declare, discard; with ``accepted``, the stick is paid (step 2)."""
        self.draw(seat)
        self.log.tags.append(f'<REACH who="{seat}" step="1"/>')
        self.discard(seat, text)
        if accepted:
            self.accept(seat)

    def accept(self, seat: int) -> None:
        self.log.scores[seat] -= 1000
        self.log.sticks += 1
        ten = ",".join(str(v // 100) for v in self.log.scores)
        self.log.tags.append(f'<REACH who="{seat}" ten="{ten}" step="2"/>')

    def _meld(self, seat: int, meld: Meld) -> None:
        self.log.tags.append(f'<N who="{seat}" m="{encode_meld(meld, seat)}"/>')

    def pon(self, seat: int) -> None:
        """Pon the last discard."""
        from_seat, called = self.last_discard
        k = called >> 2
        mine = [k * 4 + c for c in range(4) if k * 4 + c != called and k * 4 + c not in self.used][:2]
        self.used.update(mine)
        meld = Meld(CallKind.PON, tuple(sorted([called, *mine])), called, from_seat, None, 0)
        self.pons[seat] = meld
        self._meld(seat, meld)

    def chi(self, seat: int) -> None:
        """Chi the last discard (which must be a 1-7 of a suit) with the two tiles above it."""
        from_seat, called = self.last_discard
        k = called >> 2
        mine = [self.tile_of_kind(k + 1), self.tile_of_kind(k + 2)]
        self._meld(seat, Meld(CallKind.CHI, tuple(sorted([called, *mine])), called, from_seat, None, 0))

    def open_kan(self, seat: int) -> None:
        from_seat, called = self.last_discard
        k = called >> 2
        tiles = tuple(range(k * 4, k * 4 + 4))
        self.used.update(tiles)
        self._meld(seat, Meld(CallKind.OPEN_KAN, tiles, called, from_seat, None, 0))
        self.draw(seat)

    def closed_kan(self, seat: int, text: str) -> None:
        k = parse_tiles(text)[0] >> 2
        tiles = tuple(range(k * 4, k * 4 + 4))
        self.used.update(tiles)
        self._meld(seat, Meld(CallKind.CLOSED_KAN, tiles, None, None, None, 0))
        self.draw(seat)

    def added_kan(self, seat: int) -> None:
        """Add the fourth tile to the seat's pon (no replacement draw: tests rob it)."""
        pon = self.pons[seat]
        k = pon.tiles[0] >> 2
        added = next(k * 4 + c for c in range(4) if k * 4 + c not in pon.tiles)
        self.used.add(added)
        meld = Meld(CallKind.ADDED_KAN, tuple(sorted([*pon.tiles, added])), pon.called, pon.from_seat,
                    added, 0)
        self._meld(seat, meld)

    def kita(self, seat: int) -> None:
        t = self.tile("4z")
        self._meld(seat, Meld(CallKind.KITA, (t,), None, None, None, 0))
        self.draw(seat)

    def tile_of_kind(self, k: int) -> int:
        for copy in (1, 2, 3, 0):
            if k * 4 + copy not in self.used:
                self.used.add(k * 4 + copy)
                return k * 4 + copy
        raise ValueError(f"no free copy of kind {k}")

    # -- endings

    def _end(self, tag: str, deltas: list[int]) -> None:
        log = self.log
        before = list(log.scores)
        sc = ",".join(f"{before[s] // 100},{deltas[s] // 100}" for s in range(4))
        for s in range(4):
            log.scores[s] += deltas[s]
        log.last_end = len(log.tags)
        log.tags.append(tag.replace("{sc}", sc))

    def _agari(self, who: int, from_who: int, points: int, deltas: list[int], *, fu: int,
               limit: int, yaku, yakuman, sticks: int) -> None:
        hand = _shown(14)
        attrs = f'yaku="{",".join(f"{y},{h}" for y, h in yaku)}"' if yaku else \
            f'yakuman="{",".join(map(str, yakuman))}"'
        tag = (f'<AGARI ba="{self.honba},{sticks}" hai="{hand}" machi="{hand.split(",")[-1]}" '
               f'ten="{fu},{points},{limit}" {attrs} doraHai="{self.tile("1s")}" who="{who}" '
               f'fromWho="{from_who}" sc="{{sc}}"/>')
        self._end(tag, deltas)

    def ron(self, who: int, from_who: int, points: int, *, yaku=((8, 1),), yakuman=(), fu: int = 30,
            limit: int = 0, take_sticks: bool = True) -> None:
        """A ron: the hand's ``points`` plus 300 a honba from the discarder, plus the sticks on
        the table (``take_sticks=False`` for the second winner of a double ron)."""
        sticks = self.log.sticks if take_sticks else 0
        deltas = [0, 0, 0, 0]
        deltas[who] += points + 300 * self.honba + 1000 * sticks
        deltas[from_who] -= points + 300 * self.honba
        self.log.sticks -= sticks
        self._agari(who, from_who, points, deltas, fu=fu, limit=limit, yaku=yaku, yakuman=yakuman,
                    sticks=sticks)

    def tsumo(self, who: int, payments: dict[int, int], *, yaku=((0, 1),), yakuman=(), fu: int = 30,
              limit: int = 0) -> None:
        """A tsumo: ``payments`` is what each other seat pays for the hand (honba added here)."""
        points = sum(payments.values())
        deltas = [0, 0, 0, 0]
        for seat, paid in payments.items():
            deltas[seat] -= paid + 100 * self.honba
            deltas[who] += paid + 100 * self.honba
        deltas[who] += 1000 * self.log.sticks
        sticks = self.log.sticks
        self.log.sticks = 0
        self._agari(who, who, points, deltas, fu=fu, limit=limit, yaku=yaku, yakuman=yakuman,
                    sticks=sticks)

    def exhaustive(self, tenpai: list[int], deltas: list[int], *, nagashi: bool = False) -> None:
        hands = "".join(f' hai{s}="{_shown(13)}"' for s in tenpai)
        kind = ' type="nm"' if nagashi else ""
        self._end(f'<RYUUKYOKU ba="{self.honba},{self.log.sticks}" sc="{{sc}}"{kind}{hands}/>', deltas)

    def abort(self, kind: str, shown: list[int] = ()) -> None:
        size = 14 if kind == "yao9" else 13
        hands = "".join(f' hai{s}="{_shown(size)}"' for s in shown)
        self._end(f'<RYUUKYOKU ba="{self.honba},{self.log.sticks}" sc="{{sc}}" type="{kind}"{hands}/>',
                  [0, 0, 0, 0])
