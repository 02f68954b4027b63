"""``tenhou-tools replay``: one game hand by hand, with the engine's verdict on each hand."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..documents.replay import ReplayDocument, replay_document
from ..errors import InputError
from ..events import Game
from ..replay.engine import replay_game
from ..serialize import json_text
from . import EXIT_FINDINGS, EXIT_OK
from .common import stdout_console
from .loading import load_source
from .options import fetch_options, refresh_option, refuse_format_with_html
from .output import refuse_input_as_output
from .term import glyphs_by_default, render_lines, visible

if TYPE_CHECKING:
    from ..analysis import GameAnalysis
    from .view import View


@click.command()
@click.argument("source", metavar="ID|URL|PATH")
@click.option("--seat", type=click.IntRange(0, 3), metavar="N",
              help="View from seat N (0 = East in East 1): other seats' starting hands and draws are "
              "hidden (with --html the page holds only what seat N sees). Default: the URL's tw=, else "
              "every seat's tiles are shown.")
@click.option("--all-hands", is_flag=True, help="With --seat (or tw=): show every seat's tiles all the same.")
@click.option("--hand", "hand_label", metavar="LABEL",
              help="Show only this hand: round and honba as the view labels them, e.g. E1-0 or S3-2.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: the view for people; json: the replayed hands with their states and findings.")
@click.option("--ascii/--glyphs", "ascii_tiles", default=None,
              help="Tiles in 123m456p789s1234567z notation (0 = red five), or as unicode glyphs. "
              "Default: glyphs on a UTF-8 terminal, the notation anywhere else (a pipe, a file, LANG=C).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the replay as one self-contained HTML page to FILE (atomically; - for stdout) "
              "instead of the view: step through the game in a browser, offline.")
@click.option("--at", "at", metavar="HAND:STEP",
              help="Show the table at one moment instead: HAND as the view labels it (E2-1), STEP the "
              "number of the hand's events played (0 = the deal). --format json: {\"board\": ...}.")
@click.option("--analysis", is_flag=True,
              help="Add the discard analysis: shanten before and after each discard, the tiles it "
              "accepts against the best discard's, efficiency losses, riichi waits, deal-ins.")
@fetch_options
@refresh_option
def replay(source: str, seat: int | None, all_hands: bool, hand_label: str | None, fmt: str,
           ascii_tiles: bool | None, html_file: str | None, at: str | None, analysis: bool,
           cache_dir: Path | None, base_url: str | None, offline: bool, refresh: bool) -> None:
    """Replay one game hand by hand and show what the engine says about each hand.

    The game is a game id (2014102312gm-00a9-0000-afb21fa5), a tenhou.net viewer URL
    (https://tenhou.net/0/?log=ID&tw=2: tw is the seat to view from), a log file (mjlog XML
    or tenhou.net/6 JSON, which has no wall seed: its wall is not checked), `-` for a log on
    standard input, or @FILE naming a file that lists one of these. Ids and URLs
    are downloaded through the cache like `download` does (--cache-dir, --base-url, --offline,
    --refresh). The JSON is always complete (--seat hides nothing there; the --html page of a
    seat holds only what it sees: docs/replay-html.md). A log that stops
    early (a game cut by a disconnect, or still running) is replayed up to where it stops.

    For each hand: round, honba, dealer and dora; each seat's starting hand; the play, a row per
    go-around; the result and the score changes; and the verdict: ✓ verified, or the findings
    with the value the rules give and the one the log has. Then the final standings with uma
    and a chart of the scores. --analysis adds each hand's discard analysis (also to the JSON;
    the --html page always has it).

    --at HAND:STEP shows the table at one moment instead: each seat's hand (hidden per --seat),
    melds, pond in rows of six, score, shanten and waits; the dora indicators, honba, sticks and
    the tiles left in the wall. STEP counts the hand's events as `parse` lists them (0 = the
    deal). With --format json it prints {"board": {...}} (docs/board.md), every seat complete.

    \b
    Exit codes: 0 the engine verifies the game (--at: the board is shown); 1 error
    findings, the log stops before the game's end, or the log could not be read or
    downloaded; 2 bad id, path or option (--at: no such hand or step).

    \b
    Examples:
      tenhou-tools replay fixtures/one_hand.xml --ascii
      tenhou-tools replay fixtures/one_hand.xml --at E1-0:4 --seat 1 --analysis
      tenhou-tools replay 'https://tenhou.net/0/?log=2014102312gm-00a9-0000-afb21fa5&tw=2'
    """
    raw_source = source
    loaded = load_source(source, cache_dir=cache_dir, base_url=base_url, refresh=refresh,
                         offline=offline)
    game, ref, source = loaded.game, loaded.ref, loaded.source
    refuse_input_as_output(html_file, [raw_source, *([str(loaded.path)] if loaded.path else [])], option="--html")
    complete = game.complete

    players = game.header.ruleset.players
    viewer = seat if seat is not None else (ref.seat if ref is not None else None)
    if viewer is not None and viewer >= players:
        where = "--seat" if seat is not None else "the URL's tw="
        raise click.UsageError(f"{where} {viewer}: a {players}-player game has seats 0-{players - 1}")
    text_view = partial(_text_view, viewer, all_hands, ascii_tiles)
    title = visible(game.log_id or source)  # the text views' title
    refuse_format_with_html(html_file)
    if at is not None:
        _show_board(game, at, text_view, title, fmt, analysis, html_file, hand_label)
        raise click.exceptions.Exit(EXIT_OK)
    report = replay_game(game)
    with_analysis = analysis or html_file is not None  # the page always has it
    try:
        doc = replay_document(game, report, source=source, viewer=viewer, all_hands=all_hands,
                              hand_label=hand_label, analysis=_analysed(game) if with_analysis else None)
    except InputError as exc:  # --hand names no hand of this game
        raise click.UsageError(str(exc)) from None
    if html_file is not None:
        _write_html(html_file, doc)
    elif fmt == "json":
        click.echo(json_text(doc.to_json()))
    else:
        from . import replay_render  # the text view's renderers load rich; JSON needs neither

        renderables = replay_render.game_view(doc, text_view(), title)
        click.echo(render_lines(stdout_console(), renderables), nl=False)
    raise click.exceptions.Exit(EXIT_OK if report.ok and complete else EXIT_FINDINGS)


def _text_view(viewer: int | None, all_hands: bool, ascii_tiles: bool | None) -> View:
    """The text views' ``View``, made only when text is written: its module loads rich, which
    JSON and the page never need."""
    from .view import View

    if ascii_tiles is None:
        ascii_tiles = not glyphs_by_default()
    return View(viewer=viewer, all_hands=all_hands, ascii=ascii_tiles)


def _analysed(game: Game) -> GameAnalysis:
    """The discard analysis of ``game``, its package imported only then: importing it is about
    70 M instructions, a tenth of a plain ``replay --format json`` (callgrind)."""
    from ..analysis import analyze_game

    return analyze_game(game)


def _show_board(game: Game, at: str, text_view: Callable[[], View], title: str, fmt: str, analysis: bool,
                html_file: str | None, hand_label: str | None) -> None:
    """``--at HAND:STEP``: the board at that moment, as text or ``{"board": ...}``."""
    if html_file is not None:
        raise click.UsageError("--at shows one moment in the terminal; --html writes the whole game: "
                               "use one of them (the page opens at a moment from its address, FILE#E1-0:12)")
    if hand_label is not None:
        raise click.UsageError("--at names its hand (HAND:STEP): leave out --hand")
    from ..documents.board import board_document, parse_moment  # it imports the analysis: see _analysed

    try:
        moment = parse_moment(game, at)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    doc = board_document(game, moment, _analysed(game) if analysis else None)
    if fmt == "json":
        click.echo(json_text(doc.to_json()))
    else:
        from . import board_render

        renderables = board_render.board_view(doc, game, text_view(), title)
        click.echo(render_lines(stdout_console(), renderables), nl=False)


def _write_html(path: str, doc: ReplayDocument) -> None:
    """``--html FILE``: the offline replay page (``views/html.py``) embedding the document,
    written atomically (``-``: stdout), and its size on stderr."""
    from ..views.html import replay_page
    from .common import AtomicOutput

    page = replay_page(doc)
    with AtomicOutput(None if path == "-" else path, announce=False) as out:
        out.write(page)
    if path != "-":
        click.echo(f"{path}: replay page, {len(page.encode()):,} bytes", err=True)
