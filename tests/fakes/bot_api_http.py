"""The HTTP side of the fake Bot API: route ``/bot<token>/<method>`` and ``/file/bot<token>/<path>``, parse forms.

PTB sends form data: scalars as strings, nested values as JSON strings, uploads as multipart file fields named after
the parameter (``document``, ``photo``). The request log stays silent: every URL holds the bot token.
"""

from __future__ import annotations

import json
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote

if TYPE_CHECKING:
    from tests.fakes.bot_api import FakeBotApi


def parse_form(content_type: str, body: bytes) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
    params: dict[str, str] = {}
    files: dict[str, tuple[str, bytes]] = {}
    if content_type.startswith("multipart/form-data"):
        message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            filename = part.get_filename()
            if filename is not None:
                files[str(name)] = (filename, payload)
            else:
                params[str(name)] = payload.decode()
    elif content_type.startswith("application/json"):
        params = {k: v if isinstance(v, str) else json.dumps(v) for k, v in json.loads(body or b"{}").items()}
    elif body:
        params = dict(parse_qsl(body.decode(), keep_blank_values=True))
    return params, files


def handler_class(api: FakeBotApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the URL holds the token
            pass

        def _reply(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout, or shutdown)
                self.close_connection = True

        def _route(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            parts = unquote(self.path.split("?")[0]).strip("/").split("/")
            if parts[0] == "file" and len(parts) >= 3 and parts[1] == f"bot{api.token}":
                content = api.file_content(parts[-1])
                if content is not None:
                    self._reply(200, content, "application/octet-stream")
                else:
                    self._reply(404, b"not found", "text/plain")
                return
            if len(parts) != 2 or parts[0] != f"bot{api.token}":
                self._reply(401, json.dumps({"ok": False, "error_code": 401, "description": "Unauthorized"}).encode())
                return
            params, files = parse_form(self.headers.get("Content-Type", ""), body)
            status, answer = api.handle(parts[1], params, files)
            self._reply(status, json.dumps(answer).encode())

        do_GET = _route
        do_POST = _route

    return Handler
