"""Rich renderables for games: headers, hand lines, results. No printing here."""

from __future__ import annotations

from rich.console import RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..events import DAN_NAMES, Agari, DrawKind, Game, Hand, Init, Player, Ruleset, Ryuukyoku
from ..rounding import fixed
from ..rules.game_end import ranking
from ..rules.yaku import DORA_IDS, YAKU, yaku_name
from ..rules.yaku import LIMIT_NAMES as YAKU_LIMIT_NAMES
from .term import visible

DRAW_NAMES = {
    DrawKind.EXHAUSTIVE: "Exhaustive draw",
    DrawKind.NINE_TERMINALS: "Abortive draw: nine terminals",
    DrawKind.FOUR_RIICHI: "Abortive draw: four riichi",
    DrawKind.TRIPLE_RON: "Abortive draw: triple ron",
    DrawKind.FOUR_KANS: "Abortive draw: four kans",
    DrawKind.FOUR_WINDS: "Abortive draw: four winds",
    DrawKind.NAGASHI_MANGAN: "Nagashi mangan",
}
LIMIT_NAMES = {k: v for k, v in YAKU_LIMIT_NAMES.items() if k}
"""A limit's name (no entry for 0: below mangan)."""


def dan_name(dan: int) -> str:
    return DAN_NAMES[dan] if 0 <= dan < len(DAN_NAMES) else f"dan {dan}"


def seats(ruleset: Ruleset) -> range:
    return range(ruleset.players)


def lobby_line(game: Game) -> str:
    rules = game.header.ruleset
    text = f"{rules.name_en()} ({rules.name_ja()})"
    if game.header.lobby:  # a number
        text += f", lobby {game.header.lobby}"
    return text


def players_table(game: Game, *, viewer: int | None = None) -> Table:
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("Seat", no_wrap=True)
    table.add_column("Player", overflow="fold")  # a long name folds; it is never cut
    table.add_column("Dan", no_wrap=True)
    table.add_column("Rate", justify="right", no_wrap=True)
    for p in game.header.players[: game.header.ruleset.players]:
        mark = " (you)" if viewer == p.seat else ""
        table.add_row(f"S{p.seat}{mark}", Text(visible(p.name) or "-"), dan_name(p.dan), _rate(p))
    return table


def _rate(p: Player) -> str:
    return fixed(p.rate) if p.rate else "-"  # rounding.py: the page rounds it alike


def signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def describe_agari(a: Agari) -> str:
    """``Ron S2<-S1 7700 (30fu 4han: riichi, pinfu, dora 2)``."""
    how = f"Tsumo S{a.who}" if a.is_tsumo else f"Ron S{a.who}<-S{a.from_who}"
    if a.yakuman:
        names = ", ".join(yaku_name(y) for y in a.yakuman)
        detail = f"yakuman: {names}"
    else:
        parts = []
        for yid, han in a.yaku:
            if yid in DORA_IDS:
                if han:
                    parts.append(f"{yaku_name(yid)} {han}")
            else:
                parts.append(yaku_name(yid))
        limit = LIMIT_NAMES.get(a.limit)
        fu = f"{a.fu}fu " if a.fu is not None else ""
        head = f"{fu}{a.han}han" + (f" {limit}" if limit else "")
        detail = f"{head}: {', '.join(parts)}"
    pao = f", pao S{a.pao_who}" if a.pao_who is not None else ""
    return f"{how} {a.points} ({detail}{pao})"


def describe_draw(r: Ryuukyoku, players: int) -> str:
    text = DRAW_NAMES[r.kind]
    if r.kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN):
        tenpai = [f"S{s}" for s in range(players) if r.hands[s] is not None]
        text += f" (tenpai: {', '.join(tenpai) if tenpai else 'none'})"
    return text


def hand_deltas(hand: Hand, players: int) -> list[int]:
    """Each seat's score change over the hand, as ``replay`` shows it: its score after the hand's
    last result (that result's scores before it plus its payments) less its score at the deal, so
    a riichi stick paid in the hand counts (a riichi that wins 3,900 and takes its own stick back
    changed by +3,900, not the +4,900 of the payments). Nothing before the hand has a result."""
    last = hand.endings[-1] if hand.endings else None
    if last is None:
        return [0] * players
    return [last.scores_before[s] + last.deltas[s] - hand.init.scores[s] for s in range(players)]


def dealer_text(init: Init) -> str:
    return f"S{init.dealer}"


