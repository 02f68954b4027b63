"""An HTTP server on 127.0.0.1 for the network tests: the part every stand-in shares.

A ``LoopbackServer`` listens at a port the system picks (or the one given), serves in a daemon
thread, records every GET (path and headers) and counts the requests in flight; a subclass says
how to answer (``answer``) and may note something of each request while the lock is held
(``note``: what the request's place among the others decides, such as the how-manieth attempt
it is). ``tests/download_support.py`` (a scripted log server) and ``tests/tenhou_standin.py``
(tenhou.net's index and logs) build on it.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class RecordingHandler(BaseHTTPRequestHandler):
    """One request: recorded and counted in flight by its server's ``app``, answered by it."""

    protocol_version = "HTTP/1.1"
    timeout = 10
    server: _Server

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        app = self.server.app
        with app.guard:
            app.requests.append((self.path, dict(self.headers.items())))
            app.inflight += 1
            app.max_inflight = max(app.max_inflight, app.inflight)
            noted = app.note(self.path)
        try:
            app.answer(self, noted)
        finally:
            with app.guard:
                app.inflight -= 1

    def reply(self, status: int, body: bytes, ctype: str = "text/xml", headers=()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers:
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def reply_cut(self, body: bytes, ctype: str) -> None:
        """Announce the whole body, send half of it, hang up: a connection dropped mid-body."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    app: LoopbackServer

    def handle_error(self, request, client_address):  # a client that gave up: fine
        pass


class LoopbackServer:
    """The server's books (``requests``, ``inflight``, ``max_inflight``), its address, and its
    start and stop; ``answer`` is the subclass's."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.guard = threading.Lock()
        self.inflight = 0
        self.max_inflight = 0
        self.httpd: _Server | None = None

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_port}"

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")

    def note(self, path: str) -> Any:
        """What to note of a request just recorded, under the lock (given to ``answer``)."""
        return None

    def answer(self, handler: RecordingHandler, noted: Any) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self.httpd = _Server(("127.0.0.1", self.port), RecordingHandler)
        self.httpd.app = self
        thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()

    def shutdown(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
