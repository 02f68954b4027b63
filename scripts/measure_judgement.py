#!/usr/bin/env python3
"""How the discard verdicts hold up against strong players: the calibration of the
expected-points model on the corpus's Houou games (docs/analysis.md, "Calibration").

    python scripts/measure_judgement.py [--corpus ../shared/corpus] [--sample 1] [--jobs 2] [--out r.json]

Over the discards of 7-dan and higher players (``UN dan`` 16 or more) that were a choice (not
forced by their own riichi), four-player and three-player apart:

* ``loss`` and ``close`` shares, and the agreement (the verdict ``best``: the player's discard is
  the top pick or ties it), with the mean cost in expected points;
* the share of ``loss`` a discard drawn at random among the legal ones would get (from each
  judgement's ``options``: the share of them costing the threshold or more);
* the impossible: a ``loss`` whose ``ev`` is at least the top's; a top pick valued with a ron on
  a furiten hand; a top pick at tenpai that cannot win (no yaku, or no copy left) valued above 0
  (such a top is counted apart when it is the top for its safety alone, valued 0);
* the hindsight check, with the whole log: among the losses, how often the top tile and the
  player's tile were a live winning tile (not furiten) of an opponent already tenpai, facing a
  riichi and not; deal-ins on a tile classed genbutsu (must be none);
* the CPU time of ``analyze_game`` a game.

The full log is read here only to score the model; the analysis itself sees what the discarder
sees.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _corpus import count_files  # noqa: E402

from tenhou_tools.analysis import analyze_game, model  # noqa: E402
from tenhou_tools.analysis.tables import calibration, own_turn  # noqa: E402
from tenhou_tools.analysis.verdict import Verdict, loss_threshold  # noqa: E402
from tenhou_tools.events import Agari, Discard, Event, Room  # noqa: E402
from tenhou_tools.mjlog import parse_game  # noqa: E402
from tenhou_tools.replay.fold import walk_hand  # noqa: E402
from tenhou_tools.replay.state import TableState  # noqa: E402
from tenhou_tools.rules.danger import DangerClass  # noqa: E402
from tenhou_tools.rules.hand import counts34, waits  # noqa: E402

STRONG_DAN = 16
"""七段 (7-dan) and above."""
STUDY_ABSOLUTE = (250, 350, 500, 600, 700, 800, 1000, 1200, 1500)
STUDY_RELATIVE = (0.0,)
"""Loss thresholds tried (``--study``): a loss costs at least the absolute points and at least
that share of the top's ``ev``."""
COST_EDGES = (0, 50, 100, 200, 300, 500, 1000, 2000, 5000)


class _LiveWaits:
    """At each discard: the kinds an opponent already tenpai (and not furiten) would ron; and the
    discarder's turn and whether its hand is open."""

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.live: dict[int, frozenset[int]] = {}

    def before(self, state: TableState, index: int, event: Event) -> None:
        if not isinstance(event, Discard):
            return
        me = state.seats[event.seat]
        _TURNS[(self.hand, index)] = (len(me.pond) + 1, any(m.kind.is_open for m in me.melds))
        live: set[int] = set()
        for o in range(state.players):
            s = state.seats[o]
            if o == event.seat or len(s.concealed) % 3 != 1:
                continue
            kinds = waits(counts34(s.concealed))
            if not kinds:
                continue
            f = state.furiten_of(o)
            if f.discard or f.same_turn or f.riichi:
                continue
            live |= set(kinds)
        self.live[index] = frozenset(live)


_TURNS: dict[tuple[int, int], tuple[int, bool]] = {}
"""(hand, event index) of a discard -> the discarder's turn (its discards with this one) and
whether its hand is open."""


def cost_bucket(cost: float) -> str:
    for low, high in pairwise(COST_EDGES):
        if cost < high:
            return f"{low}-{high}"
    return f"{COST_EDGES[-1]}+"


