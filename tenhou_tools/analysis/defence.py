"""Defence on a board: each tile of the discarder's hand classed against each opponent in riichi
(``danger_against``) or against every opponent the model counts as a threat, riichi or not
(``threats_against``: with how likely that opponent is tenpai and what its win would cost),
from the discarder's view only.

Reads a frozen ``replay.board.Board`` (the table just before the discard, from the one fold),
or the table state itself (``threats_at``, the analysis at every discard: no snapshot built, and
the visible counts the analysis has already): each pond tile carries the step it was discarded
at, so the discards made after an opponent's declaration discard are the ones with a later
step. Both read the same few facts of each seat (``_Seats``) and judge them in one place; the
classes and rates themselves are ``rules.danger``. Definitions: docs/analysis.md, "Danger
against a riichi".
"""

from __future__ import annotations

from .._native import build
from ..replay.board import Board
from ..replay.state import TableState
from ..rules.danger import EARLY_DISCARDS, dora_kinds, rated_hand, riichi_opponent, visible_counts
from ..rules.values import RiichiOpponent
from ..tiles import yakuhai_kinds
from .tables import ron_points, tenpai_chance
from .values import DangerAgainst

__all__ = [
    "THREAT_MIN",
    "DangerAgainst",
    "danger_against",
    "opponents_in_riichi",
    "threat_chance",
    "threats_against",
    "threats_at",
    "visible_from",
]

THREAT_MIN = 0.25
"""An opponent not in riichi is a threat when the measured chance that it is tenpai
(``tables.tenpai_chance``: its open melds and turn) is at least this: two calls from the
seventh discard, one call from about the tenth, three calls always; a closed hand never (13 %
at most)."""


def visible_from(board: Board, seat: int, *, sanma: bool = False) -> list[int]:
    """Per kind 0-33, the copies ``seat`` can see on ``board``: its concealed tiles, every meld,
    every pond tile not called away (a called tile is in its meld) and the dora indicators."""
    public: list[int] = list(board.dora_indicators)
    for s in board.seats:
        for meld in s.melds:
            public += meld.tiles
        public += [p.tile for p in s.pond if not p.called]
    return visible_counts(list(board.seats[seat].concealed), public, sanma=sanma)


class _Seats:
    """What the defence reads of each seat of a table (a ``Board`` or the ``TableState``): the
    index of its riichi declaration discard in its pond (-1 before it), its open melds and its
    pond's length; each pond's tiles and their steps only when there is a threat."""

    def __init__(self, players: int, round_wind: int, dealer: int, declarations: list[int],
                 open_melds: list[int], discards: list[int]) -> None:
        self.players = players
        self.round_wind = round_wind
        self.dealer = dealer
        self.declarations = declarations
        self.open_melds = open_melds
        self.discards = discards
        self.ponds: list[list[int]] = []
        """Each pond's tiles in order, called-away ones included."""
        self.steps: list[list[int]] = []
        """The step of each of those tiles."""

    def riichi_opponent(self, r: int) -> RiichiOpponent:
        """Seat ``r``, whose declaration discard is out, with the tiles discarded by anyone after
        it (a later step)."""
        declaration = self.declarations[r]
        declared_at = self.steps[r][declaration]
        passed = []
        for other in range(self.players):
            if other != r:
                steps = self.steps[other]
                pond = self.ponds[other]
                passed += [pond[i] for i in range(len(pond)) if steps[i] > declared_at]
        return riichi_opponent(r, self.ponds[r], declaration, passed, round_wind=self.round_wind,
                               seat_wind=(r - self.dealer) % self.players)


def _board_seats(board: Board) -> _Seats:
    players = len(board.seats)
    declarations = []
    for s in board.seats:
        marks = [i for i, p in enumerate(s.pond) if p.riichi]
        declarations.append(marks[0] if marks else -1)
    seats = _Seats(players, board.round // 4, board.dealer, declarations,
                   [sum(1 for m in s.melds if m.kind.is_open) for s in board.seats],
                   [len(s.pond) for s in board.seats])
    seats.ponds = [[p.tile for p in s.pond] for s in board.seats]
    seats.steps = [[p.step for p in s.pond] for s in board.seats]
    return seats


def opponents_in_riichi(board: Board, seat: int) -> list[RiichiOpponent]:
    """The opponents of ``seat`` whose riichi declaration discard is on ``board`` (seat order),
    each with the tiles discarded by anyone after that declaration discard (a later step)."""
    seats = _board_seats(board)
    return [seats.riichi_opponent(r) for r in range(seats.players) if r != seat and seats.declarations[r] >= 0]


def threat_chance(players: int, *, riichi: bool, open_melds: int, discards: int) -> float:
    """How likely an opponent is tenpai, as far as the model counts it a threat: 1 in riichi,
    else its measured chance (``tables.tenpai_chance`` by its open melds and its discards so far)
    when that is at least ``THREAT_MIN``, else 0 (not a threat)."""
    if riichi:
        return 1.0
    chance = tenpai_chance(players, open_melds, discards)
    return chance if chance >= THREAT_MIN else 0.0


