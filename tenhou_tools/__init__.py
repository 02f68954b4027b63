"""tenhou_tools: parse, replay, verify and summarize Tenhou (tenhou.net) riichi mahjong logs."""

__version__ = "0.1.0"
