#!/usr/bin/env python3
"""Measure the tables of the discard model (docs/analysis.md, "The expected-points model") on
the corpus's Houou games.

    python scripts/measure_model.py [--corpus ../shared/corpus] [--jobs 2] [--out counts.json]
    python scripts/measure_model.py --from counts.json --table tenhou_tools/analysis/model_rates.txt

Counted, four-player and three-player apart, on the one fold's state before each event
(``replay.fold.walk_hand``):

* **Opponent tenpai without riichi**: at every discard, for every other seat not in riichi,
  its open melds (chi, pon, open and added kans; 0, 1, 2, 3+), its turn (its discards so far,
  bucketed as the danger table's) and whether its concealed hand is tenpai (``rules.hand.waits``:
  the log shows every hand).
* **What a deal-in costs**: every ron's points (``AGARI ten[1]``, without honba and sticks) by
  the winner's state (riichi, open, dama) and whether the winner is the dealer.
* **Ron against tsumo by the winning tile**: every win's tile by its group (honour, 1/9, 2/8,
  3-7, and a suji of a tile in the winner's own pond: the suji trap, 筋引っかけ), ron or tsumo.
* **Winning from far**: at every discard not forced by riichi, the discarder's shanten after it
  (2, 3, 4+), its turn and its accepted tiles; whether the seat won the hand, and the points.
  Tenpai and one-shanten are valued by the engine's scorer instead.
* **Which tiles strong players let go** (the keep table): at every discard not forced by riichi,
  every kind in the hand (``tables.tile_role``: what the tile is to the hand) by the decision's
  stage (the best shanten a discard leaves: tenpai, one-shanten, far), whether an opponent was a
  threat as the model counts one (``defence.threat_chance``) and the discarder's turn: how often
  it was offered and how often it was the one discarded.

``--table`` writes the data file the analysis reads (``tenhou_tools/analysis/model_rates.txt``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _corpus import count_files  # noqa: E402

from tenhou_tools.analysis.defence import threat_chance  # noqa: E402
from tenhou_tools.analysis.game import unseen_in  # noqa: E402
from tenhou_tools.analysis.model_rates import tables_text  # noqa: E402
from tenhou_tools.analysis.tables import (  # noqa: E402
    acceptance_bucket,
    calls_bucket,
    keep_stage,
    marks_bucket,
    own_turn,
    tile_role,
    value_marks,
    win_group,
)
from tenhou_tools.events import Agari, CallKind, Discard, Event, Game, Room  # noqa: E402
from tenhou_tools.mjlog import parse_game  # noqa: E402
from tenhou_tools.replay.fold import walk_hand  # noqa: E402
from tenhou_tools.replay.state import NOBODY, TableState  # noqa: E402
from tenhou_tools.rules.danger import dora_kinds, genbutsu, turn_bucket  # noqa: E402
from tenhou_tools.rules.hand import counts34, waits  # noqa: E402
from tenhou_tools.rules.shanten import acceptance, discard_options  # noqa: E402
from tenhou_tools.rules.yaku import YakuId  # noqa: E402
from tenhou_tools.tiles import yakuhai_kinds  # noqa: E402


def open_melds(state: TableState, seat: int) -> int:
    return sum(1 for m in state.seats[seat].melds if m.kind.is_open)


class _Observer:
    def __init__(self, tally: Counter, players: int, red_fives: bool) -> None:
        self.tally = tally
        self.players = players
        self.red_fives = red_fives
        self.far: list[tuple[int, str]] = []
        """(seat, cell) of each discard left two or more from tenpai."""
        self.discards: list[tuple[int, int]] = []
        """(seat, tile) of the hand's discards so far, in order."""
        self.pond_at: list[list[int]] = [[] for _ in range(players)]
        """Per seat, the place in ``discards`` of each of its pond tiles."""

    def before(self, state: TableState, index: int, event: Event) -> None:
        if not isinstance(event, Discard):
            return
        self.count_discard(state, event)
        self.pond_at[event.seat].append(len(self.discards))
        self.discards.append((event.seat, event.tile))

    def count_discard(self, state: TableState, event: Discard) -> None:
        p = self.players
        seat = event.seat
        for o in range(p):
            s = state.seats[o]
            if o == seat or s.riichi_discard != NOBODY or len(s.concealed) % 3 != 1:
                continue
            cell = f"tenpai|{p}|{calls_bucket(open_melds(state, o))}|{turn_bucket(max(1, len(s.pond)))}"
            self.tally[cell + "|cases"] += 1
            if waits(counts34(s.concealed)):
                self.tally[cell + "|tenpai"] += 1
        me = state.seats[seat]
        if me.riichi_discard != NOBODY or event.tile not in me.concealed:
            return
        after = list(me.concealed)
        after.remove(event.tile)
        sets = sum(1 for m in me.melds if m.kind is not CallKind.KITA)
        unseen = unseen_in(state, seat)
        got = acceptance(counts34(after), sets, unseen, sanma=p == 3)
        shanten = "4+" if got.shanten >= 4 else str(got.shanten)
        turn = own_turn(len(me.pond) + 1)
        how = "open" if any(m.kind.is_open for m in me.melds) else "closed"
        self.far.append((seat, f"far|{p}|{shanten}|{turn}|{acceptance_bucket(got.total)}|{how}"))
        seat_wind = (seat - state.init.dealer) % p
        dora = dora_kinds(state.dora, sanma=p == 3)
        yakuhai = yakuhai_kinds(state.init.wind, seat_wind)
        if got.shanten >= 2:
            marks, single = value_marks([*after, *(t for m in me.melds for t in m.tiles)], dora, yakuhai, unseen,
                                        red_fives=self.red_fives)
            self.far.append((seat, f"marks|{p}|{marks_bucket(marks)}|{int(single)}"))
        self.count_keep(state, seat, event.tile >> 2, sets, unseen, dora, yakuhai)

    def count_keep(self, state: TableState, seat: int, chosen: int, sets: int, unseen: list[int],
                   dora: frozenset[int], yakuhai: frozenset[int]) -> None:
        p = self.players
        me = state.seats[seat]
        counts = counts34(me.concealed)
        options = discard_options(counts, sets, unseen, sanma=p == 3)
        stage = keep_stage(min(o.shanten for o in options))
        safe = self.genbutsu_to_all(state, seat)
        threatened = safe is not None
        turn = own_turn(len(me.pond) + 1)
        for option in options:
            role = tile_role(option.kind, counts, yakuhai=yakuhai, dora=dora, unseen=unseen, sanma=p == 3,
                             safe=threatened and option.kind in safe)
            cell = f"keep|{p}|{stage}|{'threat' if threatened else 'calm'}|{turn}|{role}"
            self.tally[cell + "|offered"] += 1
            self.tally[cell + "|chosen"] += option.kind == chosen


    def genbutsu_to_all(self, state: TableState, seat: int) -> set[int] | None:
        """The kinds genbutsu against every opponent the model counts a threat (``defence.
        threat_chance``): a riichi's pond and every tile discarded after its declaration, another
        threat's own pond; ``None`` when nobody threatens."""
        safe: set[int] | None = None
        for o, s in enumerate(state.seats):
            riichi = s.riichi_discard != NOBODY
            if o == seat or not threat_chance(self.players, riichi=riichi, open_melds=open_melds(state, o),
                                              discards=len(s.pond)):
                continue
            passed: list[int] = []
            if riichi:
                declared = self.pond_at[o][s.riichi_discard]
                passed = [tile for who, tile in self.discards[declared + 1:] if who != o]
            kinds = set(genbutsu([d.tile for d in s.pond], passed))  # the rule, from rules.danger
            safe = kinds if safe is None else safe & kinds
        return safe


