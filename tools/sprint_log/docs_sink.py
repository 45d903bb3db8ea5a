"""The Google Docs sprint-log sink: one cached Docs service, every call on one worker thread.

httplib2 (under google-api-python-client) is not thread-safe and ``service.documents()`` is expensive to build
(docs/integrations.md#google-docs-sprint-log), so the sink builds the resource once, lazily, on its single worker thread
and runs every Docs call there; this also serialises writes to the shared document. One entry costs one ``get`` and one
``batchUpdate``. The ``get`` also answers "is this entry already there?" (its ``sutro#uid`` marker), which makes a
retry after a crash between the write and the outbox update harmless. ``requiredRevisionId`` makes a write based
on a stale read fail instead of landing twice when two deliverers race; the retry re-reads and sees the marker.
Such a conflict is recognised by what the API says, not how: the error body's ``status`` field
(FAILED_PRECONDITION or ABORTED), or, for any other 4xx refusal of a write that carried the lock, a fresh read
showing that the document's revision moved on. The words of the message are never matched.

Every HTTP call has a timeout (``timeout_s`` on the authorized httplib2 connection, which also carries the token
request), and a caller waits for the worker at most a few of those. Failures are sorted for the outbox: 408, 429,
5xx, timeouts and lost connections are retried; 401, 403 and 404, or any refusal of the ``get``, are the sink's
problem (the entries wait and the message says what to fix); any other 4xx refusal of an entry's ``batchUpdate``
is that entry's problem, and it is parked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.errors import ToolError
from tools.sprint_log.docs_requests import contains_entry, entry_requests, tldr_requests
from tools.sprint_log.entry import LogEntry
from tools.sprint_log.images import NO_IMAGE_HOST, ImageHost, ImageUnavailable
from tools.sprint_log.sink import DeliveryFailed

DOCS_SCOPES = ["https://www.googleapis.com/auth/documents"]
_DOCUMENT_ID = re.compile(r"^[A-Za-z0-9_-]{25,100}$")
_RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}
_SINK_STATUS = {401, 403, 404}
_WORKER_CALLS = 3
"""A delivery makes at most this many HTTP calls (token, get, batchUpdate): a caller waits that many timeouts."""
_FIXES = {
    401: " — check SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE (a valid, enabled service-account key)",
    403: " — share the document with the service account's client_email as Editor",
    404: " — check SUTRO_GOOGLE_DOCS_DOCUMENT_ID and that the document is shared with the service account",
}


_CONFLICT_STATUS = frozenset({"FAILED_PRECONDITION", "ABORTED"})
"""The ``error.status`` values of a write refused because the document moved on since it was read (a stale
``requiredRevisionId``): Google's API design guide names FAILED_PRECONDITION for a request whose precondition no
longer holds and ABORTED for a concurrency conflict. The message's wording is never looked at."""
_RATE_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED"})
"""``error.errors[].reason`` / ``ErrorInfo.reason`` values of a 403 that is a rate limit (retried), not a refusal."""


@dataclass(frozen=True)
class ErrorFields:
    """The machine-readable fields of a Google API error body: ``error.status`` (a google.rpc code name such as
    ``FAILED_PRECONDITION``, "" when absent) and every ``reason`` given (``error.errors[].reason``, the older
    JSON API form, and ``error.details[].reason`` of ErrorInfo details)."""

    status: str
    reasons: frozenset[str]


def error_fields(exc: Any) -> ErrorFields:
    """:class:`ErrorFields` of a googleapiclient ``HttpError``, read from its JSON body (never from its message)."""
    try:
        body = json.loads(exc.content.decode("utf-8") if isinstance(exc.content, bytes) else exc.content)
    except (ValueError, AttributeError, TypeError):
        return ErrorFields(status="", reasons=frozenset())
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return ErrorFields(status="", reasons=frozenset())
    reasons = {
        str(item["reason"])
        for key in ("errors", "details")
        for item in error.get(key) or []
        if isinstance(item, dict) and item.get("reason")
    }
    status = error.get("status")
    return ErrorFields(status=status if isinstance(status, str) else "", reasons=frozenset(reasons))


