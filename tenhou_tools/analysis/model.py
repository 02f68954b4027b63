"""The expected-points model: every legal discard valued in one currency, the points the seat can
expect to gain from it, and the cost of the chosen one against the top.

For each legal discard kind (``DiscardAnalysis.options`` less the kuikae it may not discard):

* ``win``, what the hand left is expected to win. At tenpai and one-shanten the engine's own
  scorer values each wait (``value.hand_value``: furiten a state of the hand, no yaku no win,
  ron chances by the winning tile's group, riichi with its ippatsu and ura dora). Two or more
  from tenpai, the points such hands won in the measured Houou games (``tables.far_points``: by
  shanten, turn, accepted tiles and openness), times what the hand's value marks add
  (``tables.marks_factor``: dora, red fives, yakuhai pairs, a yakuhai single that can still pair)
  and the dealer's half more, discounted when slower than the decision's fastest option, with the
  hand's ``potential`` as the tie-break. The scorer's values are calibrated to the same scale
  (``tables.calibration``: what such hands went on to win).
* ``keep``, how readily strong players let that tile go (``tables.keep_preference``: the keep
  table, measured on the Houou games, by what the tile is to the hand, the decision's stage, a
  threat at the table and the turn): ``KEEP_WEIGHT_FAR`` or ``KEEP_WEIGHT_NEAR`` of the option's
  own ``win`` (``KEEP_POINTS_FLOOR`` at least) per unit of log share above the decision's mean.
  It stands for what the far table and the scorer cannot see of a tile: an honour kept as a safe
  tile for later, a terminal that rarely grows, a tile next to a dora, a genbutsu to fold with.
* ``risk``, what it is expected to lose now: over every threat (``defence.threats_against``:
  riichi, or an opponent likely tenpai by its calls and turn), tenpai chance x the tile's measured
  rate x the mean points of that opponent's ron. ``deal_in`` is the chance of any deal-in,
  1 - the product of (1 - tenpai chance x rate).
* ``later``: while the hand is not tenpai after it, the same loss for the safest tile the hand
  keeps for its next discard, weighted by ``LATER_WEIGHT``: a safe tile kept counts once an
  opponent threatens.
* ``ev = win - risk - later + keep``.

In the game's last hand ``placement`` turns points into the placement they bring (the lobby's
uma). Definitions, the tables and their counts: docs/analysis.md, "The expected-points model".
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from .._native import build
from ..rules.danger import DangerClass, dora_kinds
from ..rules.hand import counts34
from ..rules.shanten import DiscardOption
from ..tiles import RED_FIVES, yakuhai_kinds
from .tables import (
    calibration,
    far_fit,
    far_points_of,
    keep_preferences,
    keep_stage,
    marks_factor,
    ron_points,
    tile_role,
    value_marks_less_one,
)
from .value import hand_value
from .values import DangerAgainst, OptionValue, Standing, ValueSituation

__all__ = [
    "KEEP_POINTS_FLOOR",
    "KEEP_WEIGHT_FAR",
    "KEEP_WEIGHT_NEAR",
    "LATER_WEIGHT",
    "MARKS_WEIGHT",
    "POTENTIAL_WEIGHT",
    "SLOWER_FACTOR",
    "VALUED_SHANTEN",
    "YAKUHAI_PAIRING",
    "Standing",
    "option_values",
    "potential",
    "reach",
]

VALUED_SHANTEN: Final = 1
"""Up to one-shanten after the discard, the hand is valued by the scorer; further, by the table."""

LATER_WEIGHT: Final = 0.5
"""How much the next discard's danger counts: about every second next discard must come from
the hand (the others can be a safe draw, or the hand is over). Chosen, not fitted (docs/
analysis.md, "Calibration of the verdicts")."""

MARKS_WEIGHT: Final = 0.5
"""The power the value marks factor is taken to: half the measured effect, because the far
table's marks also carry the players' choice of which hands to keep them in. Fitted to the
agreement on the Houou games (docs/analysis.md, "Calibration of the verdicts")."""

SLOWER_FACTOR: Final = 0.15
"""A far option further from tenpai than the decision's best shanten is multiplied by this: the
far table's higher-shanten cells hold hands that could do no better, not hands that broke a
faster shape, so read alone they overrate going back. Fitted like ``MARKS_WEIGHT``."""

POTENTIAL_WEIGHT: Final = 0.001
"""Two or more from tenpai, each unit of a hand's ``potential`` above the mean of the decision's
far options adds this share of its far value (and below it takes it off): about one accepted
tile's worth for a tile that connects with a dozen unseen tiles, enough to order the discards
the acceptance ties (an isolated honour before a terminal before a middle tile) without moving
the far options as a whole against those valued by the scorer. Fitted to the agreement on the
corpus's Houou games (docs/analysis.md, "Calibration")."""


