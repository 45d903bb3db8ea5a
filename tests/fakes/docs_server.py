"""A fake Google Docs API server on 127.0.0.1 for tests: the real googleapiclient talks HTTP to it.

Implements the service-account token endpoint (``POST /token``), ``documents.get`` and
``documents.batchUpdate`` (insertText, insertTable, updateParagraphStyle, updateTextStyle, createNamedRange,
insertInlineImage, deleteContentRange, ``writeControl.requiredRevisionId``; every body checked against the shipped
discovery document) over :class:`tests.fakes.docs_model.Document`, with 401 without a bearer token, scripted
faults for the next calls (an HTTP status such as 429, 503, 403, 404; ``"slow"``: the
call is carried out but answered only after ``slow_s``), a hung mode (connections are accepted, nothing is ever
answered), token refusal (``refuse_tokens``: a deleted key), a poison rule (a batchUpdate whose text contains
``reject_text`` gets a 400, as for an entry the service refuses), a "write then drop the connection" mode (the
write lands but the client never hears back), and stop/start on the same port (Docs down, then back).
A stale ``requiredRevisionId`` is answered 400 with ``conflict_message`` and ``conflict_status`` (settable, so a
test can word the conflict otherwise); ``edit_before_next_write`` makes the document move on (another editor)
between a client's read and its next write.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from tests.fakes.docs_discovery import batch_update_problems
from tests.fakes.docs_model import BadRequest, Document

_DOC_PATH = re.compile(r"^/v1/documents/([^/:]+)(:batchUpdate)?$")
_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


class FakeDocsServer:
    """Start with ``with FakeDocsServer() as docs:``; ``docs.endpoint`` is the ``api_endpoint`` to use."""

    def __init__(self) -> None:
        self.documents: dict[str, Document] = {}
        self.received: list[tuple[str, str, Any]] = []
        self.scripted_errors: deque[int | str] = deque()
        self.slow_s = 1.0
        self.hung = threading.Event()
        self.reject_text: str | None = None
        self.refuse_tokens = False
        self.drop_after_next_write = False
        self.edit_before_next_write = False
        self.conflict_message = "The required revision ID does not match the latest revision."
        self.conflict_status = "FAILED_PRECONDITION"
        self._released = threading.Event()
        self.tokens_issued = 0
        self.lock = threading.Lock()
        self.port = 0
        self.stopped = False
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ------------------------------------------------------------------------------------------
    def start(self) -> None:
        handler = _make_handler(self)
        server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        self.stopped = False
        self._released.clear()
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.stopped = True  # kept-alive connections are dropped at their next request, as a dead server would
        self._released.set()  # hung handlers give up
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeDocsServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def create(self, document_id: str) -> Document:
        document = Document(document_id)
        self.documents[document_id] = document
        return document

    def batch_updates(self) -> int:
        return sum(1 for method, path, _ in self.received if method == "POST" and path.endswith(":batchUpdate"))


def _make_handler(fake: FakeDocsServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

        answer_after_s = 0.0
        held: tuple[int, dict[str, Any]] | None = None

        def _reply(self, status: int, payload: dict[str, Any]) -> None:
            if self.answer_after_s:  # carried out; the answer is sent late, outside the lock (the client gave up)
                self.held = (status, payload)
                return
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str, reason: str) -> None:
            self._reply(status, {"error": {"code": status, "message": message, "status": reason}})

        def _route(self, method: str) -> None:
            if fake.hung.is_set():  # accept, read nothing, answer nothing
                fake._released.wait()
                self.close_connection = True
                return None
            if fake.stopped:
                self.close_connection = True
                self.connection.shutdown(2)
                return None
            path = unquote(urlparse(self.path).path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            is_json = "json" in (self.headers.get("Content-Type") or "")
            body = json.loads(raw) if raw and is_json else parse_qs(raw.decode())
            with fake.lock:
                fake.received.append((method, path, body))
                if method == "POST" and path == "/token":
                    return self._token()
                if not (self.headers.get("authorization") or "").startswith("Bearer "):
                    return self._error(401, "Request is missing required authentication credential.", "UNAUTHENTICATED")
                fault = fake.scripted_errors.popleft() if fake.scripted_errors else None
                if isinstance(fault, int):
                    return self._error(fault, "scripted failure", _STATUS_NAMES.get(fault, "UNKNOWN"))
                self.answer_after_s = fake.slow_s if fault == "slow" else 0.0
                match = _DOC_PATH.match(path)
                document = fake.documents.get(match.group(1)) if match else None
                if document is None:
                    return self._error(404, "Requested entity was not found.", "NOT_FOUND")
                if method == "GET" and match and not match.group(2):
                    return self._reply(200, document.to_json())
                if method == "POST" and match and match.group(2):
                    return self._batch_update(document, body or {})
                return self._error(400, "unsupported call in the fake", "INVALID_ARGUMENT")

        def _answer_late(self) -> None:
            if self.held is not None:
                fake._released.wait(self.answer_after_s)
                self.answer_after_s = 0.0
                status, payload = self.held
                self.held = None
                try:
                    self._reply(status, payload)
                except OSError:  # the client closed the connection meanwhile
                    self.close_connection = True

        def _token(self) -> None:
            """The OAuth token endpoint of a service-account flow (JWT-bearer grant): hands out a bearer token."""
            form = fake.received[-1][2]
            if fake.refuse_tokens:  # e.g. the key was deleted in the cloud console
                return self._reply(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
            if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"] or not form.get("assertion"):
                return self._error(400, "invalid_grant", "INVALID_ARGUMENT")
            fake.tokens_issued += 1
            return self._reply(
                200,
                {
                    "access_token": f"fake-token-{fake.tokens_issued}",
                    "expires_in": 3600,
                    "token_type": "Bearer",
                },
            )

        def _batch_update(self, document: Document, body: dict[str, Any]) -> None:
            required = body.get("writeControl", {}).get("requiredRevisionId")
            if fake.edit_before_next_write:  # someone else edits the document between the client's read and write
                fake.edit_before_next_write = False
                document.revision += 1
            if required and required != f"rev-{document.revision}":
                return self._error(400, fake.conflict_message, fake.conflict_status)
            invalid = batch_update_problems(body)  # what the real service would refuse as an unknown or wrong field
            if invalid:
                return self._error(400, "Invalid JSON payload received. " + "; ".join(invalid[:3]), "INVALID_ARGUMENT")
            requests = body.get("requests", [])
            texts = [r["insertText"].get("text", "") for r in requests if "insertText" in r]
            if fake.reject_text is not None and any(fake.reject_text in t for t in texts):
                return self._error(400, "Invalid requests[0].insertText: the text is not accepted.", "INVALID_ARGUMENT")
            try:
                document.apply(requests)
            except BadRequest as exc:
                return self._error(400, str(exc), "INVALID_ARGUMENT")
            if fake.drop_after_next_write:
                fake.drop_after_next_write = False
                self.close_connection = True
                self.connection.shutdown(2)  # the write landed; the client never gets the answer
                return None
            replies: list[dict[str, Any]] = [{} for _ in body.get("requests", [])]
            return self._reply(
                200,
                {
                    "documentId": document.document_id,
                    "replies": replies,
                    "writeControl": {"requiredRevisionId": f"rev-{document.revision}"},
                },
            )

        def do_GET(self) -> None:
            self._route("GET")
            self._answer_late()

        def do_POST(self) -> None:
            self._route("POST")
            self._answer_late()

    return Handler
