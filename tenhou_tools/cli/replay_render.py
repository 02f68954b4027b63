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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, JustifyMethod, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..analysis import GameAnalysis
from ..check import label_findings
from ..errors import InputError
from ..events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    Event,
    Game,
    Hand,
    Meld,
    NewDora,
    Reconnect,
    Riichi,
    Ryuukyoku,
    Unknown,
)
from ..findings import Finding, Severity
from ..ids import game_start
from ..replay.engine import GameReport
from ..rules import game_end
from ..rules.yaku import yaku_name
from ..serialize import to_json
from ..tiles import RED_FIVES, dora_kind, format_tiles, glyph, kind_name
from . import render
from .finding_text import values_text, viewer_url

WINDS = "ESWN"
ROUND_WINDS = ("East", "South", "West", "North")
SPARK = "▁▂▃▄▅▆▇█"

STYLE_DRAW = "dim"
STYLE_TSUMOGIRI = "dim"
STYLE_RIICHI = "bold red"
STYLE_CALL = "bold cyan"
STYLE_DORA = "yellow"
STYLE_WIN = "bold green"
STYLE_RED_FIVE = "red"
STYLE_OK = "bold green"
STYLE_FAIL = "bold red"

LEGEND = (
    "Play: a column per seat, a row per go-around. +X draw, -X discard, * tsumogiri.",
    "Calls: chi pon kan kakan ankan kita; dora X: a new dora indicator; ron, tsumo.",
)

_CALL_WORDS = {
    CallKind.CHI: "chi",
    CallKind.PON: "pon",
    CallKind.OPEN_KAN: "kan",
    CallKind.ADDED_KAN: "kakan",
    CallKind.CLOSED_KAN: "ankan",
    CallKind.KITA: "kita",
}


# -- the facts both views share ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class View:
    """How to show a game: from which seat, and how to write tiles."""

    viewer: int | None = None
    """The seat viewed from (``--seat`` or the URL's ``tw``); ``None``: every seat."""
    all_hands: bool = False
    """Show every seat's concealed tiles even when viewing from a seat."""
    ascii: bool = False
    """Tiles in ``123m`` notation (``0`` a red five) instead of unicode glyphs."""

    def hides(self, seat: int) -> bool:
        """Whether ``seat``'s concealed tiles are hidden in this view."""
        return self.viewer is not None and not self.all_hands and seat != self.viewer


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One replayed hand: the points each seat had before and after it, and its findings."""

    hand: Hand
    before: tuple[int, ...]
    """Each seat's points at the INIT (one entry per player)."""
    after: tuple[int, ...]
    """Each seat's points after the hand's last result (riichi sticks paid, honba and sticks won)."""
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def deltas(self) -> tuple[int, ...]:
        return tuple(a - b for a, b in zip(self.after, self.before, strict=True))

    @property
    def finished(self) -> bool:
        """The log has the hand's result (a log that stops early cuts its last hand)."""
        return bool(self.hand.endings)


def hand_records(game: Game, report: GameReport) -> tuple[list[HandRecord], list[Finding]]:
    """Each hand with its findings, and the findings that belong to no hand (game level)."""
    n = game.header.ruleset.players
    by_hand: dict[int, list[Finding]] = {}
    game_level: list[Finding] = []
    for finding in label_findings(game, report.findings):
        if finding.hand is not None and 0 <= finding.hand < len(game.hands):
            by_hand.setdefault(finding.hand, []).append(finding)
        else:
            game_level.append(finding)
    records = []
    for hand in game.hands:
        before = tuple(hand.init.scores[:n])
        endings = hand.endings
        if endings:
            last = endings[-1]  # a double ron's second AGARI starts from the first one's result
            after = tuple(last.scores_before[s] + last.deltas[s] for s in range(n))
        else:
            after = before
        records.append(HandRecord(hand, before, after, tuple(by_hand.get(hand.index, ()))))
    return records, game_level


def select_hands(records: list[HandRecord], label: str | None) -> list[HandRecord]:
    """The hands ``--hand LABEL`` names (``E1-0``; case does not matter), or all of them."""
    if label is None:
        return records
    wanted = label.strip().upper()
    chosen = [r for r in records if r.hand.init.label().upper() == wanted]
    if not chosen:
        labels = ", ".join(r.hand.init.label() for r in records)
        raise InputError(f"no hand {label!r} in this game (its hands: {labels})")
    return chosen


