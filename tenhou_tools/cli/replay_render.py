"""What ``tenhou-tools replay`` shows: a replayed game as rich renderables, or as a JSON document.

Nothing here prints or reads files: ``replay_cmd`` loads the game, runs the engine and prints
what these functions build. The text view reuses the summary helpers of ``render`` (lobby line,
players table, result descriptions) and adds the hand-by-hand play:

- a hand's title (round, honba, sticks, dealer), its dora indicator and each seat's starting hand;
- the play as a table with one column per seat (absolute seats, S0 first) and one row per
  go-around: cells are filled left to right, top to bottom in the order things happened, and a
  new row starts whenever the seat to act is not to the right of the last one (a call that
  skips seats leaves their cells empty);
- the result, the score changes and the engine's verdict on the hand.

Viewed from a seat (``View.viewer``), the other seats' concealed tiles (their starting hands and
draws) are hidden unless ``View.all_hands``; everything public (discards, tsumogiri, calls, the
hands shown at the end) stays visible.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Group, JustifyMethod, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..documents.replay import DrawResult, HandDocument, ReplayDocument, WinResult
from ..events import (
    Agari,
    Bye,
    Call,
    Discard,
    Draw,
    Game,
    Hand,
    NewDora,
    Reconnect,
    Riichi,
    Unknown,
)
from ..findings import Finding, Severity
from ..ids import game_start
from ..rounding import fixed
from ..tiles import dora_kind
from . import render
from .analysis_render import analysis_summary_view, hand_analysis_view
from .finding_text import values_text, viewer_url
from .term import visible
from .view import (
    STYLE_DORA,
    STYLE_DRAW,
    STYLE_FAIL,
    STYLE_OK,
    STYLE_RIICHI,
    STYLE_TSUMOGIRI,
    STYLE_WIN,
    TileWriter,
    View,
    event_text,
    player_name,
    round_name,
    seat_wind,
)

SPARK = "▁▂▃▄▅▆▇█"

LEGEND = (
    "Play: a column per seat, a row per go-around. +X draw, -X discard, * tsumogiri.",
    "Calls: chi pon kan kakan ankan kita; dora X: a new dora indicator; ron, tsumo.",
)


# -- the header --------------------------------------------------------------------------------


def header_view(game: Game, view: View, title: str, warnings: Sequence[str] = ()) -> RenderableType:
    """The game's title, lobby in words, date, the seat viewed from, the players."""
    parts: list[RenderableType] = [Text(title, style="bold"), Text(render.lobby_line(game))]
    when = game_start(game.log_id)
    facts = []
    if when is None:
        facts.append("Date unknown (no game id)")
    elif len((game.log_id or "").split("gm-")[0]) == 10:
        facts.append(f"Played {when:%Y-%m-%d %H}:xx JST")  # the id gives the hour only
    else:
        facts.append(f"Played {when:%Y-%m-%d} JST")
    count = len(game.hands)
    facts.append(f"{count} hand{'s' if count != 1 else ''}")
    if view.viewer is None:
        facts.append("every seat's tiles shown")
    else:
        seen = "every seat's tiles shown" if view.all_hands else "other seats' concealed tiles hidden"
        facts.append(f"viewed from S{view.viewer} {player_name(game, view.viewer)} ({seen})")
    parts.append(Text(" · ".join(facts)))
    link = viewer_url(game.log_id, tw=view.viewer) if view.viewer is not None else None
    if link is not None:  # only for a real game id, not for a file name that looks like one
        # whole on one line however narrow the terminal (it soft-wraps it): a link cut in two
        # can be neither clicked nor copied
        parts.append(Text(link, no_wrap=True, overflow="ignore"))
    for warning in warnings:
        parts.append(Text(f"Warning: {visible(warning)}", style="yellow"))
    parts += [Text(), render.players_table(game, viewer=view.viewer), Text()]
    parts += [Text(line, style="dim") for line in LEGEND]
    return Group(*parts)


# -- one hand ----------------------------------------------------------------------------------


