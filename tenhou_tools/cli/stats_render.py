"""Rendering of ``stats`` reports as rich tables (text). The JSON and the CSV are the report's
own (``documents.stats.StatsReport``)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..rounding import fixed
from ..rules.danger import DangerClass
from ..stats.games import TableRow, rate_change_summary, report_value, stable_dan_name, table_kinds
from ..stats.report import Metric, PlayerReport
from .term import make_console, visible

WIDE_WIDTH = 400
"""The console width of ``--wide`` output: never folded (it is for wide terminals and files)."""


def render_text(out, reports: list[PlayerReport], n_games: int, *, tables: int | None = None,
                width: int | None = None, wide: bool = False) -> None:
    """An overview line per row (when there are several), then a detailed table for the first
    ``tables`` rows (all when ``None``), and a line saying how many were left out.

    ``width``: the output's (``term.output_width`` by default); the overview fits 80 columns
    with names of up to 16 cells (8 full-width characters, Tenhou's longest), and a longer
    name folds onto a second line rather than pushing the table wider. ``wide``: the overview
    with every headline column instead, never folded (``WIDE_WIDTH``)."""
    console = make_console(out, width=width)
    if not reports:
        out.write(f"No player to report ({_plural(n_games, 'game')} selected).\n")
        return
    detailed = reports if tables is None else reports[:tables]
    if wide:
        wide_console = make_console(out, width=WIDE_WIDTH)
        _print(wide_console, out, wide_table(reports, n_games))
        _print(console, out, Text(WIDE_LEGEND))
    elif len(reports) > 1 or not detailed:
        table, note, kept = overview(reports, n_games, console.width)
        _print(console, out, table)
        _print(console, out, Text(overview_legend(kept)))
        if note:
            _print(console, out, Text(note))
    for i, report in enumerate(detailed):
        if i or len(reports) > 1 or wide:
            out.write("\n")
        table = player_table(report)
        note = fit_player_table(table, console.width)
        _print(console, out, table)
        if note:
            _print(console, out, Text(note))
        kinds = table_kinds(report.entries)
        if kinds:
            out.write("\n")
            view, note = kinds_view(report, kinds, console.width)
            _print(console, out, view)
            if note:
                _print(console, out, Text(note))
    if detailed and len(detailed) < len(reports):
        out.write(f"\nDetailed tables for the first {len(detailed)} of {len(reports)} rows "
                  "(--tables N shows more, --player NAME picks players).\n")


def _print(console: Console, out, renderable) -> None:
    """Render, then write without the padding rich adds at the ends of lines."""
    with console.capture() as capture:
        console.print(renderable)
    lines = [line.rstrip() for line in capture.get().splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    out.write("\n".join(lines) + "\n")


RATE_COLUMNS = ("1st", "2nd", "3rd", "4th", "Win", "Deal-\nin", "Riichi", "Agree")
"""The overview's columns in percent."""


def overview_legend(kept: Collection[str]) -> str:
    """What the overview's columns mean, for the columns it shows (``kept``: their headers): a
    narrow terminal's overview leaves some out, and its legend does not explain those."""
    parts = []
    if any(h in RATE_COLUMNS for h in kept):
        parts.append("Rates in %.")
    if "Dan" in kept:
        parts.append("Dan: at the latest game.")
    parts.append("Dan pt/game: Tenhou's dan points per ranked game, at the player's dan in each game. "
                 "--wide: more columns.")
    if AGREE in kept:
        parts.append(AGREE_LEGEND)
    return " ".join(parts)


def _overview(reports: list[PlayerReport], n_games: int) -> Table:
    return Table(title=Text(f"{_plural(len(reports), 'player row')} over {_plural(n_games, 'game')}"),
                 box=box.SIMPLE_HEAD, show_edge=False, title_justify="left", pad_edge=False,
                 padding=(0, 0))


NAME_MAX = 16
"""The overview's Player column: a longer name folds (16 cells: 8 full-width characters,
Tenhou's longest)."""
AGREE = "Agree"
"""The overview's column of the agreement with the analysis (``stats --quality`` only)."""
AGREE_LEGEND = "Agree: share of discards that were the analysis's top pick by expected points (--quality)."
OVERVIEW_DROP_ORDER = ("2nd", "3rd", "Riichi", "Deal-\nin", "Win", "Dan", "1st", "4th")
"""The overview's columns that a narrow terminal leaves out, first the first; Seats, Games,
Avg rank and Dan pt/game always stay."""


def _overview_columns(reports: list[PlayerReport]) -> list[tuple[str, list[str]]]:
    """Each figure column of the overview: its header and its cells, a row per report."""
    headers = ("Seats", "Games", "Dan", "Avg\nrank", "1st", "2nd", "3rd", "4th", "Win", "Deal-\nin", "Riichi",
               "Dan pt\n/game")
    columns: list[tuple[str, list[str]]] = [(h, []) for h in headers]
    for r in reports:
        m = {x.key: x for x in r.metrics()}
        ranks = [_pct0(m[f"rank{i}_rate"].value) if f"rank{i}_rate" in m else "" for i in range(1, 5)]
        latest = r.latest()
        cells = [str(r.players), str(r.counters.games), (latest or {}).get("dan_name") or "–",
                 _num(m["avg_rank"].value, 2), *ranks, _pct0(m["win_rate"].value), _pct0(m["deal_in_rate"].value),
                 _pct0(m["riichi_rate"].value), _signed(r.dan_pt_per_game(), 1)]
        for (_, column), cell in zip(columns, cells, strict=True):
            column.append(cell)
    qualities = [r.play_quality() for r in reports]
    if any(qualities):  # stats --quality: the agreement, as the wide table and a player's table show it
        columns.append((AGREE, [_pct0(q["share"]) if q else "–" for q in qualities]))
    return columns


def _header_cells(text: str) -> int:
    return max(cell_len(line) for line in text.split("\n"))


Columns = list[tuple[str, list[str]]]
"""Figure columns: each one's header (``\\n`` between its lines) and its cells, a row each."""


@dataclass(frozen=True)
class Fit:
    """How a table of a label (names, table kinds) and figure columns fits a width: the figure
    columns kept, whether the label stays beside them (else on a line of its own above them),
    and the line that says so (None when nothing changed)."""

    kept: list[str]
    inline: bool
    note: str | None


def fit(columns: Columns, label_width: int, drop_order: tuple[str, ...], width: int, *,
        label_words: str = "each name") -> Fit:
    """Every column with the label beside them when they fit; else the columns of
    ``drop_order`` left out, one by one, until they fit; and when that would keep fewer than
    half the columns (and fewer than with the label on a line of its own), the label goes on a
    line above its figures. Numbers are never cut; the label keeps ``label_width``."""
    widths = _widths(columns)

    def needed(kept: list[str], inline: bool) -> int:
        figures = sum(widths[h] for h in kept) + len(kept) - 1
        return figures + label_width + 1 if inline else figures

    def fitting(inline: bool) -> list[str] | None:
        kept = [header for header, _ in columns]
        for header in (None, *drop_order):
            if header is not None:
                kept.remove(header)
            if needed(kept, inline) <= width:
                return kept
        return None

    beside, apart = fitting(True), fitting(False)
    inline = beside is not None and (len(beside) >= len(columns) // 2 or len(beside) >= len(apart or ()))
    kept = (beside if inline else apart) or [h for h, _ in columns if h not in drop_order]
    dropped = [h.replace("-\n", "-").replace("\n", " ") for h, _ in columns if h not in kept]
    said = [f"left out {', '.join(dropped)}"] if dropped else []
    if not inline:
        said.append(f"{label_words} on a line above its figures")
    note = f"At {width} columns: {'; '.join(said)} (a wider terminal shows more)." if said else None
    return Fit(kept, inline, note)


def _widths(columns: Columns) -> dict[str, int]:
    return {header: max([_header_cells(header), *(cell_len(c) for c in cells)]) for header, cells in columns}


def overview(reports: list[PlayerReport], n_games: int,
             width: int) -> tuple[RenderableType, str | None, tuple[str, ...]]:
    """The overview for ``width`` columns (``fit``: names up to ``NAME_MAX`` cells, folded
    beyond), the line that says what a narrow width changed (or None) and the headers of the
    columns it shows."""
    columns = _overview_columns(reports)
    name_width = max([len("Player"), *(min(cell_len(_name(r)), NAME_MAX) for r in reports)])
    drop = OVERVIEW_DROP_ORDER + ((AGREE,) if any(h == AGREE for h, _ in columns) else ())
    laid = fit(columns, name_width, drop, width)
    shown = [(h, cells) for h, cells in columns if h in laid.kept]
    kept = tuple(h for h, _ in shown)
    if laid.inline:
        return overview_table(reports, n_games, shown), laid.note, kept
    title = Text(f"{_plural(len(reports), 'player row')} over {_plural(n_games, 'game')}")
    return _labels_apart(title, [_name(r) for r in reports], shown), laid.note, kept


def overview_table(reports: list[PlayerReport], n_games: int,
                   columns: list[tuple[str, list[str]]] | None = None) -> Table:
    """One line per row (``columns``: all of them by default), one space between columns, rates
    as whole percents: 80 columns with every column."""
    table = _overview(reports, n_games)
    table.add_column("Player", justify="left", overflow="fold", max_width=NAME_MAX)
    columns = _overview_columns(reports) if columns is None else columns
    for header, _ in columns:
        table.add_column(header, justify="right", no_wrap=True)
    for i, r in enumerate(reports):
        table.add_row(Text(_name(r)), *(cells[i] for _, cells in columns))
    return table


def _labels_apart(title: Text, labels: list[str], columns: Columns) -> RenderableType:
    """A table with each row's label (a name, a table kind) on a line of its own, its figures
    on the next: for a width too narrow for both on one line."""
    widths = _widths(columns)

    def line(cells: list[str]) -> str:
        return " ".join(" " * (widths[h] - cell_len(c)) + c for (h, _), c in zip(columns, cells, strict=True))

    depth = max(header.count("\n") + 1 for header, _ in columns)
    heads = [[""] * (depth - header.count("\n") - 1) + header.split("\n") for header, _ in columns]
    out: list[RenderableType] = [title]
    out += [Text(line([head[k] for head in heads]), style="bold", no_wrap=True, overflow="ignore")
            for k in range(depth)]
    out.append(Text("─" * cell_len(line([""] * len(columns)))))
    for i, label in enumerate(labels):
        out.append(Text(label, overflow="fold"))
        out.append(Text(line([cells[i] for _, cells in columns]), no_wrap=True, overflow="ignore"))
    return Group(*out)


WIDE_LEGEND = ("Rates in %. Dan and rate: at the latest game. Score/hand: average score change per "
               "hand. Game pt: Tenhou's game result (owari). Dan pt/game: dan points per ranked "
               "game. R/game: expected rate change per ranked game (estimate: 400+ games played). "
               "Agree: share of discards that were the analysis's top pick by expected points (--quality).")


def wide_table(reports: list[PlayerReport], n_games: int) -> Table:
    """One line per row with every headline figure, one space between columns."""
    table = _overview(reports, n_games)
    table.add_column("Player", justify="left", no_wrap=True)
    headers = ["Seats", "Games", "Hands", "Dan", "Rate", "Avg rank", "1st", "2nd", "3rd", "4th", "Bust",
               "Game pt", "Win", "Deal-in", "Riichi", "Call", "Score/hand", "Dan pt/game", "R/game"]
    quality = any(r.play_quality() for r in reports)
    if quality:
        headers.append("Agree")
    for header in headers:
        table.add_column(header, justify="right", no_wrap=True)
    for r in reports:
        m = {x.key: x for x in r.metrics()}
        ranks = [_pct0(m[f"rank{i}_rate"].value) if f"rank{i}_rate" in m else "" for i in range(1, 5)]
        latest = r.latest() or {}
        change = rate_change_summary(r.entries)["value"]
        cells = [str(r.players), str(r.counters.games), str(r.counters.hands), latest.get("dan_name") or "–",
                 _num(latest.get("rate"), 0), _num(m["avg_rank"].value, 2), *ranks, _pct0(m["bust_rate"].value),
                 _signed(m["avg_final_points"].value, 1), _pct0(m["win_rate"].value),
                 _pct0(m["deal_in_rate"].value), _pct0(m["riichi_rate"].value), _pct0(m["call_rate"].value),
                 _signed(m["avg_hand_balance"].value), _signed(r.dan_pt_per_game(), 1), _signed(change, 2)]
        if quality:
            q = r.play_quality()
            cells.append(_pct(q["share"]) if q else "–")
        table.add_row(Text(_name(r)), *cells)
    return table


KINDS_DROP_ORDER = ("2nd", "3rd", "1st", "4th")
"""The table kinds' columns that a narrow terminal leaves out, first the first."""


def _kinds_columns(rows: list[TableRow]) -> Columns:
    columns: Columns = [(h, []) for h in ("Games", "1st", "2nd", "3rd", "4th", "Avg\nrank", "Dan pt\n/game",
                                          "Stable\ndan")]
    for row in rows:
        ranks = [str(n) for n in row.ranks] + [""] * (4 - len(row.ranks))
        stable = row.stable_dan
        cells = [str(row.games), *ranks, _num(row.avg_rank, 2), _signed(row.dan_pt_per_game, 1),
                 "–" if stable is None else f"{_num(stable, 2)} {stable_dan_name(stable)}"]
        for (_, column), cell in zip(columns, cells, strict=True):
            column.append(cell)
    return columns


def _kind_words(row: TableRow) -> tuple[str, str]:
    return _room_words(row.kind.room, row.kind.players), "East-South" if row.kind.length == "south" else "East"


def kinds_view(report: PlayerReport, rows: list[TableRow], width: int) -> tuple[RenderableType, str | None]:
    """``kinds_table`` laid out for ``width`` (``fit``: room and length beside the figures, or on
    a line above them), and the line that says what a narrow width changed (or None)."""
    columns = _kinds_columns(rows)
    words = [_kind_words(row) for row in rows]
    room_width = max(cell_len(w[0]) for w in [*words, ("Room", "")])
    length_width = max(cell_len(w[1]) for w in [*words, ("", "Length")])
    laid = fit(columns, room_width + 1 + length_width, KINDS_DROP_ORDER, width, label_words="each table kind")
    shown = [(h, cells) for h, cells in columns if h in laid.kept]
    if laid.inline:
        return kinds_table(report, rows, shown), laid.note
    title = Text(f"{_name(report)} · {report.players}-player · by table kind")
    return _labels_apart(title, [f"{room} · {length}" for room, length in words], shown), laid.note


def kinds_table(report: PlayerReport, rows: list[TableRow], columns: Columns | None = None) -> Table:
    """The player's games per table kind: rank counts, dan points per game, stable dan
    (``columns``: all by default)."""
    table = Table(title=Text(f"{_name(report)} · {report.players}-player · by table kind"),
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0))
    table.add_column("Room", no_wrap=True)
    table.add_column("Length", no_wrap=True)
    columns = _kinds_columns(rows) if columns is None else columns
    for header, _ in columns:
        table.add_column(header, justify="right", no_wrap=True)
    for i, row in enumerate(rows):
        room, length = _kind_words(row)
        table.add_row(Text(room), length, *(cells[i] for _, cells in columns))
    return table


def _room_words(room: str, players: int) -> str:
    if room.startswith("lobby:"):
        return f"{players}p lobby {room[6:]}"
    return f"{players}p {room}"


def player_table(report: PlayerReport) -> Table:
    c = report.counters
    title = Text(f"{_name(report)} · {report.players}-player · {_plural(c.games, 'game')}, "
                 f"{_plural(c.hands, 'hand')}")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  collapse_padding=True)
    # The label folds when the width is short; the numbers never do.
    table.add_column("Statistic", overflow="fold")
    table.add_column("Value", justify="right", no_wrap=True)
    table.add_column("Count", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    for heading, metrics in report.sections():
        table.add_row(Text(heading, style="bold"), "", "", "")
        for metric in metrics:
            table.add_row(Text(f"  {metric.label}"), *_cells(metric))
        table.add_section()
        if heading == "Placement" and report.entries:
            _dan_rows(table, report)
    yaku = report.yaku()
    if yaku:
        table.add_row(Text("Yaku (wins with it)", style="bold"), "", "", "")
        for _, name, n in yaku:
            table.add_row(Text(f"  {name}"), _pct(n / c.wins if c.wins else None), f"{n}/{c.wins}", "")
    return table


PLAYER_LABEL_MIN = 24
"""The narrowest Statistic column of a player's table; narrower, the 95% CI column is left out."""


def fit_player_table(table: Table, width: int) -> str | None:
    """Leave out the 95 % interval column of a ``player_table`` when, at ``width``, its labels
    would fold narrower than ``PLAYER_LABEL_MIN``; the line that says so, or None."""
    figures = 0
    for column in table.columns[1:]:
        cells = [column.header, *column.cells]
        figures += max(cell_len(c if isinstance(c, str) else getattr(c, "plain", "")) for c in cells)
    if width - figures - 2 * (len(table.columns) - 1) >= PLAYER_LABEL_MIN:
        return None
    table.columns.pop()
    return f"At {width} columns: left out the 95% CI column (a wider terminal shows it)."


def _dan_rows(table: Table, report: PlayerReport) -> None:
    """The section of dan, rate and play quality (after Placement)."""
    latest = report.latest() or {}
    table.add_row(Text("Dan and rate", style="bold"), "", "", "")
    table.add_row(Text("  Dan at the latest game"), latest.get("dan_name") or "–", "", "")
    table.add_row(Text("  Rate at the latest game"), _num(latest.get("rate"), 2), "", "")
    with_pt = sum(1 for e in report.entries if e.dan_pt is not None)
    table.add_row(Text("  Dan points per ranked game"), _signed(report.dan_pt_per_game(), 1),
                  f"n={with_pt}" if with_pt else "", "")
    change = rate_change_summary(report.entries)
    ranked = sum(1 for e in report.entries if e.rate_change is not None)
    label = "  Rate change per ranked game" + (" (estimate)" if change["estimate"] else "")
    table.add_row(Text(label), _signed(change["value"], 2), f"n={ranked}" if ranked else "", "")
    quality = report.play_quality()
    if quality is not None:
        ci = quality["share_ci"]
        table.add_row(Text("  Agreement (the top pick by expected points)"), _pct(quality["share"]),
                      f"{quality['best']}/{quality['discards']}",
                      "" if ci is None else f"{_pct(ci[0])}–{_pct(ci[1])}")
        table.add_row(Text("  Agreement, whole set"), _pct(quality["table_share"]), "", "")
        verdicts = quality["verdicts"]
        judged = quality["discards"]
        for name, label in (("close", "Close (a near-tie with the top)"), ("loss", "Losses (✗)")):
            share = verdicts[name] / judged if judged else None
            table.add_row(Text(f"  {label}"), _pct(share), f"{verdicts[name]}/{judged}", "")
        table.add_row(Text("  Expected points given up per discard"), _num(quality["mean_cost"], 1), "", "")
        table.add_row(Text("  Pushes against riichi (not tenpai)"), str(quality["pushes"]), "", "")
        dealt = quality["deal_ins_into_riichi_by_class"]
        if dealt:
            table.add_row(Text("  Deal-ins into riichi by class"),
                          ", ".join(f"{DangerClass(k).label} {n}" for k, n in dealt.items()), "", "")
    table.add_section()


def _cells(m: Metric) -> tuple[str, str, str]:
    if m.kind == "count":
        if m.unit == "pt":
            return _signed(m.value, 1), "", ""
        if m.unit == "points":
            return _signed(m.value), "", ""
        return str(m.value), "", ""
    if m.kind == "rate":
        ci = "" if m.ci is None else f"{_pct(m.ci[0])}–{_pct(m.ci[1])}"
        return _pct(m.value), f"{m.num}/{m.den}", ci
    digits = {"rank": 2, "turn": 1, "han": 2, "pt": 1, "points": 0}.get(m.unit, 2)
    fmt = _signed if m.unit in ("pt",) or m.key.endswith("balance") else _num
    ci = "" if m.ci is None else f"{fmt(m.ci[0], digits)} – {fmt(m.ci[1], digits)}"
    return fmt(m.value, digits), f"n={m.den}", ci


def _name(report: PlayerReport) -> str:
    """The row's player name as the text shows it (``term.visible``)."""
    return visible(report.name) or "(no name)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# Each figure is shown rounded (rounding.py, the one rule) from the value the report holds
# (``report_value``: 4 decimals, what its JSON and its page hold), so the page shows it alike.


def _pct(value: float | None) -> str:
    return "–" if value is None else fixed(100 * report_value(value), 1) + "%"


def _pct0(value: float | None) -> str:
    return "–" if value is None else fixed(100 * report_value(value))


def _num(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return fixed(report_value(value), digits, grouping=True)


def _signed(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return fixed(report_value(value), digits, plus=True, grouping=True)
