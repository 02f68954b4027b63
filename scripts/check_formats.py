#!/usr/bin/env python3
"""Check the format converters over the whole corpus and print the numbers.

1. **Pairs**: every game the corpus has both as mjlog and as tenhou.net/6 JSON (MANIFEST.tsv's
   ``pair`` column): the JSON we write from the mjlog equals the paired JSON hand by hand (all
   17 entries) and in ``sc``/``dan``/``rate``/``sx``/``lobby``/``connection``; the game we read
   from the JSON equals the mjlog's event stream minus what JSON lacks (docs/formats.md).
2. **tenhou.net/6 corpus**: every ``tenhou6/*/*.json`` reads and is replayed by the engine; the
   error findings are counted by code (warnings too).
3. **mjlog -> mjai -> Game**: every mjlog; every written event passes ``validate_mjai_event``;
   what mjai carries is the same after reading it back.
4. **mjlog -> tenhou.net/6 -> Game**: every mjlog; the event stream read back equals the
   original minus what JSON lacks, and the engine finds no error in it.

Usage::

    python scripts/check_formats.py [CORPUS_DIR] [--jobs 2] [--step N]

``CORPUS_DIR`` defaults to ``$TENHOU_CORPUS`` or ``../shared/corpus`` from the repository root;
``--step N`` takes every N-th mjlog for parts 3 and 4. Exit status 1 if anything mismatched.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tenhou_tools.check import check_log  # noqa: E402
from tenhou_tools.findings import Severity  # noqa: E402
from tenhou_tools.formats import dumps  # noqa: E402
from tenhou_tools.formats.mjai import read_mjai, validate_mjai_event, write_mjai  # noqa: E402
from tenhou_tools.formats.tenhou6 import read_tenhou6, write_tenhou6  # noqa: E402
from tenhou_tools.ids import log_id_from_name  # noqa: E402
from tenhou_tools.replay.engine import replay_game  # noqa: E402
from tenhou_tools.sources.files import read_game  # noqa: E402
from tests.formats_support import corpus_pairs, json_stream, mjlog_as_json_sees_it, stream  # noqa: E402
from tests.test_formats_mjai import carried  # noqa: E402


def check_pair(pair: tuple[Path, Path]) -> dict:
    import dataclasses

    mjlog, tenhou6 = pair
    game = read_game(mjlog)
    theirs = json.loads(tenhou6.read_bytes())
    ours = write_tenhou6(game)
    by_start = {json.dumps(h[:2]): h for h in ours["log"]}
    hands = entries = mismatched = 0
    for hand in theirs["log"]:
        mine = by_start.get(json.dumps(hand[:2]))
        hands += 1
        entries += len(hand)
        mismatched += len(hand) if mine is None else sum(1 for a, b in zip(mine, hand) if a != b)
    keys = [k for k in ("sc", "dan", "rate", "sx", "lobby", "ratingc", "ver", "connection")
            if k in theirs and ours.get(k) != theirs[k]]
    read = read_tenhou6(tenhou6.read_bytes(), source=str(tenhou6))
    starts = {(h.init.round, h.init.honba, h.init.scores): h for h in game.hands}
    part = [starts.get((h.init.round, h.init.honba, h.init.scores)) for h in read.hands]
    same = None not in part
    if same:
        sub = dataclasses.replace(game, hands=tuple(part))
        if len(part) < len(game.hands):
            sub = dataclasses.replace(sub, hands=tuple(dataclasses.replace(h, events=tuple(
                dataclasses.replace(e, owari=None) if hasattr(e, "owari") else e for e in h.events)) for h in part))
        conn = "connection" in theirs
        same = json_stream(read, game, connections=conn) == mjlog_as_json_sees_it(sub, connections=conn)
    return {"pair": f"{mjlog.name} ~ {tenhou6.name}", "hands": hands, "entries": entries,
            "mismatched": mismatched, "keys": keys, "read_same": same}


def check_json(path: Path) -> dict:
    record = check_log(path.read_bytes(), path=str(path), log_id=log_id_from_name(path.name))
    return {"path": str(path), "hands": record.hands,
            "errors": [f.code.value for f in record.findings if f.severity is Severity.ERROR],
            "warnings": [f.message.split(":")[0][:60] for f in record.findings if f.severity is Severity.WARNING],
            "fragment": dict(record.checks).get("fragment_not_checkable", 0)}


def check_mjlog(path: Path) -> dict:
    game = read_game(path)
    out = {"path": str(path), "players": game.header.ruleset.players, "hands": len(game.hands)}
    t = time.perf_counter()
    events = write_mjai(game)
    out["mjai_events"] = len(events)
    out["mjai_invalid"] = sum(1 for e in events if validate_mjai_event(e))
    out["mjai_same"] = carried(read_mjai(events)) == carried(game)
    out["mjai_s"] = time.perf_counter() - t
    t = time.perf_counter()
    back = read_tenhou6(dumps(game, "tenhou6").encode(), source=str(path))
    out["t6_same"] = stream(back, riichi_scores=False, chips=False) == stream(game, riichi_scores=False, chips=False)
    out["t6_errors"] = [f.code.value for f in replay_game(back).findings if f.severity is Severity.ERROR]
    out["t6_s"] = time.perf_counter() - t
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?",
                    default=os.environ.get("TENHOU_CORPUS", str(ROOT.parent / "shared" / "corpus")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--step", type=int, default=1)
    args = ap.parse_args()
    root = Path(args.corpus)
    if not (root / "mjlog").is_dir():
        print(f"no corpus at {root}", file=sys.stderr)
        return 2
    failed = False
    with ProcessPoolExecutor(args.jobs) as pool:
        t = time.perf_counter()
        pairs = list(pool.map(check_pair, corpus_pairs(root)))
        bad = [p for p in pairs if p["mismatched"] or p["keys"] or not p["read_same"]]
        print(f"1. pairs: {len(pairs)} (mjlog, JSON) pairs over {len({p['pair'].split(' ~ ')[0] for p in pairs})} "
              f"mjlogs, {sum(p['hands'] for p in pairs)} hands, {sum(p['entries'] for p in pairs)} hand entries; "
              f"written JSON differs in {sum(p['mismatched'] for p in pairs)} entries and "
              f"{sum(len(p['keys']) for p in pairs)} top-level keys; read JSON differs from the mjlog in "
              f"{sum(1 for p in pairs if not p['read_same'])} pairs ({time.perf_counter() - t:.1f} s)")
        for p in bad:
            print("   ", p)
        failed |= bool(bad)

        t = time.perf_counter()
        files = sorted((root / "tenhou6").glob("*/*.json"))
        jsons = list(pool.map(check_json, files, chunksize=8))
        errors = Counter(code for j in jsons for code in j["errors"])
        warnings = Counter(w for j in jsons for w in j["warnings"])
        print(f"2. tenhou.net/6 corpus: {len(jsons)} files, {sum(j['hands'] for j in jsons)} hands, "
              f"{sum(1 for j in jsons if not j['errors'])} without error, "
              f"{sum(1 for j in jsons if j['fragment'])} are parts of games (no sc); errors {dict(errors)}; "
              f"warnings {dict(warnings)} ({time.perf_counter() - t:.1f} s)")
        for j in jsons:
            if j["errors"]:
                print("   ", j["path"], j["errors"])

        t = time.perf_counter()
        mjlogs = sorted((root / "mjlog").glob("*/*.gz"))[:: args.step]
        results = list(pool.map(check_mjlog, mjlogs, chunksize=16))
        elapsed = time.perf_counter() - t
        n3 = sum(1 for r in results if r["players"] == 3)
        mj_bad = [r for r in results if r["mjai_invalid"] or not r["mjai_same"]]
        t6_bad = [r for r in results if not r["t6_same"] or r["t6_errors"]]
        print(f"3. mjlog -> mjai -> Game: {len(results)} games ({n3} three-player), "
              f"{sum(r['hands'] for r in results)} hands, {sum(r['mjai_events'] for r in results)} events, "
              f"{sum(r['mjai_invalid'] for r in results)} fail the protocol check, "
              f"{sum(1 for r in results if not r['mjai_same'])} games not lossless; "
              f"{1000 * sum(r['mjai_s'] for r in results) / len(results):.1f} ms/game")
        print(f"4. mjlog -> tenhou.net/6 -> Game: {sum(1 for r in results if not r['t6_same'])} games differ, "
              f"{sum(1 for r in results if r['t6_errors'])} with engine errors "
              f"{dict(Counter(c for r in results for c in r['t6_errors']))}; "
              f"{1000 * sum(r['t6_s'] for r in results) / len(results):.1f} ms/game (write, read, replay); "
              f"parts 3-4 wall time {elapsed:.1f} s with {args.jobs} jobs")
        for r in (mj_bad + t6_bad)[:20]:
            print("   ", r["path"], {k: r[k] for k in ("mjai_invalid", "mjai_same", "t6_same", "t6_errors")})
        failed |= bool(mj_bad or t6_bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
