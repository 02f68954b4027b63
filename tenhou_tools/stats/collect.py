"""Count many logs: the run behind ``tenhou-tools stats``, for the CLI and for scripts.

``collect_stats(paths, ...)`` reads every log in ``paths`` through a runner (a process pool, this
process, or a Dask cluster: ``batch.open_runner``), counts each game (``records.stats_item``) and
adds its counters to per-player totals, or, with a ``StatsStore``, to the store: a batch of at
most ``FLUSH_RECORDS`` games (or ``FLUSH_SECONDS`` of work) per transaction, and games the store
holds already are not read again.

Ctrl-C (``KeyboardInterrupt``) stops the run: the records already computed go into the store in
one more transaction (a Ctrl-C during a transaction waits for its end), so the store stays
consistent, and the result says ``interrupted``. Nothing here prints: ``on_start`` and
``on_record`` tell the caller's progress display, and problems are exceptions the caller maps to
messages and exit codes (``batch.SetupError``, ``batch.BatchError``, ``store.StoreError``,
``errors.InputError`` for a path that does not exist).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field

from ..batch import DEFAULT_TIMEOUT, open_runner
from ..sources.local import LogItem, SourceStats, iter_logs
from .counters import PlayerCounters, PlayerKey
from .games import GameEntry
from .names import NameMatcher
from .records import STATS_QUALITY_WORK, STATS_WORK, GameFilter, StatsRecord
from .store import StatsStore

__all__ = ["FLUSH_RECORDS", "FLUSH_SECONDS", "Collected", "RunSummary", "collect_stats"]

FLUSH_RECORDS = 512
"""Games written to the database per transaction (or fewer, every ``FLUSH_SECONDS``)."""
FLUSH_SECONDS = 2.0
MAX_ERROR_EXAMPLES = 10


@dataclass
class RunSummary:
    """What happened while reading (for the stderr summary)."""

    read: int = 0
    """Logs read and counted (or stored)."""
    unreadable: int = 0
    errors: list[str] = field(default_factory=list)
    filtered: int = 0
    """Games read but left out by --lobby/--since/--until (without --db)."""
    known: int = 0
    """Games already in the database, skipped."""
    added: int = 0
    """Games added to the database."""
    duplicates: int = 0
    """Copies of a game seen before (by id, else by content), skipped by the source."""
    found: int = 0
    """Items the source yielded (logs and unreadable entries, duplicates left out)."""
    not_logs: int = 0
    """Files in folders and archive members named like logs that are not Tenhou logs, skipped
    by the source (``SourceStats.not_logs``)."""
    not_log_examples: list[tuple[str, str]] = field(default_factory=list)
    """``(source, what it is)`` of the first of them."""
    not_judged: int = 0
    """With ``--quality``: games read and counted whose play quality is not (the discard analysis
    stopped in a hand: ``quality.NotJudged``)."""
    not_judged_examples: list[str] = field(default_factory=list)
    """Why, for the first of them."""


@dataclass
class Collected:
    """The outcome of ``collect_stats``."""

    totals: dict[PlayerKey, PlayerCounters]
    """Each player's counters, summed over the games read (empty with a store: they are there)."""
    entries: dict[PlayerKey, list[GameEntry]] = field(default_factory=dict)
    """Each player's games one by one, in the order read (empty with a store)."""
    set_quality: tuple[int, int] = (0, 0)
    """With ``quality``: the discards judged and the efficient ones of every player of the games
    counted (whatever ``wanted`` keeps), for comparison; (0, 0) with a store."""
    everyone: dict[int, PlayerCounters] = field(default_factory=dict)
    """Every player's counters of the games counted, whatever ``wanted`` keeps, summed per table
    size (4, 3): the whole set a row is compared with (empty with a store: it has them)."""
    summary: RunSummary = field(default_factory=RunSummary)
    interrupted: bool = False
    """Ctrl-C stopped the run (the store holds every batch committed before it)."""


