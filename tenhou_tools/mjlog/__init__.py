"""The mjlog XML format: bytes in, a ``Game`` out (no file I/O: ``sources`` reads files).

The parser and the meld decoder are private modules (``_parse``, ``_meld``: compiled with mypyc
in a compiled install); their public names are the ones here.
"""

from ._meld import MeldError, decode_meld, encode_meld
from ._parse import MAX_POINTS, parse_game, player_name, ruleset_from_type

__all__ = ["MAX_POINTS", "MeldError", "decode_meld", "encode_meld", "parse_game", "player_name",
           "ruleset_from_type"]
