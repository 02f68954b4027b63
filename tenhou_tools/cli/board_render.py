"""``replay --at HAND:STEP`` and ``replay --analysis``: the table at one moment and the discard
analysis, as rich renderables or JSON.

Nothing here reads files or prints. The board is the engine's (``replay.fold.board_at``); the
analysis is ``analysis.analyze_game``'s. The text follows the replay view's rules
(``replay_render.View``): tiles as glyphs or in the ``123m`` notation, other seats' concealed
tiles hidden when viewing from a seat (unless ``--all-hands``), log text (player names) as
plain text. The JSON is always complete: ``--seat`` hides nothing there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..analysis import DiscardNote, GameAnalysis, meld_count, waits_text
from ..errors import InputError
from ..events import Agari, Call, CallKind, Discard, Draw, Event, Game, NewDora, Riichi
from ..replay.fold import board_at
from ..rules.hand import counts34, waits
from ..rules.shanten import shanten
from ..serialize import to_json
from ..tiles import dora_kind
from .replay_render import (
    STYLE_CALL,
    STYLE_FAIL,
    STYLE_OK,
    STYLE_RIICHI,
    STYLE_TSUMOGIRI,
    TileWriter,
    View,
    event_text,
    player_name,
    round_name,
    seat_wind,
)

POND_ROW = 6
"""Discards per pond row, as on the table."""

POND_LEGEND = "Pond: six a row, oldest first; * tsumogiri, R riichi declaration, > called by another seat."


# -- where: HAND:STEP --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a game: the hand's position in ``game.hands`` and the step (0 = the deal,
    k = after the hand's k-th event)."""

    position: int
    step: int


def parse_moment(game: Game, text: str) -> Moment:
    """``E2-1:12`` (hand label as the view writes it, case does not matter; step 0 to the
    number of the hand's events). ``InputError`` names the valid labels or steps."""
    label, colon, step_text = text.strip().rpartition(":")
    if not colon or not label or not step_text.strip().isdigit():
        raise InputError(f"--at {text!r}: expected HAND:STEP, such as E1-0:12 (step 0 is the deal)")
    labels = [h.init.label() for h in game.hands]
    wanted = label.strip().upper()
    position = next((i for i, name in enumerate(labels) if name.upper() == wanted), None)
    if position is None:
        listed = ", ".join(labels) if labels else "none"
        raise InputError(f"--at {text!r}: no hand {label.strip()!r} in this game (its hands: {listed})")
    step = int(step_text)
    steps = len(game.hands[position].events)
    if step > steps:
        raise InputError(f"--at {text!r}: hand {labels[position]} has steps 0-{steps} "
                         f"(0 is the deal, {steps} the last event)")
    return Moment(position, step)


# -- the board as facts --------------------------------------------------------------------------


def seat_shanten(concealed: Sequence[int], melds: Sequence, *, sanma: bool) -> int | None:
    """Standard shanten (the lowest of regular, seven pairs, thirteen orphans) of the concealed
    tiles; ``None`` when their number does not fit the melds (a damaged log)."""
    try:
        return shanten(counts34(concealed), meld_count(melds), sanma=sanma)
    except ValueError:
        return None


def seat_waits(concealed: Sequence[int]) -> list[int]:
    """The kinds that complete a tenpai 3n+1 hand (by shape); empty otherwise, and for a seat
    that holds 3n+2 tiles (between its draw or call and its discard)."""
    if len(concealed) % 3 != 1:
        return []
    return sorted(waits(counts34(concealed)))


def board_json(game: Game, moment: Moment, note: DiscardNote | None = None,
               with_analysis: bool = False) -> dict[str, Any]:
    """``{"board": {...}}`` (docs/board.md): the table at ``moment``, every seat complete."""
    hand = game.hands[moment.position]
    board = board_at(game, moment.position, moment.step)
    sanma = game.header.ruleset.players == 3
    event = hand.events[moment.step - 1] if moment.step else None
    seats = []
    for s in board.seats:
        furiten = s.furiten
        seats.append({
            "seat": s.seat,
            "name": game.header.players[s.seat].name if s.seat < len(game.header.players) else "",
            "hand": list(s.concealed),
            "melds": [to_json(m) for m in s.melds],
            "discards": [{"tile": p.tile, "tsumogiri": p.tsumogiri, "riichi": p.riichi, "called": p.called}
                         for p in s.pond],
            "score": s.score,
            "riichi": s.riichi,
            "shanten": seat_shanten(s.concealed, s.melds, sanma=sanma),
            "waits": seat_waits(s.concealed),
            "furiten": furiten.any,
            "furiten_kinds": {"discard": list(furiten.discard), "same_turn": list(furiten.same_turn),
                              "riichi": list(furiten.riichi)},
        })
    out: dict[str, Any] = {
        "log_id": game.log_id,
        "hand": hand.init.label(),
        "hand_index": hand.index,
        "step": moment.step,
        "steps": len(hand.events),
        "event": to_json(event) if event is not None else None,
        "players": game.header.ruleset.players,
        "round": board.round,
        "dealer": board.dealer,
        "honba": board.honba,
        "sticks": board.sticks,
        "dora_indicators": list(board.dora_indicators),
        "wall_remaining": board.live_remaining,
        "seats": seats,
    }
    if with_analysis:
        out["analysis"] = None if note is None else note.to_json()
    return {"board": out}