def hand_view(game: Game, record: HandDocument, view: View) -> RenderableType:
    """Title, dora, starting hands, the play, the result, the scores and the verdict of a hand."""
    hand = record.hand
    init = hand.init
    n = game.header.ruleset.players
    tiles = TileWriter(view, game.header.ruleset.red_fives)
    sticks = f", {init.sticks} riichi stick{'s' if init.sticks != 1 else ''}" if init.sticks else ""
    title = (f"{init.label()}  {round_name(hand)}, {init.honba} honba{sticks} · "
             f"dealer S{init.dealer} {player_name(game, init.dealer)}")
    dora = Text.assemble(
        "Dora indicator ", tiles.one(init.dora_indicator), " (dora ",
        tiles.kind(dora_kind(init.dora_indicator >> 2, sanma=n == 3)), ")",
    )
    parts: list[RenderableType] = [_Title(title), dora]
    parts.append(_start_table(game, record, view, tiles))
    table, notes = _play_table(game, hand, view, tiles)
    parts.append(table)
    parts += [Text(note, style="dim") for note in notes]
    for result in record.results:
        parts += _result_lines(result, n, tiles)
    if not record.results:
        parts.append(Text(render.LOG_ENDS_IN_HAND, style="yellow"))
    parts.append(_scores_line(record, n))
    parts += verdict_lines(record.findings, hand, finished=record.finished)
    return Group(*parts)


def _start_table(game: Game, record: HandDocument, view: View, tiles: TileWriter) -> Table:
    init = record.hand.init
    n = game.header.ruleset.players
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Seat", no_wrap=True)
    table.add_column("Player", overflow="fold")  # a long name folds; it is never cut
    table.add_column("Points", justify="right", no_wrap=True)
    table.add_column("Starting hand", overflow="fold")
    for s in range(n):
        hidden = view.hides(s)
        shown = Text("(hidden)", style="dim") if hidden else tiles.many(init.hands[s])
        seat = f"S{s} {seat_wind(s, init.dealer, n)}"
        table.add_row(seat, Text(player_name(game, s)), str(record.before[s]), shown)
    return table


class _Cells:
    """The play table's grid: a row per go-around, a cell per seat, filled in event order."""

    def __init__(self, players: int):
        self.players = players
        self.rows: list[list[Text]] = []
        self.last: int | None = None

    def cell(self, seat: int) -> Text:
        if self.last is None or seat < self.last or not self.rows:
            self.rows.append([Text() for _ in range(self.players)])
        self.last = seat
        return self.rows[-1][seat]

    def current_row(self) -> int:
        return len(self.rows)


def _add(cell: Text, part: Text | str, style: str = "") -> None:
    if cell.plain:
        cell.append(" ")
    if isinstance(part, Text):
        if style:
            part.stylize(style)
        cell.append_text(part)
    else:
        cell.append(part, style=style)


def _play_table(game: Game, hand: Hand, view: View, tiles: TileWriter) -> tuple[Table, list[str]]:
    n = game.header.ruleset.players
    init = hand.init
    cells = _Cells(n)
    notes: list[str] = []
    last_actor = init.dealer
    for index, event in enumerate(hand.events):
        if isinstance(event, Draw):
            cell = cells.cell(event.seat)
            last_actor = event.seat
            if not view.hides(event.seat):
                _add(cell, Text("+").append_text(tiles.one(event.tile)), STYLE_DRAW)
        elif isinstance(event, Discard):
            cell = cells.cell(event.seat)
            last_actor = event.seat
            text = Text("-").append_text(tiles.one(event.tile))
            if event.tsumogiri:
                text.append("*")
                text.stylize(STYLE_TSUMOGIRI)
            _add(cell, text)
        elif isinstance(event, Call):
            last_actor = event.seat
            _add(cells.cell(event.seat), tiles.meld(event.meld))
        elif isinstance(event, Riichi):
            if event.step == 1:
                last_actor = event.seat
                _add(cells.cell(event.seat), "riichi", STYLE_RIICHI)
        elif isinstance(event, NewDora):
            _add(cells.cell(last_actor), Text("dora ").append_text(tiles.one(event.tile)), STYLE_DORA)
        elif isinstance(event, Agari):
            _add(cells.cell(event.who), "tsumo" if event.is_tsumo else "ron", STYLE_WIN)
        elif isinstance(event, Bye):
            notes.append(f"S{event.seat} disconnected (row {max(cells.current_row(), 1)}).")
        elif isinstance(event, Reconnect):
            notes.append(f"S{event.seat} reconnected (row {max(cells.current_row(), 1)}).")
        elif isinstance(event, Unknown):
            notes.append(f"Step {index + 1}: unknown tag <{event.tag}> (kept, not shown).")
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    for s in range(n):
        name = f"S{s} {seat_wind(s, init.dealer, n)} {player_name(game, s)}"
        table.add_column(Text(name, style="bold"), overflow="fold")
    for number, row in enumerate(cells.rows, 1):
        table.add_row(str(number), *row)
    return table, notes


