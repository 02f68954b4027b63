#!/usr/bin/env python3
"""Regenerate every hand's wall of every corpus game and compare it with the log.

For each game with a usable seed (``SHUFFLE seed`` or per-hand ``INIT shuffle``) and each hand:
the dice (``INIT seed[3..4]`` + 1), the dora indicator (``seed[5]``), every ``hai0..hai3``
(content and order), every draw tag in order (live or replacement: a draw is a replacement draw
iff the same seat's previous action, ignoring ``DORA``, was an ``N`` that is a kan or a kita),
each ``DORA`` tile, each ``AGARI``'s ``doraHai`` / ``doraHaiUra``, and at an exhaustive draw
that the live wall was used up exactly.

Usage::

    python scripts/check_wall.py [CORPUS_DIR] [--jobs 2] [--source lxml|parser] [-v]

``CORPUS_DIR`` defaults to ``$TENHOU_CORPUS`` or ``../shared/corpus`` from the repository root;
the games are ``CORPUS_DIR/mjlog/*/*.xml.gz``. Exit status 1 if anything mismatched.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tenhou_tools.rules.wall import (  # noqa: E402
    HandWall,
    WallGenerator,
    WallSeedError,
    hand_wall_from_init_shuffle,
)

_DRAW = re.compile(r"([TUVW])(\d+)\Z")
_DISCARD = re.compile(r"([DEFG])(\d+)\Z")

# A neutral per-hand event list, produced either from the XML (lxml) or from the parser.
#   ("draw", seat, tile, parser_rinshan_flag_or_None)
#   ("discard", seat)
#   ("call", seat, is_kan_or_kita)
#   ("dora", tile)
#   ("agari", dora_tuple, ura_tuple)
#   ("ryuukyoku", exhaustive)


@dataclass
class HandData:
    dealer: int
    dice: tuple[int, int]
    dora: int
    hai: tuple[tuple[int, ...], ...]
    shuffle: str | None
    events: list[tuple] = field(default_factory=list)


@dataclass
class GameData:
    seed: str | None
    players: int
    hands: list[HandData]


def _ints(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    return tuple(int(x) for x in text.split(","))


def read_lxml(path: Path) -> GameData:
    from lxml import etree

    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = etree.fromstring(data)
    seed = None
    players = 4
    hands: list[HandData] = []
    hand: HandData | None = None
    for el in root:
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if tag == "SHUFFLE":
            seed = el.get("seed")
        elif tag == "GO":
            players = 3 if int(el.get("type", "0")) & 0x10 else 4
        elif tag == "INIT":
            s = _ints(el.get("seed"))
            hand = HandData(
                dealer=int(el.get("oya")),
                dice=(s[3] + 1, s[4] + 1),
                dora=s[5],
                hai=tuple(_ints(el.get(f"hai{k}")) for k in range(4)),
                shuffle=el.get("shuffle"),
            )
            hands.append(hand)
        elif hand is None:
            continue
        elif m := _DRAW.match(tag):
            hand.events.append(("draw", "TUVW".index(m[1]), int(m[2]), None))
        elif m := _DISCARD.match(tag):
            hand.events.append(("discard", "DEFG".index(m[1])))
        elif tag == "N":
            code = int(el.get("m"))
            hand.events.append(("call", int(el.get("who")), code & 0x0C == 0))
        elif tag == "DORA":
            hand.events.append(("dora", int(el.get("hai"))))
        elif tag == "AGARI":
            hand.events.append(
                ("agari", _ints(el.get("doraHai")), _ints(el.get("doraHaiUra")))
            )
        elif tag == "RYUUKYOKU":
            hand.events.append(("ryuukyoku", el.get("type") in (None, "nm")))
    return GameData(seed, players, hands)


def read_parser(path: Path) -> GameData:
    from tenhou_tools import events as ev
    from tenhou_tools.sources.files import read_game

    game = read_game(path)
    header = game.header
    seed = header.shuffle.seed if header.shuffle else None
    players = header.ruleset.players
    hands: list[HandData] = []
    for h in game.hands:
        init = h.init
        hand = HandData(
            dealer=init.dealer,
            dice=tuple(init.dice),
            dora=init.dora_indicator,
            hai=tuple(tuple(x) for x in init.hands) + ((),) * (4 - len(init.hands)),
            shuffle=init.shuffle,
        )
        for e in h.events:
            if isinstance(e, ev.Draw):
                hand.events.append(("draw", e.seat, e.tile, e.rinshan))
            elif isinstance(e, ev.Discard):
                hand.events.append(("discard", e.seat))
            elif isinstance(e, ev.Call):
                k = e.meld.kind
                hand.events.append(("call", e.seat, k.is_kan or k is ev.CallKind.KITA))
            elif isinstance(e, ev.NewDora):
                hand.events.append(("dora", e.tile))
            elif isinstance(e, ev.Agari):
                hand.events.append(
                    ("agari", tuple(e.dora_indicators), tuple(e.ura_indicators))
                )
            elif isinstance(e, ev.Ryuukyoku):
                hand.events.append(("ryuukyoku", not e.kind.is_abortive))
        hands.append(hand)
    return GameData(seed, players, hands)


# ------------------------------------------------------------------------------------------


@dataclass
class Stats:
    games: int = 0
    hands: int = 0
    deals: int = 0
    draws: int = 0
    rinshan: int = 0
    dora_tags: int = 0
    agari_dora: int = 0
    ura: int = 0
    exhaustive: int = 0
    mismatches: int = 0
    wall_seconds: float = 0.0

    def add(self, other: Stats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def game_format(game: GameData) -> str:
    if game.seed is not None and game.seed.strip():
        return game.seed.split(",", 1)[0]
    if game.hands and all(h.shuffle for h in game.hands):
        words = {len(h.shuffle.split(",")) - 1 for h in game.hands}
        return "INIT " + game.hands[0].shuffle.split(",", 1)[0] + "/" + "+".join(
            str(w) for w in sorted(words)
        )
    return "no seed"


def check_hand(hw: HandWall, hand: HandData, players: int, stats: Stats, bad: list[str]) -> None:
    def miss(what: str) -> None:
        stats.mismatches += 1
        bad.append(what)

    if hw.dice != hand.dice:
        miss(f"dice {hand.dice} != wall {hw.dice}")
    if hw.dora_indicators[0] != hand.dora:
        miss(f"dora indicator {hand.dora} != wall {hw.dora_indicators[0]}")
    for s in range(4):
        if hw.deal[s] != hand.hai[s]:
            miss(f"hai{s} {hand.hai[s]} != wall {hw.deal[s]}")
        elif hand.hai[s]:
            stats.deals += 1
    live = rin = 0
    dora_next = 1
    kan_pending = [False] * 4  # seat's previous action was a kan or kita
    for i, e in enumerate(hand.events):
        kind = e[0]
        if kind == "draw":
            _, seat, tile, flag = e
            if kan_pending[seat]:
                if flag is False:
                    miss(f"event {i}: parser says live draw, expected replacement")
                if rin >= len(hw.rinshan):
                    miss(f"event {i}: replacement draw #{rin + 1}: beyond the dead wall")
                elif hw.rinshan[rin] != tile:
                    miss(f"event {i}: replacement draw #{rin + 1} {tile} != wall {hw.rinshan[rin]}")
                else:
                    stats.rinshan += 1
                rin += 1
            else:
                if flag is True:
                    miss(f"event {i}: parser says replacement draw, expected live")
                if live >= len(hw.live) - rin:
                    miss(f"event {i}: live draw #{live + 1} after the live wall ran out")
                elif hw.live[live] != tile:
                    miss(f"event {i}: live draw #{live + 1} {tile} != wall {hw.live[live]}")
                else:
                    stats.draws += 1
                live += 1
            kan_pending[seat] = False
        elif kind == "discard":
            kan_pending[e[1]] = False
        elif kind == "call":
            kan_pending[e[1]] = e[2]
        elif kind == "dora":
            if dora_next >= len(hw.dora_indicators):
                miss(f"event {i}: DORA #{dora_next} beyond the fifth indicator")
            elif hw.dora_indicators[dora_next] != e[1]:
                miss(f"event {i}: DORA {e[1]} != wall {hw.dora_indicators[dora_next]}")
            else:
                stats.dora_tags += 1
            dora_next += 1
        elif kind == "agari":
            dora, ura = e[1], e[2]
            if dora != hw.dora_indicators[: len(dora)]:
                miss(f"event {i}: doraHai {dora} != wall {hw.dora_indicators[: len(dora)]}")
            else:
                stats.agari_dora += len(dora)
            if ura:
                if ura != hw.ura_indicators[: len(ura)] or len(ura) != len(dora):
                    miss(f"event {i}: doraHaiUra {ura} != wall {hw.ura_indicators[: len(dora)]}")
                else:
                    stats.ura += len(ura)
        elif kind == "ryuukyoku" and e[1]:
            if live != len(hw.live) - rin:
                miss(f"event {i}: exhaustive draw after {live} live draws, wall has {len(hw.live) - rin}")
            else:
                stats.exhaustive += 1


def check_file(args: tuple[str, str]) -> tuple[str, int, Stats, list[str]]:
    path, source = args
    try:
        game = read_parser(Path(path)) if source == "parser" else read_lxml(Path(path))
    except Exception as exc:  # noqa: BLE001 - report, never crash the whole run
        return ("read error", 0, Stats(games=1, mismatches=1), [f"{path}: {exc!r}"])
    fmt = game_format(game)
    stats = Stats(games=1)
    bad: list[str] = []
    if fmt == "no seed":
        stats.hands = len(game.hands)
        return (fmt, game.players, stats, bad)
    gen: WallGenerator | None = None
    t0 = time.perf_counter()
    try:
        if not fmt.startswith("INIT "):
            gen = WallGenerator(game.seed, game.players)
    except WallSeedError:
        stats.hands = len(game.hands)
        return (f"unusable seed ({fmt[:16]})", game.players, stats, [])
    stats.wall_seconds += time.perf_counter() - t0
    for n, hand in enumerate(game.hands):
        t0 = time.perf_counter()
        try:
            if gen is not None:
                hw = gen.next_hand(hand.dealer)
            else:
                hw = hand_wall_from_init_shuffle(hand.shuffle, game.players, hand.dealer)
        except WallSeedError as exc:
            stats.mismatches += 1
            bad.append(f"{path} hand {n + 1}: seed unusable: {exc}")
            continue
        stats.wall_seconds += time.perf_counter() - t0
        stats.hands += 1
        hand_bad: list[str] = []
        check_hand(hw, hand, game.players, stats, hand_bad)
        bad += [f"{path} hand {n + 1}: {b}" for b in hand_bad]
    return (fmt, game.players, stats, bad)


def default_corpus() -> Path:
    env = os.environ.get("TENHOU_CORPUS")
    return Path(env) if env else (ROOT / ".." / "shared" / "corpus").resolve()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=None)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--source", choices=("lxml", "parser"), default="lxml")
    ap.add_argument("--glob", default="mjlog/*/*.xml.gz", help="files under CORPUS_DIR")
    ap.add_argument("--limit", type=int, default=0, help="check only the first N files")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every mismatch")
    opts = ap.parse_args(argv)
    corpus = opts.corpus or default_corpus()
    files = sorted(str(p) for p in corpus.glob(opts.glob))
    if opts.limit:
        files = files[: opts.limit]
    if not files:
        print(f"no games match {corpus}/{opts.glob}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    work = [(f, opts.source) for f in files]
    if opts.jobs > 1:
        with ProcessPoolExecutor(opts.jobs) as pool:
            results = list(pool.map(check_file, work, chunksize=16))
    else:
        results = [check_file(w) for w in work]
    elapsed = time.perf_counter() - t0

    table: dict[tuple[str, int], Stats] = defaultdict(Stats)
    all_bad: list[str] = []
    bad_games: Counter[tuple[str, int]] = Counter()
    for fmt, players, stats, bad in results:
        table[(fmt, players)].add(stats)
        all_bad += bad
        if bad:
            bad_games[(fmt, players)] += 1

    cols = ("games", "hands", "deals", "draws", "rinshan", "dora_tags", "agari_dora", "ura",
            "exhaustive", "mismatches")
    print(f"{'format':32} {'p':>1} " + " ".join(f"{c:>10}" for c in cols) + f" {'bad games':>9}")
    total = Stats()
    for (fmt, players), st in sorted(table.items()):
        total.add(st)
        print(f"{fmt[:32]:32} {players:>1} " + " ".join(f"{getattr(st, c):>10}" for c in cols)
              + f" {bad_games[(fmt, players)]:>9}")
    print(f"{'total':32} {'':>1} " + " ".join(f"{getattr(total, c):>10}" for c in cols)
          + f" {sum(bad_games.values()):>9}")
    checked = [st for (fmt, _), st in table.items() if fmt != "no seed" and st.hands]
    g = sum(st.games for st in checked)
    h = sum(st.hands for st in checked)
    secs = sum(st.wall_seconds for st in checked)
    if g:
        print(f"\nwall generation: {secs * 1e6 / g:.0f} us/game, {secs * 1e6 / h:.1f} us/hand "
              f"({g} games, {h} hands, one core); whole check {elapsed:.1f} s "
              f"with {opts.jobs} job(s), source={opts.source}")
    if all_bad:
        print(f"\n{len(all_bad)} mismatches", file=sys.stderr)
        for b in all_bad if opts.verbose else all_bad[:30]:
            print("  " + b, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
