"""Hand value of a discard at tenpai and one-shanten: each wait's han, fu and points by the
engine's own scorer (``rules.scoring.score_win``), and an expected value in points.

Pure functions on explicit inputs: the concealed tiles, the melds, the winds, the dora
indicators, the riichi state, the seat's own discards (furiten), the unseen counts from the
seat's view and the ruleset (``ValueSituation``). The model, exactly (docs/analysis.md,
"Hand value"):

* **A wait's value**: the scorer's points for a ron and for a tsumo on it (``ten[1]``: a
  tsumo's total of all payments), mixed by how much likelier the table is to discard that tile
  than the seat is to draw it (``tables.ron_ratio`` by the tile's group: honour, 1/9, 2/8, 3-7,
  a suji of the seat's own discard). **Furiten is a state of the hand** (``rules.furiten.
  pond_furiten``: any wait among the seat's own discards, the one just made included): then
  every wait wins by tsumo only. A win without a yaku counts 0. A closed hand is valued as
  riichi when the seat has declared it or ``may_riichi`` is set (riichi is then declared on
  reaching tenpai), with the ippatsu and ura dora han a riichi win carries on average
  (``tables.riichi_bonus_han``) as that share of one more han. Haitei, rinshan and the like,
  honba and sticks are not counted. The winning tile is a plain copy (not a red five).
* **Tenpai**: ``tiles`` = the unseen copies of the waits that score; each copy weighs its
  tsumo (1) and its ron (the ratio) against the average wait's (1 + the mean ratio), so the
  chance of a win in the seat's own draws left is 1 - (1 - weighted tiles / unseen)^draws (the
  others' wins are left out: they offset the weight the ron adds, docs); ``ev`` = win_chance x
  the average win, weighted the same way.
* **One-shanten**: the draws that reach tenpai (``tiles`` of them); the first such draw comes
  at draw j with chance (1-q)^(j-1) q, q = tiles/unseen; after it the seat keeps the tenpai
  discard with the best ev for the draws then left (that drawn copy no longer unseen); ``ev``
  is the sum. Draws that do not reach tenpai are taken as thrown back (no improvement counted).

Scores are memoised by hand shape and situation (``_SCORES``: a tsumo and a ron per 13 tiles
and wait): a hand comes back turn after turn.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from .._native import build
from .._native import first_tenpai_sums as native_first_tenpai_sums
from ..events import Meld
from ..replay.board import Board
from ..rules.furiten import pond_furiten
from ..rules.hand import counts34, meld_count, tenpai_draws
from ..rules.payments import base_points
from ..rules.riichi import may_declare_riichi
from ..rules.scoring import Prepared, ScoringRules, WinContext, prepare, score_prepared
from ..rules.shanten import Acceptance, acceptance
from ..tiles import RED_FIVES
from .tables import han_kept, mean_ron_ratio, riichi_bonus_han, ron_ratio, win_group
from .values import HandValue, ScoreLine, ValueSituation, WaitValue

__all__ = [
    "HandValue",
    "ScoreLine",
    "ValueSituation",
    "WaitValue",
    "discard_values",
    "han_kept",
    "hand_value",
    "situation_of",
    "situation_on",
]


def riichi_bonus(han: int, fu: int, points: int, players: int) -> float:
    """A riichi win's points (``points`` for ``han`` and ``fu``) with the ippatsu and ura dora it
    carries on average: that many han taken as the share of wins with one han more
    (``tables.riichi_bonus_han``), by the base points (``rules.payments.base_points``) of the
    two."""
    if han <= 0:
        return float(points)
    gain = base_points(han + 1, fu) / base_points(han, fu)
    return points * (1 + riichi_bonus_han(players) * (gain - 1))


# -- scoring, memoised by shape ----------------------------------------------------------------

_Entry = tuple[float, ...]
"""A score memo entry: for each way scored (the tsumo, then the ron once asked), five numbers:
``ScoreLine``'s han, fu, points and yakuman, and the points the win counts for in the hand's
value (``riichi_bonus``'s on a riichi hand, worked out once with the score: ``_wait`` asked
``riichi_bonus`` 18,317 times over 3 corpus games' analyze_game, the memo's lines 9,448), or
``_NO_WIN`` where that way cannot be won. All floats (the four counts are small whole numbers,
exact as floats), in one flat tuple: see ``_SCORES``."""

_NO_WIN: Final[_Entry] = (0.0, 0.0, 0.0, 0.0, -1.0)
"""A way that cannot be won (no yaku, not a winning hand, a fifth copy) in an ``_Entry``."""

_SCORES: Final[dict[tuple[int, ...], _Entry]] = {}
_SCORES_LIMIT: Final = 200_000
"""The score memo: keys and values are flat tuples of numbers, which the garbage collector
stops tracking the first time it sees them. With lists and ``ScoreLine`` objects (up to 200,000
entries) it walked the whole table at every full collection (compiled, 20 corpus games in one
process, Python's default collector settings: full collections took 72 ms a game of 340 with
them, 24 ms of 301 with tuples); with a tuple of red kinds in the key and a tuple of lines as
the value, half the entries stayed tracked after the first look, and each game of ``stats
--quality`` left them for the next young collections to walk again (compiled, 30 Houou games:
0.15-0.17 s of collections against 0.10 s flat)."""

_PLACE: Final[tuple[int, ...]] = tuple(1 << 3 * k for k in range(34))
"""Each kind's place in a hand's ``_shape``: a draw of kind k adds ``_PLACE[k]``, a discard
takes it off."""


def _shape(counts: tuple[int, ...]) -> int:
    """A hand's 34 counts as one int, three bits a kind (the sum of each count times its
    ``_PLACE``; each count is below 8): the score memo's name for the 13 tiles. The tuple of 34
    ints it replaces was hashed at every look-up and store (callgrind, compiled, 3 corpus games'
    analyze_game: 48 M instructions of 2,125 M). Built as two halves of 17 kinds each, which fit
    a machine int (compiled, a loop over the 34 places into one big int took 7,000 instructions
    a hand, this one 2,500); the look-ahead's hands move it by a draw and a discard."""
    low = high = 0
    for k in range(16, -1, -1):
        low = low << 3 | counts[k]
        high = high << 3 | counts[k + 17]
    return high << 51 | low