def measure_game(game: Game) -> Counter:
    tally: Counter = Counter()
    rules = game.header.ruleset
    p = rules.players
    tally[f"games|{p}"] += 1
    for position in range(len(game.hands)):
        observer = _Observer(tally, p, rules.red_fives)
        state = walk_hand(game, position, observer)
        won: dict[int, int] = {}
        for win in state.wins:
            won[win.who] = won.get(win.who, 0) + win.points
            count_win(tally, state, win, p)
        for seat, cell in observer.far:
            tally[cell + "|cases"] += 1
            tally[cell + "|wins"] += 0
            if seat in won:
                tally[cell + "|wins"] += 1
                tally[cell + "|points"] += won[seat]
    return tally


def count_win(tally: Counter, state: TableState, win: Agari, p: int) -> None:
    winner = state.seats[win.who]
    dealer = "dealer" if win.who == state.init.dealer else "child"
    pond_kinds = {d.tile >> 2 for d in winner.pond}
    group = win_group(win.win_tile >> 2, pond_kinds)
    tally[f"win|{p}|{group}|{'tsumo' if win.is_tsumo else 'ron'}"] += 1
    if winner.riichi:
        bonus = sum(han for yaku, han in win.yaku if yaku in (YakuId.IPPATSU, YakuId.URA_DORA))
        tally[f"bonus|{p}|wins"] += 1
        tally[f"bonus|{p}|han"] += bonus
    if win.is_tsumo:
        return
    if winner.riichi:
        how = "riichi"
    elif any(m.kind.is_open for m in winner.melds):
        how = "open"
    else:
        how = "dama"
    cell = f"ron|{p}|{how}|{dealer}"
    tally[cell + "|cases"] += 1
    tally[cell + "|points"] += win.points


