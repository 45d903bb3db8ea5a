"""A board's record history as the group writes it in its README (pure): ready to paste into a pull request.

The group's record tables (cybertronai/sutro-problems ``matmul/README.md``, ``sparse-parity/README.md``) have the
columns Date, Cost, Submission, Contributors, Description, the cost right-aligned with thousands separators, the
submission a link to the program file under ``submissions/``, contributors as GitHub handles. A published row keeps
the group's own link; a member's row links the program file written beside the table, named from its label and
cost, and the file's SHA-256 goes in a ``SHA256SUMS`` file (``sha256sum -c`` reads it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

HEADER = (
    "| Date       | Cost | Submission | Contributors | Description |\n"
    "| -          | -:   | -          | -            | -           |"
)


@dataclass(frozen=True)
class RecordRow:
    """One record: its date, cost, who, what; ``link`` is the published program's address ("" for a member's row,
    whose ``program`` text is then written as a file)."""

    date: str
    cost: float
    contributors: tuple[str, ...]
    description: str
    link: str = ""
    program: str | None = None

    @property
    def file_name(self) -> str:
        """``<label>_<cost>.ir`` with the label reduced to letters, digits and underscores."""
        slug = re.sub(r"[^a-z0-9]+", "_", self.description.lower()).strip("_")[:40] or "program"
        return f"{slug}_{self.cost:.0f}.ir"


def _handle(name: str) -> str:
    bare = name.lstrip("@")
    return f"[@{bare}](https://github.com/{bare})" if re.fullmatch(r"[A-Za-z0-9-]+", bare) else name


def table(rows: Sequence[RecordRow]) -> str:
    """The Markdown table, oldest record first."""
    lines = [HEADER]
    for row in rows:
        submission = f"[ir]({row.link})" if row.link else f"[ir](submissions/{row.file_name})"
        who = ", ".join(_handle(c) for c in row.contributors) or "unknown"
        lines.append(f"| {row.date} | {row.cost:,.0f} | {submission} | {who} | {row.description} |")
    return "\n".join(lines) + "\n"


def sha256sums(rows: Sequence[RecordRow]) -> str:
    """``<sha256>  submissions/<file>`` for every member row with a program (the ``sha256sum`` format)."""
    return "".join(
        f"{hashlib.sha256(row.program.encode()).hexdigest()}  submissions/{row.file_name}\n"
        for row in rows
        if row.program is not None and not row.link
    )
