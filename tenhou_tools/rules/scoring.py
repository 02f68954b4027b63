"""Hand valuation under Tenhou rules (和了の点数計算): yaku, han, fu, points and limit.

``score_win(ctx)`` takes a ``WinContext`` (the winning hand and the situation) and returns a
``ScoredHand`` in Tenhou's own terms — ``(yaku id, han)`` pairs exactly as ``AGARI yaku`` lists
them, yakuman ids as ``AGARI yakuman`` lists them, fu, ``ten[1]`` points and the ``ten[2]`` limit
code — or a ``ScoringRefusal`` with a reason when the hand cannot be won. Payments (honba,
sticks, pao, double ron) are in ``rules/payments.py``.

The readings, yaku and fu are our own (``rules/readings.py``): ``best_readings(...)`` takes a
winning hand as 34-kind counts plus its declared sets and the situation, tries every reading of
it — every split of the concealed tiles into four sets and a pair (or seven pairs, or thirteen
orphans) with the winning tile in every place it can sit — and returns the reading Tenhou scores:
the highest base points (a yakuman before a kazoe yakuman), then the most han, then the most fu.
``score_win`` checks the tiles and the situation, adds the dora entries and turns the reading
into a ``ScoredHand`` (points, limit). All pure, on small tuples; a suit's splits are cached. The
values are in ``rules.values``. The ``mahjong`` library is a second, independent valuation behind
the same types (``tests/scoring_library.py``); both agree with Tenhou on every AGARI of the
corpus (``scripts/check_scoring.py``) and with each other on generated hands
(``tests/test_valuation.py``). A caller that values many hands of its own in one situation (the
hand value) reads the situation once (``prepare``) and skips the checks (``score_prepared``).

Tenhou rules that decide a value (each checked on every corpus AGARI):

1. **Variant yakuman are single.** 四暗刻単騎 (41), 純正九蓮宝燈 (46), 国士無双１３面 (48) and
   大四喜 (49) count one yakuman each on Tenhou. The variant id replaces the base id (a tanki
   suuankou is listed as 41 only; corpus: ``yakuman="49,41,42"`` is a triple yakuman). Each
   listed id is one yakuman and different yakuman stack (大三元 + 字一色 = 64000). Kazoe
   (数え役満, 13+ han) is exactly one yakuman however many han and is listed through ``yaku``.
2. **Ura dora entry on every riichi win.** Tenhou writes ``53,0`` for a riichi or double riichi
   winner without ura dora (9,157 corpus wins).
3. **Kita (抜きドラ) in three-player games** are not sets: each kita is one dora plus one per
   indicator pointing at North, folded into id 52 as Tenhou does (no separate id in mjlog), and
   counts as ura dora for each ura indicator pointing at North. A kita does not open the hand.
   The draw after a kita is a rinshan draw (嶺上開花 with pinfu stays 20 fu on a tsumo: 21
   corpus wins).
4. **Limit code of a kiriage mangan is 0.** Chip tables (祝儀) round 30 fu 4 han / 60 fu 3 han up
   to mangan, but Tenhou's ``ten[2]`` stays 0 (``ten="30,12000,0"``). ``ScoredHand.limit``
   follows Tenhou, ``ScoredHand.base`` pays the mangan.
5. **Values in Tenhou's terms.** Points, base points and the limit come from
   ``rules/payments.py``. Yakuman wins report ``han`` 0 and the yakuman ids. Yaku come in a fixed
   order close to Tenhou's (Tenhou orders yakuhai by their place in the hand, so compare as a
   multiset).
6. **Not on Tenhou:** renhou (人和), open riichi, paarenchan, daisharin; never awarded.
7. **Fu and readings.** Kuitan as the table says; open "pinfu" shapes are 30 fu on a ron; a
   pinfu tsumo is 20 fu (also on the replacement draw after a kita); a double-wind pair is 4 fu;
   a triplet completed by ron counts as open; thirteen orphans has 0 fu and seven pairs 25.

Speed: about 28 µs per win on one core (the library adapter: about 67 µs).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: the ScoredHand of every reading scored, about 0.15 M of a game's 6.5 M instructions in
# check_log (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build
from ..events import CallKind, Meld
from ..tiles import RED_FIVES, dora_kind
from .hand import counts34
from .payments import base_points, hand_points, limit_for
from .readings import Entry, Group, Reading, Setting, best_readings, yaku_entry
from .splits import SEQUENCE, TRIPLET
from .values import (
    TENHOU_3P,
    TENHOU_4P,
    Limit,
    RefusalReason,
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
)
from .yaku import YakuId
from .yaku import YakuId as Y

__all__ = [
    "TENHOU_3P",
    "TENHOU_4P",
    "Limit",
    "RefusalReason",
    "ScoredHand",
    "ScoringRefusal",
    "ScoringRules",
    "WinContext",
    "YakuId",
    "prepare",
    "ron_allowed",
    "score_prepared",
    "score_win",
]


# the yaku entries of the situation, as plain ints (a ``YakuId`` member is an attribute read of
# a class of a plain module: compiled, some 900 instructions; ``Entry``: kept as tuples)
_DOUBLE_RIICHI: Final[Entry] = yaku_entry(Y.DOUBLE_RIICHI)
_RIICHI: Final[Entry] = yaku_entry(Y.RIICHI)
_IPPATSU: Final[Entry] = yaku_entry(Y.IPPATSU)
_CHANKAN: Final[Entry] = yaku_entry(Y.CHANKAN)
_RINSHAN: Final[Entry] = yaku_entry(Y.RINSHAN)
_HAITEI: Final[Entry] = yaku_entry(Y.HAITEI)
_HOUTEI: Final[Entry] = yaku_entry(Y.HOUTEI)
_TENHOU: Final = int(Y.TENHOU)
_CHIIHOU: Final = int(Y.CHIIHOU)
_POINTED: Final = tuple(dora_kind(k) for k in range(34))
"""The dora kind each indicator kind points at (``tiles.dora_kind``), four players; three:"""
_POINTED_SANMA: Final = tuple(dora_kind(k, sanma=True) for k in range(34))


def _by_fu(detail: tuple[str, int]) -> int:
    return -detail[1]


class _Win:
    """A win's situation as the valuation reads it: the ``WinContext``'s fields and the rules it
    asks, each read once; not the way it is won (tsumo or ron), which the scorer is given for each
    way it values. (A working record of the valuation, compiled with it: a field of the
    plain ``WinContext`` or ``ScoringRules`` is a generic attribute read, about 280 instructions
    compiled, and one ``score_wins`` read some 65 of them; callgrind, compiled, 3 corpus games'
    ``analyze_game``: 3,272 M instructions against 3,313 M with the fields read where they are
    used.) It is also what the yaku of the win's situation are read from."""

    __slots__ = ("concealed", "melds", "win_tile", "seat_wind", "round_wind", "riichi", "double_riichi",
                 "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "dora_indicators",
                 "ura_indicators", "players", "sanma", "red_fives", "open_tanyao", "kiriage")

    def __init__(self, ctx: WinContext) -> None:
        self.concealed = ctx.concealed
        self.melds = ctx.melds
        self.win_tile = ctx.win_tile
        self.seat_wind = ctx.seat_wind
        self.round_wind = ctx.round_wind
        self.riichi = ctx.riichi
        self.double_riichi = ctx.double_riichi
        self.ippatsu = ctx.ippatsu
        self.haitei = ctx.haitei
        self.houtei = ctx.houtei
        self.rinshan = ctx.rinshan
        self.chankan = ctx.chankan
        self.tenhou = ctx.tenhou
        self.chiihou = ctx.chiihou
        self.dora_indicators = ctx.dora_indicators
        self.ura_indicators = ctx.ura_indicators
        rules = ctx.rules
        self.players = rules.players
        self.sanma = rules.sanma
        self.red_fives = rules.red_fives
        self.open_tanyao = rules.open_tanyao
        self.kiriage = rules.kiriage


