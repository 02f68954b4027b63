"""``build`` for ``analysis/value.py``, which still imports it from here: the kernel now lives in
``tenhou_tools._native`` (the one door to the C extension). This module goes once the analysis
calls its classes or ``_native.build`` directly."""

from __future__ import annotations

from ._native import build

__all__ = ["build"]
