"""The text report of ``validate``: a verdict, the findings by code and every game that fails.

A clean run is one line (``4,150 games, all clean; 1.7 M checks.``); ``--verbose`` adds the time
taken and the checks run by kind. Otherwise the report lists each game that fails at the
``--fail-on`` level, up to ``MAX_GAMES`` games and ``MAX_FINDINGS`` findings a game, and says
how many more there are (the NDJSON has them all). Each finding names its hand the way
``replay --hand`` takes it, says what its values mean and ends with the command that shows it.

The report is plain text written as it is: paths, names and messages are never interpreted.
Only records that fail are kept (at most ``MAX_GAMES``); nothing here reads a log again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..check import GameRecord, Summary
from ..crossgame import CrossGameRecord
from ..findings import Finding, Severity
from .term import folded, visible

MAX_GAMES = 50
"""Failing games listed in full; the rest are counted."""
MAX_FINDINGS = 5
"""Findings listed for each game; the rest are counted."""

MORE = "see --format ndjson"

Record = GameRecord | CrossGameRecord
"""A game's record, or the cross-game pass's findings on a game (after the games)."""


def counts(record: Record, fail_on: str) -> bool:
    """Whether a finding of ``record`` is at or above ``fail_on`` (the game fails)."""
    if fail_on == "warning":
        return bool(record.findings)
    return not record.ok


def _relevant(finding: Finding, fail_on: str) -> bool:
    return fail_on == "warning" or finding.severity is Severity.ERROR


@dataclass
class FailedGames:
    """The games that fail, as the records stream by: the first ``MAX_GAMES`` kept, the rest
    counted. ``warned`` counts games that pass with warnings below ``fail_on``."""

    fail_on: str = "error"
    listed: list[Record] = field(default_factory=list)
    failing: int = 0
    warned: int = 0

    def add(self, record: Record, fails: bool | None = None) -> bool:
        """Note ``record`` (``fails``: whether it fails, when the caller knows); True when it
        fails. A cross-game record adds a failing game only when its game line did not fail."""
        if fails is None:
            fails = counts(record, self.fail_on)
        if isinstance(record, CrossGameRecord):
            failed_before = not (record.game_clean if self.fail_on == "warning" else record.game_ok)
            if fails and not failed_before and len(self.listed) < MAX_GAMES:
                self.listed.append(record)
            if fails and not failed_before:
                self.failing += 1
                if record.game_clean is False and self.fail_on == "error":
                    self.warned -= 1  # it was counted as passing with warnings
            elif fails and len(self.listed) < MAX_GAMES:
                self.listed.append(record)
            return fails
        if fails:
            self.failing += 1
            if len(self.listed) < MAX_GAMES:
                self.listed.append(record)
            return True
        if record.findings:
            self.warned += 1
        return False


UNCHECKABLE: dict[str, str] = {
    "game_id_not_checkable": "the table without a game id",
    "era_not_checkable": "dated marks of a game of unknown date",
    "wall_not_checkable": "the wall without a seed",
    "seat_rank_not_checkable": "seats' rank where the room's conditions do not apply",
    "riichi_scores_not_checkable": "riichi scores in a game of unknown date",
    "start_scores_not_checkable": "start scores of a lobby without a rule string",
    "rotation_not_checkable": "the dealer's rotation under unknown rules",
    "game_end_not_checkable": "the game's end under unknown rules",
    "owari_points_not_checkable": "game points with an unknown uma or rounding",
    "payment_not_checkable": "payments on a chip table or of an unscored win",
    "fu_not_checkable": "wins that state no fu",
    "fragment_not_checkable": "a game cut short",
    "disconnect_not_checkable": "disconnects in a log another program rewrote",
}
"""The ``*_not_checkable`` kinds the report warns of, each in words (docs/findings.md, "Not
checkable", says why each cannot be checked). ``claims_not_checkable`` is not among them: it counts
claims no log lets a check verify (docs/findings.md, "Claims"), which every mjlog makes (its
players' dan and rate), so it would say the same of every game; it is in ``--verbose`` and the
NDJSON."""


@dataclass
class Uncheckable:
    """The games that hold claims that cannot be checked, by ``UNCHECKABLE`` kind, as the
    records stream by (a game counts once per kind, however many of its claims)."""

    games: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        kinds = [kind for kind, n in record.checks if n and kind in UNCHECKABLE]
        if kinds:
            self.games += 1
            for kind in kinds:
                self.by_kind[kind] = self.by_kind.get(kind, 0) + 1

    def lines(self) -> list[str]:
        """``warning: 3 games hold claims that cannot be checked: the wall without a seed (2),
        ...``, the most frequent first, folded to ``term.PROSE_WIDTH`` columns or the terminal's, if narrower
        (``term.folded``: continued lines indented); none when no game holds any."""
        if not self.games:
            return []
        hold = "game holds" if self.games == 1 else "games hold"
        kinds = sorted(self.by_kind.items(), key=lambda kv: (-kv[1], list(UNCHECKABLE).index(kv[0])))
        named = ", ".join(f"{UNCHECKABLE[kind]}\u00a0({n:,})" for kind, n in kinds)  # a count stays with its claim
        return folded(f"warning: {self.games:,} {hold} claims that cannot be checked: {named}.")


printable = visible
"""Control characters (an escape sequence in a file name or a log) and bidirectional or
zero-width marks are shown, not sent to the terminal: ``\x1b``, ``\u202e`` (``term.visible``)."""


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {plural or word + 's'}"


def checks_text(n: int) -> str:
    """``56 checks``, ``123,456 checks``, ``1.7 M checks``."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} M checks"
    return _plural(n, "check")


def checks_run(summary: Summary) -> int:
    """Checks that ran (a ``*_not_checkable`` count is a check that could not)."""
    return sum(n for kind, n in summary.checks.items() if not kind.endswith("_not_checkable"))


def verdict(summary: Summary, failed: FailedGames) -> str:
    """The one line that says how the run went."""
    games = summary.games
    if games == 0:
        return "No games were checked."
    checks = checks_text(checks_run(summary))
    warned = f" ({failed.warned:,} with warnings)" if failed.warned else ""
    if failed.failing == 0:
        if failed.warned:
            return f"{_plural(games, 'game')}, no errors{warned}; {checks}."
        return f"{_plural(games, 'game')}, all clean; {checks}."
    passed = games - failed.failing
    return f"{_plural(games, 'game')}: {failed.failing:,} failed, {passed:,} passed{warned}; {checks}."


def _target(record: Record) -> str | None:
    """What ``replay`` can open to show this record: its path when that is a file. A member of an
    archive or a database gets no command: its game id would download Tenhou's own copy, which
    need not be the log that was checked (the viewer link still names the game)."""
    if record.path and os.path.isfile(record.path):
        return record.path
    return None


def finding_lines(finding: Finding, record: Record, target: str | None) -> list[str]:
    """A finding: its line, what its values are, then the command that shows it; each one line
    however long (never folded: searched for and copied whole)."""
    from .finding_text import replay_command, values_text  # with game_lines: the failing games only

    where = f"{finding.label} " if finding.label else ""
    severity = " (warning)" if finding.severity is Severity.WARNING else ""
    # the step as ``replay --at HAND:STEP`` counts it (the event's 1-based place in its hand)
    event = f" (step {finding.event_index + 1})" if finding.event_index is not None else ""
    lines = [f"    {where}{finding.code.value}{severity}{event}: {printable(finding.message)}"]
    values = values_text(finding)
    if values:
        lines.append(f"      {printable(values)}")
    if target is not None and record.hands > 0:
        lines.append(f"      {printable(replay_command(target, finding.label))}")
    return lines


def game_lines(record: Record, fail_on: str) -> list[str]:
    """A failing game's lines. The findings' words (``finding_text``, and the documents of
    findings it reads) are imported here, not with the report: a run that lists no failing
    game, and every NDJSON run, never loads them (7 M instructions, about 1.5 ms of a start)."""
    from .finding_text import viewer_url

    across = " (across games)" if isinstance(record, CrossGameRecord) else ""
    lines = [f"  {printable(record.path)}{across}"]
    relevant = [f for f in record.findings if _relevant(f, fail_on)]
    target = _target(record)
    for finding in relevant[:MAX_FINDINGS]:
        lines += finding_lines(finding, record, target)
    if len(relevant) > MAX_FINDINGS:
        lines.append(f"    … and {len(relevant) - MAX_FINDINGS:,} more in this game ({MORE})")
    below = len(record.findings) - len(relevant)
    if below:
        lines.append(f"    (and {_plural(below, 'warning')}, listed with --fail-on warning)")
    hand = next((f.hand for f in relevant if f.hand is not None), 0)
    link = viewer_url(record.log_id, ts=hand)
    if link is not None:
        lines.append(f"    {link}")
    return lines


def render(out, summary: Summary, failed: FailedGames, *, elapsed: float, verbose: bool = False,
           interrupted: bool = False, not_logs: int = 0, uncheckable: Uncheckable | None = None) -> None:
    """Write the report to ``out`` (anything with ``write``): each finding on one line.
    ``not_logs``: files skipped as not Tenhou logs, named in the verdict line; ``uncheckable``:
    the games holding claims that cannot be checked, warned of in one line."""
    lines = []
    if interrupted:
        lines += folded(f"Interrupted after {_plural(summary.games, 'game')}: this report covers only those.")
    lines += folded(verdict(summary, failed))
    if not_logs:
        lines += folded(f"{_plural(not_logs, 'file')} skipped: not a Tenhou log (named on stderr).")
    if uncheckable is not None:
        lines += uncheckable.lines()
    if verbose:
        rate = summary.games / elapsed if elapsed > 0 else 0.0
        lines.append(f"Checked in {elapsed:.1f} s ({rate:,.0f} games/s).")
    if summary.findings_by_code:
        lines += ["", "Findings by code:"]
        column = max(len(code) for code in summary.findings_by_code)
        for code, n in sorted(summary.findings_by_code.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {code:<{column}}  {n:,}")
    if verbose:
        lines += ["", "Checks run:"]
        column = max((len(kind) for kind in summary.checks), default=0)
        for kind, n in sorted(summary.checks.items()):
            lines.append(f"  {kind:<{column}}  {n:,}")
    if failed.failing:
        title = "Failed games" if failed.fail_on == "error" else "Games with findings"
        lines += ["", f"{title} ({failed.failing:,}):"]
        for record in failed.listed:
            lines += game_lines(record, failed.fail_on)
        more = failed.failing - len(failed.listed)
        if more:
            lines.append(f"  … and {_plural(more, 'more game')} ({MORE})")
    out.write("".join(line + "\n" for line in lines))
