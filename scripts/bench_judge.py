#!/usr/bin/env python3
"""CPU cost of judging each discard (danger, value, verdict) on real games.

    python scripts/bench_judge.py [--corpus ../shared/corpus] [--sample 40] [--players 4]

For every discard of every N-th genuine log, on the board just before it: the efficiency
analysis (``analysis.discard``, as today), the danger against each opponent in riichi
(``analysis.defence``), the value of the chosen and efficiency-best discards at tenpai and
one-shanten (``analysis.value``), the tiles' kept value and the verdict (``analysis.verdict``).
The boards come from ``replay.engine.board_at`` and are NOT timed (the table state's one-pass
boards replace them); everything else is timed in CPU time, per discard and per game, in one
process (the value's memo tables fill as games go, as in a batch; ``--fresh`` clears them
before each game, as for one ``replay --analysis``).

Prints the median and maximum per discard of the value step and of the whole judgement, and
per East-South game the total judgement CPU, with the verdict counts.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenhou_tools.analysis import value as value_module  # noqa: E402
from tenhou_tools.analysis.defence import danger_against, pond_lengths  # noqa: E402
from tenhou_tools.analysis.discard import analyze_discard  # noqa: E402
from tenhou_tools.analysis.game import meld_count, unseen_from  # noqa: E402
from tenhou_tools.analysis.value import discard_values, han_kept, situation_on  # noqa: E402
from tenhou_tools.analysis.verdict import judge  # noqa: E402
from tenhou_tools.events import Call, Discard, Game, Riichi  # noqa: E402
from tenhou_tools.mjlog import parse_game  # noqa: E402
from tenhou_tools.replay.engine import board_at  # noqa: E402
from tenhou_tools.rules.calls import kuikae_forbidden  # noqa: E402
from tenhou_tools.rules.danger import dora_kinds  # noqa: E402
from tenhou_tools.rules.scoring import ScoringRules  # noqa: E402

VALUED: list[float] = []
"""The value step's time of each discard that was valued (tenpai or one-shanten candidates)."""


