"""The weekly digest draws a record-progression chart for each of the (at most three) busiest boards of the week and
none for a quiet one; in the chat they follow the digest as photos within Telegram's limits (the fake Bot API
refuses captions over 1,024 characters, photos over 10 MB or past 10,000 px of width + height).

Oracle: results stored this week on four boards, 4 / 3 / 2 / 1 of them, and one board whose only result is a month
old, so which boards are charted, and in which order, is known by hand.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import build_context
from bot.commands.digest_content import MAX_BOARD_CHARTS, digest_reply
from bot.context import AppContext
from bot.core.recording import store_result
from bot.settings import Settings
from engine.result import RunResult
from storage.runs import NewRun, record_run
from storage.timestamps import utcnow
from tests.bot.telegram_harness import GROUP, MEMBER, TOPIC, running_bot, settings_for, texts, until
from tests.fakes.bot_api import PHOTO_SIDES_LIMIT, FakeBotApi, png_size
from tools.run_request import NormalisedRequest

THIS_WEEK = {"symmetry_eight": 4, "matmul_1x1": 3, "matmul_16x16": 2, "matmul_4x4": 1}
MONTH_OLD = "symmetry_six"


def seed(ctx: AppContext) -> None:
    for challenge, count in THIS_WEEK.items():
        for k in range(count):
            result = RunResult(
                challenge=challenge, subject="p", kind="ir", ok=True, metrics={"dally@1": 5000.0 - k}, seeds=[0]
            )
            request = NormalisedRequest(challenge, "ir", "p", {}, f"{challenge} {k}", ("dally@1",))
            store_result(ctx, result, request=request, member=f"m{k}")
    with ctx.sessions()() as session:
        record_run(
            session,
            NewRun(
                challenge=MONTH_OLD,
                kind="ir",
                subject="p",
                ok=True,
                metrics={"dally@1": 100.0},
                request_key="old",
                member="ann",
                engine_version="test",
                created_at=utcnow() - timedelta(days=30),
            ),
        )


@pytest.mark.slow  # draws the record-progression charts of several boards
def test_the_busiest_boards_get_a_chart_and_a_quiet_one_none(tmp_path: Path) -> None:
    ctx = build_context(Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]
    ctx.tool_config().set("challenges.enabled", ",".join([*THIS_WEEK, MONTH_OLD]), by="test")
    seed(ctx)
    reply = digest_reply(ctx, end=utcnow() + timedelta(hours=1))
    assert reply.data is not None and MAX_BOARD_CHARTS == 3
    charted = [name.split(" ")[0] for name in reply.data["charts"]]
    assert charted == ["symmetry_eight", "matmul_1x1", "matmul_16x16"]  # 4, 3, 2 results; not 4x4's 1
    names = [f.name for f in reply.files]
    assert len(names) == 1 + 3 and names[0].startswith("digest-") and "records-symmetry_eight" in names[1]
    assert all(f.mime == "image/png" and png_size(f.content) == (800, 450) for f in reply.files)
    assert any(t.title.startswith(MONTH_OLD) for t in reply.tables)  # its standing is still shown: only no chart


def test_a_retired_challenge_is_left_out_of_the_digest_even_when_enabled_and_busy(tmp_path: Path) -> None:
    ctx = build_context(Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]
    ctx.tool_config().set("challenges.enabled", "sparse_parity_small,matmul_1x1", by="test")
    for challenge in ("sparse_parity_small", "sparse_parity_small", "matmul_1x1"):
        result = RunResult(challenge=challenge, subject="p", kind="ir", ok=True, metrics={"dally@1": 10.0}, seeds=[0])
        request = NormalisedRequest(challenge, "ir", "p", {}, f"{challenge} {utcnow()}", ("dally@1",))
        store_result(ctx, result, request=request, member="ann")
    reply = digest_reply(ctx, end=utcnow() + timedelta(hours=1))
    assert reply.data is not None
    assert [name.split(" ")[0] for name in reply.data["charts"]] == ["matmul_1x1"]
    assert not any("sparse_parity_small" in t.title for t in reply.tables)
    assert "sparse_parity_small" not in reply.text


@pytest.mark.e2e
@pytest.mark.timeout(60)
async def test_the_digest_posts_its_charts_as_photos_within_telegrams_limits(fake: FakeBotApi) -> None:
    ctx = build_context(settings_for(fake))
    seed(ctx)
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/digest", thread_id=TOPIC)
        calls = await until(fake, lambda cs: len([c for c in cs if c.method == "sendPhoto"]) >= 4, timeout=30)
    assert any("Weekly digest" in t for t in texts(calls))
    photos = [c for c in calls if c.method == "sendPhoto"]
    assert len(photos) == 4 and all(c.params["message_thread_id"] == str(TOPIC) for c in photos)
    sizes = [png_size(c.files["photo"][1]) for c in photos]
    assert all(s is not None and sum(s) <= PHOTO_SIDES_LIMIT for s in sizes)
    assert not [c for c in fake.calls if c.status != 200 and c.method.startswith("send")]  # nothing refused


def test_the_fake_refuses_what_telegram_refuses() -> None:
    from tests.fakes.bot_api import refusal

    wide = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + (12000).to_bytes(4, "big") + (400).to_bytes(4, "big")
    assert refusal("sendPhoto", {}, {"photo": ("w.png", wide)}) == "Bad Request: PHOTO_INVALID_DIMENSIONS"
    assert refusal("sendPhoto", {"caption": "x" * 1025}, {}) == "Bad Request: message caption is too long"
    assert refusal("sendPhoto", {"caption": "x" * 1024}, {}) is None
    assert refusal("sendMediaGroup", {"media": '[{"type": "photo", "media": "a"}]'}, {}) is not None
