"""Rendering of ``stats`` reports as rich tables (text). The JSON and the CSV are the report's
own (``documents.stats.StatsReport``)."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..stats.games import TableRow, rate_change_summary, stable_dan_name, table_kinds
from ..stats.report import Metric, PlayerReport
from .term import make_console

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
        _print(console, out, overview_table(reports, n_games))
        _print(console, out, Text(OVERVIEW_LEGEND))
    for i, report in enumerate(detailed):
        if i or len(reports) > 1 or wide:
            out.write("\n")
        _print(console, out, player_table(report))
        kinds = table_kinds(report.entries)
        if kinds:
            out.write("\n")
            _print(console, out, kinds_table(report, kinds))
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


OVERVIEW_LEGEND = ("Rates in %. Dan: at the latest game. Dan pt/game: Tenhou's dan points per "
                   "ranked game, at the player's dan in each game. --wide: more columns.")


def _overview(reports: list[PlayerReport], n_games: int) -> Table:
    return Table(title=Text(f"{_plural(len(reports), 'player row')} over {_plural(n_games, 'game')}"),
                 box=box.SIMPLE_HEAD, show_edge=False, title_justify="left", pad_edge=False,
                 padding=(0, 0))


def overview_table(reports: list[PlayerReport], n_games: int) -> Table:
    """One line per row, in 80 columns: one space between columns, rates as whole percents."""
    table = _overview(reports, n_games)
    table.add_column("Player", justify="left", overflow="fold", max_width=16)
    for header in ("Seats", "Games", "Dan", "Avg\nrank", "1st", "2nd", "3rd", "4th", "Win", "Deal-\nin",
                   "Riichi", "Dan pt\n/game"):
        table.add_column(header, justify="right", no_wrap=True)
    for r in reports:
        m = {x.key: x for x in r.metrics()}
        ranks = [_pct0(m[f"rank{i}_rate"].value) if f"rank{i}_rate" in m else "" for i in range(1, 5)]
        latest = r.latest()
        table.add_row(Text(r.name or "(no name)"), str(r.players), str(r.counters.games),
                      (latest or {}).get("dan_name") or "–", _num(m["avg_rank"].value, 2), *ranks,
                      _pct0(m["win_rate"].value), _pct0(m["deal_in_rate"].value),
                      _pct0(m["riichi_rate"].value), _signed(r.dan_pt_per_game(), 1))
    return table


WIDE_LEGEND = ("Rates in %. Dan and rate: at the latest game. Score/hand: average score change per "
               "hand. Game pt: Tenhou's game result (owari). Dan pt/game: dan points per ranked "
               "game. R/game: expected rate change per ranked game (estimate: 400+ games played). "
               "Efficient: share of discards best by shanten and acceptance (--quality).")


def wide_table(reports: list[PlayerReport], n_games: int) -> Table:
    """One line per row with every headline figure, one space between columns."""
    table = _overview(reports, n_games)
    table.add_column("Player", justify="left", no_wrap=True)
    headers = ["Seats", "Games", "Hands", "Dan", "Rate", "Avg rank", "1st", "2nd", "3rd", "4th", "Bust",
               "Game pt", "Win", "Deal-in", "Riichi", "Call", "Score/hand", "Dan pt/game", "R/game"]
    quality = any(r.play_quality() for r in reports)
    if quality:
        headers.append("Efficient")
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
        table.add_row(Text(r.name or "(no name)"), *cells)
    return table


def kinds_table(report: PlayerReport, rows: list[TableRow]) -> Table:
    """The player's games per table kind: rank counts, dan points per game, stable dan."""
    table = Table(title=Text(f"{report.name or '(no name)'} · {report.players}-player · by table kind"),
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0))
    table.add_column("Room", no_wrap=True)
    table.add_column("Length", no_wrap=True)
    for header in ("Games", "1st", "2nd", "3rd", "4th", "Avg\nrank", "Dan pt\n/game", "Stable\ndan"):
        table.add_column(header, justify="right", no_wrap=True)
    for row in rows:
        ranks = [str(n) for n in row.ranks] + [""] * (4 - len(row.ranks))
        stable = row.stable_dan
        table.add_row(Text(_room_words(row.kind.room, row.kind.players)),
                      "East-South" if row.kind.length == "south" else "East", str(row.games), *ranks,
                      _num(row.avg_rank, 2), _signed(row.dan_pt_per_game, 1),
                      "–" if stable is None else f"{stable:.2f} {stable_dan_name(stable)}")
    return table


def _room_words(room: str, players: int) -> str:
    if room.startswith("lobby:"):
        return f"{players}p lobby {room[6:]}"
    return f"{players}p {room}"


def player_table(report: PlayerReport) -> Table:
    c = report.counters
    title = Text(f"{report.name or '(no name)'} · {report.players}-player · {_plural(c.games, 'game')}, "
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
        table.add_row(Text("  Efficient discards (shanten, acceptance)"), _pct(quality["share"]),
                      f"{quality['efficient']}/{quality['discards']}",
                      "" if ci is None else f"{_pct(ci[0])}–{_pct(ci[1])}")
        table.add_row(Text("  Efficient discards, whole set"), _pct(quality["table_share"]), "", "")
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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _pct0(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}"


def _num(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def _signed(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:+,.{digits}f}"