_SITUATION_IDS: Final[dict[tuple, int]] = {}
_LAST_SITUATION: Final[list[tuple[ValueSituation, int]]] = []
_Parts = tuple[Prepared | None, tuple[int, ...], int, frozenset[int], bool, bool, int]
_PARTS: Final[dict[int, _Parts]] = {}
"""Per situation number, what scoring a hand in it needs besides the tiles, read off the
situation once, not at every hand scored: the scorer's situation (``rules.scoring.prepare``;
``None``: no hand can be won in it), the free copies of each kind (four less those the melds
hold), the concealed tiles a complete hand has beside the sets, the tile ids the melds hold,
whether red fives are played, riichi and the player count."""


def _situation_key(s: ValueSituation) -> int:
    """A small number for what a score depends on besides the hand (melds, winds, dora kinds,
    riichi, rules), so the score memo hashes an int, not the situation; the last situation asked
    about is kept (one decision asks about the same one thousands of times)."""
    if _LAST_SITUATION and _LAST_SITUATION[0][0] is s:
        return _LAST_SITUATION[0][1]
    shape = (tuple((m.kind, m.tiles, m.called, m.from_seat) for m in s.melds), s.seat_wind,
             s.round_wind, tuple(t >> 2 for t in s.dora_indicators), s.riichi, s.rules)
    found = _SITUATION_IDS.get(shape)
    if found is None:
        if len(_SITUATION_IDS) >= _SCORES_LIMIT:
            _SITUATION_IDS.clear()
            _PARTS.clear()
            _SCORES.clear()  # its keys hold the numbers given out so far
        found = _SITUATION_IDS[shape] = len(_SITUATION_IDS)
        _PARTS[found] = _parts(s)
    _LAST_SITUATION[:] = [(s, found)]
    return found


