"""Check rules/scoring.py and rules/payments.py against every AGARI in a corpus of real logs.

For each win the context is built from the AGARI tag itself: concealed tiles (``hai``), melds
(``m``), the winning tile (``machi``), tsumo when ``who == fromWho``, the winds from the hand's
dealer and round, the dora and ura indicators, and the situational flags (riichi, double
riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou) taken from the yaku ids the
tag lists (the replay engine derives them itself). The hand is scored and compared with the log:
the yaku multiset, han, fu (``ten[0]``, also on yakuman wins), ``ten[1]`` points, ``ten[2]`` limit, the yakuman
ids, and the ``sc`` deltas through ``payments.win_deltas`` (honba and sticks from ``ba``, only
the first AGARI of a hand collects them, pao from ``paoWho``).

Usage: python scripts/check_scoring.py [CORPUS_DIR_OR_FILES...] [--show N] [--scorer own|library]
(default: $TENHOU_CORPUS/mjlog or ../shared/corpus/mjlog). ``--scorer library`` checks the
``mahjong`` library adapter (``tests/scoring_library.py``) instead of our own valuation, so both
implementations can be held against the same real wins.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tenhou_tools.events import Agari, Call, CallKind, Discard, DrawKind, Game, Hand, Ryuukyoku
from tenhou_tools.rules.payments import exhaustive_draw_deltas, nagashi_deltas, win_deltas
from tenhou_tools.rules.scoring import (
    ScoredHand,
    ScoringRules,
    WinContext,
    YakuId,
    score_win,
)
from tenhou_tools.sources.files import read_game
from tenhou_tools.tiles import is_terminal_or_honor
from tests.scoring_library import library_score_win

CHECKS = ("scored", "yaku", "han", "fu", "points", "limit", "yakuman", "deltas")


def context_from_agari(agari: Agari, hand: Hand, rules: ScoringRules) -> WinContext:
    """A WinContext built from the AGARI tag alone (flags read off its yaku ids)."""
    ids = {y for y, _ in agari.yaku}
    yakuman = set(agari.yakuman)
    players = rules.players
    return WinContext(
        concealed=agari.hand,
        melds=agari.melds,
        win_tile=agari.win_tile,
        tsumo=agari.who == agari.from_who,
        seat_wind=(agari.who - hand.init.dealer) % players,
        round_wind=hand.init.round // 4,
        riichi=YakuId.RIICHI in ids or YakuId.DOUBLE_RIICHI in ids,
        double_riichi=YakuId.DOUBLE_RIICHI in ids,
        ippatsu=YakuId.IPPATSU in ids,
        haitei=YakuId.HAITEI in ids,
        houtei=YakuId.HOUTEI in ids,
        rinshan=YakuId.RINSHAN in ids,
        chankan=YakuId.CHANKAN in ids,
        tenhou=YakuId.TENHOU in yakuman,
        chiihou=YakuId.CHIIHOU in yakuman,
        dora_indicators=agari.dora_indicators,
        ura_indicators=agari.ura_indicators,
        rules=rules,
    )


def category(game: Game) -> str:
    rs = game.header.ruleset
    if rs.chips:
        return "chip"
    if rs.special:
        return "0x800"
    if game.header.csrule:
        return "csrule"
    return f"{rs.players}p"


SCORERS = {"own": score_win, "library": library_score_win}


def compare(
    agari: Agari, hand: Hand, game: Game, first: bool, scorer=score_win
) -> tuple[list[str], ScoredHand | None, WinContext]:
    rules = ScoringRules.from_ruleset(game.header.ruleset)
    ctx = context_from_agari(agari, hand, rules)
    result = scorer(ctx)
    if not isinstance(result, ScoredHand):
        return [f"scored: refused {result.reason.value}: {result.message}"], None, ctx
    bad: list[str] = []
    if sorted(result.yaku) != sorted(agari.yaku):
        bad.append(f"yaku: got {result.yaku} log {agari.yaku}")
    if result.han != agari.han:
        bad.append(f"han: got {result.han} log {agari.han}")
    if result.fu != agari.fu:
        bad.append(f"fu: got {result.fu} log {agari.fu}")
    if result.points != agari.points:
        bad.append(f"points: got {result.points} log {agari.points}")
    if int(result.limit) != agari.limit:
        bad.append(f"limit: got {int(result.limit)} log {agari.limit}")
    if sorted(result.yakuman) != sorted(agari.yakuman):
        bad.append(f"yakuman: got {result.yakuman} log {agari.yakuman}")
    deltas = win_deltas(
        result.base,
        winner=agari.who,
        discarder=None if agari.who == agari.from_who else agari.from_who,
        dealer=hand.init.dealer,
        players=rules.players,
        honba=agari.honba,
        sticks=agari.sticks,
        collects_bonus=first,
        pao=agari.pao_who,
    )
    if deltas != tuple(agari.deltas[:4]):
        bad.append(f"deltas: got {deltas} log {tuple(agari.deltas[:4])}")
    return bad, result, ctx


def nagashi_seats(hand: Hand, players: int) -> list[int]:
    """Seats whose discards are all terminals/honours and none of them was called."""
    clean = [True] * players
    discarded = [False] * players
    for event in hand.events:
        if isinstance(event, Discard):
            discarded[event.seat] = True
            if not is_terminal_or_honor(event.tile >> 2):
                clean[event.seat] = False
        elif (isinstance(event, Call) and event.meld.kind in (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN)
              and event.meld.from_seat is not None):
            clean[event.meld.from_seat] = False
    return [seat for seat in range(players) if clean[seat] and discarded[seat]]


def check_draw(draw: Ryuukyoku, hand: Hand, players: int) -> list[str]:
    """The deltas of an exhaustive draw or a nagashi mangan; abortive draws move no points."""
    if draw.kind is DrawKind.NAGASHI_MANGAN:
        expected = nagashi_deltas(nagashi_seats(hand, players), dealer=hand.init.dealer, players=players)
    elif draw.kind is DrawKind.EXHAUSTIVE:
        tenpai = [draw.hands[seat] is not None for seat in range(players)]
        expected = exhaustive_draw_deltas(tenpai, players=players)
    else:
        expected = (0, 0, 0, 0)
    if expected != tuple(draw.deltas[:4]):
        return [f"draw {draw.kind.value}: got {expected} log {tuple(draw.deltas[:4])}"]
    return []


def tally(seen: Counter[str], agari: Agari, game: Game, first: bool) -> None:
    """Count the rare situations the corpus exercises, to show what the agreement covers."""
    players = game.header.ruleset.players
    tsumo = agari.who == agari.from_who
    seen["double ron (second winner)"] += not first
    if agari.pao_who is not None:
        seen[f"pao {'tsumo' if tsumo else 'ron'}{' by liable' if agari.pao_who == agari.from_who else ''}"] += 1
    if agari.honba:
        seen[f"{players}p {'tsumo' if tsumo else 'ron'} with honba"] += 1
    kita = sum(m.kind is CallKind.KITA for m in agari.melds)
    seen["win with kita"] += kita > 0
    seen["riichi win with 53,0"] += (YakuId.URA_DORA, 0) in agari.yaku
    seen["kazoe yakuman"] += bool(agari.yaku) and agari.limit == 5
    seen["2+ yakuman"] += len(agari.yakuman) > 1
    seen["kiriage-shaped 30fu4han/60fu3han"] += not agari.yakuman and (agari.fu, agari.han) in ((30, 4), (60, 3))
    seen["chiitoitsu"] += any(y == YakuId.CHIITOITSU for y, _ in agari.yaku)
    seen["rinshan"] += any(y == YakuId.RINSHAN for y, _ in agari.yaku)
    seen["chankan"] += any(y == YakuId.CHANKAN for y, _ in agari.yaku)


def iter_files(args: list[str]) -> list[Path]:
    if not args:
        root = Path(os.environ.get("TENHOU_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
        args = [str(root / "mjlog")]
    files: list[Path] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and ".xml" in p.name))
        else:
            files.append(path)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--show", type=int, default=20, help="mismatches to print (default 20)")
    parser.add_argument("--scorer", choices=sorted(SCORERS), default="own",
                        help="own: rules/_valuation.py (the engine's); library: the mahjong library "
                             "adapter in tests/scoring_library.py")
    opts = parser.parse_args()

    ok: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    games: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    shown = 0
    score_time = 0.0
    scored_calls = 0
    start = time.perf_counter()
    for path in iter_files(opts.paths):
        game = read_game(path)
        cat = category(game)
        games[cat] += 1
        for hand in game.hands:
            first = True
            for ending in hand.endings:
                if isinstance(ending, Ryuukyoku):
                    key = (cat, f"draw:{ending.kind.value}")
                    bad = check_draw(ending, hand, game.header.ruleset.players)
                    if ending.kind is DrawKind.NAGASHI_MANGAN:
                        seats = nagashi_seats(hand, game.header.ruleset.players)
                        seen[f"nagashi {game.header.ruleset.players}p"] += 1
                        seen["nagashi with honba"] += ending.honba > 0
                        seen["nagashi by 2+ seats"] += len(seats) > 1
                        seen["nagashi by the dealer"] += hand.init.dealer in seats
                    total[key] += 1
                    ok[key] += not bad
                    if bad and shown < opts.show:
                        shown += 1
                        print(f"--- {path.name} {hand.init.label()} [{cat}] " + "; ".join(bad))
                    continue
                t0 = time.perf_counter()
                bad, _, _ = compare(ending, hand, game, first, SCORERS[opts.scorer])
                score_time += time.perf_counter() - t0
                scored_calls += 1
                tally(seen, ending, game, first)
                first = False
                failed = {b.split(":", 1)[0] for b in bad}
                for check in CHECKS:
                    total[(cat, check)] += 1
                    ok[(cat, check)] += check not in failed and "scored" not in failed
                total[(cat, "all")] += 1
                ok[(cat, "all")] += not bad
                if bad and shown < opts.show:
                    shown += 1
                    print(f"--- {path.name} {hand.init.label()} who={ending.who} from={ending.from_who} "
                          f"dealer={hand.init.dealer} [{cat}]")
                    print(f"    hai={ending.hand} m={[m.kind.value + str(m.tiles) for m in ending.melds]} "
                          f"machi={ending.win_tile} dora={ending.dora_indicators} ura={ending.ura_indicators}")
                    print(f"    log: fu={ending.fu} pts={ending.points} limit={ending.limit} "
                          f"yaku={ending.yaku} yakuman={ending.yakuman} ba={ending.honba},{ending.sticks} "
                          f"pao={ending.pao_who}")
                    for line in bad:
                        print(f"    {line}")
    elapsed = time.perf_counter() - start
    print()
    print("games by category:", dict(games))
    for cat in sorted({c for c, _ in total}):
        draws = sorted(check for c, check in total if c == cat and check.startswith("draw:"))
        cells = [f"{check} {ok[(cat, check)]}/{total[(cat, check)]}" for check in (*CHECKS, "all", *draws)]
        print(f"[{cat}] " + ", ".join(cells))
    print("covered:", ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    print(f"score_win+win_deltas: {scored_calls} wins, {score_time / max(scored_calls, 1) * 1e6:.1f} us per win; "
          f"total {elapsed:.1f} s")
    return 0 if all(ok[k] == total[k] for k in total) else 1


if __name__ == "__main__":
    raise SystemExit(main())