KEEP_WEIGHT_FAR: Final = 0.1
"""Two or more from tenpai, each unit of an option's keep preference (``tables.keep_preference``,
a natural log) above the decision's mean adds this share of the option's ``win``. Fitted to the
agreement on samples of the corpus's Houou games (every 25th log; docs/analysis.md, "Calibration
of the verdicts")."""

KEEP_WEIGHT_NEAR: Final = 0.1
"""The same at one-shanten and tenpai, where the scorer values the hand and the preference mostly
orders options it values alike (two guest winds, say)."""

KEEP_POINTS_FLOOR: Final = 1000.0
"""The keep term is a share of the option's ``win``, but of this many points at least: late and
far from tenpai a hand's ``win`` is near 0, and which tile to let go still matters (it is kept
for safety, or as the last hope of a hand). Fitted like the weights."""

YAKUHAI_PAIRING: Final = 3.0
"""A yakuhai's unseen copies count this many times in ``potential``: any player's discard of it
can be called once it pairs (pon), and the triplet is a yaku that opens the hand."""


def potential(counts: Sequence[int], unseen: Sequence[int], yakuhai: Collection[int] = ()) -> float:
    """How much a hand's tiles can still grow, beyond the tiles that lower its shanten now: for
    each kind it holds, the unseen copies that would pair it (a yakuhai's ``YAKUHAI_PAIRING``
    times), the unseen tiles next to it in its suit and half of those two away (an honour can
    only pair): the sum of ``reach`` over the kinds held."""
    grows = reach(unseen, yakuhai)
    return sum(grows[k] for k, n in enumerate(counts) if n)


def reach(unseen: Sequence[int], yakuhai: Collection[int] = (), held: list[int] | None = None) -> list[float]:
    """Per kind, what holding it adds to ``potential`` (whole and half tiles: any order of
    adding them gives the same sum). With ``held`` (counts per kind), only the kinds held are
    reckoned, the others read 0: the model asks for its hand's alone (callgrind, compiled, 3 corpus
    games' analyze_game: reach 15 M instructions against 23 M)."""
    # a list read by index, the four neighbours written out: compiled, a Sequence's item is a
    # generic call, and a loop over the steps a tuple made and unpacked per kind (callgrind,
    # compiled, 3 corpus games' analyze_game: reach took 94 M instructions, 20 M now)
    left = list(unseen)
    pairing = [1.0] * 34  # read by index, not a membership test per kind
    for k in yakuhai:
        pairing[k] = YAKUHAI_PAIRING
    found = []
    for k in range(34):
        if held is not None and not held[k]:
            found.append(0.0)
            continue
        total = left[k] * pairing[k]
        if k < 27:
            number = k % 9
            if number >= 1:
                total += left[k - 1]
            if number <= 7:
                total += left[k + 1]
            if number >= 2:
                total += 0.5 * left[k - 2]
            if number <= 6:
                total += 0.5 * left[k + 2]
        found.append(total)
    return found


def dealer_factor(players: int, dealer: bool) -> float:
    """A dealer's win is worth half again a non-dealer's; the far table mixes one dealer to
    ``players`` - 1 others, so a far value is scaled by 1.5 or 1 over that mix."""
    mix = 1 + 0.5 / players
    return (1.5 if dealer else 1.0) / mix