def refresh_message(exc: Exception) -> str:
    """What the token endpoint said, as text: google-auth's RefreshError carries ``(message, response body)``,
    whose ``str`` is a Python tuple."""
    first = exc.args[0] if exc.args else ""
    return first if isinstance(first, str) and first else type(exc).__name__


def validate_document_id(document_id: str) -> str:
    """``document_id`` if it looks like a Docs id; a URL is reduced to its id; anything else is a ToolError."""
    found = re.search(r"/document/d/([A-Za-z0-9_-]+)", document_id)
    candidate = found.group(1) if found else document_id.strip()
    if not _DOCUMENT_ID.match(candidate):
        raise ToolError(
            f"malformed Google Docs document id {document_id!r}",
            hint="set SUTRO_GOOGLE_DOCS_DOCUMENT_ID to the long id between /d/ and /edit in the document's URL",
        )
    return candidate


def service_account_credentials(path: str | Path | None) -> Any:
    """Credentials from a service-account JSON key file; a missing or unreadable file is a one-line ToolError."""
    fix = (
        "set SUTRO_GOOGLE_SERVICE_ACCOUNT_FILE to a service-account JSON key and share the document with its "
        "client_email as Editor (or set SUTRO_SPRINT_LOG_SINK=markdown)"
    )
    if not path or str(path).strip() in ("", "."):
        raise ToolError("the Google Docs sprint log needs service-account credentials", hint=fix)
    from google.oauth2 import service_account

    try:
        return service_account.Credentials.from_service_account_file(str(path), scopes=DOCS_SCOPES)
    except FileNotFoundError as exc:
        raise ToolError(f"service-account file not found: {path}", hint=fix) from exc
    except OSError as exc:
        raise ToolError(f"cannot read service-account file {path}: {exc.strerror}", hint=fix) from exc
    except (ValueError, KeyError) as exc:
        raise ToolError(f"service-account file {path} is not a valid key: {exc}", hint=fix) from exc


