"""A loopback HTTP server on 127.0.0.1 that answers at random (``FuzzServer``, driven by
``Plan``\\ s): any status, mutated or garbage bodies (gzip that is not, bodies of another game,
HTML), wrong ``Content-Length`` and ``Content-Type``, unknown ``Content-Encoding``, garbage
``Retry-After`` and ``Location``, bodies cut short, trickled or stalled past the read timeout.
The download fuzzer (``downloads``) and the download tests run against it."""

from __future__ import annotations

import gzip
import random
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .logs import MUTATIONS
from .zipwriter import DEFLATED, bomb_payload


def fuzz_game_id(n: int, sanma: bool = False, type_code: int | None = None) -> str:
    """A game id whose type part matches the log served for it (by default the fixtures': 169 =
    0x00a9, or 185 = 0x00b9 for three-player)."""
    if type_code is None:
        type_code = 185 if sanma else 169
    return f"2014102312gm-{type_code:04x}-0000-{n:08x}"


def typed_logs(logs: Sequence[bytes]) -> list[tuple[int, bytes]]:
    """``(GO type, log)`` of each log that parses (what a download of its id must be)."""
    from tenhou_tools.errors import ParseError
    from tenhou_tools.mjlog import parse_game

    out = []
    for data in logs:
        try:
            out.append((parse_game(data).header.ruleset.type_code, data))
        except ParseError:
            continue
    return out


_STATUSES = (200,) * 12 + (100, 103, 201, 204, 206, 301, 302, 304, 307, 400, 401, 403, 404, 410,
                           418, 429, 451, 500, 502, 503, 504, 520, 599, 600, 999)
_CONTENT_TYPES = ("text/xml", "application/xml", "text/html; charset=utf-8", "text/plain",
                  "application/octet-stream", "application/json", "image/png", "", "text/xml; charset=\xff",
                  "multipart/x-mixed-replace; boundary=x")


@dataclass
class Plan:
    """What the server does for one request (chosen at random, recorded for failures)."""

    status: int = 200
    body: str = "log"
    length: str = "exact"
    content_type: str = "text/xml"
    encoding: str | None = None
    chunked: bool = False
    delivery: str = "all"
    extra: list[tuple[str, str]] = field(default_factory=list)
    raw_head: bytes | None = None
    """Sent instead of the status line and headers (a response that is not HTTP at all)."""
    close: bool | None = None
    """Hang up after the response (``None``: one time in five, or when the length is missing)."""

    def describe(self) -> str:
        parts = [f"HTTP {self.status}", f"body={self.body}", f"length={self.length}",
                 f"type={self.content_type!r}", f"delivery={self.delivery}"]
        if self.encoding:
            parts.append(f"encoding={self.encoding}")
        if self.chunked:
            parts.append("chunked")
        if self.extra:
            parts.append(f"headers={self.extra}")
        if self.raw_head is not None:
            parts.append(f"raw head {self.raw_head[:40]!r}")
        return " ".join(parts)


def random_plan(rng: random.Random) -> Plan:
    plan = Plan()
    if rng.random() < 0.3:  # a good answer now and then, so that logs do get cached
        plan.body = rng.choice(["log", "log_gzip"])
        if rng.random() < 0.3:
            plan.content_type = rng.choice(_CONTENT_TYPES)
        return plan
    plan.status = rng.choice(_STATUSES)
    plan.body = rng.choice(["log", "log", "log_gzip", "mutated", "mutated_gzip", "other_game",
                            "garbage_gzip", "truncated_gzip", "html", "empty", "random", "huge",
                            "json", "gzip_bomb", "encoded_bomb"])
    plan.length = rng.choice(["exact", "exact", "exact", "none", "short", "long", "garbage", "two"])
    plan.content_type = rng.choice(_CONTENT_TYPES)
    if rng.random() < 0.25:
        plan.encoding = rng.choice(["gzip", "deflate", "br", "x-unknown", "gzip, gzip", "identity", "GZIP"])
    plan.chunked = rng.random() < 0.15
    plan.delivery = rng.choice(["all"] * 6 + ["trickle", "stall", "cut"])
    if rng.random() < 0.3:
        plan.extra.append(("Retry-After", rng.choice(["0", "1", "5", "999999", "-1", "soon", "1.5",
                                                      "Wed, 21 Oct 2015 07:28:00 GMT", "", "9" * 30])))
    if rng.random() < 0.2:
        plan.extra.append(("Location", rng.choice(["http://example.invalid/x", "/0/log/?x", "",
                                                   "javascript:alert(1)", "\u00ff" * 300])))
    if rng.random() < 0.1:
        plan.extra.append(("Connection", rng.choice(["close", "keep-alive", "upgrade"])))
    if plan.body == "encoded_bomb":  # HTTP compression that inflates to 64 MiB
        plan.encoding = "gzip"
    if rng.random() < 0.03:
        plan.raw_head = rng.choice([b"NOT HTTP\r\n\r\n", b"HTTP/1.1 200\r\n" + b"X: " + b"a" * 70000 + b"\r\n\r\n",
                                    b"HTTP/1.1 abc OK\r\n\r\n", b"\r\n\r\n", b"ICY 200 OK\r\n\r\n"])
    return plan


