"""tenhou_tools: parse, replay, verify and summarize Tenhou (tenhou.net) riichi mahjong logs."""

from ._build import use_sources_if_stale

__version__ = "0.1.0"

# a compiled install whose sources were edited since runs those sources (``_build``): an edit
# takes effect on the next run, and one line on standard error says the build is stale
use_sources_if_stale()
