"""The README's pictures are true: regenerated from a real run, the card and the sprint-log entry equal the
committed texts, and each committed picture was drawn from the committed text (the digest it carries)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot import showcase

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / showcase.OUT_DIR
REGENERATE = "stale; regenerate with: python -m bot.showcase"


@pytest.mark.slow
def test_the_committed_card_and_entry_are_what_a_run_shows_today() -> None:
    shown = showcase.generate()
    assert (OUT / showcase.CARD_TEXT).read_text(encoding="utf-8") == shown.card, f"docs/showcase card is {REGENERATE}"
    assert (OUT / showcase.ENTRY_TEXT).read_text(encoding="utf-8") == shown.entry, f"the entry is {REGENERATE}"
    assert (OUT / showcase.METHOD_TEXT).read_text(encoding="utf-8") == shown.method_card, (
        f"the method card is {REGENERATE}"
    )


@pytest.mark.parametrize(
    ("text", "picture"),
    [
        (showcase.CARD_TEXT, showcase.CARD_PICTURE),
        (showcase.ENTRY_TEXT, showcase.ENTRY_PICTURE),
        (showcase.METHOD_TEXT, showcase.METHOD_PICTURE),
    ],
)
def test_each_picture_was_drawn_from_the_committed_text(text: str, picture: str) -> None:
    with Image.open(OUT / picture) as image:
        carried = image.info.get("Description")
    assert carried == showcase.text_digest((OUT / text).read_text(encoding="utf-8")), f"{picture} is {REGENERATE}"


def test_the_readme_shows_both_pictures() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- showcase:start -->")[1].split("<!-- showcase:end -->")[0]
    for picture in (showcase.CARD_PICTURE, showcase.ENTRY_PICTURE, showcase.METHOD_PICTURE):
        assert f"({showcase.OUT_DIR.as_posix()}/{picture})" in block


def test_the_clock_mask_hides_only_the_time_of_day_the_run_time_and_the_marker() -> None:
    entry = "17:56 **tiled, correct, 0.1 s** — local <!-- sutro#bd6680a66281 -->\n/show 1 · 10:30 ok, 133,783.5 sat"
    expected = "H:MM **tiled, correct, N.N s** — local\n/show 1 · 10:30 ok, 133,783.5 sat"
    assert showcase.mask_clock(entry) == expected


def test_a_phone_wraps_long_lines_and_keeps_short_ones() -> None:
    line = "LOSS — dally@1 133,783: +67,076 (+100.6%) vs the record"
    wrapped = showcase.phone_lines(line + "\nrun #1", columns=20)
    assert all(len(part) <= 20 for part in wrapped)
    assert "".join(wrapped[:-1]) == line and wrapped[-1] == "run #1"
