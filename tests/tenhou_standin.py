"""A loopback stand-in of tenhou.net's public index and log server, and writers of its formats.

The server (stdlib ``http.server`` on 127.0.0.1, an ephemeral port unless told, a daemon thread)
answers what tenhou.net answers (``spec/TENHOU_INDEX.md`` in the shared docs):

- ``/sc/raw/list.cgi`` and ``/sc/raw/list.cgi?old``: ``list([...]);`` bodies, one
  ``{file:'NAME',size:N}`` entry a line, CRLF between entries;
- ``/sc/raw/dat/NAME``: the day files (gzip), or 404;
- ``/0/log/?ID``: the mjlog XML, or 404 for the games "no longer served".

The writers build day files the way Tenhou writes them (`` | `` between fields, CRLF line ends,
``<br>`` and escaped ``& < >`` in the ``.html`` kinds), FileIndex bodies and ``scrawYYYY.zip``
archives (a year folder, plain members before 2013 and gzip from 2013). ``corpus_standin`` builds
all of it from real corpus games at run time (their ids, players and results, read with the
project's parser), so no corpus data is ever committed.

Run it by hand to try the commands against it::

    python -m tests.tenhou_standin --corpus ../shared/corpus --port 8765 --out /tmp/standin
    TENHOU_TOOLS_BASE_URL=http://127.0.0.1:8765 tenhou-tools index --since 2022-01-01
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import threading
import zipfile
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Self

from .loopback_http import LoopbackServer, RecordingHandler

_ID = re.compile(r"[0-9]{10}gm-[0-9a-f]{4}-[0-9]{4,5}-[0-9a-f]{8}")

# --- the formats ---------------------------------------------------------------------------------

_TABLE = {0x00: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}
_CHIP_TABLE = {0x00: "若", 0x80: "銀", 0x20: "琥", 0xA0: "孔"}


def rule_text(type_code: int) -> str:
    """The rule column for a ``GO type``: 四鳳南喰赤－ (players, table, length, 喰, 赤, 祝 [chips])."""
    chips = (5 if type_code & 0x400 else 2) if type_code & 0x200 else 0
    table = (_CHIP_TABLE if chips else _TABLE)[type_code & 0xA0]
    text = ("三" if type_code & 0x10 else "四") + table + ("南" if type_code & 0x08 else "東")
    text += ("－" if type_code & 0x04 else "喰") + ("－" if type_code & 0x02 else "赤")
    return text + ("祝" + "０２５"[(0, 2, 5).index(chips)] if chips else "－")


def points_field(points: float, whole: bool = False) -> str:
    """``+59.0``, ``-14.0``, ``0.0`` (``+47``, ``0`` in the 2009 files)."""
    if whole:
        return "0" if points == 0 else f"{int(points):+d}"
    return "0.0" if points == 0 else f"{points:+.1f}"


def escape(name: str) -> str:
    """The escaping of the ``.html`` day files: ``& < >`` only."""
    return name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class Game:
    """What a day-file line says of a game."""

    log_id: str
    hhmm: str
    minutes: int
    results: tuple[tuple[str, float], ...]  # placement order
    lobby_label: str = ""  # scf: C0431

    @property
    def type_code(self) -> int:
        return int(self.log_id.split("-")[1], 16)

    @property
    def day(self) -> date:
        return date(int(self.log_id[:4]), int(self.log_id[4:6]), int(self.log_id[6:8]))

    @property
    def hour(self) -> int:
        return int(self.log_id[8:10])


def scc_line(game: Game) -> str:
    whole = game.log_id.startswith("2009")
    players = " ".join(f"{escape(n)}({points_field(p, whole)})" for n, p in game.results)
    link = f'<a href="http://tenhou.net/0/?log={game.log_id}">牌譜</a>'
    return f"{game.hhmm} | {game.minutes:02d} | {rule_text(game.type_code)} | {link} | {players}<br>"


def scf_line(game: Game) -> str:
    players = " ".join(f"{escape(n)}({points_field(p)})" for n, p in game.results)
    link = f'<a href="http://tenhou.net/0/?log={game.log_id}">牌譜</a>'
    return f"{game.lobby_label} | {game.hhmm} | {rule_text(game.type_code)} | {link} | {players}<br>"


def sca_line(game: Game) -> str:
    """A private-lobby results line: no link (``index`` lists nothing from it)."""
    players = " ".join(f"{n}({points_field(p)})" for n, p in game.results)
    return f"L1001 | {game.hhmm} | {rule_text(game.type_code)} | {players}"


def day_file(lines: list[str], *, compress: bool = True) -> bytes:
    """Lines joined with CRLF (each line ends with one), gzip-compressed unless told."""
    body = "".join(line + "\r\n" for line in lines).encode("utf-8")
    return gzip.compress(body, mtime=0) if compress else body


def list_body(entries: list[tuple[str, int]]) -> bytes:
    """A ``list.cgi`` body."""
    if not entries:
        return b"list([\r\n]);\r\n"
    inner = ",\r\n".join(f"{{file:'{name}',size:{size}}}" for name, size in entries)
    return f"list([\r\n{inner}\r\n]);\r\n".encode()


def scraw_zip(members: dict[str, bytes]) -> bytes:
    """A ``scrawYYYY.zip``: the members under their names, with a folder entry per folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder in sorted({name.rsplit("/", 1)[0] for name in members if "/" in name}):
            archive.writestr(folder + "/", b"")
        for name, data in sorted(members.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


# --- the server ----------------------------------------------------------------------------------


class StandIn(LoopbackServer):
    """tenhou.net on 127.0.0.1. Set ``recent``/``old`` (names listed by the two lists), ``files``
    (the day files served), ``sizes`` (a size to list instead of the real one), ``logs`` (id ->
    XML) and ``not_served`` (ids answered with 404); ``truncate`` names day files sent cut short
    (announced whole, then the connection closes)."""

    def __init__(self, port: int = 0) -> None:
        super().__init__(port)
        self.recent: list[str] = []
        self.old: list[str] = []
        self.files: dict[str, bytes] = {}
        self.sizes: dict[str, int] = {}
        self.truncate: set[str] = set()
        self.logs: dict[str, bytes] = {}
        self.not_served: set[str] = set()

    def add_files(self, names_and_data: dict[str, bytes], *, old: bool) -> None:
        for name, data in names_and_data.items():
            self.files[name] = data
            (self.old if old else self.recent).append(name)

    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]

    def log_requests(self) -> list[str]:
        return [p for p in self.paths() if p.startswith("/0/log/")]

    def _listing(self, names: list[str]) -> bytes:
        return list_body([(n, self.sizes.get(n, len(self.files.get(n, b"x")))) for n in names])

    def answer(self, handler: RecordingHandler, noted: None) -> None:
        reply, path = handler.reply, handler.path
        if path == "/sc/raw/list.cgi":
            return reply(200, self._listing(self.recent), "application/javascript")
        if path == "/sc/raw/list.cgi?old":
            return reply(200, self._listing(self.old), "application/javascript")
        if path.startswith("/sc/raw/dat/"):
            name = path.removeprefix("/sc/raw/dat/")
            if name not in self.files:
                return reply(404, b"<html><body>404 Not Found</body></html>", "text/html")
            if name in self.truncate:
                return handler.reply_cut(self.files[name], "application/x-gzip")
            return reply(200, self.files[name], "application/x-gzip")
        if path.startswith("/0/log/?"):
            log_id = path.partition("?")[2]
            if log_id in self.logs and log_id not in self.not_served:
                return reply(200, self.logs[log_id], "text/xml")
            return reply(404, b"<html><body>404 Not Found</body></html>", "text/html")
        return reply(404, b"not here", "text/plain")

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()


