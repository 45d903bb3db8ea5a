"""Read a chat message as a command request: the command word, its tokens, and pasted code.

Pure functions over text, so they are tested without Telegram. Tokens are split like a shell (quotes group words)
and fall back to whitespace splitting when quotes are unbalanced (``/log don't panic`` must still work).
"""

from __future__ import annotations

import re
import shlex

_COMMAND = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s|$)")
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.S)
_PYTHON = re.compile(r"^\s*def (solve|generate)\s*\(", re.M)
_ADDRESSES = re.compile(r"^\s*\d+(\s*,\s*\d+)*\s*$")
_DALLY_OP = re.compile(r"^\s*(add|sub|mul|copy|and|or|xor|not|set|div|cmp|select|abs)\s+\d+(\s*,\s*-?\w+)*\s*$", re.I)
_IR_LINE = re.compile(r"^\s*(%?[A-Za-z_][\w.]*\s*=\s*[a-z_]+\b|(load|store|read|write|ret|return)\b)", re.M)


def split_tokens(text: str) -> list[str]:
    """Shell-like split; unbalanced quotes fall back to splitting on whitespace."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def command_word(text: str, bot_username: str | None) -> tuple[str, str] | None:
    """``("run", "local_update n=20")`` for ``/run@ThisBot local_update n=20``; None if not a command for us."""
    match = _COMMAND.match(text.lstrip())
    if match is None:
        return None
    addressee = match.group(2)
    if addressee and bot_username and addressee.lower() != bot_username.lower():
        return None
    return match.group(1).lower(), text.lstrip()[match.end() :].strip()


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, code)`` for each ``` fenced block in plain message text."""
    return [(m.group(1), m.group(2)) for m in _FENCE.finditer(text)]


def looks_like_code(text: str) -> str | None:
    """``"solution.py"`` / ``"program.ir"`` if unfenced text looks like a submission, else None.

    Python: a top-level ``def solve(`` or ``def generate(``. IR: at least two lines shaped like IR statements,
    or a Dally IR program (docs/metrics.md#dally-ir-cost): an input-address line, ``op d,a,b`` lines, an output-address
    line.
    """
    if _PYTHON.search(text):
        return "solution.py"
    if looks_like_dally_ir(text):
        return "program.ir"
    if len(_IR_LINE.findall(text)) >= 2 and not text.lstrip().startswith("/"):
        return "program.ir"
    return None


def looks_like_dally_ir(text: str) -> bool:
    """Address lines first and last (``1,2`` … ``3``), only ``op d,a[,b]`` lines between (``;`` splits)."""
    lines = [line for line in re.split(r"[;\n]", text) if line.strip()]
    if len(lines) < 3 or not (_ADDRESSES.match(lines[0]) and _ADDRESSES.match(lines[-1])):
        return False
    return all(_DALLY_OP.match(line) for line in lines[1:-1])


def code_file_name(language: str, code: str) -> str:
    """The attachment name for a pasted block: the fence language if given, else a guess from the content."""
    lang = language.lower()
    if lang in ("py", "python", "python3"):
        return "solution.py"
    if lang == "ir":
        return "program.ir"
    return looks_like_code(code) or "solution.py"