def measure_file(path: str) -> Counter:
    try:
        game = parse_game(Path(path).read_bytes())
        if game.header.ruleset.room is not Room.HOUOU:
            return Counter({"skipped|not houou": 1})
        return measure_game(game)
    except Exception as exc:  # noqa: BLE001 - a measurement goes on past one bad game
        return Counter({f"failed|{Path(path).name}: {type(exc).__name__}: {exc}": 1})


# -- tables ------------------------------------------------------------------------------------


def summarise(data: dict[str, int]) -> dict[str, dict]:
    """The counts as the tables the model reads: cells with cases and the measured figure."""
    tenpai: dict[str, list[int]] = {}
    far: dict[str, list[int]] = {}
    ron: dict[str, list[int]] = {}
    wins: dict[str, list[int]] = {}
    marks: dict[str, list[int]] = {}
    bonus: dict[str, list[int]] = {}
    keep: dict[str, list[int]] = {}
    for key, n in data.items():
        parts = key.split("|")
        if parts[0] == "tenpai":
            cell = "|".join(parts[1:4])
            tenpai.setdefault(cell, [0, 0])[parts[4] == "tenpai"] += n
        elif parts[0] == "far":
            cell = "|".join(parts[1:6])
            far.setdefault(cell, [0, 0, 0])[("cases", "wins", "points").index(parts[6])] += n
        elif parts[0] == "ron":
            cell = "|".join(parts[1:4])
            ron.setdefault(cell, [0, 0])[parts[4] == "points"] += n
        elif parts[0] == "marks":
            cell = "|".join(parts[1:4])
            marks.setdefault(cell, [0, 0, 0])[("cases", "wins", "points").index(parts[4])] += n
        elif parts[0] == "keep":
            cell = "|".join(parts[1:6])
            keep.setdefault(cell, [0, 0])[parts[6] == "chosen"] += n
        elif parts[0] == "bonus":
            bonus.setdefault(parts[1], [0, 0])[parts[2] == "han"] += n
        elif parts[0] == "win":
            cell = "|".join(parts[1:3])
            wins.setdefault(cell, [0, 0])[parts[3] == "ron"] += n
    return {"tenpai": tenpai, "far": far, "ron": ron, "wins": wins, "marks": marks, "bonus": bonus,
            "keep": keep}