def seat_wind(seat: int, dealer: int, players: int) -> str:
    return WINDS[(seat - dealer) % players]


def round_name(hand: Hand) -> str:
    init = hand.init
    return f"{ROUND_WINDS[init.wind % 4]} {init.hand_number}"


def player_name(game: Game, seat: int) -> str:
    return game.header.players[seat].name or f"S{seat}"


def uma_by_seat(game: Game, ranking: Sequence[int]) -> list[int] | None:
    """Each seat's uma (first place takes minus the others'), when the table's uma is known."""
    header = game.header
    start = game_start(game.log_id)
    table = game_end.table_rules(header.ruleset, header.lobby, header.csrule,
                                 start.date() if start is not None else None)
    if table.umas is None or len(table.umas) != len(ranking) - 1:
        return None
    uma = [0] * 4
    for seat, value in zip(ranking[1:], table.umas, strict=True):
        uma[seat] = value
    uma[ranking[0]] = -sum(table.umas)
    return uma


# -- tiles -------------------------------------------------------------------------------------


class TileWriter:
    """Tiles as text: unicode glyphs (a space after each, so wide-drawn glyphs do not overlap;
    red fives in red on a colour terminal) or the ``123m`` notation (``0`` a red five)."""

    def __init__(self, view: View, red: bool):
        self.ascii = view.ascii
        self.red = red

    def one(self, tile: int) -> Text:
        if self.ascii:
            return Text(format_tiles((tile,), red=self.red))
        return Text(glyph(tile), style=STYLE_RED_FIVE if self.red and tile in RED_FIVES else "")

    def many(self, tiles: Iterable[int]) -> Text:
        tiles = list(tiles)
        if self.ascii:
            return Text(format_tiles(tiles, red=self.red))
        out = Text()
        for i, tile in enumerate(sorted(tiles, key=lambda t: (t >> 2, t not in RED_FIVES))):
            if i:
                out.append(" ")
            out.append_text(self.one(tile))
        return out

    def apart(self, tiles: Iterable[int]) -> Text:
        """Tiles one by one, in the order given, a space between (dora indicators: ``2m 6m``)."""
        out = Text()
        for i, tile in enumerate(tiles):
            if i:
                out.append(" ")
            out.append_text(self.one(tile))
        return out

    def kind(self, k: int) -> Text:
        return self.one(k * 4 + 1)  # a copy that is never red

    def meld(self, meld: Meld) -> Text:
        word = _CALL_WORDS[meld.kind]
        if meld.kind is CallKind.KITA:
            return Text(word, style=STYLE_CALL)
        return Text.assemble((word, STYLE_CALL), " ", self.many(meld.tiles))


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
        parts.append(Text(f"Warning: {warning}", style="yellow"))
    parts += [Text(), render.players_table(game, viewer=view.viewer), Text()]
    parts += [Text(line, style="dim") for line in LEGEND]
    return Group(*parts)


# -- one hand ----------------------------------------------------------------------------------


def hand_view(game: Game, record: HandRecord, view: View) -> RenderableType:
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
    parts: list[RenderableType] = [Rule(Text(title, style="bold"), align="left"), dora]
    parts.append(_start_table(game, record, view, tiles))
    table, notes = _play_table(game, hand, view, tiles)
    parts.append(table)
    parts += [Text(note, style="dim") for note in notes]
    for ending in hand.endings:
        parts += _result_lines(ending, n, tiles)
    if not hand.endings:
        parts.append(Text(render.LOG_ENDS_IN_HAND, style="yellow"))
    parts.append(_scores_line(record, n))
    parts += verdict_lines(record.findings, hand, finished=record.finished)
    return Group(*parts)