def _result_lines(result: WinResult | DrawResult, players: int, tiles: TileWriter) -> list[RenderableType]:
    """The result's line, then the tiles shown: indented by two, and a line too long for the
    width folds under that indent, not at the left margin."""
    if isinstance(result, WinResult):
        ending = result.agari
        head = Text(render.describe_agari(ending), style=STYLE_WIN)
        shown = Text(f"S{ending.who}: ").append_text(tiles.many(ending.hand))
        for meld in ending.melds:
            shown.append(", ")
            shown.append_text(tiles.meld(meld))
        shown.append(" · wins on ")
        shown.append_text(tiles.one(ending.win_tile))
        shown.append(" · dora indicators ")
        shown.append_text(tiles.apart(ending.dora_indicators))
        if ending.ura_indicators:
            shown.append(" · ura ")
            shown.append_text(tiles.apart(ending.ura_indicators))
        extras = []  # what this winner collects: a double ron's second winner, none (上家取り)
        if result.honba:
            extras.append(f"{result.honba} honba")
        if result.sticks:
            extras.append(f"{result.sticks} riichi stick{'s' if result.sticks != 1 else ''}")
        if extras:
            shown.append(" · +" + " and ".join(extras))
        return [head, Padding(shown, (0, 0, 0, 2))]
    draw = result.ryuukyoku
    lines: list[RenderableType] = [Text(render.describe_draw(draw, players), style="bold")]
    for s in range(players):
        tiles_shown = draw.hands[s]
        if tiles_shown is not None:
            lines.append(Padding(Text(f"S{s} shows ").append_text(tiles.many(tiles_shown)), (0, 0, 0, 2)))
    return lines


class _Scores:
    """``Scores: S0 73000 (+48000)  S1 -23000 (-48000) ...`` on one line when it fits the
    width, else ``Scores:`` and a line per seat (a seat's score and change never part)."""

    def __init__(self, record: HandDocument, players: int):
        self.entries = []
        for s in range(players):
            delta = record.deltas[s]
            style = "green" if delta > 0 else "red" if delta < 0 else ""
            self.entries.append(Text.assemble(f"S{s} {record.after[s]} (", (render.signed(delta), style), ")"))

    def __rich_console__(self, console, options):
        line = Text("Scores:")
        for i, entry in enumerate(self.entries):
            line.append("  " if i else " ")
            line.append_text(entry)
        if line.cell_len <= options.max_width:
            yield line
            return
        yield Text("Scores:")
        for entry in self.entries:
            yield Text("  ").append_text(entry)


def _scores_line(record: HandDocument, players: int) -> _Scores:
    return _Scores(record, players)


class _Title:
    """A section's title on a rule (``E1-0  East 1 ... ─────``) when it fits the width; on a
    narrow terminal the title on its own lines (folded between words, never cut), then the rule."""

    def __init__(self, title: str):
        self.title = title

    def __rich_console__(self, console, options):
        text = Text(self.title, style="bold")
        if text.cell_len + 6 <= options.max_width:
            yield Rule(text, align="left")
            return
        yield text
        yield Rule()