def _parts(s: ValueSituation) -> _Parts:
    """``_PARTS``'s entry of ``s``: the scorer is given a context without a hand (its
    ``concealed``, ``win_tile`` and ``tsumo`` are not read) and no other flag than riichi."""
    rules = s.rules
    ctx = build(WinContext, concealed=(), melds=s.melds, win_tile=0, tsumo=True, seat_wind=s.seat_wind,
                round_wind=s.round_wind, riichi=s.riichi, double_riichi=False, ippatsu=False, haitei=False,
                houtei=False, rinshan=False, chankan=False, tenhou=False, chiihou=False,
                dora_indicators=s.dora_indicators, ura_indicators=(), rules=rules)
    taken = frozenset(t for m in s.melds for t in m.tiles)
    room = tuple(4 - sum(1 for c in range(4) if k * 4 + c in taken) for k in range(34))
    in_hand = 14 - 3 * meld_count(s.melds)
    return prepare(ctx), room, in_hand, taken, rules.red_fives, s.riichi, rules.players


_RED_KINDS: Final[tuple[int, ...]] = tuple(sorted(t >> 2 for t in RED_FIVES))
"""The kinds of the red fives (``tiles.RED_FIVES``: the first copy of each)."""


def _score(base: tuple[int, ...], drawn: int, let_go: int, reds: tuple[int, ...], win: int, key: int,
           wins: tuple[bool, ...]) -> _Entry:
    """The scorer's lines (an ``_Entry``) for the 13 tiles ``base`` (34 counts) with a ``drawn``
    kind added and a kind ``let_go`` taken off (-1: none; the look-ahead's tenpai hands are made
    only when scored), completed by a plain ``win`` in the situation numbered ``key``, one for
    each of ``wins`` (``True`` a tsumo, ``False`` a ron), scored in one pass
    (``rules.scoring.score_prepared``: what ``score_wins`` gives, han, fu, points and yakuman
    only). The hand is real tiles: a red copy of each kind in ``reds`` (when red fives are
    played), plain copies otherwise, none of those the melds hold; a kind with more than its free
    copies (a wait on a fifth tile beside a meld) cannot be won."""
    prepared, room, in_hand, taken, red_fives, riichi, players = _PARTS[key]
    counts = list(base)
    if drawn >= 0:
        counts[drawn] += 1
    if let_go >= 0:
        counts[let_go] -= 1
    counts[win] += 1
    total = 0
    for k, n in enumerate(counts):
        if n:
            if n > room[k]:
                return _NO_WIN * len(wins)
            total += n
    if prepared is None or total != in_hand:
        return _NO_WIN * len(wins)
    aka = 0
    if red_fives:
        # the copies given are a red one first for a kind in ``reds``, plain ones first otherwise
        # (the red last): the red is among them when it is free and asked for or every free copy is
        for k in _RED_KINDS:
            n = counts[k]
            if n and k * 4 not in taken and (k in reds or n == room[k]):
                aka += 1
    found: _Entry = ()
    for scored in score_prepared(prepared, counts, win, aka, wins):
        found += _NO_WIN if scored is None else _line(scored, riichi, players)
    return found


def _line(scored: tuple[int, int, int, int], riichi: bool, players: int) -> _Entry:
    """The memo's line of a scored win (``rules.scoring.score_values``: han, fu, points and
    yakuman)."""
    han, fu, points, yakuman = scored
    return (float(han), float(fu), float(points), float(yakuman),
            riichi_bonus(han, fu, points, players) if riichi else float(points))


def _score_line(entry: _Entry, at: int) -> ScoreLine | None:
    """The record of the line of ``entry`` from ``at`` (0 the tsumo, 5 the ron)."""
    if entry[at + 4] < 0:
        return None
    return build(ScoreLine, han=int(entry[at]), fu=int(entry[at + 1]), points=int(entry[at + 2]),
                 yakuman=int(entry[at + 3]))


