"""``tenhou-tools convert``: logs to mjai JSON lines or tenhou.net/6 JSON."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..convert import convert_logs
from ..formats import SUFFIXES, Target
from ..sources.cache import write_atomic
from ..sources.local import SourceStats, iter_logs
from . import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK
from .common import expand_sources, no_logs_found, tell_not_logs
from .options import dedupe_option, paths_argument
from .output import make_output_folder, refuse_inputs_in_folder
from .term import visible


@click.command()
@paths_argument()
@click.option("--to", "to", type=click.Choice(["mjai", "tenhou6"]), required=True,
              help="mjai: JSON lines (Mortal / mjai-reviewer dialect); tenhou6: tenhou.net/6 JSON.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Write one file per game into DIR (created if missing): <game id>.json for "
              "tenhou6, <game id>.mjson for mjai; each file is written atomically.")
@dedupe_option(verb="Convert")
def convert(paths: tuple[str, ...], to: Target, out_dir: Path | None, no_dedupe: bool) -> None:
    """Convert the logs in PATHS (mjlog XML or tenhou.net/6 JSON) to mjai or tenhou.net/6 JSON.

    PATHS are files, folders (searched recursively), globs, zip and tar archives, houou-logs
    SQLite databases, `-` for a log on standard input, @FILE for a list of paths, or game ids
    of cached logs, as for `validate`. Without --out the converted games go to stdout: a tenhou6
    game is one JSON document per line, an mjai game its events one per line (start_game to
    end_game). Three-player games become mjai with a `nukidora` event per kita; disconnects
    are kept in tenhou6 (`connection`) and dropped in mjai, which has no such event. What each
    format cannot carry is listed in docs/formats.md.

    \b
    Exit codes: 0 every log converted; 1 a log could not be read (the others are still
    converted; each failure is one line on stderr); 2 bad path or option, or no logs found;
    130 interrupted.

    \b
    Examples:
      tenhou-tools convert fixtures/one_hand.mjlog --to mjai
      tenhou-tools convert logs/ --to tenhou6 --out json/
    """
    args, paths = paths, tuple(expand_sources(paths, cached_ids=True))
    stats = SourceStats()
    items = iter_logs(paths, stats=stats, dedupe=not no_dedupe)  # a missing path: InputError, exit 2
    if out_dir is not None:
        refuse_inputs_in_folder(out_dir, SUFFIXES[to], (*args, *paths))
        make_output_folder(out_dir)
    converted = failed = 0
    try:
        for done in convert_logs(items, to):
            if done.text is None or done.name is None:
                click.echo(visible(done.error or done.source), err=True)
                failed += 1
                continue
            if out_dir is None:
                sys.stdout.write(done.text)
                sys.stdout.flush()
            else:
                target = out_dir / done.name
                data = done.text.encode("utf-8")
                if _holds_other(target, data):  # nothing the user had is overwritten
                    click.echo(visible(f"{done.source}: {target} exists and holds something else: not overwritten"),
                               err=True)
                    failed += 1
                    continue
                try:
                    write_atomic(target, data)
                except OSError as exc:
                    raise click.FileError(str(target), hint=exc.strerror or str(exc)) from None
            converted += 1
    except KeyboardInterrupt:
        click.echo(f"Interrupted after {converted} games.", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    if stats.items == 0:
        raise no_logs_found(args, ignored=stats.ignored + stats.not_logs, rows_without_log=stats.skipped_without_log)
    tell_not_logs(stats.not_logs, stats.not_log_examples)
    if out_dir is not None or failed or stats.duplicates:
        where = f" into {out_dir}" if out_dir is not None else ""
        extra = f", {stats.duplicates} duplicate(s) skipped" if stats.duplicates else ""
        click.echo(f"{converted} game(s) converted to {to}{where}, {failed} could not be read{extra}.", err=True)
    raise click.exceptions.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _holds_other(path: Path, data: bytes) -> bool:
    """``path`` exists (or is not a plain file) and is not already ``data``: a converted game
    written again with the same bytes replaces nothing."""
    if not path.exists() and not path.is_symlink():
        return False
    try:
        return not path.is_file() or path.stat().st_size != len(data) or path.read_bytes() != data
    except OSError:
        return True
