"""Validate many logs: the run behind ``tenhou-tools validate``, for the CLI and for scripts.

``validate_paths(paths, ...)`` checks the inputs, starts the runner (a process pool, this
process, or a Dask cluster: ``batch.open_runner``) and yields, in input order::

    ValidateStart(total)      once, when the workers are up (``total`` is an estimate)
    GameRecord ...            one per game (``check.GameRecord``: the NDJSON contract)
    CrossGameRecord ...       after the games, one per game the cross-game pass finds against
                              (``crossgame``: a player's consecutive games, their dan and rate)
    ValidateSummary(...)      last: the totals, the time taken, whether it was interrupted

The cross-game pass keeps a few facts of each ranked game (``crossgame.GameFacts``: names, dan,
rate, placement; about half a kilobyte a game) until the end of the run; it does not run on an
interrupted run (a part of a batch establishes less).

Ctrl-C (``KeyboardInterrupt``) ends the records early and the summary says so
(``interrupted``): raised inside the run (while waiting for a worker) it is caught here; raised
in the caller while it holds a record, the caller throws it in (``run.throw(KeyboardInterrupt)``),
which returns the summary. Either way the workers are stopped. Nothing here prints: problems are
exceptions the caller maps to messages and exit codes:

- ``InputError``: a path that does not exist (before anything is read);
- ``NoLogsFound``: inputs that hold no log at all (before the run, or at its end, e.g. a tar
  archive with no log in it);
- ``batch.SetupError``: Dask missing or unreachable; ``batch.BatchError``: workers cannot run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator, Iterable
from contextlib import closing
from dataclasses import dataclass

from .batch import DEFAULT_TIMEOUT, open_runner
from .check import GameRecord, Summary
from .crossgame import CrossGameRecord, GameFacts, check_across
from .errors import InputError
from .sources.local import SourceStats, iter_logs, survey_inputs

__all__ = ["CrossGameRecord", "NoLogsFound", "ValidateStart", "ValidateSummary", "validate_paths"]


class NoLogsFound(InputError):
    """The inputs hold no log at all: ``ignored`` other files were skipped, ``rows_without_log``
    database rows hold no log (not downloaded yet)."""

    def __init__(self, ignored: int = 0, rows_without_log: int = 0):
        super().__init__("no logs found")
        self.ignored = ignored
        self.rows_without_log = rows_without_log


@dataclass(frozen=True, slots=True)
class ValidateStart:
    """The run has started: the workers are up, no log has been read yet."""

    total: int
    """About how many games will be checked (``sources.local.survey_inputs``)."""


@dataclass(frozen=True, slots=True)
class ValidateSummary:
    """The end of a run: the totals over the records yielded."""

    summary: Summary
    elapsed: float
    """Seconds from the start (workers included) to the last record."""
    interrupted: bool
    """Ctrl-C stopped the run: the totals cover only the records yielded."""
    sources: SourceStats
    """What the inputs held (duplicates skipped, entries that could not be read...)."""

    def to_json(self) -> dict[str, object]:
        """The NDJSON summary line (DESIGN.md), with what the inputs held besides the games, so
        that every input is accounted for: ``duplicates`` (copies of a game checked before,
        skipped) and ``not_logs`` (files in folders and archive members named like logs that are
        not Tenhou logs, skipped)."""
        out = self.summary.to_json(self.elapsed, interrupted=self.interrupted)
        out["duplicates"] = self.sources.duplicates
        out["not_logs"] = self.sources.not_logs
        return out


def validate_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    batch_size: int | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    dedupe: bool = True,
) -> Generator[ValidateStart | GameRecord | CrossGameRecord | ValidateSummary, None, None]:
    """Check every game in ``paths`` (files, folders, globs, archives, databases, ``-``): a
    ``ValidateStart``, a ``GameRecord`` per game in input order, a ``CrossGameRecord`` per game
    the cross-game pass finds against, then a ``ValidateSummary``.

    ``jobs`` worker processes (None: all cores, or this process for a handful of logs; 1: this
    process), or a Dask ``scheduler`` address; ``batch_size`` logs per batch; ``timeout``
    seconds one log may take (None or 0: no limit); ``dedupe``: a game seen before (by its id,
    else its bytes) is skipped.
    """
    paths = list(paths)
    survey = survey_inputs(paths)
    if survey.total == 0:
        raise NoLogsFound(survey.ignored, survey.rows_without_log)
    started = time.perf_counter()
    # The workers start (or the cluster is reached) before the caller starts any thread.
    runner = open_runner(jobs=jobs, scheduler=scheduler, batch_size=batch_size, total=survey.total,
                         timeout=timeout or None)
    stats = SourceStats()
    summary = Summary()
    facts: list[GameFacts] = []
    interrupted = False
    with runner:
        try:
            yield ValidateStart(survey.total)
            with closing(runner.map(iter_logs(paths, stats=stats, dedupe=dedupe),
                                    total=survey.total)) as records:
                for record in records:
                    summary.add(record)  # the summary covers every record handed out
                    if record.facts is not None:
                        facts.append(record.facts)
                    yield record
            cross = check_across(facts)
            summary.add_cross(cross)
            yield from cross.records
        except KeyboardInterrupt:
            interrupted = True
    if stats.items == 0 and not interrupted:
        raise NoLogsFound(stats.ignored + stats.not_logs, stats.skipped_without_log)
    yield ValidateSummary(summary, time.perf_counter() - started, interrupted, stats)
