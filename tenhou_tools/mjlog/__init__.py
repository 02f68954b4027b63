"""The mjlog XML format: reading bytes, decoding melds, parsing tags into events.

The parser and the meld decoder are private modules (``_parse``, ``_meld``: compiled with mypyc
in a compiled install); their public names are the ones here.
"""

from ._meld import MeldError, decode_meld, encode_meld
from ._parse import MAX_POINTS, log_id_from_name, parse_file, parse_game, player_name, ruleset_from_type

__all__ = ["MAX_POINTS", "MeldError", "decode_meld", "encode_meld", "log_id_from_name", "parse_file", "parse_game",
           "player_name", "ruleset_from_type"]
