"""Across games: a player's consecutive ranked games held to the rules that link them.

``validate`` checks each log on its own (``check.check_log``, in a worker); each record carries
the few facts of its game this needs (``GameFacts``: the id's hour, the player count and, per
seat, the name, dan, rate and placement). After the batch, ``check_across`` makes a second pass
over those facts:

1. **Which games are consecutive.** A batch need not hold every game a player played, so two
   games of one name in time order are not necessarily consecutive. Tenhou's rate formula tells:
   a game B follows game A of the same player (same player count) when B's ``UN rate`` is the
   rate the formula gives from A (``rules.standing.next_rate``, rounded up to the hundredth:
   ``rate_follows``). Only games that may be the one right before B are tried: those of B's hour
   (the id gives the hour only, so their order is not known) and those of the latest earlier
   hour the player has a game in. Exactly one must fit; two that fit, or one game that would be
   the predecessor of two, establish nothing. Whole-number rates (2009-2010 logs) cannot tell
   (a whole point is wider than the window), nor can the formula for a player with fewer than
   400 games (the count is in no log).
2. **The dan** of the later game of a consecutive pair must be one the earlier game's
   placement allows (``rules.standing.dan_moves``): ``CROSS_DAN``.
3. **The dan points** (段位pt), which no log states, become known at an observed promotion or
   demotion (the new rank's starting points: ``rules.dan_points``). From such an anchor, along
   the established pairs that follow it, each game's placement points (room, length, player
   count, rank, era) carry them exactly, and each later game's dan must be the one they give
   (``rules.dan_points.dan_after``): ``DAN_POINTS``. The chain ends at a pair not established,
   at a finding, at 天鳳位 and where the sources disagree on a value it needs.
4. **The rate is not checked on its own.** A changed ``UN rate`` only makes its game follow
   from no other, which is what games played outside the batch do too: the pair is then not
   established (``no_match``). Holding a game's rate between the games on both sides (A's
   formula rate through B's placement leading to C's rate) was tried and is unsound: on the
   corpus it flagged 6 genuine games, whose unseen games between (a 1st and a 4th place) nearly
   cancel.

The same cancelling can make two games that are not consecutive look so (two unseen games whose
changes sum to less than the window, 0.012); a dan move that happened between them would then be
a false finding. The window is the narrowest the corpus allows, and over its 5,219 established
pairs (every dan move among them legal) the pass finds nothing.

Every seat of a ranked, id-named game either has its game before it established, and gets its
``cross_dan`` check, or is counted not checkable (``cross_game_not_checkable``), with the reason in
``CrossReport.reasons``. A seat whose carried points are known gets a ``dan_points`` check too.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from .events import DAN_NAMES, Game, Room
from .findings import Finding, FindingCode, Severity
from .ids import game_start
from .rules.dan_points import (
    SHODAN,
    DanStanding,
    carried_pt,
    dan_after,
    demotion_anchor,
    promotion_anchor,
    promotion_points,
)
from .rules.game_end import ranking
from .rules.lobby import GUEST_NAME, is_ranked
from .rules.standing import Length, dan_moves, next_rate, rate_follows, whole_rates

__all__ = [
    "CrossGameRecord",
    "CrossReport",
    "GameFacts",
    "NotEstablished",
    "SeatFacts",
    "check_across",
    "consecutive_pairs",
    "game_facts",
]


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat of a ranked game, as its ``UN`` and ``owari`` state it."""

    seat: int
    name: str
    dan: int
    rate: float
    rank: int
    """1 = first (``owari`` scores, ties to the seat nearer the first dealer)."""


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the cross-game pass needs of one ranked game with a dated id."""

    path: str
    log_id: str
    start: datetime
    """The hour the game started (the id's ``yyyymmddhh``, Japan time)."""
    players: int
    room: Room
    length: Length
    table_rates: tuple[float, ...]
    """Every real seat's ``UN rate`` (the table average of the formula)."""
    seats: tuple[SeatFacts, ...]
    """The seats that name a player (guests and the empty seat left out)."""
    ok: bool
    """The game's own verdict (its record's ``ok``)."""
    clean: bool
    """Its record has no finding at all (no warning either)."""


def game_facts(game: Game, path: str) -> GameFacts | None:
    """The facts of a ranked (lobby 0, people, no chips, not a special family) complete game
    with a dated id; ``None`` for any other (those have no rate or dan to carry)."""
    header = game.header
    rules = header.ruleset
    owari = game.owari
    start = game_start(game.log_id)
    if owari is None or start is None or game.log_id is None:
        return None
    if not is_ranked(rules, header.lobby or 0):
        return None
    n = rules.players
    players = header.players[:n]
    if len(players) != n:
        return None
    order = ranking(owari.scores, n, header.first_dealer)
    ranks = {seat: rank for rank, seat in enumerate(order, 1)}
    seats = tuple(
        SeatFacts(p.seat, p.name, p.dan, p.rate, ranks[i])
        for i, p in enumerate(players)
        if p.name and p.name != GUEST_NAME and p.sex != "C" and 0 <= p.dan < len(DAN_NAMES)
    )
    return GameFacts(path, game.log_id, start, n, rules.room, Length.from_east_south(rules.east_south),
                     tuple(p.rate for p in players), seats, ok=True, clean=True)


class NotEstablished(Enum):
    """Why a seat's game before it could not be established (``cross_game_not_checkable``)."""

    FIRST = "first_in_batch"
    """No earlier game of the player (same name, same player count) in the batch."""
    WHOLE_RATES = "whole_rates"
    """Whole-number rates (the logs up to October 2010): the formula cannot single a game out."""
    NO_MATCH = "no_match"
    """No candidate's rate leads to this one: games outside the batch were played between, or
    the player had fewer than 400 games (a factor the log does not give)."""
    AMBIGUOUS = "ambiguous"
    """Two candidates lead to this rate, or one game would lead to two."""


@dataclass(frozen=True, slots=True)
class CrossGameRecord:
    """The findings the cross-game pass makes on one game (the later of its pairs): an NDJSON
    line of type ``cross_game`` after the games' lines, shaped like a game line."""

    path: str
    log_id: str
    findings: tuple[Finding, ...]
    earlier: tuple[tuple[int, str, str], ...]
    """``(seat, path, log_id)`` of the game each finding holds this one against."""
    game_ok: bool
    """The game's own verdict, from its game line."""
    game_clean: bool
    """Its game line has no finding at all."""
    hands: int = 0
    """No hand to show: the findings are about the game as a whole (the text report offers no
    ``replay`` command)."""

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def checks(self) -> tuple[tuple[str, int], ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "cross_game",
            "path": self.path,
            "log_id": self.log_id,
            "ok": self.ok,
            "hands": 0,  # a game line's keys, so a reader of game lines reads this one too
            "checks": {},
            "findings": [f.to_json() for f in self.findings],
            "earlier": [{"seat": s, "path": p, "log_id": i} for s, p, i in self.earlier],
        }


@dataclass(frozen=True, slots=True)
class CrossReport:
    """The second pass's result: the records with findings, and what was checked."""

    records: tuple[CrossGameRecord, ...]
    checks: tuple[tuple[str, int], ...]
    """``cross_dan``, ``dan_points``, ``cross_game_not_checkable`` (summary check kinds)."""
    seats: int
    """Seats of ranked, id-dated games that name a player."""
    same_name_pairs: int
    """Pairs of one player's games next to each other in time order (same player count)."""
    consecutive: int
    """Pairs established as consecutive by the formula (each has its ``cross_dan`` check)."""
    reasons: tuple[tuple[str, int], ...]
    """Seats not established, by ``NotEstablished`` value."""
    anchors: int = 0
    """Established pairs whose dan moved (a promotion or a demotion): each makes the later
    game's dan points known (a chain starts there, or goes on from a carried one)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "same_name_pairs": self.same_name_pairs,
            "consecutive": self.consecutive,
            "not_established": dict(self.reasons),
            "dan_point_anchors": self.anchors,
        }


_Entry = tuple[GameFacts, SeatFacts]


def _by_player(facts: Iterable[GameFacts]) -> list[list[_Entry]]:
    """Each player's seats (same name, same player count) in time order, each game once."""
    by_player: dict[tuple[str, int], list[_Entry]] = defaultdict(list)
    seen: set[str] = set()
    for game in facts:
        if game.log_id in seen:
            continue
        seen.add(game.log_id)
        for seat in game.seats:
            by_player[(seat.name, game.players)].append((game, seat))
    for entries in by_player.values():
        entries.sort(key=lambda e: (e[0].start, e[0].log_id))
    return list(by_player.values())


def consecutive_pairs(facts: Iterable[GameFacts]) -> list[tuple[_Entry, _Entry]]:
    """Every pair ``((game, seat), (later game, seat))`` the formula establishes as one player's
    consecutive games (step 1 above)."""
    out = []
    for entries in _by_player(facts):
        pred, _ = _predecessors(entries)
        out += [(entries[a], entries[b]) for b, a in sorted(pred.items())]
    return out


def check_across(facts: Iterable[GameFacts]) -> CrossReport:
    """Hold every player's consecutive games in ``facts`` to the rate formula and the dan rules."""
    reasons: Counter[str] = Counter()
    findings: dict[str, list[tuple[Finding, int, GameFacts]]] = defaultdict(list)
    games: dict[str, GameFacts] = {}
    counts: Counter[str] = Counter()
    seats = pairs = consecutive = anchors = 0
    for entries in _by_player(facts):
        seats += len(entries)
        pairs += len(entries) - 1
        pred, why = _predecessors(entries)
        consecutive += len(pred)
        for b, a in pred.items():
            counts["cross_dan"] += 1
            finding = _dan_finding(entries[a], entries[b])
            if finding is not None:
                findings[entries[b][0].log_id].append((finding, entries[b][1].seat, entries[a][0]))
                games[entries[b][0].log_id] = entries[b][0]
        moved, held = _carry_points(entries, pred)
        anchors += moved
        for a, b, finding in held:
            counts["dan_points"] += 1
            if finding is not None:
                findings[entries[b][0].log_id].append((finding, entries[b][1].seat, entries[a][0]))
                games[entries[b][0].log_id] = entries[b][0]
        reasons.update(reason.value for reason in why.values())
    counts["cross_game_not_checkable"] = sum(reasons.values())
    records = tuple(
        CrossGameRecord(
            games[log_id].path, log_id, tuple(f for f, _, _ in found),
            tuple((seat, earlier.path, earlier.log_id) for _, seat, earlier in found),
            games[log_id].ok, games[log_id].clean)
        for log_id, found in sorted(findings.items(), key=lambda kv: (games[kv[0]].start, kv[0]))
    )
    return CrossReport(records, tuple(sorted((k, v) for k, v in counts.items() if v)), seats, pairs,
                       consecutive, tuple(sorted((k, v) for k, v in reasons.items() if v)), anchors)


def _candidates_before(entries: Sequence[_Entry], b: int, starts: Sequence[datetime]) -> list[int]:
    """The entries that may be the game right before ``entries[b]``: those of its hour (their
    order is not known) and those of the latest earlier hour. ``starts``: the entries' hours, in
    their (time) order, searched by bisection: a player with thousands of games stays fast."""
    hour = starts[b]
    first, end = bisect_left(starts, hour), bisect_right(starts, hour)
    same = [i for i in range(first, end) if i != b]
    if first:
        same += range(bisect_left(starts, starts[first - 1]), first)
    return same


def _rate_after(entry: _Entry, own: float | None = None) -> float:
    """The formula's rate after ``entry``'s game, from ``own`` (default: the log's rate)."""
    game, seat = entry
    rate = seat.rate if own is None else own
    table = list(game.table_rates)
    table[seat.seat] = rate
    return next_rate(rate, table, seat.rank, game.players)


def _predecessors(entries: Sequence[_Entry]) -> tuple[dict[int, int], dict[int, NotEstablished]]:
    """``{b: a}``: entry ``a`` is the game right before entry ``b`` (see the module's step 1);
    and, for every other entry, why none is."""
    pred: dict[int, int] = {}
    why: dict[int, NotEstablished] = {}
    starts = [e[0].start for e in entries]
    for b, (game, seat) in enumerate(entries):
        candidates = _candidates_before(entries, b, starts)
        if not candidates:
            why[b] = NotEstablished.FIRST
            continue
        if whole_rates(game.table_rates):
            why[b] = NotEstablished.WHOLE_RATES
            continue
        fits = [a for a in candidates if not whole_rates(entries[a][0].table_rates)
                and rate_follows(_rate_after(entries[a]), seat.rate)]
        if len(fits) == 1:
            pred[b] = fits[0]
        else:
            why[b] = NotEstablished.NO_MATCH if not fits else NotEstablished.AMBIGUOUS
    # one game leads to one game only; two games may not each be the other's predecessor
    led = Counter(pred.values())
    for b, a in list(pred.items()):
        if led[a] > 1 or pred.get(a) == b:
            del pred[b]
            why[b] = NotEstablished.AMBIGUOUS
    return pred, why


def _dan_finding(before: _Entry, after: _Entry) -> Finding | None:
    game_a, seat_a = before
    seat_b = after[1]
    allowed = dan_moves(seat_a.dan, seat_a.rank, game_a.players)
    if seat_b.dan in allowed:
        return None
    names = ", ".join(DAN_NAMES[d] for d in sorted(allowed))
    message = (f"S{seat_b.seat} ({seat_b.name}) holds {DAN_NAMES[seat_b.dan]} here, but finished "
               f"{_ordinal(seat_a.rank)} at {DAN_NAMES[seat_a.dan]} in their previous game "
               f"{game_a.log_id} (its rate leads to this game's): the rules allow {names}")
    return Finding(FindingCode.CROSS_DAN, Severity.ERROR, message, expected=sorted(allowed),
                   actual=seat_b.dan)


def _carry_points(entries: Sequence[_Entry], pred: dict[int, int],
                  ) -> tuple[int, list[tuple[int, int, Finding | None]]]:
    """Step 3: walk each chain of established pairs (``pred``: ``{b: a}``) in its order, carrying
    the dan points from each observed promotion or demotion. Returns how many established pairs
    moved the dan (legally: the anchors) and, for each later game held to carried points,
    ``(a, b, DAN_POINTS finding or None)``."""
    succ = {a: b for b, a in pred.items()}
    anchors = 0
    held: list[tuple[int, int, Finding | None]] = []
    for head in sorted(set(succ) - set(pred)):  # a chain's first game (a circle has none)
        standing: DanStanding | None = None
        anchor = ""
        a = head
        while a in succ:
            b = succ[a]
            (game_a, seat_a), (game_b, seat_b) = entries[a], entries[b]
            legal = seat_b.dan in dan_moves(seat_a.dan, seat_a.rank, game_a.players)
            moved = legal and seat_b.dan != seat_a.dan
            # a kyu rank moving down is allowed (the sources state it both ways: dan_moves) but
            # sets no points (dan_points.demotion_anchor is for 初段 and above): the chain stops
            kyu_down = moved and seat_b.dan < seat_a.dan < SHODAN
            anchors += int(moved and not kyu_down)
            carried = _carry(standing, entries[a]) if legal and not kyu_down else None
            if carried is not None:
                points, pt, expected = carried
                finding = None
                if expected.dan != seat_b.dan:
                    finding = _points_finding(entries[a], entries[b], points, pt, expected.dan, anchor)
                held.append((a, b, finding))
                standing = expected if finding is None else None
                if moved:  # a carried promotion or demotion: the points start again
                    anchor = _anchor_text(seat_a.dan, seat_b.dan, game_b.log_id)
            elif moved and not kyu_down:
                standing = (promotion_anchor(seat_b.dan) if seat_b.dan > seat_a.dan
                            else demotion_anchor(seat_a.dan))
                anchor = _anchor_text(seat_a.dan, seat_b.dan, game_b.log_id)
            else:
                standing = None
            a = b
    return anchors, held


def _carry(standing: DanStanding | None, entry: _Entry) -> tuple[int, int, DanStanding] | None:
    """The player's points before ``entry``'s game, the points it earns, and the standing after
    it; ``None`` where they are not carried (no points known, or a value the sources disagree on:
    ``rules.dan_points``)."""
    if standing is None or standing.points is None:
        return None
    game, seat = entry
    pt = carried_pt(seat.rank, game.room, game.length, game.players, seat.dan, game.start)
    after = None if pt is None else dan_after(standing, pt, game.players, game.start)
    return None if after is None or pt is None else (standing.points, pt, after)


def _anchor_text(before: int, after: int, log_id: str) -> str:
    move = "promotion" if after > before else "demotion"
    return f"their {move} to {DAN_NAMES[after]} seen in {log_id}"


def _points_finding(before: _Entry, after: _Entry, points: int, pt: int, expected: int,
                    anchor: str) -> Finding:
    game_a, seat_a = before
    seat_b = after[1]
    promote = promotion_points(seat_a.dan, game_a.players, game_a.start)
    demotion = ", demotion below 0" if seat_a.dan >= SHODAN else ""
    message = (f"S{seat_b.seat} ({seat_b.name}) holds {DAN_NAMES[seat_b.dan]} here, but after their "
               f"previous game {game_a.log_id} (its rate leads to this game's), {_ordinal(seat_a.rank)} "
               f"at {DAN_NAMES[seat_a.dan]}, their dan points were {points} {pt:+d} = {points + pt} "
               f"(promotion at {promote}{demotion}; carried from {anchor}): the rules give "
               f"{DAN_NAMES[expected]}")
    return Finding(FindingCode.DAN_POINTS, Severity.ERROR, message, expected=expected, actual=seat_b.dan)


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")
