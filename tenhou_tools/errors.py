"""Operational errors (bad input, failed downloads). Problems *in* a game are findings instead."""

from __future__ import annotations


class TenhouToolsError(Exception):
    """Base class of the errors this package raises on purpose."""


class InputError(TenhouToolsError):
    """A path, id or option the user gave cannot be used."""


class ParseError(TenhouToolsError):
    """A log cannot be read as an mjlog game.

    ``source`` names the file (or ``<bytes>``); ``where`` the element (``"element 57 <AGARI>"``)
    or byte offset. ``str()`` gives one line that says what is wrong.
    """

    def __init__(self, message: str, *, source: str | None = None, where: str | None = None):
        self.message = message
        self.source = source
        self.where = where
        super().__init__(self.__str__())

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.where) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message


class MeldError(ValueError):
    """An ``m`` value (the meld bitfield of ``N`` and ``AGARI m``) that no meld has; the parser
    turns it into a ``ParseError`` (``mjlog.decode_meld`` raises it; importable from ``mjlog``)."""


class DownloadError(TenhouToolsError):
    """A log could not be fetched from tenhou.net (or the cache): ``str()`` is one line."""