def _tile_for(concealed: list[int], kind: int, chosen: int) -> int:
    """The tile discarded for ``kind``: the chosen tile for its kind, else a plain copy before a
    red five (keeping the red is the better play)."""
    if chosen >> 2 == kind:
        return chosen
    # a loop, not a list and a generator (compiled: 1,650 instructions a call)
    first = -1
    for t in concealed:
        if t >> 2 == kind:
            if t not in RED_FIVES:
                return t
            if first < 0:
                first = t
    if first < 0:
        raise ValueError(f"kind {kind} is not in the hand")
    return first


def option_values(
    concealed: Sequence[int],
    options: Sequence[DiscardOption],
    situation: ValueSituation,
    unseen: Sequence[int],
    threats: Sequence[DangerAgainst],
    *,
    chosen: int,
    turn: int,
    standing: Standing | None = None,
) -> tuple[OptionValue, ...]:
    """Every option of ``options`` (the discards to weigh, each with its shanten and acceptance)
    valued, best first (ties by kind). ``concealed``: the 3n+2 hand (tile ids); ``chosen``: the
    tile the seat discarded (its copy is the one valued for its kind); ``turn``: the seat's
    discards with this one (the seat's winds, whether it is the dealer and its yakuhai are the
    situation's); ``standing``: in the game's last hand, a win and a deal-in also move the seat's placement
    (each win valued at its points plus the uma it gains, each threat's ron at its points plus
    the uma it costs)."""
    rules = situation.rules
    players = rules.players
    dealer = situation.seat_wind == 0
    closed = situation.closed
    yakuhai = yakuhai_kinds(situation.round_wind, situation.seat_wind)
    dora = dora_kinds(situation.dora_indicators, sanma=rules.sanma)
    meld_tiles = [t for m in situation.melds for t in m.tiles]
    hand = list(concealed)
    counts = counts34(hand)
    # the far options' value marks and potential: the whole hand's, less the tile let go
    every = list(counts)
    for t in meld_tiles:
        every[t >> 2] += 1
    red_fives = rules.red_fives
    reds = sum(1 for t in (*hand, *meld_tiles) if t in RED_FIVES) if red_fives else 0
    marks_less, single_less = value_marks_less_one(every, reds, dora, yakuhai, unseen)
    grows_by_kind = reach(unseen, yakuhai, counts)
    held_reach = 0.0  # not sum() over a generator: compiled, its float adds are generic
    for k in range(34):
        if counts[k]:
            held_reach += grows_by_kind[k]
    # read once for the decision, not per far option: the far table's fit per shanten, the marks'
    # factor per marks and single, the dealer's factor (with the value marks above: callgrind,
    # compiled, 3 corpus games' analyze_game, option_values 1,106 M instructions against 1,165 M)
    fits: dict[int, tuple[float, float]] = {}
    weighted_marks: dict[int, float] = {}
    dealer_share = dealer_factor(players, dealer)
    cost_of, deal_in_rates = _exposure(threats, standing)
    # the two cheapest kinds to discard next (for ``later``): the cheapest the hand keeps is the
    # first, unless the option lets go of its last copy
    cheapest = sorted((cost, k) for k, cost in cost_of.items())[:2]
    # each option's shanten and accepted tiles read once, off its acceptance's fields: the
    # properties ``DiscardOption.shanten`` and ``Acceptance.total`` are Python calls, which cost
    # 32 M instructions of 2,125 M (callgrind, compiled, 3 corpus games' analyze_game)
    read = []
    for option in options:
        reached = option.acceptance
        total = 0
        for left in reached.left:  # not sum(): compiled, a generic call
            total += left
        read.append((option.kind, reached.shanten, total))
    fastest = read[0][1]
    for _, shanten, _ in read:  # not min() over a generator: compiled, a generic call
        if shanten < fastest:
            fastest = shanten
    rows: list[list] = []  # [(kind, shanten, accepted), win, deal_in, risk, later, ev, value, potential or None]
    shared: dict = {}  # the look-ahead's tenpai hands, valued once for the whole decision
    far_gain: float | None = None  # in the last hand, what a far option's win is multiplied by
    for facts, option in zip(read, options):
        kind, shanten, accepted = facts
        tile = _tile_for(hand, kind, chosen)
        value = None
        grows = None
        if shanten <= VALUED_SHANTEN:
            rest = list(hand)
            rest.remove(tile)
            value = hand_value(rest, situation, unseen, discarded=kind, shared=shared, reach=option.acceptance)
            win = 0.0 if value is None else value.ev * calibration(players, shanten, turn, not closed)
            if standing is not None and value is not None and value.win_points > 0:
                win *= 1 + standing.win_gain(value.win_points) / value.win_points
        else:
            marks = marks_less[kind] - (1 if red_fives and tile in RED_FIVES else 0)
            single = single_less[kind]
            grows = held_reach - (grows_by_kind[kind] if counts[kind] == 1 else 0.0)
            fit = fits.get(shanten)
            if fit is None:
                fit = fits[shanten] = far_fit(players, shanten, turn, open_hand=not closed)
            key = 2 * marks + single
            if key not in weighted_marks:
                weighted_marks[key] = marks_factor(players, marks, single) ** MARKS_WEIGHT
            win = far_points_of(fit, accepted) * weighted_marks[key] * dealer_share
            if standing is not None:
                if far_gain is None:  # the same for every far option: Standing.win_gain is a Python call
                    typical = ron_points(players, "open" if not closed else "dama", dealer)
                    far_gain = 1 + standing.win_gain(typical) / typical
                win *= far_gain
        deal_in = risk = later = 0.0
        if threats:
            safe = 1.0
            for rates in deal_in_rates:
                safe *= 1 - rates[kind]
            deal_in = 1 - safe
            risk = cost_of[kind]
            if shanten >= 1:
                kept = [cost for cost, k in cheapest if k != kind or counts[kind] > 1]
                later = LATER_WEIGHT * (kept[0] if kept else 0.0)
        ev = win - risk - later
        if SLOWER_FACTOR != 1.0 and shanten >= 2 and shanten > fastest:
            ev = ev - win * (1 - SLOWER_FACTOR)
            win = win * SLOWER_FACTOR
        rows.append([facts, win, deal_in, risk, later, ev, value, grows])
    far = [row for row in rows if row[7] is not None]
    if far:
        # the rows' floats read into float variables: on the row's items themselves, each
        # operation is a generic call compiled
        all_grows = 0.0
        for row in far:
            grown: float = row[7]
            all_grows += grown
        mean = all_grows / len(far)
        for row in far:
            far_win: float = row[1]
            far_ev: float = row[5]
            grown = row[7]
            bonus = far_win * POTENTIAL_WEIGHT * (grown - mean)
            row[1] = far_win + bonus
            row[5] = far_ev + bonus
    keeps = _keep_terms([(row[0][0], row[0][1], row[1]) for row in rows], counts, situation, unseen,
                        yakuhai, dora, turn=turn, safe=_genbutsu_to_all(threats))
    # best first, ties by kind: the rows ordered by plain tuples (a kind is never repeated), not the
    # values by a key function (compiled, a generic call and two attribute reads per value)
    order = sorted([(-(row[5] + keep), row[0][0], i) for i, (row, keep) in enumerate(zip(rows, keeps))])
    # ``build``: the frozen dataclass's own __init__ sets each field through object.__setattr__ (about a
    # tenth of option_values' own instructions, callgrind, compiled)
    # the row's fields passed as they are, not unpacked into this function's float variables (which
    # unboxes each and boxes it again for the call)
    found = []
    for _, _, i in order:
        row = rows[i]
        facts = row[0]
        keep = keeps[i]
        found.append(build(OptionValue, kind=facts[0], shanten=facts[1], accepted=facts[2], win=row[1],
                           deal_in=row[2], risk=row[3], later=row[4], keep=keep, ev=row[5] + keep, value=row[6]))
    return tuple(found)