def collect_stats(
    paths: Iterable[str | os.PathLike[str]],
    *,
    total: int | None = None,
    store: StatsStore | None = None,
    games: GameFilter | None = None,
    wanted: NameMatcher | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    batch_size: int | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    dedupe: bool = True,
    quality: bool = False,
    on_start: Callable[[], None] | None = None,
    on_record: Callable[[int, int, RunSummary], None] | None = None,
) -> Collected:
    """Count every game in ``paths``: into per-player totals, or into ``store``.

    ``total`` is about how many logs there are (``sources.local.survey_inputs``: it chooses the
    batch size, and keeps a handful of logs in this process). Without a store, ``games`` selects
    the games counted (the others are ``filtered``) and ``wanted`` the players kept; with one,
    every game is stored and the report filters later. ``jobs``, ``scheduler``, ``batch_size``,
    ``timeout`` and ``dedupe`` as for ``validate.validate_paths``. ``quality`` also judges every
    discard (``quality.game_quality``: the play quality, slow). ``on_start()`` is called once
    the workers are up (start a progress thread then, not before: workers are forked from a
    process without threads), ``on_record(done, skipped, summary)`` after each game (``done``
    games read so far, ``skipped`` games the store already held and were not read).
    """
    paths = list(paths)
    games = games if games is not None else GameFilter()
    summary = RunSummary()
    totals: dict[PlayerKey, PlayerCounters] = {}
    everyone: dict[int, PlayerCounters] = {}
    entries: dict[PlayerKey, list[GameEntry]] = {}
    set_judged = set_efficient = 0
    sources = SourceStats()
    skipped = [0]

    def items() -> Iterator[LogItem]:
        for item in iter_logs(paths, stats=sources, dedupe=dedupe):
            if store is not None and item.log_id and item.ok and store.has_game(item.log_id):
                skipped[0] += 1
                continue
            yield item

    runner = open_runner(jobs=jobs, scheduler=scheduler, batch_size=batch_size, total=total,
                         work=STATS_QUALITY_WORK if quality else STATS_WORK, timeout=timeout or None)
    pending: list[StatsRecord] = []
    last_flush = time.monotonic()
    interrupted = False

    def flush() -> None:
        nonlocal last_flush
        if pending and store is not None:
            with _sigint_deferred():  # a Ctrl-C now is raised once the batch and its count are in
                result = store.add(pending)
                summary.added += result.added
                summary.known += result.known
                pending.clear()
        last_flush = time.monotonic()

    with runner:
        try:
            if on_start is not None:
                on_start()
            with closing(runner.map(items(), total=total)) as records:
                for done, record in enumerate(records, 1):
                    if record.not_judged is not None:
                        summary.not_judged += 1
                        if len(summary.not_judged_examples) < MAX_ERROR_EXAMPLES:
                            summary.not_judged_examples.append(record.not_judged)
                    if not record.ok:
                        summary.unreadable += 1
                        if len(summary.errors) < MAX_ERROR_EXAMPLES:
                            summary.errors.append(record.error or record.source)
                    elif store is not None:
                        summary.read += 1
                        pending.append(record)
                        if len(pending) >= FLUSH_RECORDS or time.monotonic() - last_flush > FLUSH_SECONDS:
                            flush()
                    else:
                        summary.read += 1
                        if not games.matches_record(record):
                            summary.filtered += 1
                        else:
                            for key, counters in record.counters:
                                size = key[1]
                                everyone[size] = everyone[size] + counters if size in everyone else counters
                                if quality:
                                    set_judged += counters.quality_discards
                                    set_efficient += counters.quality_best
                                if wanted is None or wanted.matches(key[0]):
                                    totals[key] = totals[key] + counters if key in totals else counters
                            for key, entry in record.entries:
                                if wanted is None or wanted.matches(key[0]):
                                    entries.setdefault(key, []).append(entry)
                    if on_record is not None:
                        on_record(done, skipped[0], summary)
            flush()
        except KeyboardInterrupt:
            interrupted = True
            try:
                flush()  # the records already computed: one more transaction, or none at all
            except KeyboardInterrupt:
                pass
    summary.known += skipped[0]
    summary.duplicates = sources.duplicates
    summary.found = sources.items
    summary.not_logs = sources.not_logs
    summary.not_log_examples = list(sources.not_log_examples)
    return Collected(totals, entries, (set_judged, set_efficient), everyone, summary, interrupted)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives during a database transaction until it is over."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
