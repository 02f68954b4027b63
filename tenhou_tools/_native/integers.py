"""The reference of the ``numbers`` kernel: the comma-separated integers of an mjlog attribute."""

from __future__ import annotations


def numbers(text: str, lo: int, hi: int) -> tuple[int, ...] | None:
    """Comma-separated decimal integers as Tenhou writes them (an optional ``-``, then 1-18 ASCII
    digits), each within ``lo``..``hi``; ``""`` gives ``()``. ``None`` for anything else: the
    caller then parses with ``int()`` and says what is wrong."""
    if not text:
        return ()
    if not text.isascii():
        return None
    values = []
    for part in text.split(","):
        digits = part[1:] if part[:1] == "-" else part
        if not (0 < len(digits) <= 18 and digits.isdigit()):
            return None
        value = int(part)
        if not lo <= value <= hi:
            return None
        values.append(value)
    return tuple(values)