def _scores(base: tuple[int, ...], drawn: int, let_go: int, shape: int, reds: tuple[int, ...], win: int,
            key: int, ron: bool) -> _Entry:
    """The tsumo and the ron (an ``_Entry``) of the 13 tiles (``_score``'s ``base``, ``drawn``
    and ``let_go``) completed by a plain ``win``, memoised on the 13 tiles (``shape``: their
    ``_shape``) and the wait (which name the completed hand): the same hand won on the same kind
    comes back from other hands, draws and turns. The ron is scored only when ``ron`` asks for
    it (a ron on a wait in the seat's own pond is worth nothing, whatever its score); until then
    the entry holds the tsumo's line alone."""
    memo_key = (shape, win, key) + reds
    known = _SCORES.get(memo_key)
    if known is None:
        known = _score(base, drawn, let_go, reds, win, key, (True, False) if ron else (True,))
        if len(_SCORES) >= _SCORES_LIMIT:
            _SCORES.clear()
        _SCORES[memo_key] = known
    elif ron and len(known) == 5:
        known = _SCORES[memo_key] = known + _score(base, drawn, let_go, reds, win, key, (False,))
    return known


def _wait(known: _Entry, ron_allowed: bool, ratio: float) -> tuple[float, float]:
    """(points, weight) of a wait whose scores are ``known`` (``_scores``): ``weight`` is 1 for a
    tsumo that scores plus ``ratio`` for a ron that scores (none when the hand is furiten,
    ``ron_allowed`` off), and ``points`` the average of the two by those weights."""
    weight = total = 0.0
    tsumo = known[4]
    if tsumo >= 0:
        weight, total = 1.0, tsumo
    if ron_allowed:
        ron = known[9]
        if ron >= 0:
            weight += ratio
            total += ratio * ron
    return (total / weight if weight else 0.0), weight


def _wait_values(counts13: tuple[int, ...], shape: int, reds: tuple[int, ...], waits: Sequence[int],
                 left: Sequence[int], s: ValueSituation,
                 pond: Collection[int]) -> tuple[tuple[WaitValue, ...], tuple[float, ...], bool]:
    """Each wait's value and weight, and whether the hand is furiten (``pond``: the kinds of the
    seat's own discards, the one just made included)."""
    key = _situation_key(s)
    players = s.rules.players
    furiten = pond_furiten(waits, pond)
    found = []
    weights = []
    for w, n in zip(waits, left):
        ratio = _ratio(players, win_group(w, pond))
        known = _scores(counts13, -1, -1, shape, reds, w, key, not furiten)
        points, weight = _wait(known, not furiten, ratio)
        found.append(build(WaitValue, kind=w, left=n, ron=None if furiten else _score_line(known, 5),
                           tsumo=_score_line(known, 0), points=points))
        weights.append(weight)
    return tuple(found), tuple(weights), furiten


def _outcome(base: tuple[int, ...], drawn: int, discarded: int, shape: int, reds: tuple[int, ...],
             waits: Sequence[int], unseen: Sequence[int], players: int, key: int, pond: Collection[int],
             norm: float) -> tuple[float, float]:
    """``(weighted tiles, win_points)`` of ``_tenpai`` for the look-ahead, without its records: the
    13 tiles ``base`` with ``drawn`` added and ``discarded`` let go (``discarded`` joins the pond,
    the drawn copy is no longer unseen); ``norm``: 1 + the mean ron ratio."""
    pond = {*pond, discarded}
    furiten = pond_furiten(waits, pond)
    tiles = 0.0
    total = 0.0
    for w in waits:
        n = unseen[w] - 1 if w == drawn else unseen[w]
        if not n:
            continue
        points, weight = _wait(_scores(base, drawn, discarded, shape, reds, w, key, not furiten), not furiten,
                               _ratio(players, win_group(w, pond)))
        if points > 0:
            tiles += n * weight / norm
            total += n * weight / norm * points
    return tiles, (total / tiles if tiles else 0.0)


_RON_RATIOS: Final[dict[int, dict[str, float]]] = {}
"""Per player count, ``tables.ron_ratio`` of each winning tile's group asked so far: a cached
function's call is a generic call compiled (about 760 instructions: 17,720 of them in 3 corpus
games' analyze_game, callgrind, compiled)."""


