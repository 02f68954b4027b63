#!/usr/bin/env python3
"""Measure how often each danger class is a winning tile of a riichi hand, on the corpus.

    python scripts/measure_danger.py [--corpus ../shared/corpus] [--sample 1] [--out counts.json]
    python scripts/measure_danger.py --from counts.json --table tenhou_tools/rules/danger_rates.py

kobalab's method (docs/research/ANALYSIS.md §4.1), counted at every discard instead of only
right after the riichi: at each discard made while an opponent is in riichi (their declaration
discard made, the hand not over), for each kind in the discarder's hand before the discard, its
class against that opponent from the discarder's view (``rules.danger``: its own hand, the
ponds, the melds, the dora indicators) and whether the kind is a winning kind of the riichi
hand (its waits by shape, which the log shows). The rate of a cell is winning / total. Every
pair (discarder, riichi opponent) counts once per discard; a kind held twice counts once.

It also checks, at every ron on a discard by a player in riichi, that the tile dealt in was not
genbutsu against the winner (a fact of the furiten rules).

Four-player and three-player games are counted apart. ``--table`` turns the counts into the
data module the analysis reads (``tenhou_tools/rules/danger_rates.py``): the base rate of each
(class, grade, turn bucket) and a factor per (class, flag) measured as observed / expected
(the flagged cases' winning count over what their cells' base rates predict).

The board before each discard comes from the one fold in one pass per hand
(``replay.fold.hand_boards``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenhou_tools.analysis.defence import opponents_in_riichi, visible_from  # noqa: E402
from tenhou_tools.events import Agari, Discard, Game  # noqa: E402
from tenhou_tools.mjlog import parse_game  # noqa: E402
from tenhou_tools.replay.board import Board  # noqa: E402
from tenhou_tools.replay.fold import hand_boards  # noqa: E402
from tenhou_tools.rules.danger import DangerClass, assess, dora_kinds  # noqa: E402
from tenhou_tools.rules.hand import counts34, waits  # noqa: E402

FLAG_ORDER = ("riichi_suji", "early_outside", "dora")


def key(cls: str, grade: str, flags: frozenset[str], turn: int) -> str:
    bits = "".join("1" if f in flags else "0" for f in FLAG_ORDER)
    return f"{cls}|{grade}|{bits}|{turn}"


class Tally:
    def __init__(self) -> None:
        self.cells: dict[int, Counter[str]] = {4: Counter(), 3: Counter()}
        self.wins: dict[int, Counter[str]] = {4: Counter(), 3: Counter()}
        self.deal_ins: dict[int, Counter[str]] = {4: Counter(), 3: Counter()}
        self.games = Counter[int]()
        self.moments = Counter[int]()
        self.failed: list[str] = []

    def to_json(self) -> dict[str, object]:
        return {
            "games": {str(p): n for p, n in self.games.items()},
            "moments": {str(p): n for p, n in self.moments.items()},
            "cells": {str(p): {k: [self.cells[p][k], self.wins[p][k]] for k in sorted(self.cells[p])}
                      for p in (4, 3)},
            "deal_ins": {str(p): dict(self.deal_ins[p]) for p in (4, 3)},
            "failed": self.failed,
        }


def measure_game(game: Game, tally: Tally) -> None:
    """Every discard made while an opponent's riichi declaration discard is out, on the one
    fold's board just before it (``replay.fold.hand_boards``: every step in one pass)."""
    players = game.header.ruleset.players
    sanma = players == 3
    tally.games[players] += 1
    for position, hand in enumerate(game.hands):
        events = hand.events
        boards = hand_boards(game, position)
        for i, event in enumerate(events):
            if not isinstance(event, Discard):
                continue
            board = boards[i]
            if any(p.riichi for r, s in enumerate(board.seats) if r != event.seat for p in s.pond):
                count_moment(game, board, event, events, i, sanma, players, tally)


