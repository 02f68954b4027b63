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
from dataclasses import dataclass, replace

from ..rules.danger import DangerClass, dora_kinds
from ..rules.game_end import ranking
from ..rules.hand import counts34
from ..rules.shanten import DiscardOption
from ..tiles import RED_FIVES, yakuhai_kinds
from .tables import (
    calibration,
    far_points,
    keep_preference,
    keep_stage,
    marks_factor,
    ron_points,
    tile_role,
    value_marks,
)
from .value import hand_value
from .values import DangerAgainst, OptionValue, ValueSituation

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
]

VALUED_SHANTEN = 1
"""Up to one-shanten after the discard, the hand is valued by the scorer; further, by the table."""

LATER_WEIGHT = 0.5
"""How much the next discard's danger counts: about every second next discard must come from
the hand (the others can be a safe draw, or the hand is over). Chosen, not fitted (docs/
analysis.md, "Calibration of the verdicts")."""

MARKS_WEIGHT = 0.5
"""The power the value marks factor is taken to: half the measured effect, because the far
table's marks also carry the players' choice of which hands to keep them in. Fitted to the
agreement on the Houou games (docs/analysis.md, "Calibration of the verdicts")."""

SLOWER_FACTOR = 0.15
"""A far option further from tenpai than the decision's best shanten is multiplied by this: the
far table's higher-shanten cells hold hands that could do no better, not hands that broke a
faster shape, so read alone they overrate going back. Fitted like ``MARKS_WEIGHT``."""

POTENTIAL_WEIGHT = 0.001
"""Two or more from tenpai, each unit of a hand's ``potential`` above the mean of the decision's
far options adds this share of its far value (and below it takes it off): about one accepted
tile's worth for a tile that connects with a dozen unseen tiles, enough to order the discards
the acceptance ties (an isolated honour before a terminal before a middle tile) without moving
the far options as a whole against those valued by the scorer. Fitted to the agreement on the
corpus's Houou games (docs/analysis.md, "Calibration")."""


KEEP_WEIGHT_FAR = 0.1
"""Two or more from tenpai, each unit of an option's keep preference (``tables.keep_preference``,
a natural log) above the decision's mean adds this share of the option's ``win``. Fitted to the
agreement on samples of the corpus's Houou games (every 25th log; docs/analysis.md, "Calibration
of the verdicts")."""

KEEP_WEIGHT_NEAR = 0.1
"""The same at one-shanten and tenpai, where the scorer values the hand and the preference mostly
orders options it values alike (two guest winds, say)."""

KEEP_POINTS_FLOOR = 1000.0
"""The keep term is a share of the option's ``win``, but of this many points at least: late and
far from tenpai a hand's ``win`` is near 0, and which tile to let go still matters (it is kept
for safety, or as the last hope of a hand). Fitted like the weights."""

YAKUHAI_PAIRING = 3.0
"""A yakuhai's unseen copies count this many times in ``potential``: any player's discard of it
can be called once it pairs (pon), and the triplet is a yaku that opens the hand."""


def potential(counts: Sequence[int], unseen: Sequence[int], yakuhai: Collection[int] = ()) -> float:
    """How much a hand's tiles can still grow, beyond the tiles that lower its shanten now: for
    each kind it holds, the unseen copies that would pair it (a yakuhai's ``YAKUHAI_PAIRING``
    times), the unseen tiles next to it in its suit and half of those two away (an honour can
    only pair)."""
    total = 0.0
    for k, n in enumerate(counts):
        if not n:
            continue
        total += unseen[k] * (YAKUHAI_PAIRING if k in yakuhai else 1.0)
        if k >= 27:
            continue
        number = k % 9
        for step, weight in ((1, 1.0), (2, 0.5)):
            if number - step >= 0:
                total += weight * unseen[k - step]
            if number + step <= 8:
                total += weight * unseen[k + step]
    return total


def dealer_factor(players: int, dealer: bool) -> float:
    """A dealer's win is worth half again a non-dealer's; the far table mixes one dealer to
    ``players`` - 1 others, so a far value is scaled by 1.5 or 1 over that mix."""
    mix = 1 + 0.5 / players
    return (1.5 if dealer else 1.0) / mix


@dataclass(frozen=True, slots=True)
class Standing:
    """The game's last hand as the model values it: the scores now and the lobby's uma, so that
    a win or a deal-in is worth its points plus the placement it brings (順位点)."""

    seat: int
    scores: tuple[int, ...]
    """Each seat's score now."""
    uma: tuple[int, ...]
    """Points for each final rank, first to last (the lobby's uma in thousands, x 1,000)."""
    first_dealer: int = 0

    def _uma_of(self, scores: Sequence[float], seat: int) -> int:
        return self.uma[ranking(scores, len(self.scores), self.first_dealer).index(seat)]

    def win_gain(self, points: float) -> float:
        """The uma the seat gains by winning ``points``, taken from the others alike."""
        players = len(self.scores)
        after = [s + (points if i == self.seat else -points / (players - 1)) for i, s in enumerate(self.scores)]
        return self._uma_of(after, self.seat) - self._uma_of(self.scores, self.seat)

    def deal_in_loss(self, winner: int, points: float) -> float:
        """The uma the seat loses by dealing ``points`` into ``winner``."""
        after = [s - points if i == self.seat else s + points if i == winner else s for i, s in enumerate(self.scores)]
        return self._uma_of(self.scores, self.seat) - self._uma_of(after, self.seat)