def judge_game(game: Game, per_value: list[float], per_discard: list[float], verdicts: Counter,
               parts: Counter | None = None, every: bool = False) -> float:
    """The judgement CPU of one game (boards excluded); ``parts`` adds up each step's seconds."""
    parts = Counter() if parts is None else parts
    valued_times = VALUED
    rules = ScoringRules.from_ruleset(game.header.ruleset)
    sanma = rules.sanma
    total = 0.0
    clock = time.process_time
    for position, hand in enumerate(game.hands):
        events = hand.events
        declared: dict[int, tuple[int, ...]] = {}
        pending: set[int] = set()
        for i, event in enumerate(events):
            if isinstance(event, Riichi) and event.step == 1:
                pending.add(event.seat)
            if not isinstance(event, Discard):
                continue
            board = board_at(game, position, i)
            start = clock()
            me = board.seats[event.seat]
            previous = events[i - 1] if i else None
            forbidden = kuikae_forbidden(previous.meld) if isinstance(previous, Call) and previous.seat == event.seat \
                else frozenset()
            unseen = unseen_from(board.seats, board.dora_indicators, event.seat, sanma=sanma)
            in_riichi = any(p.riichi for p in me.pond)
            try:
                analysis = analyze_discard(me.concealed, meld_count(me.melds), event.tile, unseen, sanma=sanma,
                                           forbidden=forbidden, in_riichi=in_riichi)
            except ValueError:
                break
            d_start = clock()
            danger = danger_against(board, event.seat, event.tile, declared, sanma=sanma)
            v_start = clock()
            values = None
            kept = None
            if not in_riichi and (analysis.loss is not None or every):
                kinds = [analysis.kind, *(o.kind for o in analysis.best)]
                if min(analysis.shanten_after, analysis.best[0].shanten) <= 1:
                    situation = situation_on(board, event.seat, rules)
                    values = discard_values(me.concealed, situation, unseen, kinds, chosen=event.tile)
                else:
                    seat_wind = (event.seat - board.dealer) % len(board.seats)
                    yakuhai = {31, 32, 33, 27 + board.round // 4, 27 + seat_wind}
                    dora = dora_kinds(board.dora_indicators, sanma=sanma)
                    kept = {}
                    for k in kinds:
                        rest = list(me.concealed)
                        rest.remove(event.tile if k == analysis.kind else next(t for t in rest if t >> 2 == k))
                        kept[k] = han_kept(rest, me.melds, dora, yakuhai, red_fives=rules.red_fives)
            v_end = clock()
            if values is not None:
                valued_times.append(v_end - v_start)
            verdict = judge(analysis, forced=in_riichi, danger=danger, values=values, kept=kept)
            end = clock()
            verdicts[verdict.verdict.value] += 1
            parts["efficiency"] += d_start - start
            parts["danger"] += v_start - d_start
            parts["value"] += v_end - v_start
            parts["verdict"] += end - v_end
            per_value.append(v_end - v_start)
            per_discard.append(end - start)
            total += end - start
            if event.seat in pending:
                pending.discard(event.seat)
                declared[event.seat] = pond_lengths(board_at(game, position, i + 1))
    return total


def main() -> int:
    if sys.argv[1:2] == ["--one"]:
        one(Path(sys.argv[2]), "--every" in sys.argv)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--fresh", action="store_true", help="clear the value memo before each game")
    parser.add_argument("--every", action="store_true",
                        help="value every choice at tenpai or one-shanten (not only the discards off the best)")
    parser.add_argument("--single", type=int, default=0,
                        help="also judge this many games each in a fresh interpreter (cold tables)")
    args = parser.parse_args()
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::args.sample]
    per_value: list[float] = []
    per_discard: list[float] = []
    per_game: list[float] = []
    per_part: dict[str, list[float]] = {}
    verdicts: Counter = Counter()
    for path in files:
        game = parse_game(path.read_bytes())
        rules = game.header.ruleset
        if rules.players != args.players or not rules.east_south:
            continue
        if args.fresh:
            value_module._SCORES.clear()
            value_module._LOOKAHEAD.clear()
        parts: Counter = Counter()
        per_game.append(judge_game(game, per_value, per_discard, verdicts, parts, args.every))
        for name, seconds in parts.items():
            per_part.setdefault(name, []).append(seconds)
    ms = 1000
    print(f"{len(per_game)} East-South {args.players}-player games, {len(per_discard)} discards"
          f"{' (memo cleared per game)' if args.fresh else ''}")
    print(f"value step per discard: median {statistics.median(per_value) * ms:.3f} ms, "
          f"max {max(per_value) * ms:.1f} ms")
    if VALUED:
        print(f"value step per valued discard ({len(VALUED)} of them): median "
              f"{statistics.median(VALUED) * ms:.2f} ms, max {max(VALUED) * ms:.1f} ms")
    print(f"judgement per discard (efficiency + danger + value + verdict): median "
          f"{statistics.median(per_discard) * ms:.3f} ms, max {max(per_discard) * ms:.1f} ms")
    print(f"judgement per game: median {statistics.median(per_game):.3f} s, max {max(per_game):.3f} s")
    print("per game, each step: " + ", ".join(
        f"{name} median {statistics.median(v):.3f} s, max {max(v):.3f} s" for name, v in per_part.items()))
    print("verdicts:", dict(verdicts.most_common()))
    if args.single:
        chosen = [p for p in files if _east_south(p, args.players)][:args.single]
        cold = [float(subprocess.run([sys.executable, __file__, "--one", str(p)] + (["--every"] if args.every else []),
                                     capture_output=True, text=True, check=True).stdout) for p in chosen]
        print(f"one game in a fresh interpreter (tables cold), judgement CPU: median {statistics.median(cold):.3f} s, "
              f"max {max(cold):.3f} s over {len(cold)} games")
    return 0


def _east_south(path: Path, players: int) -> bool:
    rules = parse_game(path.read_bytes()).header.ruleset
    return rules.players == players and rules.east_south


def one(path: Path, every: bool) -> None:
    """The judgement CPU of one game, printed (for ``--single``)."""
    print(judge_game(parse_game(path.read_bytes()), [], [], Counter(), None, every))


if __name__ == "__main__":
    raise SystemExit(main())