def _ratio(players: int, group: str) -> float:
    """``tables.ron_ratio(players, group)``, kept in ``_RON_RATIOS`` once asked."""
    ratios = _RON_RATIOS.get(players)
    if ratios is None:
        ratios = _RON_RATIOS[players] = {}
    found = ratios.get(group)
    if found is None:
        found = ratios[group] = ron_ratio(players, group)
    return found


def _chance(tiles: float, pool: int, draws: int) -> float:
    """1 - (1 - tiles/pool)^draws: at least one of ``tiles`` in ``draws`` independent draws."""
    if tiles <= 0 or draws <= 0 or pool <= 0:
        return 0.0
    return 1.0 - (1.0 - min(1.0, tiles / pool)) ** draws


def _tenpai(counts13: tuple[int, ...], reds: tuple[int, ...], waits: Sequence[int], unseen: Sequence[int],
            s: ValueSituation, pond: Collection[int], pool: int, draws: int) -> HandValue:
    values, weights, furiten = _wait_values(counts13, _shape(counts13), reds, waits, [unseen[w] for w in waits], s,
                                            pond)
    norm = 1 + mean_ron_ratio(s.rules.players)
    tiles = sum(v.left for v in values if v.points > 0)
    weighted = sum(v.left * w / norm for v, w in zip(values, weights) if v.points > 0)
    points = sum(v.left * w / norm * v.points for v, w in zip(values, weights)) / weighted \
        if weighted else 0.0
    chance = _chance(weighted, pool, draws)
    return build(HandValue, shanten=0, tiles=tiles, win_points=points, win_chance=chance, ev=chance * points,
                 waits=values, furiten=furiten)


_Branch = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]
"""A draw that reaches tenpai and, for each discard that keeps tenpai after it, its waits."""


def _lookahead(counts13: tuple[int, ...], reach: Sequence[int]) -> list[_Branch]:
    """For a one-shanten hand: each draw that reaches tenpai (``reach``: its accepted kinds, which
    ``hand_value`` has), with each discard after it that keeps tenpai and that discard's waits:
    ``[(draw, ((discard, waits), ...)), ...]``. The accepted kinds found again here cost 47 M
    instructions of 2,789 M (callgrind, compiled, 3 corpus games' ``analyze_game``).

    Not memoised: a memo by hand answered one call in six, and its entries (nested tuples, up to
    4,096 hands) were what the garbage collector walked most when ``stats --quality`` went on to
    the next game: 0.67 s of collections over 30 Houou games against 0.24 s without it, for 21 M
    instructions saved of 1,916 M in 3 of them (compiled, ``gc.callbacks`` and callgrind).

    One ``tenpai_draws`` call for all the draws, not ``tenpai_discards`` per draw (the hand read
    once, no list made per draw): this function 80 M instructions against 108 M (callgrind,
    compiled, 3 corpus games' ``analyze_game``: 1,271 M against 1,298 M)."""
    return tenpai_draws(list(counts13), reach)


