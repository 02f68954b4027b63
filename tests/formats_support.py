"""Helpers for the format tests: event streams compared by tile *kind* (the JSON formats do not
keep tile copies), and the corpus's games that exist both as mjlog and as tenhou.net/6 JSON."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from tenhou_tools.events import (
    Agari,
    Bye,
    Call,
    Discard,
    Draw,
    Game,
    Meld,
    NewDora,
    Reconnect,
    Riichi,
    Ryuukyoku,
)
from tenhou_tools.formats.common import code_of


def stream(game: Game, *, riichi_scores: bool = True, connections: bool = True,
           chips: bool = True) -> list[tuple]:
    """The game's hands and events with tiles as tenhou.net/6 codes (kind + red): everything a
    tenhou.net/6 JSON carries, and the fields the reader derives from it."""
    red = game.header.ruleset.red_fives

    def c(tile: int) -> int:
        return code_of(tile, red=red)

    def cs(tiles) -> tuple[int, ...]:
        return tuple(sorted(map(c, tiles)))

    def meld(m: Meld) -> tuple:
        return (m.kind.value, cs(m.tiles), None if m.called is None else c(m.called), m.from_seat,
                None if m.added is None else c(m.added))

    def owari(o):
        if o is None or chips:
            return o
        return (o.scores, o.points)

    out: list[tuple] = []
    for hand in game.hands:
        i = hand.init
        out.append(("init", i.round, i.honba, i.sticks, i.scores, i.dealer, tuple(cs(h) for h in i.hands),
                    c(i.dora_indicator)))
        for e in hand.events:
            if isinstance(e, Draw):
                out.append(("draw", e.seat, c(e.tile), e.rinshan))
            elif isinstance(e, Discard):
                out.append(("discard", e.seat, c(e.tile), e.tsumogiri))
            elif isinstance(e, Call):
                out.append(("call", e.seat, meld(e.meld)))
            elif isinstance(e, Riichi):
                out.append(("riichi", e.seat, e.step, e.scores if riichi_scores else None))
            elif isinstance(e, NewDora):
                out.append(("dora", c(e.tile)))
            elif isinstance(e, Agari):
                out.append(("agari", e.who, e.from_who, cs(e.hand), tuple(sorted(meld(m) for m in e.melds)),
                            c(e.win_tile), e.fu if e.limit == 0 else None, e.points, e.limit, e.yaku, e.yakuman,
                            tuple(map(c, e.dora_indicators)), tuple(map(c, e.ura_indicators)), e.honba,
                            e.sticks, e.scores_before, e.deltas, e.pao_who, owari(e.owari)))
            elif isinstance(e, Ryuukyoku):
                out.append(("ryuukyoku", e.kind.value, e.honba, e.sticks, e.scores_before, e.deltas,
                            tuple(None if h is None else cs(h) for h in e.hands), owari(e.owari)))
            elif isinstance(e, (Bye, Reconnect)):
                if connections:
                    out.append((type(e).__name__, e.seat))
            else:
                out.append(("other", repr(e)))
    return out


def mjlog_as_json_sees_it(game: Game, *, connections: bool = True) -> list[tuple]:
    """The mjlog stream minus what tenhou.net/6 JSON cannot hold (docs/formats.md): the
    scores on a riichi's step 2 where the log has none (2009 logs), chip counts, and (for JSON
    written without ``connection``) disconnects."""
    old_riichi = any(isinstance(e, Riichi) and e.step == 2 and e.scores is None
                     for h in game.hands for e in h.events)
    return stream(game, riichi_scores=not old_riichi, connections=connections, chips=False)


def json_stream(game: Game, mjlog: Game, *, connections: bool = True) -> list[tuple]:
    old_riichi = any(isinstance(e, Riichi) and e.step == 2 and e.scores is None
                     for h in mjlog.hands for e in h.events)
    return stream(game, riichi_scores=not old_riichi, connections=connections, chips=False)


_GAME_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")


def corpus_pairs(root: Path) -> list[tuple[Path, Path]]:
    """``(mjlog, tenhou.net/6 JSON)`` paths of the same game: MANIFEST.tsv's ``pair`` column
    (both directions; a path whose file is not there under that name, with or without ``.gz``,
    is left out), and every JSON whose game id (``ref``, the manifest's ``game_id`` or the start
    of its file name) is the id of an mjlog (manifest ``game_id`` or file name)."""
    manifest = root / "MANIFEST.tsv"
    if not manifest.is_file():
        return []

    def resolve(rel: str) -> Path | None:
        for cand in (rel, rel + ".gz", rel.removesuffix(".gz")):
            if (root / cand).is_file():
                return root / cand
        return None

    def top(path: Path) -> str:
        return path.relative_to(root).parts[0]

    pairs: set[tuple[Path, Path]] = set()
    with manifest.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    by_id: dict[str, set[Path]] = {}
    for row in rows:
        path = resolve(row["path"])
        if path is None or top(path) != "mjlog":
            continue
        for gid in (row.get("game_id") or "", *(_GAME_ID.findall(path.name)[:1])):
            if gid:
                by_id.setdefault(gid, set()).add(path)
    for row in rows:
        a = resolve(row["path"])
        if a is None:
            continue
        other = row.get("pair") or ""
        if other not in ("", "0"):
            b = resolve(other)
            if b is not None:
                x, y = (b, a) if top(a) == "tenhou6" else (a, b)
                if top(x) == "mjlog" and top(y) == "tenhou6":
                    pairs.add((x, y))
        if top(a) == "tenhou6":
            try:
                ref = json.loads(a.read_bytes()).get("ref")
            except (ValueError, AttributeError):
                ref = None
            for gid in {ref, row.get("game_id"), *(_GAME_ID.findall(a.name)[:1])}:
                for mjlog in by_id.get(gid or "", ()):
                    pairs.add((mjlog, a))
    return sorted(pairs)
