"""Choose and build the configured sprint-log sink (``markdown`` default, ``gdocs`` with credentials)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools.errors import ToolError
from tools.sprint_log.docs_sink import GoogleDocsSink, service_account_credentials, validate_document_id
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE, MarkdownSink
from tools.sprint_log.sink import SprintLogSink

SINK_NAMES = ("markdown", "gdocs")


def make_sink(
    kind: str,
    *,
    data_dir: Path,
    document_id: str = "",
    service_account_file: str | Path | None = None,
    api_endpoint: str | None = None,
    credentials: Any = None,
) -> SprintLogSink:
    """The sink named ``kind``; missing or malformed Docs settings are one-line ToolErrors with the fix."""
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
        return GoogleDocsSink(document_id=document_id, credentials=creds, api_endpoint=api_endpoint)
    raise ToolError(f"unknown sprint-log sink {kind!r}", hint="set SUTRO_SPRINT_LOG_SINK to markdown or gdocs")
