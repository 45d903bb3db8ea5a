"""Choose and build the configured sprint-log sink (``markdown`` default, ``gdocs`` with credentials).

:func:`make_sink` builds it now and raises a one-line ToolError when the settings are wrong; :func:`deferred_sink`
builds it at the first delivery instead, so an entry is always saved first and a misconfigured sink only holds the
outbox (with the fix in the error) until the settings are right.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.errors import ToolError
from tools.sprint_log.docs_sink import GoogleDocsSink, service_account_credentials, validate_document_id
from tools.sprint_log.entry import LogEntry
from tools.sprint_log.images import PUBLIC_CHARTS, PublicFolder
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE, MarkdownSink
from tools.sprint_log.sink import DeliveryFailed, SprintLogSink

SINK_NAMES = ("markdown", "gdocs")


def make_sink(
    kind: str,
    *,
    data_dir: Path,
    document_id: str = "",
    service_account_file: str | Path | None = None,
    api_endpoint: str | None = None,
    credentials: Any = None,
    timeout_s: float = 15.0,
    image_base_url: str = "",
) -> SprintLogSink:
    """The sink named ``kind``; missing or malformed Docs settings are one-line ToolErrors with the fix.
    ``timeout_s``: the limit on each Google Docs HTTP call (connect, send, wait for the answer).
    ``image_base_url``: where :data:`PUBLIC_CHARTS` in ``data_dir`` is served (Docs then embeds charts)."""
    if kind == "markdown":
        return MarkdownSink(data_dir / SPRINT_LOG_FILE)
    if kind == "gdocs":
        if not document_id:
            raise ToolError(
                "the Google Docs sprint log needs a document id",
                hint="set SUTRO_GOOGLE_DOCS_DOCUMENT_ID (the id between /d/ and /edit in the document's URL)",
            )
        validate_document_id(document_id)
        creds = credentials if credentials is not None else service_account_credentials(service_account_file)
        host = None
        if image_base_url:
            try:
                host = PublicFolder(data_dir / PUBLIC_CHARTS, image_base_url)
            except ValueError as exc:
                raise ToolError(str(exc), hint="set SUTRO_SPRINT_LOG_IMAGE_BASE_URL to an https:// address") from exc
        return GoogleDocsSink(
            document_id=document_id,
            credentials=creds,
            api_endpoint=api_endpoint,
            timeout_s=timeout_s,
            image_host=host,
        )
    raise ToolError(f"unknown sprint-log sink {kind!r}", hint="set SUTRO_SPRINT_LOG_SINK to markdown or gdocs")


class DeferredSink:
    """A sink opened at its first delivery; while it cannot be opened every delivery fails with the fix (the
    entry stays queued), and the next delivery tries to open it again (a key file put in place later works)."""

    def __init__(self, name: str, opener: Callable[[], SprintLogSink]) -> None:
        self.name = name
        self._opener = opener
        self._sink: SprintLogSink | None = None

    def opened(self) -> SprintLogSink:
        """The real sink, opened now if needed; a settings problem is a DeliveryFailed that needs a person."""
        if self._sink is None:
            try:
                self._sink = self._opener()
            except ToolError as err:
                raise DeliveryFailed(err.one_line(), retryable=False) from err
        return self._sink

    def deliver(self, entry: LogEntry) -> bool:
        return self.opened().deliver(entry)

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()


def deferred_sink(kind: str, **settings: Any) -> DeferredSink:
    """The sink named ``kind`` with :func:`make_sink`'s settings, opened when first used."""
    return DeferredSink(kind, lambda: make_sink(kind, **settings))
