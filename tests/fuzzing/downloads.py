"""Fuzzing of the downloader: ``sources.http.LogFetcher`` (and now and then the ``download``
command) against the loopback ``server.FuzzServer``. Each fetch must return a cached log that is
a complete game of the id's type, or raise a one-line ``DownloadError``; the cache never holds
anything else (``fuzz_downloads``; ``scripts/fuzz.py`` path ``download``)."""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .common import Failure, attempt, one_line
from .logs import FuzzReport, spent
from .server import FuzzServer, fuzz_game_id, typed_logs


def check_cache(cache_dir: Path) -> int:
    """Every file in the cache is a complete log of the type its id names, the lock, or the
    not-served record (a 404 for a game of 2010-2025: the fuzz ids are of 2014) whose every line
    is ``<id><TAB><YYYY-MM-DD><TAB><server>``; no temporary file is left. Returns how many logs
    it holds."""
    from tenhou_tools.ids import GameRef, validate_log_id
    from tenhou_tools.mjlog import parse_game
    from tenhou_tools.sources.logstore import NOT_SERVED_NAME

    if not cache_dir.exists():
        return 0
    logs = 0
    for name in sorted(os.listdir(cache_dir)):
        if name == "download.lock":
            continue
        if name == NOT_SERVED_NAME:
            for line in (cache_dir / name).read_text(encoding="utf-8").splitlines():
                fields = line.split("\t")
                if len(fields) != 3 or len(fields[1]) != 10 or not fields[2].startswith("http"):
                    raise Failure(f"the not-served record holds {line!r}")
                validate_log_id(fields[0])
            continue
        if not name.endswith(".mjlog") or name.startswith("."):
            raise Failure(f"the cache holds {name!r}")
        data = (cache_dir / name).read_bytes()
        if not data.startswith(b"\x1f\x8b"):
            raise Failure(f"cached {name} is not gzip")
        log_id = name[: -len(".mjlog")]
        try:
            game = parse_game(data, source=name, log_id=log_id)
        except Exception as exc:  # noqa: BLE001 - a cached file must be a complete game
            raise Failure(f"cached {name} is not a complete game: {exc}") from None
        if game.header.ruleset.type_code != GameRef(log_id).type_code:
            raise Failure(f"cached {name} is a game of another type")
        logs += 1
    return logs