def finding_lines(finding: Finding, hand: Hand | None, indent: int = 2) -> list[RenderableType]:
    """``✗ CODE (step 12: S1 discards 3m): message`` and what its values are
    (``finding_text.values_text``), indented by ``indent``; a line too long for the width
    folds under its own start, not at the left margin. The step is the one ``--at HAND:STEP``
    shows (the event's 1-based place in its hand; the JSON's ``event_index`` is 0-based)."""
    where = []
    if finding.event_index is not None:
        spot = f"step {finding.event_index + 1}"
        if hand is not None and 0 <= finding.event_index < len(hand.events):
            spot += f": {event_text(hand.events[finding.event_index])}"
        where.append(spot)
    mark, style = ("✗", STYLE_FAIL) if finding.severity is Severity.ERROR else ("!", "yellow")
    line = Text.assemble((f"{mark} {finding.code.value}", style))
    if where:
        line.append(f" ({'; '.join(where)})")
    line.append(f": {finding.message}")
    lines: list[RenderableType] = [Padding(line, (0, 0, 0, indent))]
    values = values_text(finding)
    if values:
        lines.append(Padding(Text(values), (0, 0, 0, indent + 4)))
    return lines


UNFINISHED_HAND = "… not verified: the log ends before this hand's result (no error in what it has)"
"""The verdict on a hand the log cuts off: what it holds was checked, its result could not be."""


def verdict_lines(findings: Sequence[Finding], hand: Hand | None, *,
                  finished: bool = True) -> list[RenderableType]:
    """``✓ verified``, or the findings with expected vs actual. A hand the log cuts off before
    its result (``finished=False``) is never called verified: its result was not checked."""
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    if not finished and not errors:
        head = Text(UNFINISHED_HAND, style="yellow")
        return [head, *(line for f in findings for line in finding_lines(f, hand))]
    if not findings:
        return [Text("✓ verified", style=STYLE_OK)]
    warnings = len(findings) - errors
    counts = []
    if errors:
        counts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        counts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    head = Text(f"{'✗' if errors else '✓'} {'not verified' if errors else 'verified'}: {', '.join(counts)}",
                style=STYLE_FAIL if errors else STYLE_OK)
    out: list[RenderableType] = [head]
    for finding in findings:
        out += finding_lines(finding, hand)
    return out


# -- the end of the game -----------------------------------------------------------------------