def _sets(melds: tuple[Meld, ...]) -> tuple[list[Group], int, bool, list[int]]:
    """The declared sets of ``melds`` (kita are not sets), the number of kita, whether a set was
    called (the hand is open) and the sets' tiles."""
    groups: list[Group] = []
    tiles: list[int] = []
    kita = 0
    called = False
    for meld in melds:
        kind = meld.kind
        if kind is CallKind.KITA:
            kita += 1
            continue
        first = min(meld.tiles) >> 2
        if kind is CallKind.CHI:
            groups.append(Group(SEQUENCE, first, concealed=False))
        else:
            groups.append(Group(TRIPLET, first, kan=kind is not CallKind.PON,
                                concealed=kind is CallKind.CLOSED_KAN))
        called = called or kind in _OPEN_KINDS
        tiles.extend(meld.tiles)
    return groups, kita, called, tiles


class Prepared:
    """A win's situation read once (``prepare``): everything a value depends on besides the
    concealed tiles and the winning tile — the declared sets (``rules.readings.Setting``), the
    dora they and the kita hold and the kinds the indicators point at, their red fives, each
    way's conflict (``_conflicts``: a tsumo's, a ron's). (A working record of the valuation,
    compiled with it: not a value type.)"""

    __slots__ = ("win", "setting", "conflicts", "dora", "dora_kinds", "ura", "ura_kinds", "aka", "red_fives")

    def __init__(self, win: _Win, groups: list[Group], kita: int, called: bool, meld_tiles: list[int]) -> None:
        self.win = win
        yakuman: list[int] = []
        if win.tenhou:
            yakuman.append(_TENHOU)
        if win.chiihou:
            yakuman.append(_CHIIHOU)
        self.setting = Setting(groups, closed=not called, seat_wind=win.seat_wind, round_wind=win.round_wind,
                               situation_yaku=_situation_yaku(win), situation_yakuman=yakuman,
                               open_tanyao=win.open_tanyao, kiriage=win.kiriage)
        conflicts = _conflicts(win, called, (True, False))
        self.conflicts = (conflicts[0], conflicts[1])
        """A tsumo's conflict, a ron's (``None``: the way can be won)."""
        # the dora of every tile are those of the sets' tiles and kita, worked out here, plus the
        # concealed tiles' (``dora_counts``)
        self.dora_kinds = _pointed(win.dora_indicators, win.sanma)
        self.dora = kita + _indicated(meld_tiles, self.dora_kinds, kita)
        """The dora of the sets' tiles and of the kita, each kita one more (抜きドラ)."""
        riichi = win.riichi or win.double_riichi
        self.ura_kinds = _pointed(win.ura_indicators, win.sanma) if riichi else []
        self.ura = _indicated(meld_tiles, self.ura_kinds, kita)
        self.red_fives = win.red_fives
        self.aka = _reds(meld_tiles)
        """The red fives among the sets' tiles."""

    def dora_counts(self, concealed: list[int], aka: int) -> tuple[int, int, int]:
        """The dora, red five and ura dora counts of a hand whose concealed tiles have the 34-kind
        ``concealed`` counts and ``aka`` red fives."""
        dora = self.dora
        for k in self.dora_kinds:
            dora += concealed[k]
        ura = self.ura
        for k in self.ura_kinds:
            ura += concealed[k]
        return dora, (self.aka + aka if self.red_fives else 0), ura