# --- a stand-in built from real games ------------------------------------------------------------


@dataclass
class CorpusStandIn:
    """Real games laid out as tenhou.net lays them out: ``archives`` (name -> zip bytes) for the
    years before the last one, ``old`` and ``recent`` day files for the last year (its last seven
    days hourly, in ``list.cgi``), and the ``games`` each holds."""

    games: dict[str, Game]
    logs: dict[str, bytes]
    archives: dict[str, bytes]
    old: dict[str, bytes]
    recent: dict[str, bytes]
    in_archives: set[str]
    in_lists: set[str]
    left_out: int
    """Corpus games that no index file with log links would hold (ranked lobbies below Houou)."""


def game_from_log(path: Path) -> tuple[Game, bytes] | None:
    """A corpus game's index line, read with the project's parser; None without a game id."""
    from tenhou_tools.ids import log_id_from_name
    from tenhou_tools.mjlog import parse_game
    from tenhou_tools.mjlog.read import decompress
    from tenhou_tools.sources.files import read_log_file

    named = log_id_from_name(path.name)
    match = _ID.match(named or "")
    if match is None:
        return None
    log_id = match[0]
    data = decompress(read_log_file(path))  # tenhou.net serves the plain XML
    game = parse_game(data, source=str(path), log_id=log_id)
    owari = game.owari
    assert owari is not None, path
    seats = range(game.header.ruleset.players)
    order = sorted(seats, key=lambda s: (-owari.scores[s], s))
    results = tuple((game.header.players[s].name, owari.points[s]) for s in order)
    key = int(log_id.rsplit("-", 1)[1][:4], 16)
    lobby = int(log_id.split("-")[2])
    label = f"C{lobby - 10000:04d}" if lobby >= 10000 else (f"L{lobby:04d}" if lobby else "")
    hhmm = f"{log_id[8:10]}:{key % 60:02d}"
    return Game(log_id, hhmm, 5 + key % 60, results, label), data


