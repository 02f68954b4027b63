"""Where logs are downloaded from and how politely: the settings the command line shows in its
help, apart from the HTTP client (``sources.http``), so that a command that reads local files
does not load the client to print its options."""

from __future__ import annotations

DEFAULT_BASE_URL = "https://tenhou.net"
BASE_URL_ENV = "TENHOU_TOOLS_BASE_URL"
"""The environment variable that replaces the default server (``--base-url`` wins over it)."""
DEFAULT_MIN_INTERVAL = 1.0
"""Seconds between the end of one request and the start of the next (our choice, not Tenhou's)."""
DEFAULT_JITTER = 0.5
"""Up to this many seconds are added at random to each pause."""
