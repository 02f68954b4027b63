"""The reference of the ``build`` kernel: a frozen value made by calling its class."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def build(cls: type[T], /, *args: Any, **kw: Any) -> T:
    """``cls(*args, **kw)``: what the C ``build`` (which sets a frozen slotted dataclass's slots
    directly instead of going through the ``__init__`` the decorator writes) must equal."""
    return cls(*args, **kw)
