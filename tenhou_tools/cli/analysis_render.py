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
from ..analysis.defence import DangerAgainst
from ..analysis.values import OPTION_FIELDS, OptionValue, Reason
from ..analysis.verdict import SeatSummary, Verdict
from ..events import Game
from ..rounding import fixed, rounded
from ..rules.danger import DangerClass
from ..tiles import kind as tile_kind
from .term import visible
from .view import STYLE_FAIL, STYLE_OK, STYLE_RIICHI, TileWriter, View

STYLE_CLOSE = "bold yellow"
STYLE_FORCED = "dim"

REASON_WORDS = {
    Reason.EFFICIENCY: "efficiency: a slower hand",
    Reason.VALUE: "value: a cheaper hand",
    Reason.DEFENCE: "defence: a more dangerous tile for nothing",
    Reason.PUSH: "push: a dangerous tile the hand was not worth",
    Reason.FOLD: "fold: a safer tile that gave up more than the danger it avoided",
    Reason.PLACEMENT: "placement",
    Reason.KEEP: "keep: a tile strong players hold on to longer",
}
"""A reason in a player's words (``analysis.values.Reason``)."""


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


def value_text(option: OptionValue | None) -> str:
    """An option's expected points beside its acceptance: ``ev 626 (wins 40%, 1,580 a win)`` at
    tenpai and one-shanten (the chance is the option's calibrated win over the scorer's average
    win, so the two multiply to it), ``ev 412`` further away, with ``; deal-in 6%, -380`` when
    it risks a deal-in and ``; keep +120`` for its keep term (the keep table); empty for no
    option.

    The numbers are the ones the replay page reads, the option as its document holds it
    (``OptionValue.to_json``: points whole, the deal-in chance in per mille), put in words the
    way the page's script does, so that the two say the same (``rounding.py``)."""
    if option is None:
        return ""
    held = dict(zip(OPTION_FIELDS, option.to_json(), strict=False))  # trailing zeros left out
    ev, keep, risk, later = (held.get(name, 0) for name in ("ev", "keep", "risk", "later"))
    deal_in = held.get("deal_in", 0) / 1000
    text = f" · ev {fixed(ev, grouping=True)}"
    value = option.value
    win_points = 0 if value is None else rounded(value.win_points)
    extra = []
    if value is not None and win_points > 0:
        # the calibrated chance: the option's win over the scorer's average win
        chance = min(1.0, (ev + risk + later - keep) / win_points)
        extra.append(f"wins {fixed(chance * 100)}%, {fixed(win_points, grouping=True)} a win"
                     + (", furiten" if value.furiten else ""))
    elif value is not None:
        extra.append("cannot win" + (", furiten" if value.furiten else ""))
    if deal_in > 0:
        extra.append(f"deal-in {fixed(deal_in * 100)}%, -{fixed(risk + later, grouping=True)}")
    if keep:
        extra.append(f"keep {fixed(keep, plus=True, grouping=True)}")
    return text + (f" ({'; '.join(extra)})" if extra else "")


def class_text(c: DangerClass) -> str:
    return c.label


def threat_text(against: DangerAgainst) -> str:
    """``S1's riichi`` or ``S2 (2 calls, tenpai 58%)``."""
    if against.riichi:
        return f"S{against.seat}'s riichi"
    calls = against.open_melds
    tenpai = against.to_json()["tenpai"]  # as the page reads it (rounding.py)
    assert isinstance(tenpai, float | int)
    return f"S{against.seat} ({calls} call{'s' if calls != 1 else ''}, tenpai {fixed(tenpai * 100)}%)"


def danger_line(against: DangerAgainst, tiles: TileWriter, kind: int) -> Text:
    """``vs S1's riichi: 6m genbutsu (2.0%), the safest in hand genbutsu``; a threat without a
    riichi is named by its calls and tenpai chance (``vs S2 (2 calls, tenpai 58%): ...``)."""
    line = Text(f"vs {threat_text(against)}: ")
    line.append_text(tiles.kind(kind))
    rates = against.to_json()["rates"]  # in percent, as the page reads them (rounding.py)
    assert isinstance(rates, dict)
    rate = rates.get(str(kind))
    line.append(f" {class_text(against.tile_class)}" + (f" ({fixed(rate, 1)}%)" if rate is not None else ""))
    line.append(f", the safest in hand {class_text(against.safest_class)}")
    return line