def count_moment(game: Game, board: Board, event: Discard, events: tuple, i: int, sanma: bool, players: int,
                 tally: Tally) -> None:
    seat = event.seat
    visible = visible_from(board, seat, sanma=sanma)
    dora = dora_kinds(board.dora_indicators, sanma=sanma)
    hand_kinds = sorted({t >> 2 for t in board.seats[seat].concealed})
    rons = []
    for later in events[i + 1:]:
        if not isinstance(later, Agari):
            break
        rons.append(later)
    for opponent in opponents_in_riichi(board, seat):
        tally.moments[players] += 1
        winning = waits(counts34(board.seats[opponent.seat].concealed))
        for k in hand_kinds:
            d = assess(k, opponent, visible, dora=dora, sanma=sanma)
            cell = key(d.danger_class.value, d.grade, frozenset(f.value for f in d.flags), d.turn)
            tally.cells[players][cell] += 1
            if k in winning:
                tally.wins[players][cell] += 1
        for ron in rons:
            if ron.who == opponent.seat:
                dealt = assess(event.tile >> 2, opponent, visible, dora=dora, sanma=sanma)
                tally.deal_ins[players][dealt.danger_class.value] += 1
                if dealt.danger_class is DangerClass.GENBUTSU:
                    tally.failed.append(f"{game.log_id} round {board.round}: ron on genbutsu")


# -- the rates table -------------------------------------------------------------------------

TURNS = (("1-6", 1, 6), ("7-9", 7, 9), ("10-12", 10, 12), ("13-15", 13, 15), ("16+", 16, 99))


def bucket(turn: int) -> str:
    return next(label for label, lo, hi in TURNS if lo <= turn <= hi)


def summarise(cells: dict[str, list[int]]) -> tuple[dict, dict, dict]:
    """(base cells (class, grade, bucket) -> [total, winning], flag factors (class, flag) ->
    [cases, winning, expected], class totals class -> [total, winning])."""
    base: dict[tuple[str, str, str], list[int]] = {}
    by_class: dict[str, list[int]] = {}
    for k, (total, won) in cells.items():
        cls, grade, bits, turn = k.split("|")
        if bits != "000":
            continue
        cell = base.setdefault((cls, grade, bucket(int(turn))), [0, 0])
        cell[0] += total
        cell[1] += won
    for k, (total, won) in cells.items():
        cls = k.split("|")[0]
        c = by_class.setdefault(cls, [0, 0])
        c[0] += total
        c[1] += won
    factors: dict[tuple[str, str], list[float]] = {}
    for k, (total, won) in cells.items():
        cls, grade, bits, turn = k.split("|")
        if bits == "000":
            continue
        ref = base.get((cls, grade, bucket(int(turn))))
        if not ref or not ref[0]:
            continue
        expected = total * ref[1] / ref[0]
        for flag, bit in zip(FLAG_ORDER, bits, strict=True):
            if bit == "1":
                f = factors.setdefault((cls, flag), [0, 0, 0.0])
                f[0] += total
                f[1] += won
                f[2] += expected
    return base, factors, by_class


def print_tables(data: dict) -> None:
    for p in ("4", "3"):
        cells = data["cells"][p]
        if not cells:
            continue
        base, factors, by_class = summarise(cells)
        games, moments = data["games"].get(p, 0), data["moments"].get(p, 0)
        print(f"\n## {p}-player: {games} games, {moments} (discard, riichi) moments")
        print("\n| class | cases | winning | % |\n|---|---|---|---|")
        for cls, (total, won) in sorted(by_class.items(), key=lambda kv: kv[1][1] / max(1, kv[1][0])):
            print(f"| {cls} | {total:,} | {won:,} | {100 * won / max(1, total):.2f} |")
        print("\n| class | grade | " + " | ".join(label for label, _, _ in TURNS) + " | all |")
        print("|---|---|" + "---|" * (len(TURNS) + 1))
        grades = sorted({(c, g) for c, g, _ in base}, key=lambda cg: [c.value for c in DangerClass].index(cg[0]))
        for cls, grade in grades:
            row, tt, tw = [], 0, 0
            for label, _, _ in TURNS:
                total, won = base.get((cls, grade, label), [0, 0])
                tt += total
                tw += won
                row.append(f"{100 * won / total:.2f} ({total:,})" if total else "–")
            print(f"| {cls} | {grade or '–'} | " + " | ".join(row) + f" | {100 * tw / max(1, tt):.2f} ({tt:,}) |")
        print("\n| class | flag | cases | winning | expected | factor |\n|---|---|---|---|---|---|")
        for (cls, flag), (total, won, expected) in sorted(factors.items()):
            factor = won / expected if expected else 0
            print(f"| {cls} | {flag} | {total:,} | {won:,} | {expected:,.0f} | {factor:.2f} |")
        print("\ndeal-ins into a riichi by class of the tile dealt:", data["deal_ins"][p])
    print("\nron on genbutsu:", len(data["failed"]), data["failed"][:5])


