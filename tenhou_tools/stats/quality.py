"""Play quality (opt-in ``stats --quality``): how many of a player's discards were the most
efficient by shanten and tile acceptance (``analysis.analyze_discard``).

``game_quality(game)`` follows each seat's concealed hand through the log's events (draws add,
discards remove, calls take their tiles out), and judges every discard that was a choice: not
the discards after a riichi (those are forced), and with the kinds that kuikae forbids after a
call (``rules.calls.kuikae_forbidden``) left out of the candidates. A discard is **efficient**
when no allowed discard leaves a lower shanten, or the same shanten with more unseen accepted
tiles (it is among the best).

It costs the discard analysis (about 170 µs of CPU a discard, some 70 ms a game over the
corpus), which is why the default ``stats`` run does not do it. Definitions: ``docs/stats.md``,
"Play quality".
"""

from __future__ import annotations

from ..analysis import analyze_discard
from ..events import Call, CallKind, Discard, Draw, Game, NewDora, Riichi
from ..rules.calls import kuikae_forbidden

__all__ = ["game_quality"]


def game_quality(game: Game) -> list[tuple[int, int]]:
    """``(discards judged, efficient ones)`` per seat (index = seat) over the whole game."""
    sanma = game.header.ruleset.sanma
    n = game.header.ruleset.players
    judged = [0] * n
    efficient = [0] * n
    for hand in game.hands:
        concealed = [list(tiles) for tiles in hand.init.hands]
        melds = [0] * 4
        public = [0] * 34  # ponds, melds, dora indicators: what every seat sees
        public[hand.init.dora_indicator >> 2] += 1
        declared = [False] * 4  # riichi step 1 seen: the next discard is the declaration
        in_riichi = [False] * 4
        forbidden: list[frozenset[int]] = [frozenset()] * 4
        for event in hand.events:
            if isinstance(event, Draw):
                concealed[event.seat].append(event.tile)
            elif isinstance(event, Discard):
                s = event.seat
                own = concealed[s]
                if not in_riichi[s] and event.tile in own and len(own) % 3 == 2:
                    seen = public[:]
                    for t in own:
                        seen[t >> 2] += 1
                    result = analyze_discard(own, melds[s], event.tile, [4 - c for c in seen],
                                             sanma=sanma, forbidden=forbidden[s])
                    judged[s] += 1
                    efficient[s] += result.loss is None
                if event.tile in own:
                    own.remove(event.tile)
                public[event.tile >> 2] += 1
                forbidden[s] = frozenset()
                if declared[s]:
                    in_riichi[s] = True
            elif isinstance(event, Call):
                meld, own = event.meld, concealed[event.seat]
                ck = meld.kind
                if ck is CallKind.ADDED_KAN:
                    taken = [] if meld.added is None else [meld.added]
                elif ck in (CallKind.CLOSED_KAN, CallKind.KITA):
                    taken = list(meld.tiles)
                else:  # chi, pon, open kan: the called tile is public already (it was discarded)
                    taken = [t for t in meld.tiles if t != meld.called]
                for t in taken:
                    if t in own:
                        own.remove(t)
                    public[t >> 2] += 1
                if ck not in (CallKind.ADDED_KAN, CallKind.KITA):
                    melds[event.seat] += 1
                forbidden[event.seat] = kuikae_forbidden(meld)
            elif isinstance(event, Riichi):
                if event.step == 1:
                    declared[event.seat] = True
            elif isinstance(event, NewDora):
                public[event.tile >> 2] += 1
    return list(zip(judged, efficient))