def _pointed(indicators: tuple[int, ...], sanma: bool) -> list[int]:
    """The dora kinds ``indicators`` (tile ids) point at."""
    table = _POINTED_SANMA if sanma else _POINTED
    return [table[i >> 2] if 0 <= i < 136 else dora_kind(i >> 2, sanma=sanma) for i in indicators]


def _indicated(tiles: list[int], pointed: list[int], kita: int) -> int:
    """Dora that indicators pointing at the kinds ``pointed`` point at among ``tiles`` (all four
    of a kan), plus one per kita (抜きドラ) for each pointing at North."""
    total = 0
    for k in pointed:
        for t in tiles:
            if t >> 2 == k:
                total += 1
        if k == 30:
            total += kita
    return total


def _reds(tiles: Iterable[int]) -> int:
    """The red fives among ``tiles`` (``tiles.RED_FIVES``)."""
    return sum(1 for t in tiles if t in RED_FIVES)


def _situation_yaku(win: _Win) -> list[Entry]:
    """The yaku of the win's situation: riichi or double riichi, then 一発, 搶槓, 嶺上開花,
    海底摸月, 河底撈魚."""
    yaku: list[Entry] = []
    if win.double_riichi:
        yaku.append(_DOUBLE_RIICHI)
    elif win.riichi:
        yaku.append(_RIICHI)
    if win.ippatsu:
        yaku.append(_IPPATSU)
    if win.chankan:
        yaku.append(_CHANKAN)
    if win.rinshan:
        yaku.append(_RINSHAN)
    if win.haitei:
        yaku.append(_HAITEI)
    if win.houtei:
        yaku.append(_HOUTEI)
    return yaku