def _start_table(game: Game, record: HandRecord, view: View, tiles: TileWriter) -> Table:
    init = record.hand.init
    n = game.header.ruleset.players
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Seat")
    table.add_column("Player")
    table.add_column("Points", justify="right")
    table.add_column("Starting hand")
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
            notes.append(f"Event {index}: unknown tag <{event.tag}> (kept, not shown).")
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right", style="dim")
    for s in range(n):
        name = f"S{s} {seat_wind(s, init.dealer, n)} {player_name(game, s)}"
        table.add_column(Text(name, style="bold"), overflow="fold")
    for number, row in enumerate(cells.rows, 1):
        table.add_row(str(number), *row)
    return table, notes


def _result_lines(ending: Agari | Ryuukyoku, players: int, tiles: TileWriter) -> list[RenderableType]:
    """The result's line, then the tiles shown: indented by two, and a line too long for the
    width folds under that indent, not at the left margin."""
    if isinstance(ending, Agari):
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
        extras = []
        if ending.honba:
            extras.append(f"{ending.honba} honba")
        if ending.sticks:
            extras.append(f"{ending.sticks} riichi stick{'s' if ending.sticks != 1 else ''}")
        if extras:
            shown.append(" · +" + " and ".join(extras))
        return [head, Padding(shown, (0, 0, 0, 2))]
    lines: list[RenderableType] = [Text(render.describe_draw(ending, players), style="bold")]
    for s in range(players):
        tiles_shown = ending.hands[s]
        if tiles_shown is not None:
            lines.append(Padding(Text(f"S{s} shows ").append_text(tiles.many(tiles_shown)), (0, 0, 0, 2)))
    return lines


def _scores_line(record: HandRecord, players: int) -> Text:
    text = Text("Scores:")
    for s in range(players):
        delta = record.deltas[s]
        style = "green" if delta > 0 else "red" if delta < 0 else ""
        text.append(f"{'  ' if s else ' '}S{s} {record.after[s]} (")
        text.append(render.signed(delta), style=style)
        text.append(")")
    return text


def event_text(event: Event) -> str:
    """A short description of an event, for a finding's location (tiles in notation)."""
    if isinstance(event, Draw):
        return f"S{event.seat} draws {kind_name(event.tile >> 2)}"
    if isinstance(event, Discard):
        return f"S{event.seat} discards {kind_name(event.tile >> 2)}"
    if isinstance(event, Call):
        return f"S{event.seat} {_CALL_WORDS[event.meld.kind]} {format_tiles(event.meld.tiles)}"
    if isinstance(event, Riichi):
        return f"S{event.seat} riichi step {event.step}"
    if isinstance(event, NewDora):
        return f"new dora indicator {kind_name(event.tile >> 2)}"
    if isinstance(event, Agari):
        return f"S{event.who} tsumo" if event.is_tsumo else f"S{event.who} ron on S{event.from_who}"
    if isinstance(event, Ryuukyoku):
        return f"draw ({event.kind.value})"
    return type(event).__name__


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


