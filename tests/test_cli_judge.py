"""``replay --analysis`` in the terminal says each discard's verdict (issues 27 and 33): its
expected points, ✓ best, forced, ≈ close or ✗ loss with the cost against the top option and the
reason in words; the danger of the discarded tile against each threat; each seat's verdicts over
the game. Exact lines of the hand-made game of tests/test_analysis_judge.py (S3 folds with
genbutsu against S1's riichi)."""

from __future__ import annotations

from click.testing import CliRunner

from tenhou_tools.cli import cli

from .test_html_judge import _defence_log


def _analysis(tmp_path, *args: str) -> list[str]:
    path, _ = _defence_log(tmp_path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--analysis", "--ascii", *args], env={"COLUMNS": "100"})
    assert result.exit_code == 1  # the hand-made log's AGARI-free result is not verified: not our concern here
    return result.stdout.splitlines()


def test_a_genbutsu_fold_is_no_loss(tmp_path):
    """Folding with the genbutsu at four-shanten is within a near-tie of the top, a nearly safe
    honour that strong players let go more readily (the keep term says so)."""
    lines = _analysis(tmp_path)
    at = lines.index("  10  S3 -6m   shanten 4 → 4 · 41 tiles (1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z) · ev 558 "
                     "(keep +70)")
    assert lines[at + 1:at + 5] == [
        "               · ≈ close: 41 points below the top 3z (keep: a tile strong players hold on to longer)",
        "      top -3z  shanten 4 · 44 tiles (5m 8m 8p 1s 2s 3s 7s 8s 9s 1z 5z 6z 7z) · ev 599 (deal-in 2%,",
        "               -118; keep +155)",
        "               vs S1's riichi: 6m genbutsu (0.0%), the safest in hand genbutsu",
    ]


def test_a_loss_says_what_it_cost_against_the_top_and_why(tmp_path):
    lines = _analysis(tmp_path)
    at = lines.index("   8  S2 -8p   shanten 0 → 0 · 6 tiles (6m 5s 8s) · ev 2,911 (wins 59%, 5,354 a win; deal-in 7%,")
    assert lines[at + 1:at + 6] == [
        "               -428; keep +178) · ✗ loss: 953 points below the top 6m (value: a cheaper hand)",
        "      top -6m  shanten 1 · 37 tiles (4m 5m 6m 7m 8m 6p 7p 8p 9p 5s 8s) · ev 3,863 (wins 63%, 5,815 a",
        "               win; keep +206)",
        "               vs S1's riichi: 8p no suji (7.4%), the safest in hand genbutsu",
        "  10  S3 -6m   shanten 4 → 4 · 41 tiles (1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z) · ev 558 (keep +70)",
    ]
    assert "   5  S1 -6m   shanten 0 → 0 · 8 tiles (1m 4m) · ev 2,414 (wins 73%, 2,504 a win; keep +598) · ✓" in lines
    assert "  Losses: S0 0 in 2 discards, S1 0 in 2 discards, S2 1 in 1 discard, S3 0 in 1 discard." in lines


def test_a_forced_discard_lists_no_alternative(tmp_path):
    lines = _analysis(tmp_path)
    at = lines.index("  14  S1 -5m   shanten 0 → 0 · 8 tiles (1m 4m) · ev 1,793 (wins 72%, 2,504 a win) · "
                     "forced (riichi:")
    assert lines[at + 1] == "               the drawn tile goes)"
    assert not lines[at + 2].lstrip().startswith("top -")


def test_each_seats_verdicts_over_the_game(tmp_path):
    lines = _analysis(tmp_path)
    at = lines.index("Analysis summary: each seat's discards by verdict")
    assert lines[at + 5:at + 9] == [
        "  S2: 1 discard judged · 0 best (0% of 1 choice) · 0 forced · 0 close · 1 loss (1 value) · 953",
        "  points of ev a choice given up · 0 pushes against riichi",
        "  S3: 1 discard judged · 0 best (0% of 1 choice) · 0 forced · 1 close · 0 losses · 41 points of ev a",
        "  choice given up · 0 pushes against riichi",
    ]


def test_a_seats_view_shows_only_its_own_verdicts(tmp_path):
    lines = _analysis(tmp_path, "--seat", "3")
    at = lines.index("Analysis summary: each seat's discards by verdict")
    assert next(line for line in lines[at + 1:] if line.startswith("  S")).startswith("  S3: 1 discard judged")
    assert not any(line.startswith(("  S0:", "  S1:", "  S2:")) for line in lines[at:])