def hand_value(concealed: Sequence[int], situation: ValueSituation, unseen: Sequence[int], *,
               discarded: int | None = None, shared: dict | None = None,
               reach: Acceptance | None = None) -> HandValue | None:
    """The value of a ``3n+1`` concealed hand (tile ids) at tenpai or one-shanten; ``None``
    further away. ``unseen``: per kind, 4 minus the copies the seat can see. ``discarded``: the
    kind just discarded to reach this hand (it joins the pond: furiten for its waits).

    ``reach``: the hand's acceptance (``rules.shanten.acceptance`` of ``concealed``, its sets and
    ``unseen``) when the caller has it: a discard option carries it (``discard_options`` gives
    the same, ``tests/test_shanten.py``). Worked out again, it cost 60 M instructions of 2,849 M
    (callgrind, compiled, 3 corpus games' ``analyze_game``).

    ``shared``: one dict for the options of one decision (the same ``3n+2`` hand, situation and
    ``unseen``, each option's tile taken out): the one-shanten look-ahead's tenpai hands are
    found from several options (discard a, draw k, discard b is discard b, draw k, discard a),
    and each is valued once; it needs ``discarded``."""
    if shared is not None and discarded is None:
        raise ValueError("hand_value: shared needs the kind discarded")
    counts = tuple(counts34(concealed))
    reds = tuple(sorted(t >> 2 for t in concealed if t in RED_FIVES))  # ints: see _SCORES
    furiten = situation.own_discards | (frozenset({discarded}) if discarded is not None else frozenset())
    pool = sum(unseen)
    draws = situation.draws_left
    if reach is None:  # the sets and the three-player flag are properties: Python calls, compiled
        reach = acceptance(counts, situation.sets, unseen, sanma=situation.rules.sanma)
    if reach.shanten == 0:
        return _tenpai(counts, reds, reach.kinds, unseen, situation, furiten, pool, draws)
    if reach.shanten != 1:
        return None
    return _one_shanten(counts, reds, situation, unseen, furiten, pool, draws, {} if shared is None else shared,
                        reach.kinds, -1 if discarded is None else discarded)


def _one_shanten(counts: tuple[int, ...], reds: tuple[int, ...], s: ValueSituation, unseen: Sequence[int],
                 furiten: frozenset[int], pool: int, draws: int,
                 shared: dict[tuple[int, int, tuple[int, ...], int], tuple[float, float]],
                 reach: Sequence[int], discarded: int) -> HandValue:
    # ``shared`` (``hand_value``): within one decision, a tenpai hand reached by drawing k names
    # the two tiles let go (the decision's hand + k - the tenpai hand), so the pond it is judged
    # with and the unseen tiles are the same whichever option reached it. It is keyed by those
    # two kinds (``discarded`` and the tenpai discard, in order), its red fives and k, not by its
    # 34 counts, hashed at every look-up (callgrind, compiled, 3 corpus games' analyze_game:
    # 2,645 M instructions against 2,685 M)
    branches = []  # (copies of the draw, [(tiles, average win) per tenpai discard])
    key = _situation_key(s)
    players = s.rules.players
    norm = 1 + mean_ron_ratio(players)
    shape = _shape(counts)
    for k, options in _lookahead(counts, reach):
        copies = unseen[k]
        if not copies or not options:
            continue
        # the tenpai hand (``counts`` + k - d) and the unseen tiles after the draw are not made
        # here: ``_outcome`` reads them off the decision's, and the scorer makes the hand only
        # for a score not in the memo (callgrind, compiled, 3 corpus games' analyze_game: with the
        # other steps of that change, 1,995 M instructions against 1,916 M; the look-ahead 652 M
        # against 593 M)
        outcomes = []
        for d, kept_waits in options:
            held = counts[d] + 1 if d == k else counts[d]
            kept_reds = reds if held > 1 or d not in reds else tuple(r for r in reds if r != d)
            kept_key = (min(discarded, d), max(discarded, d), kept_reds, k)
            outcome = shared.get(kept_key)
            if outcome is None:
                outcome = shared[kept_key] = _outcome(counts, k, d, shape + _PLACE[k] - _PLACE[d], kept_reds,
                                                      kept_waits, unseen, players, key, furiten, norm)
            outcomes.append(outcome)
        branches.append((copies, outcomes))
    tiles = sum(c for c, _ in branches)
    if not tiles or draws <= 1 or not pool:
        return build(HandValue, shanten=1, tiles=tiles, win_points=0.0, win_chance=0.0, ev=0.0, waits=(),
                     furiten=False)
    ev, chance = _first_tenpai_sums(branches, tiles, pool, draws)
    return build(HandValue, shanten=1, tiles=tiles, win_points=ev / chance if chance else 0.0, win_chance=chance,
                 ev=ev, waits=(), furiten=False)