def write_table(data: dict, out: Path, source: str) -> None:
    lines = [
        '"""The measured danger table (data, written by ``scripts/measure_danger.py --table``).',
        "",
        "Source: " + source + ".",
        "Method and definitions: docs/analysis.md, \"Measured deal-in rates\". ``BASE[players]``:",
        "(class, grade, turn bucket) -> (cases, winning); ``FACTORS[players]``: (class, flag) ->",
        "(cases, winning, expected from their cells' base rates). ``rules.danger.danger_rate`` reads them.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "MIN_CASES = 200",
        '"""A cell with fewer cases borrows the rate of its grade over every turn, then of its class."""',
        "",
        "BASE: dict[int, dict[tuple[str, str, str], tuple[int, int]]] = {",
    ]
    factor_lines = ["FACTORS: dict[int, dict[tuple[str, str], tuple[int, int, float]]] = {"]
    for p in ("4", "3"):
        base, factors, _ = summarise(data["cells"][p])
        lines.append(f"    {p}: {{")
        for (cls, grade, label), (total, won) in sorted(base.items()):
            lines.append(f"        ({cls!r}, {grade!r}, {label!r}): ({total}, {won}),")
        lines.append("    },")
        factor_lines.append(f"    {p}: {{")
        for (cls, flag), (total, won, expected) in sorted(factors.items()):
            factor_lines.append(f"        ({cls!r}, {flag!r}): ({total}, {won}, {expected:.1f}),")
        factor_lines.append("    },")
    lines.append("}")
    factor_lines.append("}")
    lines += ["", *factor_lines]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sample", type=int, default=1, help="every N-th game")
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--limit", type=int, default=0, help="at most this many games")
    parser.add_argument("--out", type=Path, help="write the counts (JSON)")
    parser.add_argument("--from", dest="source", type=Path, help="read counts instead of measuring")
    parser.add_argument("--table", type=Path, help="write the rates data module")
    args = parser.parse_args()
    if args.source:
        data = json.loads(args.source.read_text())
    else:
        files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[args.offset::args.sample]
        if args.limit:
            files = files[:args.limit]
        tally = Tally()
        started = time.process_time()
        for n, path in enumerate(files, 1):
            try:
                game = parse_game(path.read_bytes())
                measure_game(replace(game, log_id=game.log_id or path.name.split(".")[0]), tally)
            except Exception as exc:  # noqa: BLE001 - a measurement goes on past one bad game
                tally.failed.append(f"{path.name}: {type(exc).__name__}: {exc}")
            if n % 100 == 0:
                print(f"{n}/{len(files)} games, {time.process_time() - started:.0f} s CPU", file=sys.stderr)
                if args.out:
                    args.out.write_text(json.dumps(tally.to_json()))
        data = tally.to_json()
        data["cpu_s"] = round(time.process_time() - started, 1)
        if args.out:
            args.out.write_text(json.dumps(data))
    print_tables(data)
    if args.table:
        games = ", ".join(f"{n} {p}-player" for p, n in data["games"].items())
        write_table(data, args.table, f"the genuine games of the corpus (mjlog/: {games}\ngames), "
                    "counted by scripts/measure_danger.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