class FuzzServer:
    """A loopback HTTP server on 127.0.0.1 (an ephemeral port, daemon threads) that answers each
    ``GET /0/log/?ID`` by a random ``Plan``. ``logs`` maps an id to the log it should serve.

    The responses are written byte by byte by hand, so anything can be wrong in them; a watchdog
    stops the server after ``lifetime`` seconds at the latest."""

    def __init__(self, logs: dict[str, bytes], other: bytes, rng: random.Random, *,
                 stall_s: float = 0.6, lifetime: float = 3600.0, script: Sequence[Plan] = ()):
        self.script = list(script)
        """Plans to follow in order instead of random ones (the last one repeats)."""
        self.logs = logs
        self.other = other
        self.rng = rng
        self.stall_s = stall_s
        self.lifetime = lifetime
        self.plans: list[tuple[str, Plan]] = []
        self.guard = threading.Lock()
        self.stopping = threading.Event()
        self.httpd: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"

    def __enter__(self) -> FuzzServer:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = 5

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                log_id = self.path.partition("?")[2]
                with app.guard:
                    if app.script:
                        plan = app.script[min(len(app.plans), len(app.script) - 1)]
                    else:
                        plan = random_plan(app.rng)
                    mutate_rng = random.Random(app.rng.random())
                    app.plans.append((log_id, plan))
                app.respond(self, log_id, plan, mutate_rng)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hung up: expected here

        self.httpd = Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                  daemon=True)
        thread.start()
        self.watchdog = threading.Timer(self.lifetime, self.stop)
        self.watchdog.daemon = True
        self.watchdog.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def __exit__(self, *exc: object) -> None:
        self.watchdog.cancel()
        self.stop()

    def body(self, log_id: str, plan: Plan, rng: random.Random) -> bytes:
        log = self.logs.get(log_id, b"")
        kind = plan.body
        if kind == "log":
            return log
        if kind == "log_gzip":
            return gzip.compress(log, mtime=0)
        if kind in ("mutated", "mutated_gzip"):
            data = rng.choice(list(MUTATIONS.values()))(log, rng)
            return gzip.compress(data, mtime=0) if kind == "mutated_gzip" else data
        if kind == "other_game":
            return self.other
        if kind == "garbage_gzip":
            return b"\x1f\x8b\x08\x00" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
        if kind == "truncated_gzip":
            data = gzip.compress(log, mtime=0)
            return data[: rng.randrange(max(len(data), 1))]
        if kind == "html":
            return b"<!DOCTYPE html><html><body>" + log[:100] + b"</body></html>"
        if kind == "random":
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000)))
        if kind == "huge":
            from tenhou_tools.mjlog.read import MAX_BYTES

            return log + b" " * (MAX_BYTES + 1 - len(log)) if rng.random() < 0.3 else log * 40
        if kind == "json":
            return b'{"title": ["", ""], "name": ["A", "B", "C", "D"], "log": []}'
        if kind in ("gzip_bomb", "encoded_bomb"):
            return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + bomb_payload(DEFLATED, 64)
        return b""

    def respond(self, handler: Any, log_id: str, plan: Plan, rng: random.Random) -> None:
        body = self.body(log_id, plan, rng)
        if plan.body == "encoded_bomb":
            pass  # the bomb itself is the encoded body
        elif plan.encoding in ("gzip", "GZIP") and rng.random() < 0.7:
            body = gzip.compress(body, mtime=0)
        elif plan.encoding == "deflate" and rng.random() < 0.7:
            body = zlib.compress(body)
        reason = {200: "OK", 404: "Not Found"}.get(plan.status, "Whatever")
        head = [f"HTTP/1.1 {plan.status} {reason}"]
        if plan.content_type:
            head.append(f"Content-Type: {plan.content_type}")
        if plan.encoding:
            head.append(f"Content-Encoding: {plan.encoding}")
        close = plan.length == "none" or rng.random() < 0.2 if plan.close is None else plan.close
        if plan.chunked:
            head.append("Transfer-Encoding: chunked")
        elif plan.length == "exact":
            head.append(f"Content-Length: {len(body)}")
        elif plan.length == "short":
            head.append(f"Content-Length: {max(len(body) - rng.randint(1, 50), 0)}")
        elif plan.length == "long":
            head.append(f"Content-Length: {len(body) + rng.randint(1, 5000)}")
        elif plan.length == "garbage":
            head.append(f"Content-Length: {rng.choice(['abc', '-1', '1e3', '', '0x10', '99999999999999999999'])}")
        elif plan.length == "two":
            head.append(f"Content-Length: {len(body)}")
            head.append(f"Content-Length: {len(body) // 2}")
        for key, value in plan.extra:
            head.append(f"{key}: {value}")
        if close:
            head.append("Connection: close")
        raw = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1", "replace")
        if plan.raw_head is not None:
            raw, close = plan.raw_head, True
        if plan.chunked:
            payload = bytearray()
            for at in range(0, len(body), 997):
                piece = body[at: at + 997]
                payload += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
            if rng.random() < 0.7:
                payload += b"0\r\n\r\n"
            else:  # a broken chunk size, or none at the end
                payload += rng.choice([b"zz\r\n", b"ffffffff\r\nabc", b""])
            body = bytes(payload)
        wfile = handler.wfile
        try:
            if plan.delivery == "all":
                wfile.write(raw + body)
            elif plan.delivery == "trickle":
                wfile.write(raw)
                step = max(len(body) // 5, 1)
                for at in range(0, len(body), step):
                    wfile.write(body[at: at + step])
                    wfile.flush()
                    if self.stopping.wait(0.01):
                        break
            elif plan.delivery == "stall":  # half the body, then silence past the read timeout
                wfile.write(raw + body[: len(body) // 2])
                wfile.flush()
                self.stopping.wait(self.stall_s)
                close = True
            else:  # "cut": part of the body, then hang up
                wfile.write(raw + body[: rng.randrange(len(body) + 1)])
                close = True
            wfile.flush()
        except OSError:
            close = True
        handler.close_connection = close
