"""A small set of logs for the statistics page's tests: files named by game id (so each has a
date), with the dan and rate of each seat changing from game to game.

Ann plays eight four-player games (six houou East-South, two houou East-only) and three
three-player games, always in seat 0. Each game is one hand: the winner rons the loser, the
two others keep 25000 (35000 in three-player), so the placement is known without playing
mahjong (the tie between the two goes to the seat nearer East). Two opponents have names made
of markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .stats_logs import Log

ANN = "Ann"
HOSTILE = "</script><b>bold</b>&amp;<!--"
"""A name that would end the data element, open a comment and make markup, if it were markup."""
IMG = '<img src="https://example.com/x.png" onerror="alert(1)">'
"""A name that would fetch an image, if it were markup."""


@dataclass(frozen=True, slots=True)
class Planned:
    """One game as the test sees it: who wins from whom, and Ann's dan and rate at that game."""

    log_id: str
    players: int
    go_type: int
    winner: int
    loser: int
    dan: int
    rate: float

    @property
    def ann_rank(self) -> int:
        """Ann (seat 0) is 1st when she wins, last when she deals in, else after the winner
        and after any seat nearer East that also kept its start."""
        if self.winner == 0:
            return 1
        if self.loser == 0:
            return self.players
        return 2  # seat 0 is nearest East of those who kept their start


def _id(day: int, code: str, n: int) -> str:
    return f"2023{1 + day // 28:02d}{1 + day % 28:02d}12gm-{code}-0000-{n:08x}"


# (winner, loser) of each game, Ann's dan id and rate at it.
FOUR = [(0, 1, 13, 1850.0), (1, 0, 14, 1872.5), (2, 3, 14, 1860.0), (0, 2, 14, 1881.0),
        (3, 0, 14, 1890.0), (0, 3, 15, 1905.5), (1, 2, 15, 1899.0), (2, 0, 15, 1910.0)]
THREE = [(0, 1, 13, 1700.0), (1, 0, 13, 1712.0), (2, 1, 13, 1690.0)]


def planned() -> list[Planned]:
    out = []
    for i, (winner, loser, dan, rate) in enumerate(FOUR):
        go_type = 169 if i < 6 else 161  # houou East-South, then houou East-only
        out.append(Planned(_id(2 * i, f"{go_type:04x}", i + 1), 4, go_type, winner, loser, dan, rate))
    for i, (winner, loser, dan, rate) in enumerate(THREE):
        out.append(Planned(_id(2 * i + 1, "00b9", 100 + i), 3, 185, winner, loser, dan, rate))
    return out


def log_of(game: Planned) -> bytes:
    if game.players == 4:
        names = [ANN, HOSTILE, IMG, "Dov"]
    else:
        names = [ANN, HOSTILE, "Eve"]
    log = Log(names, players=game.players, go_type=game.go_type)
    h = log.hand(dealer=0)
    h.go(0)
    if game.winner != 0 and game.go_type == 169:
        h.riichi(game.winner)  # the stick comes back with the win: the placement stays
    h.ron(game.winner, game.loser, 8000)
    order = sorted(range(game.players), key=lambda s: (-log.scores[s], s))
    uma = [45.0, 5.0, -15.0, -35.0] if game.players == 4 else [40.0, 0.0, -40.0]
    points = [0.0] * game.players
    for rank, seat in enumerate(order):
        points[seat] = uma[rank]
    xml = log.xml(points).decode()
    n = game.players
    dans = [game.dan] + [12] * (n - 1) + [0] * (4 - n)
    rates = [game.rate] + [1800.0] * (n - 1) + [1500.0] * (4 - n)
    xml = xml.replace('dan="10,10,10,0" rate="1500,1500,1500,1500"',
                      f'dan="{",".join(map(str, dans))}" rate="{",".join(f"{r:.2f}" for r in rates)}"')
    return xml.encode()


def write_logs(folder: Path) -> list[Path]:
    """Every planned game as ``<game id>.xml`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for game in planned():
        path = folder / f"{game.log_id}.xml"
        path.write_bytes(log_of(game))
        paths.append(path)
    return paths
