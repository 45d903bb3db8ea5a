"""A fake Anthropic Messages API on 127.0.0.1 for tests: scripted replies, recorded requests
(docs/integrations.md#anthropic).

The real ``anthropic`` SDK talks to it over HTTP through ``base_url`` — its transport (httpx2), auth header,
retries and timeouts are the real ones. Script items, consumed one per POST /v1/messages:
- a message dict (see :func:`tool_use_message`, :func:`text_message`) -> 200 JSON;
- :class:`Failure` -> that status with an Anthropic-style error body (``retry-after-ms: 1`` so retries are fast);
- :class:`Slow` -> sleeps ``delay_s`` before answering (timeout tests), then answers its inner item.
An empty script answers 400 "no scripted reply", so a test that talks more than it scripted fails loudly.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

API_KEY = "sk-ant-test-fake-key"
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class Failure:
    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Slow:
    delay_s: float
    then: Any


@dataclass
class Request:
    """One request the fake received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int = 0


_ids = itertools.count(1)


def tool_use_message(*calls: tuple[str, dict[str, Any]], text: str = "", tokens: tuple[int, int] = (100, 50)) -> dict:
    """An assistant message calling tools (``stop_reason`` tool_use); ``calls`` = (name, input) pairs."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": f"toolu_{next(_ids):04d}", "name": n, "input": i} for n, i in calls]
    return _message(content, "tool_use", tokens)


def text_message(text: str, tokens: tuple[int, int] = (100, 50)) -> dict:
    return _message([{"type": "text", "text": text}], "end_turn", tokens)


def _message(content: list[dict[str, Any]], stop_reason: str, tokens: tuple[int, int]) -> dict:
    return {
        "id": f"msg_{next(_ids):04d}",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": tokens[0], "output_tokens": tokens[1]},
    }


@dataclass
class FakeAnthropic:
    """The server; ``script`` is consumed in order, ``requests`` records every POST (including failed ones)."""

    script: list[Any] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                status, payload, headers = fake._answer(request)
                request.status = status
                with fake._lock:
                    fake.requests.append(request)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for key, value in {"content-type": "application/json", **headers}.items():
                        self.send_header(key, value)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that timed out closes the socket: not a test failure

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _error(self, status: int, message: str) -> tuple[int, dict[str, Any], dict[str, str]]:
        body = {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}}
        return status, body, {"retry-after-ms": "1"}

    def _answer(self, request: Request) -> tuple[int, dict[str, Any], dict[str, str]]:
        if request.path.rstrip("/") != "/v1/messages":
            return self._error(404, f"fake: no route {request.path}")
        auth = request.headers.get("authorization", "")
        if auth != f"Bearer {API_KEY}" and request.headers.get("x-api-key") != API_KEY:
            return self._error(401, "invalid x-api-key")
        with self._lock:
            item = self.script.pop(0) if self.script else None
        if isinstance(item, Slow):
            time.sleep(item.delay_s)
            item = item.then
        if item is None:
            return self._error(400, "fake: no scripted reply left")
        if isinstance(item, Failure):
            return self._error(item.status, item.message)
        return 200, item, {}

    def tool_results(self, index: int) -> list[dict[str, Any]]:
        """The tool_result blocks the client sent in request ``index`` (its last user message)."""
        last = self.requests[index].body["messages"][-1]
        content = last["content"] if isinstance(last["content"], list) else []
        return [b for b in content if b.get("type") == "tool_result"]
