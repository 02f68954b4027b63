"""tenhou.net/6 JSON (the format of Tenhou's viewer and ``mjlog2json.cgi``) <-> ``Game``.

``write_tenhou6(game)`` gives the JSON object a Tenhou viewer reads; ``read_tenhou6(data)`` reads
one back into the same event stream the mjlog parser gives, as far as the JSON carries it
(``docs/formats.md`` lists exactly what it does not).

The JSON keeps, per hand and per seat, the tiles the seat *took* (draws and calls) and the tiles
it *gave* (discards, riichi, kans, kita), but not how the seats' actions interleave. The reader
re-simulates the turn order: after each discard the next action is a call on that tile by the
seat whose next take names it, or else the next seat's draw. When a seat's next take could be a
call on this discard or on a later identical one, both are tried (depth-first, backtracking on
the first contradiction: a discard of a tile the seat does not hold, a draw when the seat's next
take is a call, a hand that ends otherwise than its result says).

The modules: ``names`` (the format's vocabulary), ``write`` (Game -> JSON), ``read`` (JSON ->
Game, game by game), ``hand`` (one hand's tokens), ``turns`` (the turn-order search and the
events it gives).
"""

from .hand import _HandReader  # noqa: F401 - for the tests of its parts
from .read import looks_like_tenhou6, read_tenhou6
from .write import _ceil100, _from_slot, _tsumo_split, meld_string, write_tenhou6  # noqa: F401

__all__ = ["looks_like_tenhou6", "read_tenhou6", "write_tenhou6"]