def note_at(game: Game, analysis: GameAnalysis, moment: Moment) -> DiscardNote | None:
    """The analysis entry of a moment, as the HTML page picks it: the discard just made; after a
    draw or a riichi declaration, the discard the same seat makes next."""
    hand = game.hands[moment.position]
    if moment.step == 0:
        return None
    events = hand.events
    last = moment.step - 1
    here = analysis.at(hand.index, last)
    if here is not None:
        return here
    event = events[last]
    if isinstance(event, Agari) and not event.is_tsumo:  # a ron: the discard it was on
        j = last - 1
        while j >= 0 and isinstance(events[j], Agari):
            j -= 1
        return analysis.at(hand.index, j) if j >= 0 and isinstance(events[j], Discard) else None
    if isinstance(event, Draw) or (isinstance(event, Riichi) and event.step == 1) or isinstance(event, Call):
        for i in range(moment.step, len(events)):
            following = events[i]
            if isinstance(following, Discard) and following.seat == event.seat:
                return analysis.at(hand.index, i)
            if not isinstance(following, Riichi | NewDora):
                break
    return None


# -- the board as text -----------------------------------------------------------------------------


_REPLACEMENT_CALLS = frozenset({CallKind.ADDED_KAN, CallKind.OPEN_KAN, CallKind.CLOSED_KAN, CallKind.KITA})
"""Calls after which the caller draws a replacement tile (rinshan, 嶺上牌) from the dead wall."""


def moment_text(event: Event | None, view: View, before: Event | None = None) -> str:
    """What just happened, without giving away a hidden draw. ``before``: the hand's event just
    before it, which tells a replacement draw after a kan or kita and the discard that declares
    riichi."""
    if event is None:
        return "the deal"
    replacement = (isinstance(event, Draw) and isinstance(before, Call) and before.seat == event.seat
                   and before.meld.kind in _REPLACEMENT_CALLS)
    if isinstance(event, Draw) and view.hides(event.seat):
        text = f"S{event.seat} draws a tile"
    else:
        text = event_text(event)
    if replacement:
        text += " (replacement tile from the dead wall)"
    if isinstance(event, Discard):
        if isinstance(before, Riichi) and before.step == 1 and before.seat == event.seat:
            text += " declaring riichi"
        if event.tsumogiri:
            text += " (tsumogiri)"
    return text


def _shanten_text(shanten_value: int | None, waiting: list[int], furiten: bool, tiles: int) -> Text:
    if shanten_value is None:
        return Text("")
    if shanten_value < 0:
        return Text("complete", style=STYLE_OK)
    if shanten_value == 0:
        if tiles % 3 == 1:
            text = Text(f"tenpai on {waits_text(waiting)}", style=STYLE_OK)
            if furiten:
                text.append(" (furiten)", style=STYLE_FAIL)
            return text
        return Text("tenpai after a discard", style=STYLE_OK)
    return Text(f"{shanten_value}-shanten")


def _pond_rows(pond: Sequence, tiles: TileWriter) -> list[Text]:
    cells = []
    for p in pond:
        cell = tiles.one(p.tile)
        marks = ("*" if p.tsumogiri else "") + ("R" if p.riichi else "") + (">" if p.called else "")
        cell.append(marks)
        if p.tsumogiri:
            cell.stylize(STYLE_TSUMOGIRI)
        if p.riichi:
            cell.stylize(STYLE_RIICHI)
        cells.append(cell)
    width = max((c.cell_len for c in cells), default=0)
    rows = []
    for start in range(0, len(cells), POND_ROW):
        row = Text()
        for i, cell in enumerate(cells[start:start + POND_ROW]):
            if i:
                row.append(" ")
            row.append_text(cell)
            if i < len(cells[start:start + POND_ROW]) - 1:
                row.append(" " * (width - cell.cell_len))
        rows.append(row)
    return rows