def standings_view(doc: ReplayDocument) -> RenderableType:
    """Final standings: rank, seat, player, final points, uma, the game result (owari) and, at a
    chip table, each seat's chips. The uma is the table's (``-`` when the lobby's is unknown)."""
    final = doc.final
    game = doc.game
    if final is None:
        return Group(_Title("Final standings"), Text(render.NO_FINAL_RESULT))
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    columns: list[tuple[str, JustifyMethod]] = [("Rank", "left"), ("Seat", "left"), ("Player", "left"),
                                                ("Points", "right"), ("Uma", "right"), ("Result", "right")]
    if final.chips is not None:
        columns.append(("Chips", "right"))
    for name, justify in columns:  # a long name folds; numbers are never cut
        if name == "Player":
            table.add_column(name, justify=justify, overflow="fold")
        else:
            table.add_column(name, justify=justify, no_wrap=True)
    for rank, s in enumerate(final.ranking, 1):
        row: list[RenderableType] = [
            _ordinal(rank), f"S{s}", Text(player_name(game, s)), str(final.scores[s]),
            render.signed(final.uma[s]) if final.uma is not None else "-", fixed(final.points[s], 1, plus=True),
        ]
        if final.chips is not None:
            row.append(render.signed(final.chips[s]))
        table.add_row(*row)
    return Group(_Title("Final standings"), table)


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def sparkline(values: Sequence[int], low: int, high: int) -> str:
    if high <= low:
        return SPARK[len(SPARK) // 2] * len(values)
    top = len(SPARK) - 1
    return "".join(SPARK[round((v - low) * top / (high - low))] for v in values)


class _Progression:
    """The score progression: a row per seat (seat, player, start, the chart, end, the range)
    when it fits the width; narrower, each seat's name on a line, its numbers on the next and
    its chart under them (and a line says so): names readable and numbers whole down to 40
    columns."""

    def __init__(self, doc: ReplayDocument):
        self.series = doc.progression
        self.names = [player_name(doc.game, s) for s in range(len(self.series))]
        values = [v for line in self.series for v in line]
        self.low, self.high = min(values), max(values)

    def _wide(self) -> Table:
        table = Table(box=None, show_edge=False, pad_edge=False, show_header=False)
        table.add_column("Seat", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Start", justify="right", no_wrap=True)
        table.add_column("Chart", no_wrap=True)
        table.add_column("End", justify="right", no_wrap=True)
        table.add_column("Range", style="dim", no_wrap=True)
        for s, line in enumerate(self.series):
            table.add_row(f"S{s}", Text(self.names[s]), str(line[0]), sparkline(line, self.low, self.high),
                          str(line[-1]), f"low {min(line)}, high {max(line)}")
        return table

    def _width(self) -> int:
        rows = [[f"S{s}", self.names[s], str(line[0]), sparkline(line, self.low, self.high), str(line[-1]),
                 f"low {min(line)}, high {max(line)}"] for s, line in enumerate(self.series)]
        return sum(max(cell_len(r[i]) for r in rows) for i in range(6)) + 2 * 5

    def __rich_console__(self, console, options):
        if self._width() <= options.max_width:
            yield self._wide()
            return
        for s, line in enumerate(self.series):
            yield Text(f"S{s} {self.names[s]}", overflow="fold")
            yield Text(f"  {line[0]} → {line[-1]} (low {min(line)}, high {max(line)})", style="dim")
            yield Text("  " + sparkline(line, self.low, self.high), overflow="fold")
        yield Text("Narrow terminal: each seat's chart is under its name and numbers.", style="dim")


def progression_view(doc: ReplayDocument) -> RenderableType:
    """A sparkline per seat on one scale for all seats: a block per hand start, then the end."""
    title = _Title("Score progression (each hand's start, then the end; one scale)")
    if not any(doc.progression):
        return Group(title, Text("No hands."))
    chart = _Progression(doc)
    return Group(title, chart, Text(f"Scale: ▁ = {chart.low}, █ = {chart.high}.", style="dim"))


def game_verdict(doc: ReplayDocument) -> list[RenderableType]:
    """The verdict on the whole game, after the hands (a log that stops early is never verified)."""
    errors = doc.errors
    hands = len(doc.hands)
    scope = f"{hands} hand{'s' if hands != 1 else ''} replayed under the Tenhou rules, {doc.check_count} checks"
    if not doc.complete:
        scope = f"the log ends before the game does (incomplete game); {scope}"
    if not errors and not doc.complete:
        head = Text.assemble(("✗ Game not verified", STYLE_FAIL), f": {scope}, no error findings in them.")
    elif not errors:
        head = Text.assemble(("✓ Game verified", STYLE_OK), f": {scope}, no error findings.")
    else:
        labels = ", ".join(doc.failed_hands)
        where = f" (hands: {labels})" if labels else ""
        head = Text.assemble(("✗ Game not verified", STYLE_FAIL),
                             f": {scope}, {len(errors)} error finding{'s' if len(errors) != 1 else ''}{where}.")
    lines: list[RenderableType] = [head]
    if doc.findings:
        lines += [line for f in doc.findings for line in finding_lines(f, None)]
    shown_ids = set(doc.shown)
    hidden = sum(len(r.findings) for i, r in enumerate(doc.hands) if i not in shown_ids)
    if hidden:
        lines.append(Text(f"  {hidden} finding{'s' if hidden != 1 else ''} in hands not shown "
                          "(run without --hand to see them).", style="dim"))
    return lines


def game_view(doc: ReplayDocument, view: View, title: str) -> list[RenderableType]:
    """The whole text view of the document, as a list of renderables to print one after the
    other; with the document's analysis (``--analysis``), each hand's discard analysis after it."""
    game = doc.game
    out: list[RenderableType] = [header_view(game, view, title, game.warnings)]
    for position in doc.shown:
        out += [Text(), hand_view(game, doc.hands[position], view)]
        if doc.analysis is not None:
            out.append(hand_analysis_view(game, position, doc.analysis, view))
    if doc.hand_label is None:
        out += [Text(), standings_view(doc), Text(), progression_view(doc)]
    if doc.analysis is not None and doc.analysis.summary:
        out += [Text(), analysis_summary_view(doc.analysis, view)]
    out += [Text(), *game_verdict(doc)]
    return out
