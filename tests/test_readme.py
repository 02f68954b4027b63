"""The README's quick start is exactly two commands, and .ci/run runs those same commands."""

from __future__ import annotations

import re

from .conftest import REPO


def quick_start_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_is_two_commands_that_ci_runs():
    commands = quick_start_commands()
    assert len(commands) == 2
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    for command in commands:
        assert command in ci
