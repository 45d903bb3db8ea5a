"""The README's pictures: a result card and the sprint-log entry of the same run, as members see them, made from a
real run.

``python -m bot.showcase`` runs :data:`SHOWCASE_COMMAND` through the command layer (the path ``sutro run …`` takes)
in a fresh data directory with the embedded defaults, and writes under ``docs/showcase/``:

- ``card.txt``: the card as the chat shows it (:func:`bot.telegram_app.render.plain_text`: the text, then each
  table as a monospace block);
- ``sprint-log-entry.md``: the entry the run appended to the Markdown sprint log;
- ``method-card.txt``: the card of :data:`METHOD_COMMAND` (a training method against sgd), run after it;
- ``card.png``, ``sprint-log-entry.png`` and ``method-card.png``: each drawn as a phone shows it (wrapped,
  monospace), each PNG carrying the SHA-256 of the text it shows (PNG ``Description``), so a test can tell a picture
  drawn from stale text.

The entry's clock (``H:MM``), its run time (``N.N s``: 0.0 or 0.1 s, as the machine goes) and its entry marker change
with every run; :func:`mask_clock` hides them so that ``tests/docs/test_showcase.py`` can regenerate the texts and
compare them with the committed ones.
"""

from __future__ import annotations

import hashlib
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SHOWCASE_COMMAND = ("run", ["matmul_16x16", "generator=tiled"])
"""The run the pictures show: the built-in tiled 16×16 matmul generator (deterministic: its cost and its standing
against the published records do not depend on the machine or the clock)."""
METHOD_COMMAND = ("run", ["local_update", "n=20"])
"""The method card the third picture shows: local_update against sgd on the default seeds (deterministic seeds: the
same figures on any machine; its run time is masked)."""

OUT_DIR = Path("docs") / "showcase"
CARD_TEXT, ENTRY_TEXT = "card.txt", "sprint-log-entry.md"
CARD_PICTURE, ENTRY_PICTURE = "card.png", "sprint-log-entry.png"
METHOD_TEXT, METHOD_PICTURE = "method-card.txt", "method-card.png"

_CLOCK = re.compile(r"^\d{1,2}:\d{2} ", re.M)
_MARKER = re.compile(r" ?<!-- sutro#\w+ -->")
_DURATION = re.compile(r"\b\d+\.\d s\b")


@dataclass(frozen=True)
class Showcase:
    """The texts the pictures show."""

    card: str
    entry: str
    method_card: str


def mask_clock(text: str) -> str:
    """``text`` with the entry's time of day, run times and marker comment replaced by fixed placeholders."""
    return _DURATION.sub("N.N s", _MARKER.sub("", _CLOCK.sub("H:MM ", text)))


def _last_entry(sprint_log: str) -> str:
    """The last entry of a Markdown sprint log: from its ``H:MM **headline**`` line to the end, headings left out."""
    lines = sprint_log.rstrip("\n").splitlines()
    starts = [i for i, line in enumerate(lines) if _CLOCK.match(line + " ") or _CLOCK.match(line)]
    if not starts:
        raise RuntimeError("the run wrote no sprint-log entry")
    return "\n".join(line.rstrip() for line in lines[starts[-1] :]).strip() + "\n"


def generate() -> Showcase:
    """Run :data:`SHOWCASE_COMMAND` in a fresh data directory; the card and the entry, clock masked."""
    from bot.app import build_context
    from bot.commands import COMMANDS
    from bot.commands.tokens import parse_tokens
    from bot.dispatch import execute
    from bot.settings import Settings
    from bot.telegram_app.render import plain_text

    with tempfile.TemporaryDirectory(prefix="sutro-showcase-") as data_dir:
        settings = Settings(data_dir=Path(data_dir), _env_file=None)  # type: ignore[call-arg]
        ctx = build_context(settings)
        try:
            replies = []
            for name, args in (SHOWCASE_COMMAND, METHOD_COMMAND):
                command = next(c for c in COMMANDS if c.name == name)
                reply, status = execute(ctx, command, parse_tokens(command, list(args)))
                if status != 0:
                    raise RuntimeError(f"the showcase run failed: {reply.text}")
                replies.append(reply)
                if len(replies) == 1:  # the entry of the first run
                    entry = _last_entry((Path(data_dir) / "sprint-log.md").read_text(encoding="utf-8"))
        finally:
            ctx.close()
    card, method = (mask_clock(plain_text(r)).rstrip() + "\n" for r in replies)
    return Showcase(card=card, entry=mask_clock(entry), method_card=method)


def text_digest(text: str) -> str:
    """The SHA-256 a picture carries of the text it shows."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


PHONE_COLUMNS = 44
"""Characters of a monospace line a phone shows before it wraps (a chat bubble on a 6-inch screen: about 40-46)."""


def phone_lines(text: str, columns: int = PHONE_COLUMNS) -> list[str]:
    """``text`` wrapped as a phone wraps it: a longer line continues on the next (whole words where it can)."""
    import textwrap

    out: list[str] = []
    for line in text.rstrip("\n").splitlines():
        out += textwrap.wrap(line, columns, drop_whitespace=False, replace_whitespace=False) or [""]
    return out


def draw(text: str, path: Path, *, title: str) -> None:
    """Draw ``text`` as a phone shows it (wrapped at :data:`PHONE_COLUMNS`, monospace, in a chat bubble) and save it
    as a PNG carrying the text's digest."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = phone_lines(text)
    fig = plt.figure(figsize=(5.0, 0.2 * len(lines) + 0.8), dpi=120)
    fig.patch.set_facecolor("#dfe6ee")
    fig.text(0.04, 0.99, title, va="top", ha="left", fontsize=8.5, color="#3a76b0", weight="bold")
    fig.text(
        0.04,
        0.99 - 0.32 / fig.get_figheight(),
        "\n".join(lines),
        va="top",
        ha="left",
        family="DejaVu Sans Mono",
        fontsize=9,
        linespacing=1.3,
        color="#1b1f23",
        bbox={"boxstyle": "round,pad=0.7", "facecolor": "white", "edgecolor": "#c9d1da"},
    )
    fig.savefig(path, metadata={"Description": text_digest(text)}, bbox_inches="tight", pad_inches=0.2)
    plt.close(fig)


def write(root: Path) -> Showcase:
    """Generate the texts and draw the pictures under ``root/docs/showcase``."""
    shown = generate()
    out = root / OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / CARD_TEXT).write_text(shown.card, encoding="utf-8")
    (out / ENTRY_TEXT).write_text(shown.entry, encoding="utf-8")
    name, args = SHOWCASE_COMMAND
    draw(shown.card, out / CARD_PICTURE, title=f"Sutro assistant — /{name} {' '.join(args)}")
    draw(shown.entry, out / ENTRY_PICTURE, title="sprint log — the same run's entry")
    (out / METHOD_TEXT).write_text(shown.method_card, encoding="utf-8")
    name, args = METHOD_COMMAND
    draw(shown.method_card, out / METHOD_PICTURE, title=f"Sutro assistant — /{name} {' '.join(args)}")
    return shown


if __name__ == "__main__":
    write(Path(__file__).resolve().parents[1])
    sys.exit(0)