def _labelled(label: str, lines: Sequence[Text]) -> list[Text]:
    out = []
    for i, line in enumerate(lines):
        head = Text(f"  {label if i == 0 else '':<6} ")
        head.append_text(line)
        out.append(head)
    return out


def board_view(game: Game, moment: Moment, view: View, title: str,
               note: DiscardNote | None = None, with_analysis: bool = False) -> list[RenderableType]:
    """The table at ``moment`` in the terminal: a title, the hand's facts, each seat (hand,
    melds, pond in rows of six, score) and, with ``with_analysis``, the analysis at that moment."""
    hand = game.hands[moment.position]
    init = hand.init
    n = game.header.ruleset.players
    sanma = n == 3
    board = board_at(game, moment.position, moment.step)
    tiles = TileWriter(view, game.header.ruleset.red_fives)
    event = hand.events[moment.step - 1] if moment.step else None
    before = hand.events[moment.step - 2] if moment.step >= 2 else None
    steps = len(hand.events)
    head = Text(f"{title} · {init.label()} step {moment.step} of {steps}: {moment_text(event, view, before)}",
                style="bold")
    on_table = board.sticks
    sticks = f"{on_table} riichi stick{'s' if on_table != 1 else ''}"
    facts = Text(f"{round_name(hand)}, {board.honba} honba, {sticks} · dealer S{board.dealer} · "
                 f"{board.live_remaining} tiles left in the wall")
    dora = Text("Dora indicators " if len(board.dora_indicators) > 1 else "Dora indicator ")
    dora.append_text(tiles.apart(board.dora_indicators))
    dora.append(" (dora ")
    dora.append_text(tiles.apart(dora_kind(t >> 2, sanma=sanma) * 4 + 1 for t in board.dora_indicators))
    dora.append(")")
    out: list[RenderableType] = [head, facts, dora]
    for s in board.seats:
        seat_head = Text(f"S{s.seat} {seat_wind(s.seat, board.dealer, n)}  ")
        seat_head.append(player_name(game, s.seat))
        seat_head.append(f"  {s.score}")
        if s.riichi:
            seat_head.append("  riichi", style=STYLE_RIICHI)
        if view.viewer == s.seat:
            seat_head.append("  (you)")
        lines: list[Text] = [Text(), seat_head]
        if view.hides(s.seat):
            hand_line = Text(f"({len(s.concealed)} tiles, hidden)", style="dim")
        else:
            concealed = list(s.concealed)
            drawn = None
            if isinstance(event, Draw) and event.seat == s.seat and concealed and concealed[-1] == event.tile:
                drawn = concealed.pop()
            hand_line = tiles.many(concealed)
            if drawn is not None:
                hand_line.append(" + ")
                hand_line.append_text(tiles.one(drawn))
            value = seat_shanten(s.concealed, s.melds, sanma=sanma)
            status = _shanten_text(value, seat_waits(s.concealed), s.furiten.any, len(s.concealed))
            if status.plain:
                hand_line.append("  ")
                hand_line.append_text(status)
        lines += _labelled("hand", [hand_line])
        if s.melds:
            melds = Text()
            for i, meld in enumerate(s.melds):
                if i:
                    melds.append(", ")
                melds.append_text(tiles.meld(meld))
                if meld.from_seat is not None:
                    melds.append(f" from S{meld.from_seat}", style=STYLE_CALL)
            lines += _labelled("melds", [melds])
        lines += _labelled("pond", _pond_rows(s.pond, tiles) or [Text("-", style="dim")])
        out += lines
    out += [Text(), Text(POND_LEGEND, style="dim")]
    if with_analysis:
        out.append(Text())
        if note is None:
            out.append(Text("Analysis: step to a draw or a discard to see one.", style="dim"))
        elif view.hides(note.seat):
            out.append(Text(f"Analysis: S{note.seat}'s hand is hidden from this seat (--all-hands shows it).",
                            style="dim"))
        else:
            out.append(Text("Analysis", style="bold"))
            out.append(Padding(rows_table(note_rows(note, tiles, detail=True)), (0, 0, 0, 2)))
    return out


# -- the analysis as text --------------------------------------------------------------------------


def _kinds(tiles: TileWriter, kinds: Sequence[int], left: Sequence[int] | None = None) -> Text:
    out = Text()
    for i, k in enumerate(kinds):
        if i:
            out.append(" ")
        out.append_text(tiles.kind(k))
        if left is not None:
            out.append(f":{left[i]}" if tiles.ascii else f"×{left[i]}")
    return out


def _shanten_word(value: int) -> str:
    return "complete" if value < 0 else "tenpai" if value == 0 else f"shanten {value}"