def danger_against(board: Board, seat: int, tile: int, *, sanma: bool = False) -> tuple[DangerAgainst, ...] | None:
    """The hand of ``seat`` (before discarding ``tile``) against each opponent in riichi on
    ``board`` (the riichi entries of ``threats_against``); ``None`` when no opponent is in
    riichi."""
    entries = tuple(t for t in threats_against(board, seat, tile, sanma=sanma) if t.riichi)
    return entries or None


def threats_against(board: Board, seat: int, tile: int, *, sanma: bool = False) -> tuple[DangerAgainst, ...]:
    """The hand of ``seat`` (before discarding ``tile``) against every threat on ``board``:
    each opponent in riichi (tenpai for sure), and each other opponent whose chance of being
    tenpai is at least ``THREAT_MIN``; each entry with that chance and the mean points its ron
    would cost (``tables.ron_points``: riichi, open or dama, dealer or not). Against an opponent
    not in riichi the genbutsu are its own discards (it may not ron them: furiten), the turn is
    its discards so far and no tile is its declaration's suji. Seat order; empty when there is
    no threat."""
    seats = _board_seats(board)
    chances = _chances(seats, seat)
    if not chances:
        return ()
    return _threats(seats, chances, seat, tile, list(board.seats[seat].concealed), list(board.dora_indicators),
                    visible_from(board, seat, sanma=sanma), sanma)


def threats_at(state: TableState, seat: int, tile: int, visible: list[int], *,
               sanma: bool = False) -> tuple[DangerAgainst, ...]:
    """``threats_against`` on the table state itself, as ``state.board()`` would show it, with
    ``visible`` the copies ``seat`` sees (``visible_from``'s counts): the analysis asks it at
    every discard. Measured (callgrind, compiled, 3 corpus games' analyze_game): this and
    ``game.visible_in`` 81 M + 25 M instructions, against 171 M for ``threats_against`` on the
    board, 78 M for the board itself (its furiten judged for every waiting seat, never read
    here) and 35 M for the visible counts asked a second time."""
    players = state.players
    table = state.seats[:players]
    init = state.init
    seats = _Seats(players, init.round // 4, init.dealer, [s.riichi_discard for s in table],
                   [sum(1 for m in s.melds if m.kind.is_open) for s in table], [len(s.pond) for s in table])
    chances = _chances(seats, seat)
    if not chances:
        return ()
    seats.ponds = [[d.tile for d in s.pond] for s in table]
    seats.steps = [s.pond_steps for s in table]
    return _threats(seats, chances, seat, tile, state.seats[seat].concealed, state.dora, visible, sanma)


def _chances(seats: _Seats, seat: int) -> dict[int, float]:
    """Each threat to ``seat`` (seat order) with the chance it is tenpai (``threat_chance``)."""
    found = {}
    for r in range(seats.players):
        if r != seat:
            chance = threat_chance(seats.players, riichi=seats.declarations[r] >= 0,
                                   open_melds=seats.open_melds[r], discards=seats.discards[r])
            if chance:
                found[r] = chance
    return found


def _threats(seats: _Seats, chances: dict[int, float], seat: int, tile: int, concealed: list[int],
             dora_indicators: list[int], visible: list[int], sanma: bool) -> tuple[DangerAgainst, ...]:
    players = seats.players
    dora = dora_kinds(dora_indicators, sanma=sanma)
    kinds = sorted({t >> 2 for t in concealed} | {tile >> 2})
    at = kinds.index(tile >> 2)
    entries = []
    for r, chance in chances.items():
        open_melds = seats.open_melds[r]
        in_riichi = seats.declarations[r] >= 0
        if in_riichi:
            opponent = seats.riichi_opponent(r)
            state = "riichi"
        else:
            pond = seats.ponds[r]
            opponent = build(RiichiOpponent, seat=r, safe=frozenset(t >> 2 for t in pond), turn=len(pond),
                             declaration=-1, early=frozenset(t >> 2 for t in pond[:EARLY_DISCARDS]),
                             yakuhai=yakuhai_kinds(seats.round_wind, (r - seats.dealer) % players))
            state = "open" if open_melds else "dama"
        # ``build`` (the opponent not in riichi above, its riichi one in ``rules.danger.
        # riichi_opponent``, this entry): the frozen values' own __init__ sets each field through
        # object.__setattr__ (callgrind, compiled, 3 corpus games' analyze_game: 1,803 M
        # instructions against 1,819 M)
        hand, rates = rated_hand(kinds, opponent, visible, players=players, dora=dora, sanma=sanma)
        value = ron_points(players, state, r == seats.dealer)
        entries.append(build(DangerAgainst, seat=r, tile=hand[at], hand=hand, rates=rates, riichi=in_riichi,
                             tenpai=chance, hand_value=value, open_melds=open_melds))
    return tuple(entries)