def measure_file(path: str) -> Counter:
    tally: Counter = Counter()
    try:
        game = parse_game(Path(path).read_bytes())
    except Exception as exc:  # noqa: BLE001 - a measurement goes on past one bad game
        return Counter({f"failed|{Path(path).name}: {exc}": 1})
    if game.header.ruleset.room is not Room.HOUOU:
        return tally
    p = game.header.ruleset.players
    won: dict[tuple[int, int], int] = {}
    for hand in game.hands:
        for e in hand.events:
            if isinstance(e, Agari):
                won[(hand.index, e.who)] = won.get((hand.index, e.who), 0) + e.points
    started = time.process_time()
    analysis = analyze_game(game)
    tally[f"{p}|cpu_ms"] += round(1000 * (time.process_time() - started))
    tally[f"{p}|games"] += 1
    strong = {pl.seat for pl in game.header.players if pl.dan >= STRONG_DAN}
    discards = sum(1 for h in game.hands for e in h.events if isinstance(e, Discard))
    tally[f"{p}|discards"] += discards
    tally[f"{p}|analysed"] += len(analysis.discards)
    live_by_hand = {}
    for position, hand in enumerate(game.hands):
        observer = _LiveWaits(hand.index)
        walk_hand(game, position, observer)
        live_by_hand[hand.index] = observer.live
    for note in analysis.discards:
        j = note.judgement
        for d in note.deal_ins:
            if d.tile_class is DangerClass.GENBUTSU:
                tally[f"{p}|genbutsu_deal_in"] += 1
        if note.seat not in strong or j.verdict is Verdict.FORCED:
            continue
        tally[f"{p}|choices"] += 1
        tied = [o.kind for o in j.options if o.ev >= j.top_ev]
        if note.analysis.kind in tied:
            tally[f"{p}|top_pick_x1000"] += round(1000 / len(tied))
        chosen = j.chosen
        if chosen.value is not None:
            turn, hand_open = _TURNS[(note.hand, note.event_index)]
            cell = f"{p}|cal|{chosen.shanten}|{own_turn(turn)}|{'open' if hand_open else 'closed'}"
            tally[cell + "|cases"] += 1
            tally[cell + "|model"] += round(chosen.win / calibration(p, chosen.shanten, turn, hand_open))
            tally[cell + "|won"] += won.get((note.hand, note.seat), 0)
        tally[f"{p}|verdict|{j.verdict.value}"] += 1
        tally[f"{p}|cost_sum"] += round(j.cost_points)
        if len(j.options) > 1:
            for t in STUDY_ABSOLUTE:
                for r in STUDY_RELATIVE:
                    def lost(cost: float, t: int = t, r: float = r, top: float = max(j.top_ev, 0)) -> bool:
                        return cost >= t and cost >= r * top
                    tally[f"{p}|study|{t}|{r}|player"] += lost(j.cost_points)
                    tally[f"{p}|study|{t}|{r}|random_x1000"] += round(
                        1000 * sum(1 for o in j.options if lost(j.top_ev - o.ev)) / len(j.options))
            tally[f"{p}|random_loss_x1000"] += round(
                1000 * sum(1 for o in j.options if j.top_ev - o.ev >= loss_threshold(p)) / len(j.options))
        if j.verdict is Verdict.LOSS:
            tally[f"{p}|loss_cost|{cost_bucket(j.cost_points)}"] += 1
            tally[f"{p}|reason|{j.reason.value if j.reason else '-'}"] += 1
            if j.ev >= j.top_ev:
                tally[f"{p}|impossible|loss_with_top_ev"] += 1
            live = live_by_hand[note.hand].get(note.event_index, frozenset())
            facing = "riichi" if any(d.riichi for d in note.danger or ()) else "no_riichi"
            tally[f"{p}|hindsight|{facing}|losses"] += 1
            tally[f"{p}|hindsight|{facing}|top_live"] += j.top_kind in live
            tally[f"{p}|hindsight|{facing}|chosen_live"] += note.analysis.kind in live
        elif j.verdict is Verdict.CLOSE:
            tally[f"{p}|close_cost|{cost_bucket(j.cost_points)}"] += 1
        top = j.top
        value = top.value
        if value is not None and value.shanten == 0:
            if value.furiten and any(w.ron is not None for w in value.waits):
                tally[f"{p}|impossible|top_furiten_ron"] += 1
            cannot = value.tiles == 0 or all(w.points <= 0 for w in value.waits)
            if cannot and top.win > 0:
                tally[f"{p}|impossible|top_valued_but_cannot_win"] += 1
            elif cannot:  # a yakuless or dead tenpai that is the top for its safety, valued at 0
                tally[f"{p}|top_cannot_win_chosen_for_safety"] += 1
    return tally