def _exposure(threats: Sequence[DangerAgainst],
              standing: Standing | None) -> tuple[dict[int, float], list[dict[int, float]]]:
    """Per kind of the hand, what discarding it is expected to cost now over every threat
    (tenpai chance x rate x the threat's ron, with the uma it costs in the last hand), and per
    threat, each kind's chance to deal in (``DangerAgainst.deal_in_chance``)."""
    cost_of: dict[int, float] = {}
    if not threats:
        return cost_of, []
    exposure = [t.tenpai * (t.hand_value + (standing.deal_in_loss(t.seat, t.hand_value) if standing else 0))
                for t in threats]
    # zip without strict= (pyproject.toml's B905 note: compiled, it is a generic call): this
    # module's and the hand value's zips cost 32 M instructions of 2,718 M with it (callgrind,
    # compiled, 3 corpus games' analyze_game), most of it here, once per kind of the hand
    rates = [{d.kind: r for d, r in zip(t.hand, t.rates)} for t in threats]
    for d in threats[0].hand:
        kind = d.kind
        cost = 0.0  # a local loop, not sum() over a generator: compiled, its float adds are generic
        for i, by_kind in enumerate(rates):
            cost += exposure[i] * by_kind[kind] / 100
        cost_of[kind] = cost
    chances = [{k: t.tenpai * r / 100 for k, r in by_kind.items()} for t, by_kind in zip(threats, rates)]
    return cost_of, chances


