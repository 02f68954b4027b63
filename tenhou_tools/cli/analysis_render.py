"""The discard analysis as text: a row per discard (``replay --analysis`` after each hand, and
``replay --at HAND:STEP --analysis`` for one moment), riichi waits and deal-ins in words.

Nothing here reads files or prints; the analysis is ``analysis.analyze_game``'s. A seat's
analysis is shown only where the view shows its hand (``View.hides``); a deal-in names the
winner's wait, which is public once the winner shows the hand (at the ron), never before.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..analysis import DealIn, DiscardNote, GameAnalysis, RiichiSummary, waits_text
from ..events import Game
from ..tiles import kind as tile_kind
from .view import STYLE_FAIL, STYLE_OK, STYLE_RIICHI, TileWriter, View


def deal_in_text(d: DealIn) -> str:
    """``S1 dealt 5m (no suji) into S3's 4-7m wait (riichi, 8,000)``: the dealt tile's danger
    class against a winner in riichi in brackets (``rules.danger.DangerClass.label``)."""
    how = "riichi" if d.riichi else "open" if d.open_hand else "dama"
    dealt = waits_text((tile_kind(d.tile),))
    if d.tile_class is not None:
        dealt += f" ({d.tile_class.label})"
    return f"S{d.discarder} dealt {dealt} into S{d.winner}'s {waits_text(d.waits)} wait ({how}, {d.points:,})"


def riichi_text(r: RiichiSummary, tiles: TileWriter) -> Text:
    """``riichi on 4p:2 7p:3 (5 left)``."""
    out = Text("riichi on ", style=STYLE_RIICHI)
    out.append_text(tiles.kinds(r.waits, r.left))
    out.append(f" ({r.total} left)")
    return out


def _shanten_word(value: int) -> str:
    return "complete" if value < 0 else "tenpai" if value == 0 else f"shanten {value}"


Row = tuple[str, Text, Text]
"""One row of the analysis grid: the step, who did what, the rest (folds within its column)."""


def note_rows(note: DiscardNote, tiles: TileWriter, *, detail: bool = False, at_step: int | None = None,
              view: View | None = None) -> list[Row]:
    """One discard's analysis: ``12 | S1 -7p | shanten 1 → 1 · 12 tiles (6p 9p 8s) · ✓ best``
    (the step that shows it, the discard, shanten before and after, its acceptance and the
    verdict); after a loss, the best discard(s) with theirs; the riichi's waits with how many
    are left; the deal-ins: all of them, or with ``at_step`` (one moment) those whose ron has
    happened by then or whose winner's hand ``view`` shows (before the ron, the wait is the
    winner's secret). ``detail``: each accepted kind with how many are left."""
    a = note.analysis
    who = Text(f"S{note.seat} -")
    who.append_text(tiles.one(a.tile))
    line = Text(f"shanten {a.shanten_before} → {a.shanten_after} · {a.chosen.total} tile"
                f"{'s' if a.chosen.total != 1 else ''} (")
    line.append_text(tiles.kinds(a.chosen.kinds, a.chosen.left if detail else None))
    line.append(") · ")
    if a.loss is None:
        others = [b.kind for b in a.best if b.kind != a.kind]
        line.append("✓ best", style=STYLE_OK)
        if others:
            line.append(", as good: ")
            line.append_text(tiles.kinds(others))
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
            text.append_text(tiles.kinds(acc.kinds, acc.left if detail else None))
            text.append(")")
            rows.append(("", best, text))
    if note.riichi is not None:
        rows.append(("", Text(""), riichi_text(note.riichi, tiles)))
    for k, d in enumerate(note.deal_ins):
        if at_step is None or note.ron_step(k) <= at_step or (view is not None and not view.hides(d.winner)):
            rows.append(("", Text(""), Text(deal_in_text(d), style=STYLE_FAIL)))
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
                rows.append((str(note.event_index + 1), Text(""), Text(deal_in_text(d), style=STYLE_FAIL)))
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
