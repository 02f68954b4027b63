"""Rendering of ``stats`` reports: rich tables (text), JSON and CSV."""

from __future__ import annotations

import csv
import json

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..stats.report import Metric, PlayerReport, csv_columns
from .term import make_console


def render_json(out, reports: list[PlayerReport]) -> None:
    """A JSON array, one object per player and per line (the keys are in docs/stats.md)."""
    lines = [json.dumps(r.to_json(), ensure_ascii=False) for r in reports]
    out.write("[\n" + ",\n".join(lines) + ("\n" if lines else "") + "]\n")


def render_csv(out, reports: list[PlayerReport]) -> None:
    """One header line, then one row per player (empty cells where a value is undefined)."""
    writer = csv.DictWriter(out, fieldnames=csv_columns(), restval="", lineterminator="\n")
    writer.writeheader()
    for report in reports:
        writer.writerow(report.to_row())


def render_text(out, reports: list[PlayerReport], n_games: int, *, tables: int | None = None,
                width: int | None = None) -> None:
    """An overview line per row (when there are several), then a detailed table for the first
    ``tables`` rows (all when ``None``), and a line saying how many were left out.

    ``width``: the output's (``term.output_width`` by default); the overview fits 80 columns
    with names of up to 16 cells (8 full-width characters, Tenhou's longest), and a longer
    name folds onto a second line rather than pushing the table wider."""
    console = make_console(out, width=width)
    if not reports:
        out.write(f"No player to report ({_plural(n_games, 'game')} selected).\n")
        return
    detailed = reports if tables is None else reports[:tables]
    if len(reports) > 1 or not detailed:
        _print(console, out, overview_table(reports, n_games))
        _print(console, out, Text(OVERVIEW_LEGEND))
    for i, report in enumerate(detailed):
        if i or len(reports) > 1:
            out.write("\n")
        _print(console, out, player_table(report))
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


OVERVIEW_LEGEND = ("Rates in %. Rank: average placement; Deal: deal-in rate; Balance: average score "
                   "change per hand.")


def overview_table(reports: list[PlayerReport], n_games: int) -> Table:
    """One line per row, in 80 columns: one space between columns, rates as whole percents."""
    table = Table(title=Text(f"{_plural(len(reports), 'player row')} over {_plural(n_games, 'game')}"),
                  box=box.SIMPLE_HEAD, show_edge=False, title_justify="left", pad_edge=False,
                  padding=(0, 0))
    table.add_column("Player", justify="left", overflow="fold", max_width=16)
    for header in ("P", "Games", "Hands", "Rank", "1st", "2nd", "3rd", "4th", "Win", "Deal", "Riichi",
                   "Call", "Balance"):
        table.add_column(header, justify="right", no_wrap=True)
    for r in reports:
        m = {x.key: x for x in r.metrics()}
        ranks = [_pct0(m[f"rank{i}_rate"].value) if f"rank{i}_rate" in m else "" for i in range(1, 5)]
        table.add_row(Text(r.name or "(no name)"), str(r.players), str(r.counters.games),
                      str(r.counters.hands), _num(m["avg_rank"].value, 2), *ranks,
                      _pct0(m["win_rate"].value), _pct0(m["deal_in_rate"].value),
                      _pct0(m["riichi_rate"].value), _pct0(m["call_rate"].value),
                      _signed(m["avg_hand_balance"].value))
    return table


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
    yaku = report.yaku()
    if yaku:
        table.add_row(Text("Yaku (wins with it)", style="bold"), "", "", "")
        for _, name, n in yaku:
            table.add_row(Text(f"  {name}"), _pct(n / c.wins if c.wins else None), f"{n}/{c.wins}", "")
    return table


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