def _genbutsu_to_all(threats: Sequence[DangerAgainst]) -> frozenset[int] | None:
    """The kinds of the hand that are genbutsu against every threat; ``None`` with no threat."""
    if not threats:
        return None
    genbutsu = DangerClass.GENBUTSU  # an enum member read once (compiled, a generic attribute read)
    safe = {d.kind for d in threats[0].hand if d.danger_class is genbutsu}
    for threat in threats[1:]:
        safe &= {d.kind for d in threat.hand if d.danger_class is genbutsu}
    return frozenset(safe)


def _keep_terms(options: list[tuple[int, int, float]], counts: Sequence[int], situation: ValueSituation,
                unseen: Sequence[int], yakuhai: Collection[int], dora: Collection[int], *, turn: int,
                safe: frozenset[int] | None) -> list[float]:
    """Each option's ``keep`` (``(kind, shanten, win)`` each; ``counts``: the hand before the
    discard): its keep preference above the decision's mean (``KEEP_WEIGHT_FAR`` /
    ``KEEP_WEIGHT_NEAR``). ``safe``: with a threat at the table, the kinds genbutsu against every
    threat (the keep table tells those apart); ``None`` calm."""
    if len(options) < 2:
        return [0.0] * len(options)
    # local loops over a list, not min() and sum() over generators and a zip (compiled, generic
    # calls)
    best = options[0][1]
    for _, shanten, _ in options:
        if shanten < best:
            best = shanten
    stage = keep_stage(best)
    weight = KEEP_WEIGHT_FAR if stage == "far" else KEEP_WEIGHT_NEAR
    if not weight:
        return [0.0] * len(options)
    rules = situation.rules
    sanma = rules.sanma
    prefs = keep_preferences(rules.players, stage, safe is not None, turn,
                             [tile_role(kind, counts, yakuhai=yakuhai, dora=dora, unseen=unseen, sanma=sanma,
                                        safe=safe is not None and kind in safe)
                              for kind, _, _ in options])
    total = 0.0
    for pref in prefs:
        total += pref
    mean = total / len(prefs)
    keeps = []
    for i, (_, _, win) in enumerate(options):
        keep = weight * max(abs(win), KEEP_POINTS_FLOOR) * (prefs[i] - mean)
        if win <= 0:  # a hand that cannot win (no yaku, no tile left, nothing accepted) gains nothing
            keep = min(keep, 0.0)
        keeps.append(keep)
    return keeps
