"""``replay --at HAND:STEP``: the table at one moment as rich renderables.

Nothing here reads files or prints. The board is the library's document
(``documents.board.board_document``: the one fold's board with each seat's shanten and waits,
and the analysis the moment shows); this module only renders it, following the replay view's
rules (``view.View``): tiles as glyphs or in the ``123m`` notation, other seats' concealed
tiles hidden when viewing from a seat (unless ``--all-hands``), log text (player names) as
plain text. The JSON is the document's own (``BoardDocument.to_json``): ``--seat`` hides
nothing there.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text

from ..analysis import waits_text
from ..documents.board import BoardDocument
from ..events import Discard, Draw, Event, Game, Riichi
from ..replay.board import PondTile
from ..tiles import dora_kind
from .analysis_render import note_rows, rows_table
from .view import (
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


# -- the board as text -----------------------------------------------------------------------------


def moment_text(event: Event | None, view: View, before: Event | None = None) -> str:
    """What just happened, without giving away a hidden draw; a replacement draw (``Draw.rinshan``)
    says so. ``before``: the hand's event just before it, which tells the discard that declares
    riichi."""
    if event is None:
        return "the deal"
    replacement = isinstance(event, Draw) and event.rinshan  # the fold's word: after a closed kan the
    # new dora indicator comes between the call and the draw
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


def _shanten_text(shanten_value: int | None, waiting: Sequence[int], furiten: bool, tiles: int) -> Text:
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


def _pond_rows(pond: Sequence[PondTile], tiles: TileWriter) -> list[Text]:
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


def board_view(doc: BoardDocument, game: Game, view: View, title: str) -> list[RenderableType]:
    """The table of ``doc`` in the terminal: a title, the hand's facts, each seat (hand, melds,
    pond in rows of six, score) and, when the document has it, the analysis at that moment."""
    hand = doc.hand
    init = hand.init
    n = doc.players
    sanma = n == 3
    board = doc.board
    tiles = TileWriter(view, game.header.ruleset.red_fives)
    event = doc.event
    steps = len(hand.events)
    head = Text(f"{title} · {init.label()} step {board.step} of {steps}: {moment_text(event, view, doc.before)}",
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
    for seat in doc.seats:
        s = seat.board
        seat_head = Text(f"S{s.seat} {seat_wind(s.seat, board.dealer, n)}  ")
        seat_head.append(player_name(game, s.seat))
        seat_head.append(f"  {s.score}")
        if s.riichi:
            seat_head.append("  riichi", style=STYLE_RIICHI)
        if view.viewer == s.seat:
            seat_head.append("  (you)")
        lines: list[Text] = [Text(), seat_head]
        if view.hides(s.seat) and not seat.shown:  # a hand a result has shown is public
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
            status = _shanten_text(seat.shanten, seat.waits, s.furiten.any, len(s.concealed))
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
    if doc.with_analysis:
        note = doc.analysis
        out.append(Text())
        if note is None:
            out.append(Text("Analysis: step to a draw or a discard to see one.", style="dim"))
        elif view.hides(note.seat):
            out.append(Text(f"Analysis: S{note.seat}'s hand is hidden from this seat (--all-hands shows it).",
                            style="dim"))
        else:
            out.append(Text("Analysis", style="bold"))
            rows = note_rows(note, tiles, detail=True, at_step=board.step, view=view)
            out.append(Padding(rows_table(rows), (0, 0, 0, 2)))
    return out