def _tile_for(concealed: Sequence[int], kind: int, chosen: int) -> int:
    """The tile discarded for ``kind``: the chosen tile for its kind, else a plain copy before a
    red five (keeping the red is the better play)."""
    if chosen >> 2 == kind:
        return chosen
    copies = [t for t in concealed if t >> 2 == kind]
    return next((t for t in copies if t not in RED_FIVES), copies[0])


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
    yakuhai = yakuhai_kinds(situation.round_wind, situation.seat_wind)
    dora = dora_kinds(situation.dora_indicators, sanma=rules.sanma)
    meld_tiles = [t for m in situation.melds for t in m.tiles]
    exposure = [(t, t.tenpai * (t.hand_value + (standing.deal_in_loss(t.seat, t.hand_value) if standing else 0)))
                for t in threats]
    cost_of: dict[int, float] = {}
    for d in threats[0].hand if threats else ():
        cost_of[d.kind] = sum(e * t.rates[i] / 100 for t, e in exposure
                              for i, h in enumerate(t.hand) if h.kind == d.kind)
    found: list[OptionValue] = []
    grown: dict[int, float] = {}
    """Per far option's index in ``found``: its ``potential``."""
    for option in options:
        kind = option.kind
        tile = _tile_for(concealed, kind, chosen)
        rest = list(concealed)
        rest.remove(tile)
        value = None
        if option.shanten <= VALUED_SHANTEN:
            value = hand_value(rest, situation, unseen, discarded=kind)
            win = 0.0 if value is None else value.ev * calibration(players, option.shanten, turn, not situation.closed)
            if standing is not None and value is not None and value.win_points > 0:
                win *= 1 + standing.win_gain(value.win_points) / value.win_points
        else:
            marks, single = value_marks([*rest, *meld_tiles], dora, yakuhai, unseen, red_fives=rules.red_fives)
            counts = counts34(rest)
            win = (far_points(players, option.shanten, turn, option.acceptance.total, open_hand=not situation.closed)
                   * marks_factor(players, marks, single) ** MARKS_WEIGHT * dealer_factor(players, dealer))
            if standing is not None:
                typical = ron_points(players, "open" if not situation.closed else "dama", dealer)
                win *= 1 + standing.win_gain(typical) / typical
            grown[len(found)] = potential(counts, unseen, yakuhai)
        deal_in = risk = later = 0.0
        if threats:
            safe = 1.0
            for threat in threats:
                safe *= 1 - threat.deal_in_chance(kind)
            deal_in = 1 - safe
            risk = cost_of[kind]
            if option.shanten >= 1:
                kept = {t >> 2 for t in rest}
                later = LATER_WEIGHT * min((cost_of[k] for k in kept), default=0.0)
        found.append(OptionValue(kind=kind, shanten=option.shanten, accepted=option.acceptance.total, win=win,
                                 deal_in=deal_in, risk=risk, later=later, ev=win - risk - later, value=value))
    if SLOWER_FACTOR != 1.0:
        fastest = min(o.shanten for o in found)
        for i, o in enumerate(found):
            if o.shanten >= 2 and o.shanten > fastest:
                found[i] = replace(o, win=o.win * SLOWER_FACTOR, ev=o.ev - o.win * (1 - SLOWER_FACTOR))
    if grown:
        mean = sum(grown.values()) / len(grown)
        for i, grows in grown.items():
            o = found[i]
            bonus = o.win * POTENTIAL_WEIGHT * (grows - mean)
            found[i] = replace(o, win=o.win + bonus, ev=o.ev + bonus)
    _weigh_keep(found, concealed, situation, unseen, yakuhai, dora, turn=turn, safe=_genbutsu_to_all(threats))
    found.sort(key=lambda o: (-o.ev, o.kind))
    return tuple(found)


def _genbutsu_to_all(threats: Sequence[DangerAgainst]) -> frozenset[int] | None:
    """The kinds of the hand that are genbutsu against every threat; ``None`` with no threat."""
    if not threats:
        return None
    safe = {d.kind for d in threats[0].hand if d.danger_class is DangerClass.GENBUTSU}
    for threat in threats[1:]:
        safe &= {d.kind for d in threat.hand if d.danger_class is DangerClass.GENBUTSU}
    return frozenset(safe)


def _weigh_keep(found: list[OptionValue], concealed: Sequence[int], situation: ValueSituation,
                unseen: Sequence[int], yakuhai: Collection[int], dora: Collection[int], *, turn: int,
                safe: frozenset[int] | None) -> None:
    """Set each option's ``keep`` (and add it to its ``ev``): its keep preference above the
    decision's mean (``KEEP_WEIGHT_FAR`` / ``KEEP_WEIGHT_NEAR``), in place. ``safe``: with a
    threat at the table, the kinds genbutsu against every threat (the keep table tells those
    apart); ``None`` calm."""
    if len(found) < 2:
        return
    players = situation.rules.players
    stage = keep_stage(min(o.shanten for o in found))
    weight = KEEP_WEIGHT_FAR if stage == "far" else KEEP_WEIGHT_NEAR
    if not weight:
        return
    counts = counts34(concealed)
    sanma = situation.rules.sanma
    prefs = [keep_preference(players, stage, safe is not None, turn,
                             tile_role(o.kind, counts, yakuhai=yakuhai, dora=dora, unseen=unseen, sanma=sanma,
                                       safe=safe is not None and o.kind in safe))
             for o in found]
    mean = sum(prefs) / len(prefs)
    for i, (o, pref) in enumerate(zip(found, prefs, strict=True)):
        keep = weight * max(abs(o.win), KEEP_POINTS_FLOOR) * (pref - mean)
        if o.win <= 0:  # a hand that cannot win (no yaku, no tile left, nothing accepted) gains nothing
            keep = min(keep, 0.0)
        found[i] = replace(o, keep=keep, ev=o.ev + keep)
