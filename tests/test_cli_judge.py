"""``replay --analysis`` in the terminal says each discard's verdict (issue 27): ✓ best, forced,
defence and value in words with what they cost, ✗ only for an efficiency loss; the danger of the
discarded tile against each riichi; each seat's verdicts over the game. Exact lines of the
hand-made game of tests/test_analysis_judge.py (S3 folds with genbutsu against S1's riichi)."""

from __future__ import annotations

from click.testing import CliRunner

from tenhou_tools.cli import cli

from .test_html_judge import _defence_log


def _analysis(tmp_path, *args: str) -> list[str]:
    path, _ = _defence_log(tmp_path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--analysis", "--ascii", *args], env={"COLUMNS": "100"})
    assert result.exit_code == 1  # the hand-made log's AGARI-free result is not verified: not our concern here
    return result.stdout.splitlines()


def test_a_defence_discard_says_why_and_what_it_cost(tmp_path):
    lines = _analysis(tmp_path)
    at = lines.index("  10  S3 -6m    shanten 4 → 4 · 41 tiles (1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z) · defence:")
    assert lines[at + 1] == "                genbutsu vs S1, the best at most live honour, gives up 3 tiles"
    assert lines[at + 2] == "      best -1z  shanten 4 · 44 tiles (5m 8m 8p 1s 2s 3s 7s 8s 9s 3z 5z 6z 7z)"
    assert "                vs S1's riichi: 6m genbutsu (0.0%), the safest in hand genbutsu" in lines[at:]
    assert not any("✗" in line for line in lines if "S3 -6m" in line)


def test_a_forced_discard_lists_no_alternative(tmp_path):
    lines = _analysis(tmp_path)
    assert "  14  S1 -5m    shanten 0 → 0 · 8 tiles (1m 4m) · forced (riichi: the drawn tile goes)" in lines
    at = lines.index("  14  S1 -5m    shanten 0 → 0 · 8 tiles (1m 4m) · forced (riichi: the drawn tile goes)")
    assert not lines[at + 1].lstrip().startswith("best -")


def test_each_seats_verdicts_over_the_game(tmp_path):
    lines = _analysis(tmp_path)
    at = lines.index("Analysis summary: each seat's discards by verdict")
    assert lines[at + 7:at + 9] == [
        "  S3: 1 discard judged · 0 best (0% of 1 choice) · 0 forced · 1 defence · 0 value · 0 efficiency",
        "  losses · 0 pushes against riichi",
    ]


def test_a_seats_view_shows_only_its_own_verdicts(tmp_path):
    lines = _analysis(tmp_path, "--seat", "3")
    at = lines.index("Analysis summary: each seat's discards by verdict")
    assert [line for line in lines[at + 1:] if line.startswith("  S")][0].startswith("  S3: 1 discard judged")
    assert not any(line.startswith(("  S0:", "  S1:", "  S2:")) for line in lines[at:])
