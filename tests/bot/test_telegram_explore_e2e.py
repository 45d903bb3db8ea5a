"""``/explore`` in the chat, end to end with the real commands against the local fake Bot API: one progress message
edited in place, then the summary and the progression chart; ``/cancel`` mid-loop keeps and reports the best.

Oracles: the group's published figures (tiled_16x16 133,783, the naive 16×16 baseline 340,704; packedroute40 147,000
at the 40 % band) and the journal read back after the cancel (the reported best is the cheapest kept step).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bot.commands import COMMANDS
from tests.bot.telegram_harness import GROUP, MEMBER, TOPIC, any_text, running_bot, texts, until
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(150)]

MASK32 = Path(__file__).resolve().parents[1] / "data" / "mask32" / "packedroute40_mask32.ir.gz"


async def test_explore_edits_one_progress_message_then_answers_with_the_summary_and_chart(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(
            chat_id=GROUP,
            user_id=MEMBER,
            text="/explore matmul_16x16 from=published tiled_16x16 budget=60s",
            thread_id=TOPIC,
        )
        calls = await until(fake, lambda cs: any(c.method == "sendPhoto" for c in cs), timeout=120)
    sent = [c for c in calls if c.method == "sendMessage"]
    edits = texts(calls, "editMessageText")
    assert any("explore #1 on matmul_16x16: step 1, best" in e for e in edits)  # progress, edited in place
    final = edits[-1]
    assert "explore #1 on matmul_16x16 from published tiled_16x16" in final and "133,783 →" in final
    assert "vs the naive baseline 340,704" in final
    assert len(sent) == 1 and sent[0].params["message_thread_id"] == str(TOPIC)  # one message, edited
    photo = next(c for c in calls if c.method == "sendPhoto")
    assert photo.params["message_thread_id"] == str(TOPIC)


async def test_cancel_mid_loop_keeps_and_reports_the_best(fake: FakeBotApi) -> None:
    program = gzip.decompress(MASK32.read_bytes())
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(
            chat_id=GROUP,
            user_id=MEMBER,
            caption="/explore mask_sparse_parity budget=300s",
            document=("packedroute40_mask32.ir", program),
            thread_id=TOPIC,
        )
        await until(fake, any_text("step 2, best", "editMessageText"), timeout=120)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/cancel 1", thread_id=TOPIC)
        calls = await until(fake, any_text("explore #1 stopped after"), timeout=30)
    line = next(t for t in texts(calls) if "explore #1 stopped after" in t)
    assert "kept in the journal: explore show 1" in line
    best = int(line.split("best so far ")[1].split(" ")[0].replace(",", ""))
    assert best < 147_000  # the published 40 % band program's cost: the kept steps lowered it
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/explore show 1", thread_id=TOPIC)
        calls = await until(fake, any_text("cancelled: stopped before its end"), timeout=30)
    shown = next(t for t in texts(calls) if "cancelled: stopped before its end" in t)
    assert f"147,000 → {best:,}" in shown
