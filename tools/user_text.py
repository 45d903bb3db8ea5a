"""Text from members (labels, notes, names, exception messages) made safe for each place it is written.

Every sink gets the same member text through one of these, so that content can never become structure:
- :func:`one_line` — control characters (new lines included) become spaces and bidirectional-override characters
  (U+202A–202E, U+2066–2069, U+200E/200F, U+061C) are dropped: a heading, a name or a table cell stays one line
  and reads in the order it is stored;
- :func:`plain_body` — the same for multi-line text, new lines kept;
- :func:`markdown` — :func:`one_line`/:func:`plain_body` output with every Markdown and HTML special character
  escaped (``# | * _ [ ] < > & …``), so a note cannot start a heading, a table, a link or raw HTML;
- :func:`chart` — for matplotlib text whose mathtext cannot be switched off (tick labels, titles): ``$`` escaped,
  so ``$\\foo{$`` shows as typed instead of failing the whole figure. Where a Text is created directly, pass
  ``parse_math=False`` and use :func:`one_line`.
"""

from __future__ import annotations

import re
import unicodedata

ANSI_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks (BEL or ST terminated)
    r"|\x1b[@-Z\\-_]"  # other two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # the 8-bit CSI form
)
"""Terminal escape sequences pasted with a note (colours, titles): removed whole, so no ``[31m`` residue stays."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_MARKDOWN_INLINE = re.compile(r"[\\`*\[\]|~]")
_UNDERSCORES = re.compile(r"_+")
_BLOCK_START = re.compile(r"^(\s*)([-+=#])|^(\s*\d+)([.)])")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _clean(ch: str, keep_newlines: bool) -> str:
    if ch in BIDI_CONTROLS:
        return ""
    if ch == "\n" and keep_newlines:
        return ch
    if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
        return " "
    return ch


def one_line(text: str) -> str:
    """``text`` on one line: control and line-separator characters become spaces, bidi controls are dropped."""
    return "".join(_clean(ch, False) for ch in ANSI_ESCAPE.sub("", str(text))).strip()


def plain_body(text: str) -> str:
    """Multi-line ``text`` with new lines kept (``\\r\\n`` normalised) and every other control character removed."""
    text = ANSI_ESCAPE.sub("", str(text)).replace("\r\n", "\n").replace("\r", "\n")
    return "".join(_clean(ch, True) for ch in text)


def markdown(text: str, *, lines_start_blocks: bool = True) -> str:
    """``text`` (one line or several) as literal Markdown: inline specials backslash-escaped (a run of ``_`` only
    when not inside a word, where it could start emphasis), a line that would start a heading, a list or a setext
    heading escaped at its start (unless ``lines_start_blocks`` is False, as in a table cell), HTML as entities."""
    lines = []
    for line in text.split("\n"):
        line = _MARKDOWN_INLINE.sub(lambda m: "\\" + m.group(0), line)
        line = _UNDERSCORES.sub(_underscores, line)
        if lines_start_blocks:
            line = _BLOCK_START.sub(
                lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(2) else f"{m.group(3)}\\{m.group(4)}", line
            )
        lines.append("".join(_HTML.get(ch, ch) for ch in line))
    return "\n".join(lines)


def _underscores(match: re.Match[str]) -> str:
    line = match.string
    before = line[match.start() - 1] if match.start() else " "
    after = line[match.end()] if match.end() < len(line) else " "
    inside_word = before.isalnum() and after.isalnum()
    return match.group(0) if inside_word else match.group(0).replace("_", "\\_")


def chart(text: str) -> str:
    """One-line ``text`` for matplotlib text with mathtext on: each ``$`` escaped."""
    return one_line(text).replace("$", r"\$")