Row = tuple[str, Text, Text]
"""One row of the analysis grid: the step, who did what, the rest (folds within its column)."""


def note_rows(note: DiscardNote, tiles: TileWriter, *, detail: bool = False) -> list[Row]:
    """One discard's analysis: ``12 | S1 -7p | shanten 1 → 1 · 12 tiles (6p 9p 8s) · ✓ best``
    (the step that shows it, the discard, shanten before and after, its acceptance and the
    verdict); after a loss, the best discard(s) with theirs; the riichi's waits with how many
    are left; the deal-ins. ``detail``: each accepted kind with how many are left."""
    a = note.analysis
    who = Text(f"S{note.seat} -")
    who.append_text(tiles.one(a.tile))
    line = Text(f"shanten {a.shanten_before} → {a.shanten_after} · {a.chosen.total} tile"
                f"{'s' if a.chosen.total != 1 else ''} (")
    line.append_text(_kinds(tiles, a.chosen.kinds, a.chosen.left if detail else None))
    line.append(") · ")
    if a.loss is None:
        others = [b.kind for b in a.best if b.kind != a.kind]
        line.append("✓ best", style=STYLE_OK)
        if others:
            line.append(", as good: ")
            line.append_text(_kinds(tiles, others))
    elif a.loss.kind.value == "shanten":
        line.append(f"✗ shanten loss: {a.loss.shanten} after it, {a.loss.best_shanten} after the best",
                    style=STYLE_FAIL)
    else:
        line.append(f"✗ acceptance loss: {a.loss.accepted} tiles, the best {a.loss.best_accepted}",
                    style=STYLE_FAIL)
    rows: list[Row] = [(str(note.event_index + 1), who, line)]
    if a.loss is not None:
        for option in a.best:
            best = Text("best -")
            best.append_text(tiles.kind(option.kind))
            acc = option.acceptance
            text = Text(f"{_shanten_word(acc.shanten)} · {acc.total} tile{'s' if acc.total != 1 else ''} (")
            text.append_text(_kinds(tiles, acc.kinds, acc.left if detail else None))
            text.append(")")
            rows.append(("", best, text))
    if note.riichi is not None:
        r = Text("riichi on ", style=STYLE_RIICHI)
        r.append_text(_kinds(tiles, note.riichi.waits, note.riichi.left))
        r.append(f" ({note.riichi.total} left)")
        rows.append(("", Text(""), r))
    for d in note.deal_ins:
        rows.append(("", Text(""), Text(d.text(), style=STYLE_FAIL)))
    return rows


def rows_table(rows: Sequence[Row]) -> Table:
    """The analysis rows as a grid indented by two: a long row folds within its last column."""
    table = Table.grid(padding=(0, 2, 0, 0), pad_edge=False)
    table.add_column(justify="right", style="dim")
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for step, who, rest in rows:
        table.add_row(step, who, rest)
    return table


def hand_analysis_view(game: Game, position: int, analysis: GameAnalysis, view: View) -> RenderableType:
    """``--analysis`` in the replay view: a hand's discards, one row each (the seats whose hand
    the view shows), the riichi waits and the deal-ins, and a count of losses per seat."""
    hand = game.hands[position]
    n = game.header.ruleset.players
    tiles = TileWriter(view, game.header.ruleset.red_fives)
    notes = analysis.of_hand(hand.index)
    parts: list[RenderableType] = [Text("Analysis: step, discard, shanten before → after, tiles it accepts, "
                                        "verdict (--at HAND:STEP shows the board)", style="bold")]
    rows: list[Row] = []
    hidden = 0
    for note in notes:
        if view.hides(note.seat):
            hidden += 1
            for d in note.deal_ins:  # a deal-in is public once the hand is over
                rows.append((str(note.event_index + 1), Text(""), Text(d.text(), style=STYLE_FAIL)))
            continue
        rows += note_rows(note, tiles)
    if rows:
        parts.append(Padding(rows_table(rows), (0, 0, 0, 2)))
    else:
        parts.append(Text("  No discards to show.", style="dim"))
    summary = []
    for s in range(n):
        if view.hides(s):
            continue
        mine = [x for x in notes if x.seat == s]
        losses = sum(1 for x in mine if x.analysis.loss is not None)
        summary.append(f"S{s} {losses} in {len(mine)} discard{'s' if len(mine) != 1 else ''}")
    if summary:
        parts.append(Text("  Efficiency losses: " + ", ".join(summary) + ".", style="dim"))
    if hidden:
        plural = "s" if hidden != 1 else ""
        parts.append(Text(f"  {hidden} discard{plural} of hidden seats not shown (--all-hands shows them).",
                          style="dim"))
    return Group(*parts)
