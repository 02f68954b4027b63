"""Mutation fuzzing of the input path: corrupt real-shaped logs and make sure every one ends in a
result (a game record with findings, or a one-line error) — never an exception, an engine crash
(``INTERNAL_ERROR``), a hang or unbounded memory.

Used by ``tests/test_fuzz.py`` (a bounded run in CI) and ``scripts/fuzz.py --minutes N``.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .check import check_log
from .findings import FindingCode

_TAG = re.compile(rb"<[^<>]*/>")
_NUMBER = re.compile(rb"-?\d+")


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
                        b"9" * rng.randint(20, 400), b"0", b"3"])
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


@dataclass
class FuzzReport:
    tried: int = 0
    by_mutation: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    """How inputs ended: ``clean``, ``findings`` (a game with findings), ``unreadable``."""
    failures: list[tuple[str, str, bytes]] = field(default_factory=list)
    """(mutation, what went wrong, the input) for every crash or hang."""
    slowest_s: float = 0.0


def fuzz(seeds: Iterable[bytes], *, iterations: int | None = None, seconds: float | None = None,
         rng: random.Random | None = None, per_input_limit_s: float = 5.0) -> FuzzReport:
    """Mutate the seed logs (plain XML bytes) and check each result. Stops after ``iterations``
    inputs or ``seconds``, whichever comes first."""
    rng = rng or random.Random(0)
    seeds = list(seeds)
    report = FuzzReport()
    names = list(MUTATIONS)
    start = time.monotonic()
    while True:
        if iterations is not None and report.tried >= iterations:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        xml = rng.choice(seeds)
        name = rng.choice(names)
        mutated = MUTATIONS[name](xml, rng)
        if rng.random() < 0.3:  # stack a second mutation now and then
            second = rng.choice(names)
            mutated = MUTATIONS[second](mutated, rng)
            name = f"{name}+{second}"
        report.tried += 1
        report.by_mutation[name] = report.by_mutation.get(name, 0) + 1
        t0 = time.monotonic()
        try:
            record = check_log(mutated, path="fuzz.xml")
        except BaseException as exc:  # noqa: BLE001 - that is exactly what we are looking for
            report.failures.append((name, f"{type(exc).__name__}: {exc}", mutated))
            continue
        elapsed = time.monotonic() - t0
        report.slowest_s = max(report.slowest_s, elapsed)
        if elapsed > per_input_limit_s:
            report.failures.append((name, f"took {elapsed:.1f} s", mutated))
        crash = [f for f in record.findings if f.code is FindingCode.INTERNAL_ERROR]
        if crash:
            report.failures.append((name, crash[0].message + "\n" + (crash[0].detail or ""), mutated))
            continue
        if record.hands == 0:
            outcome = "unreadable"
            if any("\n" in f.message for f in record.findings):
                report.failures.append((name, "a multi-line error message", mutated))
        else:
            outcome = "clean" if not record.findings else "findings"
        report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
    return report
