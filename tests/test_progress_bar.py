"""The progress bar's line keeps done/total and the time left first, whatever the width (issue 34,
item 8): a narrow terminal cuts the label and the figures, never the count."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tenhou_tools.cli.progress import ProgressBar


def bar_line(width: int) -> str:
    bar = ProgressBar("files", enabled=True, total=4855, detail="{rate} games/s, {findings} findings",
                      fields={"rate": "0", "findings": 0})
    bar.update(advance=912, rate="85", findings=3)
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(bar.progress.make_tasks_table(bar.progress.tasks))
    return out.getvalue().rstrip("\n")


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_the_count_and_the_time_left_come_first_at_any_width(width):
    line = bar_line(width)
    assert line.split()[:2] == ["912/4855", "ETA"]
    assert len(line) <= width


def test_a_wide_terminal_shows_every_part():
    line = bar_line(120)
    assert "files" in line and "85 games/s, 3 findings" in line and line.rstrip().endswith("0:00:00")