def _first_tenpai_sums(branches: list[tuple[int, list[tuple[float, float]]]], tiles: int, pool: int,
                       draws: int) -> tuple[float, float]:
    """``(ev, chance)`` of a one-shanten hand: over the draw ``j`` that first reaches tenpai (chance
    ``(1-q)^(j-1) q``, q = tiles / pool) and the branch drawn (its copies of the tiles), the
    tenpai discard with the best ev for the draws then left. A C kernel answers when the extension
    is built (``_native.first_tenpai_sums``, the same doubles): this loop ran 0.4 G of 8.1 G
    instructions of 4 games' analysis (callgrind, compiled)."""
    found = native_first_tenpai_sums(branches, tiles, pool, draws)
    return found if found is not None else _first_tenpai_sums_python(branches, tiles, pool, draws)


def _first_tenpai_sums_python(branches: list[tuple[int, list[tuple[float, float]]]], tiles: int, pool: int,
                              draws: int) -> tuple[float, float]:
    q = tiles / pool
    ev = chance = 0.0
    for j in range(1, draws):
        reach_now = (1 - q) ** (j - 1) * q
        rest = draws - j
        for copies, outcomes in branches:
            best_ev, best_chance = 0.0, 0.0
            for t, points in outcomes:
                c = _chance(t, pool, rest)
                if c * points > best_ev:
                    best_ev, best_chance = c * points, c
            weight = reach_now * copies / tiles
            ev += weight * best_ev
            chance += weight * best_chance
    return ev, chance


def discard_values(concealed: Sequence[int], situation: ValueSituation, unseen: Sequence[int],
                   kinds: Iterable[int], *, chosen: int | None = None) -> dict[int, HandValue | None]:
    """``hand_value`` after discarding each of ``kinds`` from the ``3n+2`` hand ``concealed``:
    the tile ``chosen`` (an id) for its kind, else a plain copy when the hand holds a plain and
    a red five (keeping the red is the better play)."""
    found: dict[int, HandValue | None] = {}
    for k in kinds:
        copies = [t for t in concealed if t >> 2 == k]
        if not copies:
            raise ValueError(f"kind {k} is not in the hand")
        tile = chosen if chosen in copies else next((t for t in copies if t not in RED_FIVES), copies[0])
        rest = list(concealed)
        rest.remove(tile)
        found[k] = hand_value(rest, situation, unseen, discarded=k)
    return found


def situation_on(board: Board, seat: int, rules: ScoringRules) -> ValueSituation:
    """The ``ValueSituation`` of ``seat`` on ``board`` (the table just before its discard):
    its melds, winds, the dora indicators, its own draws left (the live wall's tiles over the
    player count, rounded down), whether it has declared riichi (its pond holds the
    declaration), whether it may still declare it and the kinds of its own pond."""
    me = board.seats[seat]
    return situation_of(melds=me.melds, seat_wind=(seat - board.dealer) % len(board.seats),
                        round_wind=board.round // 4, dora_indicators=board.dora_indicators,
                        live_remaining=board.live_remaining, players=len(board.seats),
                        own_discards=(p.tile for p in me.pond), score=me.score,
                        declared=any(p.riichi for p in me.pond), rules=rules)


def situation_of(*, melds: Sequence[Meld], seat_wind: int, round_wind: int, dora_indicators: Sequence[int],
                 live_remaining: int, players: int, own_discards: Iterable[int], score: int, declared: bool,
                 rules: ScoringRules) -> ValueSituation:
    """The ``ValueSituation`` from explicit values (``situation_on`` reads them off a board,
    the analysis off the table state): ``own_discards`` are tile ids, ``declared`` whether the
    seat's riichi declaration discard is out."""
    # ``build``: the frozen dataclass's own __init__ is a Python call that sets each field
    # through object.__setattr__ (callgrind, compiled, 3 corpus games' analyze_game: the
    # situations took 32 M instructions, 11 M built)
    return build(
        ValueSituation,
        melds=tuple(melds),
        seat_wind=seat_wind,
        round_wind=round_wind,
        dora_indicators=tuple(dora_indicators),
        draws_left=live_remaining // players,
        in_riichi=declared,
        may_riichi=may_declare_riichi(melds, score, live_remaining, players),
        own_discards=frozenset(t >> 2 for t in own_discards),
        rules=rules,
    )
