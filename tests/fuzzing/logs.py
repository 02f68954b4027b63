"""Mutation fuzzing of every command's input path: corrupt real-shaped logs (mjlog XML and
tenhou.net/6 JSON) and make sure every one ends in a result (a game record with findings, or a
one-line error) — never an exception, an engine crash (``INTERNAL_ERROR``), a hang or unbounded
memory.

Each mutated input goes through the ``paths`` asked for (``PATHS``):

- ``validate``: ``check.check_log`` (what ``validate`` runs on each log);
- ``stats``: ``stats.records.stats_item`` on a ``LogItem`` of the bytes (what ``stats`` workers
  run): a ``StatsRecord`` with counters or a one-line error, never an exception or an
  ``internal error``; the report of each player of a counted game must render;
- ``convert``: a game that loads must be written as tenhou.net/6 JSON and as mjai without an
  exception, and the JSON must load back (or be a one-line ``ParseError``);
- ``replay``: the ``replay`` command's text and JSON views (``cli.replay_render``) of a game that
  loads must render without an exception.

Used by ``tests/test_fuzz.py`` (a bounded run in CI) and ``scripts/fuzz.py --minutes N``. The
containers, the downloader and the ``stats --db`` store are fuzzed by this package's
``containers``, ``downloads`` and ``store``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenhou_tools.check import check_log
from tenhou_tools.errors import InputError, ParseError
from tenhou_tools.findings import FindingCode

_TAG = re.compile(rb"<[^<>]*/>")
_NUMBER = re.compile(rb"-?\d+")


def spent(done: int, iterations: int | None, start: float, seconds: float | None) -> bool:
    """A fuzz run's budget is used up: ``iterations`` inputs done, or ``seconds`` since
    ``start`` (``time.monotonic()``); ``None`` is no limit of that kind."""
    return (iterations is not None and done >= iterations) or (
        seconds is not None and time.monotonic() - start >= seconds)


def _tags(xml: bytes) -> list[re.Match[bytes]]:
    return list(_TAG.finditer(xml))


def flip_bytes(xml: bytes, rng: random.Random) -> bytes:
    if not xml:
        return xml
    data = bytearray(xml)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    return bytes(data)


def truncate(xml: bytes, rng: random.Random) -> bytes:
    return xml[: rng.randrange(len(xml))] if xml else xml


def delete_tag(xml: bytes, rng: random.Random) -> bytes:
    tags = _tags(xml)
    if not tags:
        return xml
    m = rng.choice(tags)
    return xml[: m.start()] + xml[m.end():]


def duplicate_tag(xml: bytes, rng: random.Random) -> bytes:
    tags = _tags(xml)
    if not tags:
        return xml
    m = rng.choice(tags)
    return xml[: m.end()] + m.group() + xml[m.end():]


def swap_tags(xml: bytes, rng: random.Random) -> bytes:
    tags = _tags(xml)
    if len(tags) < 2:
        return xml
    i = rng.randrange(len(tags) - 1)
    j = min(len(tags) - 1, i + rng.randint(1, 6))
    a, b = tags[i], tags[j]
    return xml[: a.start()] + b.group() + xml[a.end(): b.start()] + a.group() + xml[b.end():]


def bad_number(xml: bytes, rng: random.Random) -> bytes:
    """An attribute or tag number replaced by an out-of-range or huge value."""
    numbers = list(_NUMBER.finditer(xml))
    if not numbers:
        return xml
    m = rng.choice(numbers)
    value = rng.choice([b"-1", b"136", b"999", b"4", b"-100000", b"65535", b"70000",
                        b"9" * rng.randint(20, 400), b"0", b"3", b"nan", b"inf", b"1e308"])
    return xml[: m.start()] + value + xml[m.end():]


def wrong_count(xml: bytes, rng: random.Random) -> bytes:
    """A comma list (scores, tiles, yaku) with an item removed or added."""
    lists = list(re.finditer(rb'"(-?[\d.]+(?:,-?[\d.]+)+)"', xml))
    if not lists:
        return xml
    m = rng.choice(lists)
    items = m.group(1).split(b",")
    if rng.random() < 0.5 and len(items) > 1:
        del items[rng.randrange(len(items))]
    else:
        items.insert(rng.randrange(len(items) + 1), rng.choice([b"0", b"135", b"-5"]))
    return xml[: m.start(1)] + b",".join(items) + xml[m.end(1):]


def huge_attribute(xml: bytes, rng: random.Random) -> bytes:
    tags = _tags(xml)
    if not tags:
        return xml
    m = rng.choice(tags)
    filler = rng.choice([b"A", b"%E5", b"9,"]) * rng.randint(1000, 50000)
    tag = m.group()
    return xml[: m.start()] + tag[:-2] + b' x="' + filler + b'"/>' + xml[m.end():]


def non_utf8_name(xml: bytes, rng: random.Random) -> bytes:
    return re.sub(rb'n0="[^"]*"', b'n0="%FF%FE%80' + bytes([0xC3]) + b'"', xml, count=1)


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "flip_bytes": flip_bytes,
    "truncate": truncate,
    "delete_tag": delete_tag,
    "duplicate_tag": duplicate_tag,
    "swap_tags": swap_tags,
    "bad_number": bad_number,
    "wrong_count": wrong_count,
    "huge_attribute": huge_attribute,
    "non_utf8_name": non_utf8_name,
}


# --- tenhou.net/6 JSON ---------------------------------------------------------------------------


def _json_doc(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _dump(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _hand_lists(doc: Any) -> list[list[Any]]:
    """The lists inside the hands of a tenhou.net/6 document (the hand array itself, its
    header, scores, dora, the take / discard arrays and the result), to mutate in place."""
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        return []
    out: list[list[Any]] = []
    for hand in doc["log"]:
        if isinstance(hand, list):
            out.append(hand)
            out += [item for item in hand if isinstance(item, list)]
    return out


def _json_mutation(change: Callable[[Any, random.Random], bool]) -> Callable[[bytes, random.Random], bytes]:
    """A byte mutation from an in-place change of the parsed document (returning whether it
    changed anything); input that is not JSON comes back as it was."""
    def mutate(data: bytes, rng: random.Random) -> bytes:
        doc = _json_doc(data)
        if doc is None or not change(doc, rng):
            return data
        return _dump(doc)
    mutate.__name__ = change.__name__
    return mutate


def _pick_list(doc: Any, rng: random.Random, *, nonempty: bool = True) -> list[Any] | None:
    lists = [x for x in _hand_lists(doc) if x or not nonempty]
    return rng.choice(lists) if lists else None


def _json_delete_item(doc: Any, rng: random.Random) -> bool:
    items = _pick_list(doc, rng)
    if items is None:
        return False
    del items[rng.randrange(len(items))]
    return True


def _json_duplicate_item(doc: Any, rng: random.Random) -> bool:
    items = _pick_list(doc, rng)
    if items is None:
        return False
    i = rng.randrange(len(items))
    items.insert(i, json.loads(json.dumps(items[i])))
    return True


def _json_swap_items(doc: Any, rng: random.Random) -> bool:
    items = _pick_list(doc, rng)
    if items is None or len(items) < 2:
        return False
    i = rng.randrange(len(items) - 1)
    j = min(len(items) - 1, i + rng.randint(1, 4))
    items[i], items[j] = items[j], items[i]
    return True


_WRONG_VALUES: tuple[Any, ...] = ("11", "", "r", "x60", None, True, 1.5, [], [11, 12], [[11]],
                                  {}, {"a": 1}, "c", "p1111", "m11111111", "a11111111", "k1111")
_BAD_NUMBERS: tuple[Any, ...] = (-1, 0, 9, 10, 20, 30, 38, 40, 48, 50, 54, 59, 61, 99, 136,
                                 10**6, -10**6, 2**63, 10**30, -(10**30), 1e308,
                                 float("inf"), float("nan"))


def _json_wrong_type(doc: Any, rng: random.Random) -> bool:
    items = _pick_list(doc, rng)
    if items is None:
        return False
    items[rng.randrange(len(items))] = rng.choice(_WRONG_VALUES)
    return True


def _json_bad_number(doc: Any, rng: random.Random) -> bool:
    """An out-of-range tile code, seat, count or score, or a huge number."""
    items = _pick_list(doc, rng)
    if items is None:
        return False
    items[rng.randrange(len(items))] = rng.choice(_BAD_NUMBERS)
    return True


def _json_wrong_length(doc: Any, rng: random.Random) -> bool:
    """A hand array (or a list in it) cut short or padded."""
    hands = doc.get("log") if isinstance(doc, dict) else None
    if not isinstance(hands, list) or not hands:
        return False
    if rng.random() < 0.5:
        items = rng.choice(hands)
        if not isinstance(items, list):
            return False
    else:
        items = _pick_list(doc, rng, nonempty=False)
        if items is None:
            return False
    if items and rng.random() < 0.6:
        del items[rng.randrange(len(items)):]
    else:
        items.extend(rng.choice([[], [11], 0, "", [0, 0, 0]]) for _ in range(rng.randint(1, 5)))
    return True


def _json_bad_field(doc: Any, rng: random.Random) -> bool:
    """A top-level field (log, rule, name, sc, dan, rate, sx, ver, ref, connection) removed or
    given a value of the wrong type or size."""
    if not isinstance(doc, dict):
        return False
    key = rng.choice(["log", "rule", "name", "sc", "dan", "rate", "sx", "ver", "ref",
                      "connection", "ratingc", "lobby"])
    if rng.random() < 0.3:
        doc.pop(key, None)
    else:
        doc[key] = rng.choice([None, 0, -1, 10**30, "", "x" * 5000, [], [None] * 8, {}, [[]],
                               {"disp": 5}, {"disp": "三鳳南喰赤"}, [{"what": 1, "log": 99}],
                               ["0"] * 3, [1e308] * 8])
    return True


def _json_truncate(data: bytes, rng: random.Random) -> bytes:
    """JSON text cut short (at a structural character, where parsers are most likely to trip)."""
    cuts = [m.start() for m in re.finditer(rb"[,\[\]{}:]", data)]
    if not cuts:
        return truncate(data, rng)
    return data[: rng.choice(cuts)]


def _json_deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """A list nested thousands deep in place of a value."""
    doc = _json_doc(data)
    items = _pick_list(doc, rng)
    if items is None:
        return data
    marker = "\u0000nest\u0000"
    items[rng.randrange(len(items))] = marker
    depth = rng.choice([100, 1000, 5000, 50000])
    return _dump(doc).replace(json.dumps(marker).encode(), b"[" * depth + b"]" * depth, 1)


JSON_MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "json_delete_item": _json_mutation(_json_delete_item),
    "json_duplicate_item": _json_mutation(_json_duplicate_item),
    "json_swap_items": _json_mutation(_json_swap_items),
    "json_wrong_type": _json_mutation(_json_wrong_type),
    "json_bad_number": _json_mutation(_json_bad_number),
    "json_wrong_length": _json_mutation(_json_wrong_length),
    "json_bad_field": _json_mutation(_json_bad_field),
    "json_truncate": _json_truncate,
    "json_deep_nesting": _json_deep_nesting,
}
"""Mutations of tenhou.net/6 JSON documents (applied to seeds that start with ``{``, together
with the byte-level ones of ``MUTATIONS`` that make sense for any text)."""

_BYTE_MUTATIONS = ("flip_bytes", "truncate", "bad_number", "wrong_count")
"""The ``MUTATIONS`` that are also applied to JSON seeds."""


def is_json(data: bytes) -> bool:
    return data.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"{")


def tenhou6_seeds(xml_seeds: Iterable[bytes]) -> list[bytes]:
    """JSON seeds: each mjlog seed that parses, written as tenhou.net/6 JSON."""
    from tenhou_tools.formats import dumps
    from tenhou_tools.mjlog import parse_game

    out = []
    for xml in xml_seeds:
        try:
            out.append(dumps(parse_game(xml), "tenhou6").encode("utf-8"))
        except ParseError:
            continue
    return out


PATHS: tuple[str, ...] = ("validate", "stats", "convert", "replay")
"""The input paths ``fuzz`` can drive (see the module docstring)."""


@dataclass
class FuzzReport:
    tried: int = 0
    by_mutation: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    """How inputs ended on the validate path: ``clean``, ``findings`` (a game with findings),
    ``unreadable``."""
    failures: list[tuple[str, str, bytes]] = field(default_factory=list)
    """(mutation, what went wrong, the input) for every crash or hang. What went wrong starts
    with ``[path]`` for the paths other than validate."""
    slowest_s: float = 0.0
    by_path: dict[str, int] = field(default_factory=dict)
    """Inputs run through each path."""
    slowest_by_path: dict[str, float] = field(default_factory=dict)
    json_inputs: int = 0
    """How many of the inputs were mutated tenhou.net/6 JSON."""


class _Failure(Exception):
    """A path's check failed (not an exception of the code under test)."""


def _one_line(message: str, what: str) -> None:
    if "\n" in message or "\r" in message:
        raise _Failure(f"a multi-line {what}")


def _run_validate(data: bytes, report: FuzzReport) -> None:
    record = check_log(data, path="fuzz.xml")
    crash = [f for f in record.findings if f.code is FindingCode.INTERNAL_ERROR]
    if crash:
        raise _Failure(crash[0].message + "\n" + (crash[0].detail or ""))
    if record.hands == 0:
        outcome = "unreadable"
        for f in record.findings:
            _one_line(f.message, "error message")
    else:
        outcome = "clean" if not record.findings else "findings"
    report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1


def _load(data: bytes) -> Any:
    """The game in the bytes, or ``None`` when they do not load (a one-line ``ParseError``)."""
    from tenhou_tools.formats import load_game

    try:
        return load_game(data, source="fuzz")
    except ParseError as exc:
        _one_line(str(exc), "parse error")
        return None


def _run_stats(data: bytes, report: FuzzReport) -> None:
    from tenhou_tools.sources.local import LogItem
    from tenhou_tools.stats.records import StatsRecord, stats_item

    kind = "tenhou6" if is_json(data) else "mjlog"
    record = stats_item(LogItem("fuzz", None, data, kind=kind))
    if not isinstance(record, StatsRecord):
        raise _Failure(f"stats_item returned {type(record).__name__}")
    if record.error is not None:
        _one_line(record.error, "stats error")
        if "internal error" in record.error:
            raise _Failure(record.error)
    elif record.key is None:
        raise _Failure("a stats record with neither a key nor an error")
    else:  # the report of the game's players renders (every statistic and interval)
        from tenhou_tools.stats.report import PlayerReport

        for (name, players), counters in record.counters:
            PlayerReport(name, players, counters).sections()


def _run_convert(data: bytes, report: FuzzReport) -> None:
    from tenhou_tools.formats import dumps, load_game

    game = _load(data)
    if game is None:
        return
    text = dumps(game, "tenhou6")
    dumps(game, "mjai")
    try:
        load_game(text.encode("utf-8"), source="fuzz.json")
    except ParseError as exc:
        _one_line(str(exc), "parse error of the converted JSON")


def _run_replay(data: bytes, report: FuzzReport) -> None:
    from rich.console import Console

    from tenhou_tools.cli import replay_render
    from tenhou_tools.cli.view import View
    from tenhou_tools.documents.replay import replay_document
    from tenhou_tools.replay.engine import replay_game

    game = _load(data)
    if game is None:
        return
    result = replay_game(game)
    view = View(viewer=None, all_hands=False, ascii=False)
    doc = replay_document(game, result, source="fuzz")
    json.dumps(doc.to_json(), ensure_ascii=False)
    console = Console(highlight=False, width=120, color_system=None, soft_wrap=False,
                      file=_NullFile())
    for renderable in replay_render.game_view(doc, view, "fuzz"):
        console.print(renderable)
    if game.hands:  # --hand as the user would give it, and --seat
        label = game.hands[0].init.label()
        seat_view = View(viewer=0, all_hands=False, ascii=True)
        try:
            labelled = replay_document(game, result, source="fuzz", viewer=0, hand_label=label)
            for renderable in replay_render.game_view(labelled, seat_view, "fuzz"):
                console.print(renderable)
        except InputError as exc:  # no such hand: the command's one-line usage error
            _one_line(str(exc), "--hand error")


class _NullFile:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


_RUNNERS: dict[str, Callable[[bytes, FuzzReport], None]] = {
    "validate": _run_validate,
    "stats": _run_stats,
    "convert": _run_convert,
    "replay": _run_replay,
}


def check_input(data: bytes, paths: Sequence[str] = PATHS) -> list[str]:
    """Run one input through ``paths``; what went wrong on each path that failed (``[]``: the
    input ended in a result everywhere). Slowness is not checked here (``fuzz`` does)."""
    problems = []
    report = FuzzReport()
    for path in paths:
        try:
            _RUNNERS[path](data, report)
        except _Failure as failure:
            problems.append(f"[{path}] {failure}")
        except Exception as exc:  # noqa: BLE001 - that is exactly what we are looking for
            problems.append(f"[{path}] {type(exc).__name__}: {exc}")
    return problems


def fuzz(seeds: Iterable[bytes], *, iterations: int | None = None, seconds: float | None = None,
         rng: random.Random | None = None, per_input_limit_s: float = 5.0,
         paths: Sequence[str] = ("validate",)) -> FuzzReport:
    """Mutate the seed logs and run each result through ``paths`` (a subset of ``PATHS``).
    Stops after ``iterations`` inputs or ``seconds``, whichever comes first.

    Seeds are mjlog XML bytes or tenhou.net/6 JSON (see ``tenhou6_seeds``): XML seeds get the
    ``MUTATIONS``, JSON seeds the ``JSON_MUTATIONS`` and the byte-level ones that fit any text.
    """
    unknown = [p for p in paths if p not in _RUNNERS]
    if unknown:
        raise ValueError(f"unknown fuzz path(s) {unknown}; known: {', '.join(PATHS)}")
    rng = rng or random.Random(0)
    seeds = list(seeds)
    report = FuzzReport()
    xml_names = list(MUTATIONS)
    json_names = list(JSON_MUTATIONS) + list(_BYTE_MUTATIONS)
    every = {**MUTATIONS, **JSON_MUTATIONS}
    start = time.monotonic()
    while not spent(report.tried, iterations, start, seconds):
        seed = rng.choice(seeds)
        names = json_names if is_json(seed) else xml_names
        name = rng.choice(names)
        mutated = every[name](seed, rng)
        if rng.random() < 0.3:  # stack a second mutation now and then
            second = rng.choice(names)
            mutated = every[second](mutated, rng)
            name = f"{name}+{second}"
        report.tried += 1
        if is_json(seed):
            report.json_inputs += 1
        report.by_mutation[name] = report.by_mutation.get(name, 0) + 1
        for path in paths:
            report.by_path[path] = report.by_path.get(path, 0) + 1
            prefix = "" if path == "validate" else f"[{path}] "
            t0 = time.monotonic()
            try:
                _RUNNERS[path](mutated, report)
            except _Failure as failure:
                report.failures.append((name, prefix + str(failure), mutated))
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                report.failures.append((name, f"{prefix}{type(exc).__name__}: {exc}", mutated))
            elapsed = time.monotonic() - t0
            report.slowest_s = max(report.slowest_s, elapsed)
            report.slowest_by_path[path] = max(report.slowest_by_path.get(path, 0.0), elapsed)
            if elapsed > per_input_limit_s:
                report.failures.append((name, f"{prefix}took {elapsed:.1f} s", mutated))
    return report