class GoogleDocsSink:
    """Appends entries to one Google Doc through google-api-python-client (static discovery, no network lookup)."""

    name = "gdocs"

    def __init__(
        self,
        *,
        document_id: str,
        credentials: Any,
        api_endpoint: str | None = None,
        timeout_s: float = 15.0,
        image_host: ImageHost | None = None,
    ) -> None:
        self.document_id = validate_document_id(document_id)
        self._image_host = image_host
        self._credentials = credentials
        self._api_endpoint = api_endpoint
        self._timeout_s = timeout_s
        self._documents: Any = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sutro-docs")

    def _resource(self) -> Any:
        """The cached ``documents()`` resource (built on first use, on the worker thread)."""
        if self._documents is None:
            import google_auth_httplib2
            import httplib2
            from googleapiclient.discovery import build

            http = google_auth_httplib2.AuthorizedHttp(self._credentials, http=httplib2.Http(timeout=self._timeout_s))
            options = {"api_endpoint": self._api_endpoint} if self._api_endpoint else None
            service = build(
                "docs", "v1", http=http, client_options=options, static_discovery=True, cache_discovery=False
            )
            self._documents = service.documents()
        return self._documents

    def _on_worker(self, call: Callable[[], Any]) -> Any:
        import concurrent.futures

        future = self._worker.submit(call)
        try:
            return future.result(timeout=self._timeout_s * _WORKER_CALLS + 1.0)
        except concurrent.futures.TimeoutError as exc:  # the worker is stuck behind an earlier call
            future.cancel()
            raise DeliveryFailed(
                f"Google Docs did not answer within {self._timeout_s * _WORKER_CALLS:.0f} s", retryable=True
            ) from exc

    def read(self) -> dict[str, Any]:
        """The whole document (``documents.get``), fetched on the worker thread."""
        return self._on_worker(lambda: self._call(lambda d: d.get(documentId=self.document_id)))  # type: ignore[no-any-return]

    def deliver(self, entry: LogEntry) -> bool:
        return bool(self._on_worker(lambda: self._deliver(entry)))

    def _deliver(self, entry: LogEntry) -> bool:
        document = self._call(lambda d: d.get(documentId=self.document_id))
        if entry.kind == "tldr":  # replaced in place: writing the same text twice changes nothing
            replace = tldr_requests(document, entry)
            if replace is None:
                return False
            body: dict[str, Any] = {"requests": replace}
        else:
            if contains_entry(document, entry.uid):
                return False
            images, problem = self._images(entry)
            body = {"requests": entry_requests(document, entry, images=images, image_problem=problem)}
        required = document.get("revisionId")
        if required:
            body["writeControl"] = {"requiredRevisionId": required}
        try:
            self._call(lambda d: d.batchUpdate(documentId=self.document_id, body=body), writes_entry=True)
        except DeliveryFailed as failure:
            if required and failure.rejected and self._moved_on(required):
                moved = f"the document changed while this entry was written ({failure})"
                raise DeliveryFailed(moved, retryable=True) from failure
            raise
        return True

    def _moved_on(self, required: str) -> bool:
        """Whether the document's revision is no longer ``required``: a refused write that carried that lock is then
        a conflict with another writer, whatever status or words the refusal came with (one more ``get``, paid only
        on a refusal)."""
        try:
            return bool(self._call(lambda d: d.get(documentId=self.document_id)).get("revisionId") != required)
        except DeliveryFailed:
            return False

    def _images(self, entry: LogEntry) -> tuple[dict[str, str], str]:
        """Chart name -> public URL for each chart the image host could place, and why the others could not."""
        if not entry.charts:
            return {}, ""
        if self._image_host is None:
            return {}, NO_IMAGE_HOST
        urls: dict[str, str] = {}
        problem = ""
        for chart in entry.charts:
            try:
                urls[chart.name] = self._image_host.publish(entry, chart)
            except ImageUnavailable as err:
                problem = str(err)
        return urls, problem

    def _call(self, make_request: Callable[[Any], Any], *, writes_entry: bool = False) -> Any:
        """Execute one Docs request; every failure becomes a DeliveryFailed saying whether a retry can help and,
        for the write of an entry (``writes_entry``), whether the service refused that entry for good."""
        import httplib2
        from google.auth.exceptions import RefreshError, TransportError
        from googleapiclient.errors import HttpError

        try:
            return make_request(self._resource()).execute(num_retries=0)
        except HttpError as exc:
            status = int(exc.resp.status)
            reason = exc.reason if isinstance(exc.reason, str) else str(exc)
            fields = error_fields(exc)
            stale_revision = status in (400, 409) and fields.status in _CONFLICT_STATUS
            rate_limited = status == 403 and bool(fields.reasons & _RATE_REASONS)
            retryable = status in _RETRYABLE_STATUS or stale_revision or rate_limited
            rejected = writes_entry and not retryable and 400 <= status < 500 and status not in _SINK_STATUS
            raise DeliveryFailed(
                f"Google Docs answered {status}: {reason}{'' if retryable else _FIXES.get(status, '')}",
                retryable=retryable,
                rejected=rejected,
            ) from exc
        except RefreshError as exc:  # the token endpoint refused the service account, or failed for a while
            said = refresh_message(exc)
            if getattr(exc, "retryable", False):
                raise DeliveryFailed(f"Google's token endpoint failed: {said}", retryable=True) from exc
            raise DeliveryFailed(
                f"Google refused the service-account credentials: {said}{_FIXES[401]}", retryable=False
            ) from exc
        except TimeoutError as exc:
            raise DeliveryFailed(f"Google Docs did not answer within {self._timeout_s:g} s", retryable=True) from exc
        except (OSError, TransportError, httplib2.HttpLib2Error) as exc:  # refused, reset, DNS
            raise DeliveryFailed(f"Google Docs unreachable: {type(exc).__name__}: {exc}", retryable=True) from exc

    def close(self) -> None:
        self._worker.shutdown(wait=True)