def verdict_text(note: DiscardNote, tiles: TileWriter) -> Text:
    """The verdict in words: ``✓ best``, ``forced (riichi)``, ``≈ close: 120 points below the
    top 4m (efficiency: a slower hand)`` or ``✗ loss: 640 points below the top 4m (fold: ...)``
    (✗ only for a loss)."""
    j = note.judgement
    out = Text()
    if j.verdict is Verdict.FORCED:
        out.append("forced (riichi: the drawn tile goes)", style=STYLE_FORCED)
        return out
    if j.verdict is Verdict.BEST:
        others = [o.kind for o in j.options if o.ev >= j.ev and o.kind != note.analysis.kind]
        out.append("✓ best", style=STYLE_OK)
        if others:
            out.append(", as good: ")
            out.append_text(tiles.kinds(others))
        return out
    mark, style = ("≈ close", STYLE_CLOSE) if j.verdict is Verdict.CLOSE else ("✗ loss", STYLE_FAIL)
    out.append(f"{mark}: {fixed(j.cost_points, grouping=True)} points below the top ", style=style)
    out.append_text(tiles.kind(j.top_kind))
    if j.reason is not None:
        out.append(f" ({REASON_WORDS[j.reason]})", style=style)
    return out


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
    line.append(")" + value_text(note.judgement.chosen) + " · ")
    line.append_text(verdict_text(note, tiles))
    rows: list[Row] = [(str(note.event_index + 1), who, line)]
    if note.judgement.verdict is not Verdict.BEST and note.judgement.verdict is not Verdict.FORCED:
        top = note.judgement.top
        option = next(o for o in a.options if o.kind == top.kind)
        best = Text("top -")
        best.append_text(tiles.kind(top.kind))
        acc = option.acceptance
        text = Text(f"{_shanten_word(acc.shanten)} · {acc.total} tile{'s' if acc.total != 1 else ''} (")
        text.append_text(tiles.kinds(acc.kinds, acc.left if detail else None))
        text.append(")" + value_text(top))
        rows.append(("", best, text))
    for against in note.danger or ():
        rows.append(("", Text(""), danger_line(against, tiles, a.kind)))
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
        losses = sum(1 for x in mine if x.judgement.verdict is Verdict.LOSS)
        summary.append(f"S{s} {losses} in {len(mine)} discard{'s' if len(mine) != 1 else ''}")
    if summary:
        parts.append(Text("  Losses: " + ", ".join(summary) + ".", style="dim"))
    if hidden:
        plural = "s" if hidden != 1 else ""
        parts.append(Text(f"  {hidden} discard{plural} of hidden seats not shown (--all-hands shows them).",
                          style="dim"))
    for stop in analysis.stopped:
        if stop.hand == position:
            parts.append(Text(f"  The analysis stopped at step {stop.event_index + 1}: the log does not hold together "
                              f"there ({visible(stop.reason)}); later discards of this hand are not judged.",
                              style=STYLE_FAIL))
    return Group(*parts)


def summary_line(s: SeatSummary) -> str:
    """A seat's verdicts over the game: ``S1: 52 discards judged · 30 best (64% of 47 choices) ·
    5 forced · 14 close · 3 losses (2 efficiency, 1 fold) · 41 points of ev a choice given up ·
    3 pushes against riichi · dealt into riichi: 1 no suji``. The share and the points are
    those the page reads, as the seat's summary holds them (``SeatSummary.to_json``)."""
    held = s.to_json()
    share, mean = held["share_best"], held["mean_cost"]
    assert isinstance(share, float | int | None) and isinstance(mean, float | int | None)
    parts = [f"S{s.seat}: {s.judged} discard{'s' if s.judged != 1 else ''} judged",
             f"{s.best} best" + (f" ({fixed(share * 100)}% of {s.choices} choice{'s' if s.choices != 1 else ''})"
                                 if share is not None else ""),
             f"{s.forced} forced", f"{s.close} close",
             f"{s.loss} loss{'es' if s.loss != 1 else ''}"
             + (" (" + ", ".join(f"{n} {r}" for r, n in sorted(s.reasons.items())) + ")" if s.reasons else "")]
    if mean is not None:
        parts.append(f"{fixed(mean, grouping=True)} points of ev a choice given up")
    parts.append(f"{s.pushes} push{'es' if s.pushes != 1 else ''} against riichi")
    dealt = {k: n for k, n in s.deal_ins.items() if k != "not_in_riichi"}
    if dealt:
        parts.append("dealt into riichi: " + ", ".join(f"{n} {DangerClass(k).label}" for k, n in dealt.items()))
    return " · ".join(parts)


def analysis_summary_view(analysis: GameAnalysis, view: View) -> RenderableType:
    """Each shown seat's verdicts over the game (the seats the view hides are left out)."""
    lines: list[RenderableType] = [Text("Analysis summary: each seat's discards by verdict", style="bold")]
    for s in analysis.summary:
        if not view.hides(s.seat):
            lines.append(Padding(Text(summary_line(s), overflow="fold"), (0, 0, 0, 2)))
    return Group(*lines)
