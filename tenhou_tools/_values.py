"""``build(cls, *args, **kw)``: a frozen value built fast where it is built most.

The value types are ordinary frozen, slotted dataclasses. The ``__init__`` the dataclass
decorator writes for a frozen class sets each field through ``object.__setattr__``; in the
parser and the replay (mypyc-compiled) that is most of the cost of an event. ``build`` makes the
same object by setting its slots directly when the private extension ``tenhou_tools._speedups``
is built; ``build_reference`` (the class's own call) is what runs without it and what the tests
hold it to. Use it only where a profile says so; everywhere else, call the class.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def build_reference(cls: type[T], /, *args: Any, **kw: Any) -> T:
    """``cls(*args, **kw)``."""
    return cls(*args, **kw)


try:
    from ._speedups import build
except ImportError:  # not built (a plain install): the class's own __init__
    build = build_reference