LOG_ENDS_IN_HAND = "The log ends here, before this hand's result."
"""What a view says of a hand that has no result (a log that stops early)."""
NO_FINAL_RESULT = "No final result: the log ends here (incomplete game)."


RESULT_MIN_WIDTH = 20
"""The narrowest Result column of ``show``'s hand table; narrower, each result goes on its own
line under its hand's scores."""


def _hand_rows(game: Game) -> list[tuple[str, str, str, list[str]]]:
    """``(label, dealer, result, deltas)`` per hand."""
    n = game.header.ruleset.players
    rows = []
    for hand in game.hands:
        endings = hand.endings
        results = [describe_agari(end) if isinstance(end, Agari) else describe_draw(end, n) for end in endings]
        label = hand.init.label()
        if hand.init.sticks:
            label += f" +{hand.init.sticks}r"
        rows.append((label, dealer_text(hand.init), "; ".join(results) or LOG_ENDS_IN_HAND,
                     [signed(d) for d in hand_deltas(hand, n)]))
    return rows


class HandsTable:
    """``show``'s table of hands: a row per hand with its result and each seat's score change.
    Where the Result column would be narrower than ``RESULT_MIN_WIDTH`` (a narrow terminal), the
    dealer column is left out and each result goes on the lines under its hand's scores (and a
    line says so): numbers stay whole and results readable down to 40 columns."""

    def __init__(self, game: Game):
        self.players = game.header.ruleset.players
        self.rows = _hand_rows(game)

    def _widths(self) -> list[int]:
        """The Hand column's width, then each seat's (the text is ASCII: a character a cell)."""
        widths = [max([4, *(len(r[0]) for r in self.rows)])]
        return widths + [max([2, *(len(r[3][s]) for r in self.rows)]) for s in range(self.players)]

    def _wide(self) -> Table:
        table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        table.add_column("Hand", no_wrap=True)
        table.add_column("Dealer", no_wrap=True)
        table.add_column("Result", overflow="fold")
        for s in range(self.players):
            table.add_column(f"S{s}", justify="right", no_wrap=True)
        for label, dealer, result, deltas in self.rows:
            table.add_row(label, dealer, Text(result), *deltas)
        return table

    def _narrow(self) -> list[RenderableType]:
        widths = self._widths()

        def line(cells: list[str]) -> str:
            return cells[0].ljust(widths[0]) + "".join(f" {c:>{w}}" for c, w in zip(cells[1:], widths[1:]))

        out: list[RenderableType] = [
            Text(line(["Hand", *(f"S{s}" for s in range(self.players))]), style="bold", no_wrap=True,
                 overflow="ignore")]
        for label, _dealer, result, deltas in self.rows:
            out.append(Text(line([label, *deltas]), no_wrap=True, overflow="ignore"))
            out.append(Padding(Text(result), (0, 0, 0, 2)))
        out.append(Text("Narrow terminal: each hand's result is under its scores, the Dealer column left out.",
                        style="dim"))
        return out

    def __rich_console__(self, console, options):
        fixed = sum(self._widths()) + 6 + 2 * (self.players + 2)  # + Dealer, and the padding
        if options.max_width - fixed >= RESULT_MIN_WIDTH:
            yield self._wide()
        else:
            yield from self._narrow()


def hands_table(game: Game) -> HandsTable:
    return HandsTable(game)


class FinalResult:
    """``Final: 1. S0 Alice 73000 (+83.0)  2. ...`` on one line when it fits the width, else
    ``Final:`` and one line per place (an entry is never broken in two)."""

    def __init__(self, entries: list[str]):
        self.entries = entries

    def __rich_console__(self, console, options):
        line = Text.assemble(("Final: ", "bold"), "  ".join(self.entries))
        if line.cell_len <= options.max_width:
            yield line
            return
        yield Text("Final:", style="bold")
        for entry in self.entries:
            yield Text("  " + entry)


def final_text(game: Game) -> Text | FinalResult:
    owari = game.owari
    if owari is None:
        return Text(NO_FINAL_RESULT)
    n = game.header.ruleset.players
    order = ranking(owari.scores, n, game.header.first_dealer)
    parts = []
    for rank, s in enumerate(order, 1):
        name = visible(game.header.players[s].name) or f"S{s}"
        parts.append(f"{rank}. S{s} {name} {owari.scores[s]} ({fixed(owari.points[s], 1, plus=True)})")
    return FinalResult(parts)


def yaku_label(yaku_id: int) -> str:
    info = YAKU.get(yaku_id)
    return f"{info.name} ({info.name_ja})" if info else str(yaku_id)
