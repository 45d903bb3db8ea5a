"""Render a Reply for a chat: HTML text with tables as ``<pre>`` blocks, charts as photos, long output as a file.

Telegram limits a message to 4096 characters (after entity parsing); anything longer goes out as a document
(``reply.txt``) under a short summary message. Every piece of user-visible text is HTML-escaped.

Phone width: a monospace block shows about 40 characters per line on a phone before it wraps and the columns fall
apart, so a table wider than :data:`PHONE_WIDTH` is shown as one small card per row (first cell in bold, then
``header: value`` lines; ``key: value`` for two-column tables) instead of a ``<pre>`` grid. The document and the
terminal keep the grid.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from bot.reply import Button, OutFile, Reply, Table
from bot.telegram_app.callback_seal import SEAL_CHARS

MESSAGE_LIMIT = 4096
PHONE_WIDTH = 40
PREVIEW_CHARS = 80
CALLBACK_DATA_BYTES = 64
"""Telegram's limit on an inline button's ``callback_data`` (1-64 bytes, UTF-8)."""
PAGE_PREFIX = "pg:"
"""Callback data of a page button: ``pg:`` and the command line of that page, answered by redrawing the message."""
FOLLOWUP_PREFIX = "go:"
"""Callback data of a follow-up button: ``go:`` and the command line it runs, answered under the message."""


TOAST_CHARS = 200
"""Telegram's limit on the text of an answer to a button press (answerCallbackQuery: 0-200 characters)."""


def toast(text: str) -> str:
    """``text`` as a toast to the presser of a button: one line, cut to :data:`TOAST_CHARS`."""
    return preview(text, TOAST_CHARS)


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters with "…" — how an acknowledgement echoes a command."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def fit_plain(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Plain ``text`` cut to ``limit`` characters at a line boundary where one is near, with a note of the cut."""
    if len(text) <= limit:
        return text
    note = "\n… (cut: too long for one Telegram message)"
    head = text[: limit - len(note)]
    newline = head.rfind("\n")
    if newline > len(head) // 2:
        head = head[:newline]
    return head + note


@dataclass
class ChatMessages:
    """What to send for one Reply, in order: the text message (with its buttons), then photos, then documents."""

    html: str
    photos: list[OutFile] = field(default_factory=list)
    documents: list[OutFile] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)


def table_text(table: Table) -> str:
    """The table as aligned monospace text (columns padded to their widest cell; numbers right-aligned)."""
    columns = list(zip(table.headers, *table.rows, strict=False)) if table.rows else [(h,) for h in table.headers]
    widths = [max(len(str(cell)) for cell in column) for column in columns]
    numeric = [
        all(_is_number(row[i]) for row in table.rows if i < len(row)) and bool(table.rows) for i in range(len(widths))
    ]

    def line(cells: list[str]) -> str:
        out = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric, strict=False)]
        return "  ".join(out).rstrip()

    lines = [table.title] if table.title else []
    lines += [line(table.headers), "  ".join("-" * w for w in widths)]
    lines += [line(row) for row in table.rows]
    return "\n".join(lines)


def _is_number(cell: str) -> bool:
    try:
        float(cell.replace(",", "").rstrip("%×x"))
    except ValueError:
        return False
    return True


def table_html(table: Table) -> str:
    """A ``<pre>`` grid when it fits a phone's width, else one card per row."""
    grid = table_text(table)
    if max(len(line) for line in grid.splitlines()) <= PHONE_WIDTH:
        return f"<pre>{html.escape(grid, quote=False)}</pre>"
    cards = [f"<b>{html.escape(table.title, quote=False)}</b>"] if table.title else []
    for row in table.rows:
        head, *rest = row
        if len(table.headers) == 2:  # a key/value table: one line per row
            cards.append(f"<b>{html.escape(head, quote=False)}</b>: {html.escape(' '.join(rest), quote=False)}")
            continue
        lines = [f"<b>{html.escape(head, quote=False)}</b>"]
        lines += [
            f"  {html.escape(h, quote=False)}: {html.escape(c, quote=False)}"
            for h, c in zip(table.headers[1:], rest, strict=False)
            if c.strip()  # an empty field says nothing: left out
        ]
        cards.append("\n".join(lines))
    return "\n".join(cards) if cards else f"<pre>{html.escape(grid, quote=False)}</pre>"


def plain_text(reply: Reply) -> str:
    """The whole reply as plain text (the body of the long-output document)."""
    parts = [reply.text] if reply.text else []
    parts += [table_text(t) for t in reply.tables]
    return "\n\n".join(parts) + "\n"


def render(reply: Reply, limit: int = MESSAGE_LIMIT) -> ChatMessages:
    """Split a Reply into chat messages; a text over ``limit`` characters goes out as ``reply.txt`` under its
    first line (``limit`` is smaller when the text is shown below a job's header)."""
    photos = [f for f in reply.files if f.mime == "image/png" or f.name.lower().endswith((".png", ".jpg"))]
    documents = [f for f in reply.files if f not in photos]
    parts = [html.escape(reply.text, quote=False)] if reply.text else []
    parts += [table_html(t) for t in reply.tables]
    text = "\n\n".join(parts) or html.escape("done" if reply.ok else "failed", quote=False)
    if len(text) > limit:
        summary = reply.text.splitlines()[0] if reply.text else "result"
        text = html.escape(summary[:300], quote=False) + "\n(full output attached: reply.txt)"
        documents.insert(0, OutFile(name="reply.txt", content=plain_text(reply).encode(), mime="text/plain"))
    return ChatMessages(html=text, photos=photos, documents=documents, buttons=reply_buttons(reply))


def reply_buttons(reply: Reply) -> list[Button]:
    """The inline buttons under a reply: its own (an idea's Run it …), its follow-ups (``details`` → ``show 12``),
    then ‹ prev / next › when it is one page of several. A button whose data would pass Telegram's 64 bytes is left
    out (the reply's text still names the command, e.g. the next page's); the seal every button carries
    (bot/telegram_app/callback_seal.py) counts against those bytes."""
    buttons = list(reply.buttons)
    buttons += [Button(f.label, FOLLOWUP_PREFIX + f.request) for f in reply.followups]
    paging = reply.paging
    if paging is not None:
        if paging.number > 1:
            buttons.append(Button(f"‹ page {paging.number - 1}", PAGE_PREFIX + paging.request(paging.number - 1)))
        if paging.number < paging.pages:
            buttons.append(Button(f"page {paging.number + 1} ›", PAGE_PREFIX + paging.request(paging.number + 1)))
    return [b for b in buttons if len(b.data.encode()) + SEAL_CHARS <= CALLBACK_DATA_BYTES]
