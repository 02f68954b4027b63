"""The mjlog XML format: reading bytes, decoding melds, parsing tags into events."""

from .meld import decode_meld, encode_meld
from .parse import log_id_from_name, parse_file, parse_game, ruleset_from_type

__all__ = ["decode_meld", "encode_meld", "log_id_from_name", "parse_file", "parse_game", "ruleset_from_type"]
