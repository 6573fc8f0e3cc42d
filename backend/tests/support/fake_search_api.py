"""A fake search API on loopback: a real HTTP server (stdlib, in a thread) that answers every
request with a scripted status and JSON body, optionally after a delay, and records what it got."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Received:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class FakeSearchApi:
    status: int = 200
    body: Any = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None
    received: list[Received] = field(default_factory=list)
    url: str = ""


def _handler(api: FakeSearchApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            api.received.append(
                Received(
                    self.command,
                    parts.path,
                    parse_qs(parts.query),
                    {k.lower(): v for k, v in self.headers.items()},
                    json.loads(raw) if raw else None,
                )
            )
            if api.delay:
                time.sleep(api.delay)
            payload = api.raw if api.raw is not None else json.dumps(api.body).encode()
            try:
                self.send_response(api.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                pass

        do_GET = _answer
        do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve_fake_search_api(api: FakeSearchApi) -> Iterator[FakeSearchApi]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
