"""Where a Google Doc's inline charts come from: Docs inserts an image only from a URL that Google itself can fetch
(``InsertInlineImageRequest.uri``: public, PNG/JPEG/GIF, under 50 MB and 25 megapixels), so a chart must first be
published somewhere public.

:class:`PublicFolder` writes the PNG into a folder that the operator serves over HTTPS (a web server's static
directory, a bucket mounted as a folder) and returns ``base_url/<file>``. Google fetches the file once, when the
entry is written, and keeps its own copy: the file may be deleted afterwards. Without an image host, a chart is a
text line in the entry (the entry still lands); the Markdown log always has its charts as files beside it.

The other way — uploading to Google Drive and sharing the file as "anyone with the link can view" — needs the
``drive.file`` scope on the service account and a link-sharing permission per file; it is not implemented here
(docs/integrations.md#google-docs-sprint-log).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Protocol

from tools.sprint_log.entry import EntryChart, LogEntry

PUBLIC_CHARTS = "sprint-log-public"
"""The folder in the data directory whose files the operator serves at ``SUTRO_SPRINT_LOG_IMAGE_BASE_URL``."""
NO_IMAGE_HOST = (
    "no public address for charts (serve sprint-log-public/ of the data directory and set "
    "SUTRO_SPRINT_LOG_IMAGE_BASE_URL)"
)
_SLUG = re.compile(r"[^a-z0-9]+")


class ImageUnavailable(Exception):
    """A chart could not be published (one line: why)."""


class ImageHost(Protocol):
    """Publishes a chart and returns the public URL Google fetches it from."""

    def publish(self, entry: LogEntry, chart: EntryChart) -> str: ...


def public_chart_name(entry: LogEntry, chart: EntryChart) -> str:
    """``<uid>-<name>.png``: unique per entry and chart, and safe in a URL."""
    return f"{entry.uid}-{_SLUG.sub('-', chart.name.lower().removesuffix('.png')).strip('-') or 'chart'}.png"


class PublicFolder:
    """Charts written to ``folder``, served by the operator at ``base_url`` (HTTPS)."""

    def __init__(self, folder: Path, base_url: str) -> None:
        if not base_url.startswith("https://"):
            raise ValueError(f"chart base URL must start with https:// (Google fetches it), not {base_url!r}")
        self.folder = folder
        self.base_url = base_url.rstrip("/")

    def publish(self, entry: LogEntry, chart: EntryChart) -> str:
        name = public_chart_name(entry, chart)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)  # served to Google
            with os.fdopen(fd, "wb") as out:
                out.write(chart.png)
        except OSError as exc:
            raise ImageUnavailable(f"cannot write {name} to {self.folder}: {exc.strerror}") from exc
        return f"{self.base_url}/{name}"
