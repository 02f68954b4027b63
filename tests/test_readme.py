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


def library_examples() -> list[tuple[str, str]]:
    """``(code, output)`` of each Python block of the README's *Library* section that the README
    follows with the output it prints."""
    section = (REPO / "README.md").read_text().split("## Library", 1)[1].split("\n## ", 1)[0]
    pairs = re.findall(r"```python\n(.*?)```\s*\n```\n(.*?)```", section, re.S)
    return [(code, output) for code, output in pairs]


def test_the_library_examples_print_what_the_readme_shows(monkeypatch, capsys):
    examples = library_examples()
    assert len(examples) == 2
    monkeypatch.chdir(REPO)
    for code, output in examples:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
        assert capsys.readouterr().out == output
