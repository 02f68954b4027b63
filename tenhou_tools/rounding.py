"""The one rule for rounding a number people read: a half rounds away from zero.

A rate of R2117.5 shows as R2118 and R2118.5 as R2119; +0.25 at one decimal as +0.3, -2.5 as
-3: "half up" as people round by hand, in size. Tenhou gives a rate two decimals (``2117.53``)
and no rule for showing it whole that the project could establish, so the rule is the plain one.
Python's own ``round`` and ``format`` round a half to even (2118.5 to 2118) and JavaScript's
``Math.round`` a half up towards +infinity (-2.5 to -2): used as they are, the terminal and a page
showed one value two ways.

Every number shown in both the terminal and a page is rounded by this rule: here for the
terminal (``fixed``), and on the pages by ``TenhouText.fixed`` (``views/static/shared_text.js``,
``Number.prototype.toFixed``, which rounds the same way); ``tests/test_rounding.py`` holds the two
to the same text. The value rounded is the number as stored, a binary double: 1.45 is stored as
1.4499999999999999556 and shows as 1.4 at one decimal, on both sides alike. A value that rounds
to zero shows no minus sign (``0``, ``+0.0``).

The JSON documents the pages read round their figures by the same rule (``rounded``), and a view
that shows a figure with fewer decimals than its document holds rounds the document's value, as
the page does (a figure is rounded once more, never from a different number).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import overload

__all__ = ["fixed", "rounded"]


_HALVES = tuple(0.5 / 10**d for d in range(16))
"""Half of the last place kept, by the decimals kept (0.00005 for 4)."""


def _quantized(value: float, digits: int) -> Decimal:
    """``value``'s exact value rounded to ``digits`` decimals, a half away from zero."""
    return Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


@overload
def rounded(value: float) -> int: ...


@overload
def rounded(value: float, digits: int) -> float: ...


def rounded(value: float, digits: int = 0) -> float:
    """``value`` rounded to ``digits`` decimals, a half away from zero (``round``'s shape: an
    ``int`` for 0 digits, else a float; an ``int`` given is returned as it is)."""
    if isinstance(value, int):
        return value
    if digits == 0:
        whole = math.floor(value)
        part = value - whole  # exact: the bits of value below the units
        return whole + 1 if part > 0.5 or (part == 0.5 and value > 0) else whole
    near = round(value, digits)  # correctly rounded, a half to even
    half = _HALVES[digits]
    if abs(abs(value - near) - half) > 1e-15 * abs(value) + 1e-12 * half:
        return near  # not a half: the nearest is the one answer (``round``: several times faster than
        # the exact reading below, which the stats report's tens of thousands of figures feel)
    return float(_quantized(value, digits))


def fixed(value: float, digits: int = 0, *, plus: bool = False, grouping: bool = False) -> str:
    """``value`` as text with ``digits`` decimals, rounded a half away from zero: ``2119``,
    ``+0.3`` (``plus``: a sign on a value that is not negative), ``7,775`` (``grouping``: a comma
    every three digits). Never ``-0``."""
    near = rounded(value, digits)  # the double nearest to the rounded number: written as that number
    if near == 0:
        near = 0  # never -0.0
    return format(near, ("+" if plus else "") + ("," if grouping else "") + f".{digits}f")