# --------------------------------------------------------------------------------------------
# The win's value in Tenhou's terms

# A canonical order close to Tenhou's own listing (Tenhou orders yakuhai by where the set sits
# in the hand, so compare yaku as a multiset, not as a sequence).
_TENHOU_ORDER: dict[int, int] = {
    yaku_id: position
    for position, yaku_id in enumerate(
        (1, 21, 2, 4, 0, 3, 5, 6, 7, 9, 22, 8, 24, 25, 30, 29, 28)
        + (10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
        + (23, 26, 27, 31, 32, 33, 34, 35, 36)
        + (37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51)
        + (52, 54, 53)
    )
}


def _tenhou_position(entry: tuple[int, int]) -> int:
    """A ``(yaku id, han)`` entry's place in ``_TENHOU_ORDER``."""
    return _TENHOU_ORDER[entry[0]]


def _refuse(reason: RefusalReason, message: str) -> ScoringRefusal:
    return ScoringRefusal(reason=reason, message=message)


def _conflicts(win: _Win, called: bool, ways: tuple[bool, ...]) -> list[str | None]:
    """For each of ``ways`` (``True`` a tsumo, ``False`` a ron), a
    situation no win can have (the same list the ``mahjong`` library refuses), the first that
    applies."""
    riichi, double_riichi, ippatsu = win.riichi, win.double_riichi, win.ippatsu
    rinshan, chankan, haitei, houtei = win.rinshan, win.chankan, win.haitei, win.houtei
    tenhou, chiihou, dealer = win.tenhou, win.chiihou, win.seat_wind == 0
    found: list[str | None] = []
    for tsumo in ways:
        conflict: str | None = None
        if called and riichi:
            conflict = "riichi with an open hand"
        elif called and double_riichi:
            conflict = "double riichi with an open hand"
        elif ippatsu and not (riichi or double_riichi):
            conflict = "ippatsu without riichi"
        elif chankan and tsumo:
            conflict = "chankan on a tsumo"
        elif rinshan and not tsumo:
            conflict = "rinshan without a tsumo"
        elif haitei and not tsumo:
            conflict = "haitei without a tsumo"
        elif houtei and tsumo:
            conflict = "houtei on a tsumo"
        elif haitei and rinshan:
            conflict = "haitei on a replacement draw"
        elif houtei and chankan:
            conflict = "houtei on a robbed kan"
        elif tenhou and not dealer:
            conflict = "tenhou by a non-dealer"
        elif tenhou and not tsumo:
            conflict = "tenhou without a tsumo"
        elif chiihou and dealer:
            conflict = "chiihou by the dealer"
        elif chiihou and not tsumo:
            conflict = "chiihou without a tsumo"
        elif (tenhou or chiihou) and not all(m.kind is CallKind.KITA for m in win.melds):
            conflict = "tenhou or chiihou after a call"
        found.append(conflict)
    return found


_OPEN_KINDS = (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN)
_DORA_YAKU = (YakuId.DORA, YakuId.AKA_DORA, YakuId.URA_DORA)
"""The yaku entries of dora, red fives and ura dora, in that order (their han is their count)."""


def score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win the way Tenhou does (see the module docstring)."""
    return score_wins(ctx, (ctx.tsumo,))[0]


def score_wins(ctx: WinContext, ways: tuple[bool, ...]) -> list[ScoredHand | ScoringRefusal]:
    """``score_win`` of ``ctx`` won in each of ``ways`` (``True`` a tsumo, ``False`` a ron, in
    place of ``ctx.tsumo``). What does not depend on the way (the tiles checked, the melds'
    sets, the dora, the hand's facts and splits) is worked out once: the hand value asks for a
    wait's tsumo and ron together. Measured (callgrind, compiled, 3 corpus games'
    ``analyze_game``): 3,469 M instructions with one pass against 3,717 M with two ``score_win``
    calls."""
    read = _read(ctx, ways)
    if isinstance(read, list):
        return list(read)
    win, conflicts, readings, dora_counts = read
    return [_refuse(RefusalReason.CONFLICTING_CONDITIONS, conflict) if conflict is not None
            else _scored(win, tsumo, reading, dora_counts)
            for tsumo, conflict, reading in zip(ways, conflicts, readings, strict=True)]


def score_values(ctx: WinContext, ways: tuple[bool, ...]) -> list[tuple[int, int, int, int] | None]:
    """What the hand value reads of ``score_wins(ctx, ways)``, from the same readings: each way's
    ``(han, fu, points, yakuman)`` (a ``ScoredHand``'s ``han``, ``fu``, ``points`` and
    ``len(yakuman)``), or ``None`` where ``score_wins`` refuses. It leaves out what only the
    record needs (the yaku and their Tenhou order, the limit code, the record): callgrind,
    compiled, 3 corpus games' ``analyze_game``, 2,970 M instructions against 3,161 M with
    ``score_wins`` (of which 34 M the ``zip``'s ``strict=``, left out: the lists are the ways').
    ``tests/test_scoring.py`` holds the two equal on the corpus's wins and on every hand waiting
    to draw in corpus games, completed by each kind."""
    read = _read(ctx, ways)
    if isinstance(read, list):
        return [None for _ in ways]
    win, conflicts, readings, _ = read
    return _values(win, conflicts, readings, ways)


def _values(win: _Win, conflicts: list[str | None], readings: list[Reading | None],
            ways: tuple[bool, ...]) -> list[tuple[int, int, int, int] | None]:
    """``score_values``'s answer from each way's conflict and best reading."""
    found: list[tuple[int, int, int, int] | None] = []
    for tsumo, conflict, reading in zip(ways, conflicts, readings):
        if conflict is None and reading is not None and (reading.yaku or reading.yakuman):
            yakuman = len(reading.yakuman)
            han = 0 if yakuman else reading.han  # the yaku's han and the dora entries' (``_finish``)
            found.append((han, reading.fu, _points(win, tsumo, han, reading.fu, yakuman)[1], yakuman))
        else:
            found.append(None)
    return found


def prepare(ctx: WinContext) -> Prepared | None:
    """The situation of ``ctx`` read once for ``score_prepared`` (its melds, winds, flags,
    indicators and rules; its ``concealed``, ``win_tile`` and ``tsumo`` are not read), or ``None``
    when ``score_values`` refuses every hand in it (a wind out of range, a set's tile repeated or
    outside 0-135, kita in a four-player game)."""
    win = _Win(ctx)
    groups, kita, called, meld_tiles = _sets(win.melds)
    if not 0 <= win.seat_wind < win.players or not 0 <= win.round_wind <= 3 or (kita and not win.sanma):
        return None
    if any(not 0 <= t < 136 for t in meld_tiles) or len(set(meld_tiles)) != len(meld_tiles):
        return None
    return Prepared(win, groups, kita, called, meld_tiles)


def score_prepared(prepared: Prepared, concealed: list[int], win_kind: int, aka: int,
                   ways: tuple[bool, ...]) -> list[tuple[int, int, int, int] | None]:
    """``score_values`` of a hand in a ``prepare``d situation, for a caller that makes its own
    hands (the hand value): ``concealed`` the 34-kind counts of the concealed tiles, the winning
    tile's kind ``win_kind`` among them, ``aka`` the red fives among them. Trusted, not checked
    (``score_values`` checks them): tiles the sets do not hold, 14 with the sets. What
    ``score_values`` works out again at every hand (the context's fields, the checks, the sets,
    the dora of the sets, the conflicts) is read once per situation: callgrind, compiled, 3
    corpus games' ``analyze_game``, the hand value's scoring took 362 M instructions against
    637 M with ``score_values`` and tile ids made for every hand. ``tests/test_scoring.py`` holds
    it equal to ``score_values``."""
    dora, red, ura = prepared.dora_counts(concealed, aka)
    readings = best_readings(concealed, win_kind, prepared.setting, ways, dora + red + ura)
    tsumo_conflict, ron_conflict = prepared.conflicts
    return _values(prepared.win, [tsumo_conflict if tsumo else ron_conflict for tsumo in ways], readings, ways)


_Read = tuple[_Win, list[str | None], list[Reading | None], tuple[int, int, int]]
"""What both ``score_wins`` and ``score_values`` read of a win: the situation, each way's
conflict (``_conflicts``) and best reading (``None``: not a winning hand), and the dora, red five
and ura dora counts."""


def _read(ctx: WinContext, ways: tuple[bool, ...]) -> _Read | list[ScoringRefusal]:
    """The win read for each of ``ways``, or a refusal of every way (the tiles, or no way can be
    won)."""
    win = _Win(ctx)
    groups, kita, called, meld_tiles = _sets(win.melds)
    problem = _tile_problem(win, [*win.concealed, *meld_tiles], len(groups), kita)
    if problem is not None:
        return [problem for _ in ways]
    prepared = Prepared(win, groups, kita, called, meld_tiles)
    tsumo_conflict, ron_conflict = prepared.conflicts
    conflicts = [tsumo_conflict if tsumo else ron_conflict for tsumo in ways]
    if None not in conflicts:  # no way can be won: nothing to read
        return [_refuse(RefusalReason.CONFLICTING_CONDITIONS, str(conflict)) for conflict in conflicts]
    concealed = counts34(win.concealed)
    dora_counts = prepared.dora_counts(concealed, _reds(win.concealed))
    dora, aka, ura = dora_counts
    readings = best_readings(concealed, win.win_tile >> 2, prepared.setting, ways, dora + aka + ura)
    return win, conflicts, readings, dora_counts


def _scored(win: _Win, tsumo: bool, reading: Reading | None,
            dora_counts: tuple[int, int, int]) -> ScoredHand | ScoringRefusal:
    """The win's value from its best reading, with its dora, red five and ura dora entries
    (``dora_counts``), or why it is refused."""
    if reading is None:
        return _refuse(RefusalReason.NOT_WINNING, "the tiles are not a winning hand (和了形でない)")
    if not reading.yaku and not reading.yakuman:
        return _refuse(RefusalReason.NO_YAKU, "the hand is complete but has no yaku (役なし)")
    yaku = [(entry[0], entry[1]) for entry in reading.yaku]
    if not reading.yakuman:
        for yid, count in zip(_DORA_YAKU, dora_counts):
            if count:
                yaku.append((int(yid), count))
    details = reading.fu_details()
    if len(details) > 1:
        details = tuple(sorted(details, key=_by_fu))
    return _assemble(win, tsumo, yaku, list(reading.yakuman), reading.fu, details)


def assemble(ctx: WinContext, yaku: list[tuple[int, int]], yakuman: list[int], fu: int,
             details: tuple[tuple[str, int], ...]) -> ScoredHand:
    """A ``ScoredHand`` from a reading in Tenhou ids: the ura entry of a riichi win, Tenhou's
    order, and the value (base points, ``ten[1]``, limit) from ``rules/payments.py``."""
    return _assemble(_Win(ctx), ctx.tsumo, yaku, yakuman, fu, details)


def _assemble(win: _Win, tsumo: bool, yaku: list[tuple[int, int]], yakuman: list[int], fu: int,
              details: tuple[tuple[str, int], ...]) -> ScoredHand:
    """``assemble`` of a win by ``tsumo`` (``True``) or ron."""
    if yakuman:
        yaku = []
        han = 0
        limit = Limit.YAKUMAN
        yakuman.sort(key=_TENHOU_ORDER.__getitem__)
    else:
        ura_dora = YakuId.URA_DORA
        if (win.riichi or win.double_riichi) and all(y != ura_dora for y, _ in yaku):
            yaku.append((int(ura_dora), 0))
        yaku.sort(key=_tenhou_position)
        han = sum(h for _, h in yaku)
        limit = limit_for(han, fu)
    dealer = win.seat_wind == 0
    base, points = _points(win, tsumo, han, fu, len(yakuman))
    return build(
        ScoredHand,
        yaku=tuple(yaku),
        yakuman=tuple(yakuman),
        han=han,
        fu=fu,
        points=points,
        limit=limit,
        base=base,
        dealer=dealer,
        tsumo=tsumo,
        fu_details=details,
    )


def _points(win: _Win, tsumo: bool, han: int, fu: int, yakuman: int) -> tuple[int, int]:
    """``(base points, ten[1])`` of a win of ``han`` and ``fu``, or of ``yakuman`` yakuman (from
    ``rules/payments.py``)."""
    base = base_points(0, fu, yakuman=yakuman) if yakuman else base_points(han, fu, kiriage=win.kiriage)
    return base, hand_points(base, dealer=win.seat_wind == 0, tsumo=tsumo, players=win.players)


def _tile_problem(
    win: _Win, tiles: list[int], sets: int, kita: int
) -> ScoringRefusal | None:
    if not 0 <= win.seat_wind < win.players or not 0 <= win.round_wind <= 3:
        return _refuse(
            RefusalReason.CONFLICTING_CONDITIONS,
            f"seat wind {win.seat_wind} / round wind {win.round_wind} out of range",
        )
    if any(not 0 <= t < 136 for t in tiles) or len(set(tiles)) != len(tiles):
        return _refuse(RefusalReason.INVALID_TILES, "a tile id is repeated or outside 0-135")
    if len(win.concealed) + 3 * sets != 14:
        return _refuse(
            RefusalReason.INVALID_TILES,
            f"{len(win.concealed)} concealed tiles and {sets} melds do not make a 14-tile hand",
        )
    if kita and not win.sanma:
        return _refuse(RefusalReason.INVALID_TILES, "kita melds in a four-player game")
    if win.win_tile not in win.concealed:
        return _refuse(RefusalReason.WIN_TILE_NOT_IN_HAND, "the winning tile is not in the hand")
    return None


def ron_allowed(ctx: WinContext, furiten: bool) -> bool:
    """Whether a player may ron the tile in ``ctx`` (a ron's situation, ``ctx.tsumo`` false): a
    winning hand with a yaku (dora alone do not count: 役なし), and not ``furiten`` (振聴, any of
    the three kinds of ``rules.furiten``). Tenhou offers no ron otherwise; a triple ron (三家和了)
    needs three players who each may."""
    return not furiten and not isinstance(score_win(ctx), ScoringRefusal)