def report(data: dict[str, int]) -> None:
    for p in (4, 3):
        choices = data.get(f"{p}|choices", 0)
        if not choices:
            continue
        games = data[f"{p}|games"]

        def share(key: str, choices: int = choices) -> str:
            return f"{100 * data.get(key, 0) / choices:.1f} %"

        print(f"{p}-player: {games:,} Houou games, {choices:,} choices of 7-dan+ players "
              f"({data[f'{p}|analysed']:,} of {data[f'{p}|discards']:,} discards analysed)")
        print(f"  top pick (ties shared) {data.get(f'{p}|top_pick_x1000', 0) / 10 / choices:.1f} %")
        print(f"  best (agreement) {share(f'{p}|verdict|best')}, close {share(f'{p}|verdict|close')}, "
              f"loss {share(f'{p}|verdict|loss')}; mean cost {data[f'{p}|cost_sum'] / choices:.0f} points")
        print(f"  a random legal discard is a loss {data.get(f'{p}|random_loss_x1000', 0) / 10 / choices:.1f} % "
              "of the time")
        impossible = [f"{k.rsplit('|', 1)[-1]} {n}" for k, n in sorted(data.items())
                      if k.startswith(f"{p}|impossible|")]
        print(f"  impossible: {', '.join(impossible) or 'none'}; a top that cannot win, for its safety: "
              f"{data.get(f'{p}|top_cannot_win_chosen_for_safety', 0)}")
        for facing in ("no_riichi", "riichi"):
            losses = data.get(f"{p}|hindsight|{facing}|losses", 0)
            if losses:
                top = data[f"{p}|hindsight|{facing}|top_live"]
                chosen = data[f"{p}|hindsight|{facing}|chosen_live"]
                print(f"  hindsight ({facing}): of {losses:,} losses the top tile was live for a tenpai opponent "
                      f"{top:,} times, the player's {chosen:,} ({top / max(chosen, 1):.2f}x)")
        print(f"  genbutsu deal-ins: {data.get(f'{p}|genbutsu_deal_in', 0)}; "
              f"CPU {data[f'{p}|cpu_ms'] / games:.0f} ms a game")
        reasons = {k.split("|")[-1]: n for k, n in data.items() if k.startswith(f"{p}|reason|")}
        print(f"  loss reasons: {dict(sorted(reasons.items()))}")
        for t in STUDY_ABSOLUTE:
            cells = []
            for r in STUDY_RELATIVE:
                player = data.get(f"{p}|study|{t}|{r}|player", 0) / choices
                rand = data.get(f"{p}|study|{t}|{r}|random_x1000", 0) / 1000 / choices
                cells.append(f"{r:.1f}: {100 * player:4.1f}/{100 * rand:4.1f}")
            print(f"  threshold {t}: loss share player/random at relative " + ", ".join(cells))
        costs = {k.split("|")[-1]: n for k, n in data.items() if k.startswith(f"{p}|loss_cost|")}
        print(f"  loss costs: {dict(sorted(costs.items(), key=lambda kv: int(kv[0].split('-')[0].rstrip('+'))))}")


def write_calibration(data: dict[str, int], out: Path) -> None:
    """The model's tenpai and one-shanten values against what the seats went on to win: per
    (players, shanten, turn, open or closed), the cases, the model's points (uncalibrated) and
    the points won, as the data module ``tenhou_tools/rules/model_calibration.py``."""
    cells: dict[tuple[str, ...], list[int]] = {}
    for key, n in data.items():
        parts = key.split("|")
        if len(parts) == 6 and parts[1] == "cal":
            cell = (parts[0], parts[2], parts[3], parts[4])
            cells.setdefault(cell, [0, 0, 0])[("cases", "model", "won").index(parts[5])] += n
    games = ", ".join(f"{data.get(f'{p}|games', 0):,} {p}-player" for p in (4, 3))
    lines = [
        '"""The calibration of the discard model\'s tenpai and one-shanten values (docs/analysis.md,',
        '"Calibration").',
        "",
        f"Counted by scripts/measure_judgement.py --calibration on the corpus's Houou games ({games}):",
        "for the discards of 7-dan+ players that left tenpai or one-shanten, the model's uncalibrated",
        "points for the hand left and the points the seat went on to win in that hand. Generated.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "CALIBRATION: dict[tuple[str, ...], tuple[int, ...]] = {",
    ]
    lines += [f"    {cell!r}: {tuple(v)!r}," for cell, v in sorted(cells.items())]
    lines += ["}", '"""(players, shanten \'0\' \'1\', own turn bucket, \'open\' \'closed\') -> (cases, model points,',
              'points won)."""', ""]
    out.write_text("\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sample", type=int, default=1, help="every N-th game")
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the counts (JSON)")
    parser.add_argument("--from", dest="source", type=Path, help="read counts instead of measuring")
    parser.add_argument("--calibration", type=Path, help="write the calibration data module")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="try another value of a model weight (analysis.model), to fit it")
    args = parser.parse_args()
    if args.source:
        data = json.loads(args.source.read_text())
    else:
        for setting in args.set:
            name, value = setting.split("=", 1)
            setattr(model, name, float(value))
        files = [str(f) for f in sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[args.offset::args.sample]]
        data = count_files(files, measure_file, jobs=args.jobs, chunksize=4)
        if args.out:
            args.out.write_text(json.dumps(data, sort_keys=True))
    for key in sorted(k for k in data if k.startswith("failed|")):
        print(key, file=sys.stderr)
    report(data)
    if args.calibration:
        write_calibration(data, args.calibration)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