def corpus_standin(paths: list[Path]) -> CorpusStandIn:
    """Lay out these corpus games (see ``CorpusStandIn``)."""
    from tenhou_tools.events import Room
    from tenhou_tools.mjlog import ruleset_from_type

    games: dict[str, Game] = {}
    logs: dict[str, bytes] = {}
    left_out = 0
    for path in paths:
        read = game_from_log(path)
        if read is None or read[0].log_id in games:
            continue
        game, data = read
        rules = ruleset_from_type(game.type_code)
        if game.lobby_label == "" and (rules.room is not Room.HOUOU or rules.chips):
            left_out += 1  # a ranked game below Houou: only the results-only scb files have it
            continue
        games[game.log_id] = game
        logs[game.log_id] = data
    last_year = max(g.day.year for g in games.values())
    by_file: dict[tuple[int, date, int | None, str], list[Game]] = defaultdict(list)
    last_days = sorted({g.day for g in games.values() if g.day.year == last_year})[-7:]
    for game in games.values():
        kind = "scf" if game.lobby_label else "scc"
        hourly = game.day in last_days
        by_file[(game.day.year, game.day, game.hour if hourly else None, kind)].append(game)
    archives: dict[str, dict[str, bytes]] = defaultdict(dict)
    old: dict[str, bytes] = {}
    recent: dict[str, bytes] = {}
    in_archives: set[str] = set()
    in_lists: set[str] = set()
    for (year, day, hour, kind), members in sorted(by_file.items(), key=lambda kv: (kv[0][1], kv[0][2] or 0, kv[0][3])):
        members.sort(key=lambda g: (g.hhmm, g.log_id))
        lines = [scf_line(g) if kind == "scf" else scc_line(g) for g in members]
        stamp = f"{day:%Y%m%d}" + (f"{hour:02d}" if hour is not None else "")
        ids = {g.log_id for g in members}
        if year < last_year:
            plain = year < 2013
            name = f"{year}/{kind}{stamp}.html" + ("" if plain else ".gz")
            archives[f"scraw{year}.zip"][name] = day_file(lines, compress=not plain)
            # the results-only private-lobby file of the same day: nothing to list from it
            sca = f"{year}/sca{stamp}.log" + ("" if plain else ".gz")
            archives[f"scraw{year}.zip"][sca] = day_file([sca_line(g) for g in members], compress=not plain)
            in_archives |= ids
        elif hour is None:
            old[f"{year}/{kind}{stamp}.html.gz"] = day_file(lines)
            in_lists |= ids
        else:
            recent[f"{kind}{stamp}.html.gz"] = day_file(lines)
            in_lists |= ids
    zips = {name: scraw_zip(members) for name, members in archives.items()}
    return CorpusStandIn(games, logs, zips, old, recent, in_archives, in_lists, left_out)


def main() -> None:  # pragma: no cover - a tool for people
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--out", type=Path, required=True, help="where to write the scrawYYYY.zip archives")
    parser.add_argument("--every", type=int, default=1, help="take every Nth corpus game")
    parser.add_argument("--not-served", default="2010-2025",
                        help="years whose logs answer 404, like tenhou.net since 2026-04 (FIRST-LAST, or '')")
    args = parser.parse_args()
    paths = sorted((args.corpus / "mjlog").glob("*/*gm-*"))[:: args.every]
    standin = corpus_standin(paths)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in standin.archives.items():
        (args.out / name).write_bytes(data)
    with StandIn(args.port) as server:
        server.add_files(standin.old, old=True)
        server.add_files(standin.recent, old=False)
        server.logs.update(standin.logs)
        if args.not_served:
            first, last = (int(y) for y in args.not_served.split("-"))
            server.not_served = {i for i in standin.logs if first <= int(i[:4]) <= last}
        print(f"{len(standin.games)} games, {len(standin.archives)} archives in {args.out}; serving {server.url}",
              flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":  # pragma: no cover
    main()