def fuzz_downloads(logs: Sequence[bytes], *, iterations: int | None = None,
                   seconds: float | None = None, rng: random.Random | None = None,
                   read_timeout: float = 0.3, per_input_limit_s: float = 30.0,
                   cli_every: int = 0, report: FuzzReport | None = None) -> FuzzReport:
    """Fetch ids from a ``FuzzServer`` with ``LogFetcher`` (fake sleep: backoff and polite pauses
    cost nothing; read timeouts are real). ``logs`` are mjlog XML; each id asked for names the
    ``GO type`` of the log served for it, and "another game" is a log of another type if there is
    one.

    Each fetch must give a cached complete log of the id's type, or a one-line ``DownloadError``;
    the cache must never hold anything else, and a failed ``refresh`` keeps the old copy. Every
    ``cli_every`` sessions the ``download`` command itself runs against the server instead.
    """
    from tenhou_tools.errors import DownloadError
    from tenhou_tools.sources.http import LogFetcher

    rng = rng or random.Random(0)
    report = report or FuzzReport()
    start = time.monotonic()
    typed = typed_logs(logs)
    if not typed:
        raise ValueError("fuzz_downloads needs at least one log that parses")
    first_type = typed[0][0]
    other = next((log for code, log in typed if code != first_type), typed[0][1])
    served: dict[str, bytes] = {}
    n = 0
    with tempfile.TemporaryDirectory(prefix="tenhou-fuzz-dl-") as tmp, \
            FuzzServer(served, other, random.Random(rng.random()), stall_s=read_timeout * 2) as server:
        cache_dir = Path(tmp, "cache")
        sessions = tried = 0
        while not spent(tried, iterations, start, seconds):
            sessions += 1
            ids = []
            for _ in range(rng.randint(1, 4)):
                n += 1
                type_code, log = rng.choice(typed)
                log_id = fuzz_game_id(n, type_code=type_code)
                served[log_id] = log
                ids.append(log_id)
            if rng.random() < 0.2 and check_cache(cache_dir):  # a cached one again (refresh or not)
                ids.append(_cached_id(cache_dir, rng))
            use_cli = bool(cli_every) and sessions % cli_every == 0
            first = len(server.plans)

            def served_plans(first: int = first) -> str:
                return " (server: " + "; ".join(f"{i}: {p.describe()}" for i, p in server.plans[first:]) + ")"

            with attempt(report, "download", "download", b"", per_input_limit_s, where=served_plans,
                         what=f"{len(ids)} ids "):
                if use_cli:
                    outcome = _download_command(ids, server.url, cache_dir, read_timeout)
                    report.outcomes[f"download:cli_exit_{outcome}"] = report.outcomes.get(
                        f"download:cli_exit_{outcome}", 0) + 1
                else:
                    refresh = rng.random() < 0.2
                    before = {i: _read_or_none(cache_dir / f"{i}.mjlog") for i in ids}
                    fake = _FakeClock()
                    with LogFetcher(cache_dir, server.url, refresh=refresh,
                                    timeout=(read_timeout, read_timeout), min_interval=0.0, jitter=0.0,
                                    retries=rng.choice([0, 1, 2]), lock_timeout=1.0,
                                    sleep=fake.sleep, clock=fake.clock) as fetcher:
                        for log_id in ids:
                            try:
                                result = fetcher.fetch_result(log_id)
                                key = "downloaded" if result.downloaded else "cached"
                                if result.path != cache_dir / f"{log_id}.mjlog" or not result.path.is_file():
                                    raise Failure(f"fetch gave {result.path}")
                            except DownloadError as exc:
                                message = str(exc)
                                one_line(message, "a download error")
                                if log_id not in message:
                                    raise Failure(f"a download error that does not name the id: {message}") from exc
                                key = "stopped" if type(exc).__name__ == "StopDownloads" else "refused"
                                if before[log_id] is not None and _read_or_none(
                                        cache_dir / f"{log_id}.mjlog") != before[log_id]:
                                    raise Failure("a failed refresh changed the cached copy") from exc
                            report.outcomes[f"download:{key}"] = report.outcomes.get(f"download:{key}", 0) + 1
                check_cache(cache_dir)
            tried += len(ids)
            report.tried += len(ids)
            report.by_path["download"] = report.by_path.get("download", 0) + len(ids)
            for _, plan in server.plans[first:]:
                name = f"download:{plan.body}:{plan.delivery}"
                report.by_mutation[name] = report.by_mutation.get(name, 0) + 1
        report.outcomes["download:requests"] = report.outcomes.get("download:requests", 0) + len(server.plans)
        server.plans.clear()
    return report


def _cached_id(cache_dir: Path, rng: random.Random) -> str:
    names = sorted(n for n in os.listdir(cache_dir) if n.endswith(".mjlog"))
    return rng.choice(names)[: -len(".mjlog")]


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


class _FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def clock(self) -> float:
        return self.now


def _download_command(ids: list[str], url: str, cache_dir: Path, read_timeout: float) -> int:
    """``tenhou-tools download IDS`` against the server: exit 0 or 1, one line per message."""
    import functools

    from click.testing import CliRunner

    from tenhou_tools.cli import cli, download_cmd
    from tenhou_tools.sources.http import LogFetcher

    fake = _FakeClock()
    factory = functools.partial(LogFetcher, timeout=(read_timeout, read_timeout), min_interval=0.0,
                                jitter=0.0, retries=1, lock_timeout=1.0, sleep=fake.sleep, clock=fake.clock)
    real = download_cmd.LogFetcher
    download_cmd.LogFetcher = factory  # type: ignore[misc]
    try:
        result = CliRunner().invoke(cli, ["download", *ids, "--base-url", url, "--cache-dir",
                                          str(cache_dir), "--no-progress"])
    finally:
        download_cmd.LogFetcher = real  # type: ignore[misc]
    if result.exit_code not in (0, 1) or (result.exception and not isinstance(result.exception, SystemExit)):
        raise Failure(f"download exited {result.exit_code} ({result.exception!r}): {result.stderr[-400:]}")
    if "Traceback" in result.output:
        raise Failure("download printed a traceback")
    lines = result.stderr.splitlines()
    if not lines or not lines[-1].startswith(f"{len(set(ids))} id"):
        raise Failure(f"download's stderr does not end with its summary: {result.stderr[-400:]}")
    for line in lines[:-1]:
        if not (line.startswith(("Error: ", "Stopped downloading: ")) or any(line.startswith(f"{i}: ") for i in ids)):
            raise Failure(f"download printed an unexpected line: {line!r}")
    stdout = result.stdout.splitlines()
    for line in stdout:
        if not Path(line).is_file():
            raise Failure(f"download printed {line!r}, which is not a file")
    return result.exit_code