def standings_view(game: Game) -> RenderableType:
    """Final standings: rank, seat, player, final points, uma, the game result (owari) and, at a
    chip table, each seat's chips. The uma is the table's (``-`` when the lobby's is unknown)."""
    owari = game.owari
    if owari is None:
        return Group(Rule(Text("Final standings", style="bold"), align="left"),
                     Text(render.NO_FINAL_RESULT))
    n = game.header.ruleset.players
    order = game_end.ranking(owari.scores, n, game.header.first_dealer)
    uma = uma_by_seat(game, order)
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    columns: list[tuple[str, JustifyMethod]] = [("Rank", "left"), ("Seat", "left"), ("Player", "left"),
                                                ("Points", "right"), ("Uma", "right"), ("Result", "right")]
    if owari.chips is not None:
        columns.append(("Chips", "right"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for rank, s in enumerate(order, 1):
        row: list[RenderableType] = [
            _ordinal(rank), f"S{s}", Text(player_name(game, s)), str(owari.scores[s]),
            render.signed(uma[s]) if uma is not None else "-", f"{owari.points[s]:+.1f}",
        ]
        if owari.chips is not None:
            row.append(render.signed(owari.chips[s]))
        table.add_row(*row)
    return Group(Rule(Text("Final standings", style="bold"), align="left"), table)


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def progression(game: Game, records: Sequence[HandRecord]) -> list[list[int]]:
    """Each seat's points at the start of every hand, then at the end (``owari``, else the last
    hand's result): ``[seat][point]``."""
    n = game.header.ruleset.players
    series = [[r.before[s] for r in records] for s in range(n)]
    owari = game.owari
    final = owari.scores[:n] if owari is not None else (records[-1].after if records else ())
    for s in range(n):
        if final:
            series[s].append(final[s])
    return series


def sparkline(values: Sequence[int], low: int, high: int) -> str:
    if high <= low:
        return SPARK[len(SPARK) // 2] * len(values)
    top = len(SPARK) - 1
    return "".join(SPARK[round((v - low) * top / (high - low))] for v in values)


def progression_view(game: Game, records: Sequence[HandRecord]) -> RenderableType:
    """A sparkline per seat on one scale for all seats: a block per hand start, then the end."""
    series = progression(game, records)
    values = [v for line in series for v in line]
    title = Rule(Text("Score progression (each hand's start, then the end; one scale)", style="bold"),
                 align="left")
    if not values:
        return Group(title, Text("No hands."))
    low, high = min(values), max(values)
    table = Table(box=None, show_edge=False, pad_edge=False, show_header=False)
    table.add_column("Seat")
    table.add_column("Player")
    table.add_column("Start", justify="right")
    table.add_column("Chart", no_wrap=True)
    table.add_column("End", justify="right")
    table.add_column("Range", style="dim")
    for s, line in enumerate(series):
        table.add_row(f"S{s}", Text(player_name(game, s)), str(line[0]), sparkline(line, low, high),
                      str(line[-1]), f"low {min(line)}, high {max(line)}")
    return Group(title, table, Text(f"Scale: ▁ = {low}, █ = {high}.", style="dim"))


def game_verdict(report: GameReport, game_level: Sequence[Finding], records: Sequence[HandRecord],
                 shown: Sequence[HandRecord], complete: bool = True) -> list[RenderableType]:
    """The verdict on the whole game, after the hands (``complete=False``: the log stops early)."""
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    checks = sum(n for kind, n in report.checks.items() if not kind.endswith("_not_checkable"))
    hands = len(records)
    scope = f"{hands} hand{'s' if hands != 1 else ''} replayed under the Tenhou rules, {checks} checks"
    if not complete:
        scope = f"the log ends before the game does (incomplete game); {scope}"
    if not errors and not complete:
        head = Text.assemble(("✗ Game not verified", STYLE_FAIL), f": {scope}, no error findings in them.")
    elif not errors:
        head = Text.assemble(("✓ Game verified", STYLE_OK), f": {scope}, no error findings.")
    else:
        failing = sorted({f.hand for f in errors if f.hand is not None})
        labels = ", ".join(records[i].hand.init.label() for i in failing if i < len(records))
        where = f" (hands: {labels})" if labels else ""
        head = Text.assemble(("✗ Game not verified", STYLE_FAIL),
                             f": {scope}, {len(errors)} error finding{'s' if len(errors) != 1 else ''}{where}.")
    lines: list[RenderableType] = [head]
    if game_level:
        lines += [line for f in game_level for line in finding_lines(f, None)]
    shown_ids = {r.hand.index for r in shown}
    hidden = sum(len(r.findings) for r in records if r.hand.index not in shown_ids)
    if hidden:
        lines.append(Text(f"  {hidden} finding{'s' if hidden != 1 else ''} in hands not shown "
                          "(run without --hand to see them).", style="dim"))
    return lines


def game_view(game: Game, report: GameReport, view: View, title: str,
              hand_label: str | None = None, analysis: GameAnalysis | None = None) -> list[RenderableType]:
    """The whole text view, as a list of renderables to print one after the other; with
    ``analysis`` (``--analysis``), each hand's discard analysis after it (``board_render``)."""
    from .board_render import hand_analysis_view  # it builds on this module

    records, game_level = hand_records(game, report)
    shown = select_hands(records, hand_label)
    out: list[RenderableType] = [header_view(game, view, title, game.warnings)]
    for position, record in enumerate(records):
        if record not in shown:
            continue
        out += [Text(), hand_view(game, record, view)]
        if analysis is not None:
            out.append(hand_analysis_view(game, position, analysis, view))
    if hand_label is None:
        out += [Text(), standings_view(game), Text(), progression_view(game, records)]
    out += [Text(), *game_verdict(report, game_level, records, shown, is_complete(game))]
    return out


def is_complete(game: Game) -> bool:
    """False for a log read up to where it stops (``Game.complete``)."""
    return game.complete


# -- JSON --------------------------------------------------------------------------------------


def result_json(ending: Agari | Ryuukyoku, players: int) -> dict[str, Any]:
    """A result in words and numbers (the raw tag is among the hand's events)."""
    if isinstance(ending, Agari):
        return {
            "type": "agari",
            "kind": "tsumo" if ending.is_tsumo else "ron",
            "who": ending.who,
            "from_who": ending.from_who,
            "points": ending.points,
            "han": ending.han,
            "fu": ending.fu,
            "limit": render.LIMIT_NAMES.get(ending.limit),
            "yaku": [{"id": y, "name": yaku_name(y), "han": h} for y, h in ending.yaku],
            "yakuman": [{"id": y, "name": yaku_name(y)} for y in ending.yakuman],
            "pao_who": ending.pao_who,
            "deltas": list(ending.deltas[:players]),
            "text": render.describe_agari(ending),
        }
    return {
        "type": "ryuukyoku",
        "kind": ending.kind.value,
        "abortive": ending.kind.is_abortive,
        "shown": [s for s in range(players) if ending.hands[s] is not None],
        "deltas": list(ending.deltas[:players]),
        "text": render.describe_draw(ending, players),
    }


def hand_json(record: HandRecord, players: int) -> dict[str, Any]:
    hand = record.hand
    init = hand.init
    dora = [init.dora_indicator] + [e.tile for e in hand.events if isinstance(e, NewDora)]
    riichi = sorted({e.seat for e in hand.events if isinstance(e, Riichi) and e.step == 2})
    return {
        "index": hand.index,
        "label": init.label(),
        "round": init.round,
        "honba": init.honba,
        "sticks": init.sticks,
        "dealer": init.dealer,
        "init": to_json(init),
        "events": [to_json(e) for e in hand.events],
        "dora_indicators": dora,
        "riichi": riichi,
        "result": [result_json(e, players) for e in hand.endings],
        "scores_before": list(record.before),
        "scores_after": list(record.after),
        "deltas": list(record.deltas),
        "findings": [finding_json(f) for f in record.findings],
        "ok": record.ok,
        "verdict": ("verified" if record.finished else "incomplete") if record.ok else "failed",
    }


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding as in ``validate``'s NDJSON, plus ``values``: the line of the text view that
    says what its values are (``points (ten): 48000 by the rules, the log says 36000``), or
    ``null`` when the message says it all. The HTML page shows it, never the raw ids."""
    out = finding.to_json()
    out["values"] = values_text(finding)
    return out


def game_json(game: Game, report: GameReport, view: View, source: str,
              hand_label: str | None = None) -> dict[str, Any]:
    """The replay as one JSON document (the shape is documented in the README)."""
    records, game_level = hand_records(game, report)
    shown = select_hands(records, hand_label)
    n = game.header.ruleset.players
    when = game_start(game.log_id)
    owari = game.owari
    final = None
    if owari is not None:
        order = game_end.ranking(owari.scores, n, game.header.first_dealer)
        uma = uma_by_seat(game, order)
        final = {
            "scores": list(owari.scores[:n]),
            "points": list(owari.points[:n]),
            "ranking": order,
            "uma": uma[:n] if uma is not None else None,
            "chips": list(owari.chips[:n]) if owari.chips is not None else None,
        }
    return {
        "type": "replay",
        "source": source,
        "log_id": game.log_id,
        "date": when.isoformat() if when is not None else None,
        "lobby": game.header.ruleset.name_en(),
        "viewer": view.viewer,
        "all_hands": view.all_hands,
        "ok": report.ok,
        "complete": is_complete(game),
        "verdict": ("verified" if is_complete(game) else "incomplete") if report.ok else "failed",
        "checks": dict(sorted(report.checks.items())),
        "warnings": list(game.warnings),
        "header": to_json(game.header),
        "hands": [hand_json(r, n) for r in shown],
        "findings": [finding_json(f) for f in game_level],
        "progression": progression(game, records),
        "final": final,
    }
