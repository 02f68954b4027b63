"""tenhou_tools: parse, replay, verify and summarize Tenhou (tenhou.net) riichi mahjong logs."""

from . import native as _native

__version__ = "0.1.0"

# Before any compiled module is imported: run the extension modules only if they were built from
# the sources now on disk (see ``tenhou_tools.native``).
_native.select()
