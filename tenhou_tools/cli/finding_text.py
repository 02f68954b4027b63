"""Findings in words for people: what a finding's two values mean, the command that shows its
hand, and the tenhou.net viewer link of a game.

A finding's values are written for people by the library (``documents.findings.finding_values``:
tiles in notation, seats as ``S2``, yaku and limits by name, and how the two relate); the text
report of ``validate`` and the view of ``replay`` put them in words here, and leave out a side
that has no value:

    points (ten): 48000 by the rules, the log says 36000
    liable seat (paoWho): S3 by the rules, the log says none
    winning tiles in the winner's river: 3m 6m
"""

from __future__ import annotations

from ..documents.findings import FindingValues, ValuesForm, finding_values
from ..errors import InputError
from ..findings import Finding
from ..ids import validate_log_id
from .term import shell_quote

VIEWER = "https://tenhou.net/0/?log={log_id}"

# -- values -----------------------------------------------------------------------------------------

_WORDS = {
    ValuesForm.COMPARE: "{what}: {e} by the rules, the log says {a}",
    ValuesForm.LOG_ONLY: "{what}: the log says {a}",
    ValuesForm.RULES_ONLY: "{what}: {e} by the rules, none in the log",
    ValuesForm.FACT: "{what}: {a}",
    ValuesForm.AT_LEAST: "{what}: {a}, at least {e} needed",
    ValuesForm.AT_MOST: "{what}: {a}, at most {e}",
    ValuesForm.FORBIDDEN: "{what}: {e}; the log discards {a}",
    ValuesForm.CALLED: "last discard: {e}; the log calls {a}",
    ValuesForm.SHOWN: "{what}: {e} by the rules; the log shows the hand: {a}",
    ValuesForm.DECLARED: "{what} by the rules: {e}; declared in the log: {a}",
    ValuesForm.GOES_ON: "by the rules the hand ends in an {what} ({e}); the log goes on ({a})",
    ValuesForm.TRIPLE_RON: "{what}: {a}; by the rules an abortive draw ({e})",
    ValuesForm.KANS_NEEDED: "{what}: {a} ({e} in all needed, by two or more players)",
}
"""The text view's words for each form (the replay page's script has its own, to the same effect)."""


def values_words(values: FindingValues) -> str:
    """``points (ten): 48000 by the rules, the log says 36000``."""
    return _WORDS[values.form].format(what=values.what, e=values.expected, a=values.actual)


def values_text(finding: Finding) -> str | None:
    """What the finding's values mean, in a line (``None`` when it carries none, or when its
    message says it all)."""
    values = finding_values(finding)
    return None if values is None else values_words(values)


# -- where to look --------------------------------------------------------------------------------


def real_log_id(log_id: str | None) -> str | None:
    """``log_id`` when it is a canonical Tenhou game id (ids.py's grammar), else ``None``: a
    file name that merely looks like one gets no viewer link and no download."""
    if not log_id:
        return None
    try:
        return validate_log_id(log_id)
    except InputError:
        return None


def viewer_url(log_id: str | None, **params: int) -> str | None:
    """``https://tenhou.net/0/?log=ID&ts=3`` for a real game id, else ``None``."""
    real = real_log_id(log_id)
    if real is None:
        return None
    return VIEWER.format(log_id=real) + "".join(f"&{k}={v}" for k, v in params.items())


def replay_command(target: str, label: str | None = None) -> str:
    """``tenhou-tools replay PATH --hand E2-1``, the path quoted for the shell when needed
    (``term.shell_quote``: ``$'a\\nb.xml'`` for a name with a line break), ready to paste."""
    command = f"tenhou-tools replay {shell_quote(target)}"
    if label:
        command += f" --hand {shell_quote(label)}"
    return command