def print_tables(tables: dict[str, dict]) -> None:
    print("opponent tenpai without riichi (players|open melds|turn: cases, tenpai, %)")
    for cell, (cases, hit) in sorted(tables["tenpai"].items()):
        print(f"  {cell:16} {cases:9,} {hit:9,} {100 * hit / cases:6.2f}")
    print("ron points (players|state|dealer: rons, mean)")
    for cell, (cases, points) in sorted(tables["ron"].items()):
        print(f"  {cell:18} {cases:7,} {points / cases:8,.0f}")
    print("wins by winning tile (players|group: tsumo, ron, ron/tsumo)")
    for cell, (tsumo, rons) in sorted(tables["wins"].items()):
        print(f"  {cell:14} {tsumo:7,} {rons:7,} {rons / max(tsumo, 1):5.2f}")
    print("riichi wins: ippatsu and ura han (players: wins, han, a win)")
    for cell, (won, han) in sorted(tables["bonus"].items()):
        print(f"  {cell:4} {won:7,} {han:7,} {han / won:5.3f}")
    print("value marks two or more from tenpai (players|marks|yakuhai single: cases, wins %, points a case)")
    for cell, (cases, won, points) in sorted(tables["marks"].items()):
        print(f"  {cell:10} {cases:9,} {100 * won / cases:6.2f} {points / cases:7,.0f}")
    print("tiles let go, the most offered roles (players|stage|threat|turn|role: offered, discarded %)")
    for cell, (offered, chosen) in sorted(tables["keep"].items(), key=lambda item: -item[1][0])[:40]:
        print(f"  {cell:36} {offered:9,} {100 * chosen / offered:6.2f}")
    print("winning after a discard (players|shanten|turn|accepted|open: cases, wins %, points a case)")
    for cell, (cases, won, points) in sorted(tables["far"].items()):
        print(f"  {cell:33} {cases:8,} {100 * won / cases:6.2f} {points / cases:7,.0f}")


KEEP_MIN_OFFERED = 50
"""Keep-table cells offered fewer times are not written (the model reads a missing role as its
group's share, ``tables.keep_preference``); each group's totals are, under the role ``*``."""


def keep_written(keep: dict[str, list[int]]) -> dict[str, list[int]]:
    """The keep table as written: the cells offered ``KEEP_MIN_OFFERED`` times or more, and each
    (players, stage, threat, turn) group's totals over every role, as the role ``*``."""
    found = {cell: values for cell, values in keep.items() if values[0] >= KEEP_MIN_OFFERED}
    for cell, (offered, chosen) in keep.items():
        group = cell.rsplit("|", 1)[0] + "|*"
        totals = found.setdefault(group, [0, 0])
        totals[0] += offered
        totals[1] += chosen
    return found


def write_table(tables: dict[str, dict], data: dict[str, int], out: Path) -> None:
    """The data file the model reads (``analysis/model_rates.txt``, in ``model_rates.tables_text``'s
    form), from the counts: every table's cells by their ``|``-joined keys, the keep table one
    string of ``role offered discarded`` triples a group."""
    games = ", ".join(f"{data.get(f'games|{p}', 0):,} {p}-player" for p in (4, 3))
    shaped: dict[str, dict[tuple[str, ...], object]] = {}
    for name, key in (("TENPAI", "tenpai"), ("RON_POINTS", "ron"), ("WIN_TILE", "wins"), ("FAR", "far"),
                      ("MARKS", "marks"), ("RIICHI_BONUS", "bonus")):
        shaped[name] = {tuple(cell.split("|")): tuple(values) for cell, values in tables[key].items()}
    groups: dict[tuple[str, ...], list[str]] = {}
    for cell, (offered, chosen) in sorted(keep_written(tables["keep"]).items()):
        *group, role = cell.split("|")
        groups.setdefault(tuple(group), []).append(f"{role} {offered} {chosen}")
    shaped["KEEP"] = {group: " ".join(cells) for group, cells in groups.items()}
    comments = ["The measured tables of the discard model (tenhou_tools/analysis/model_rates.py says what each holds).",
                f"Counted by scripts/measure_model.py on the corpus's Houou games (mjlog/: {games}).",
                "Generated: edit scripts/measure_model.py, not this file."]
    out.write_text(tables_text(shaped, comments), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sample", type=int, default=1, help="every N-th game")
    parser.add_argument("--limit", type=int, default=0, help="at most this many games")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the counts (JSON)")
    parser.add_argument("--from", dest="source", type=Path, help="read counts instead of measuring")
    parser.add_argument("--table", type=Path, help="write the data module")
    args = parser.parse_args()
    if args.source:
        data = json.loads(args.source.read_text())
    else:
        files = [str(f) for f in sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::args.sample]]
        if args.limit:
            files = files[:args.limit]
        data = count_files(files, measure_file, jobs=args.jobs, chunksize=8)
        if args.out:
            args.out.write_text(json.dumps(data, sort_keys=True))
    for key in sorted(k for k in data if k.startswith("failed|")):
        print(key, file=sys.stderr)
    tables = summarise(data)
    print_tables(tables)
    if args.table:
        write_table(tables, data, args.table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
