"""Inline buttons end to end: the real PTB Application polls the local fake Bot API.

‹ page / page › under a paged answer redraw that message in place; "details" under a result card answers with
``/show ID``; a press runs as the presser, refused in the same one line as typing the command. Oracles: the
messages and edits the fake recorded, and 45 stored runs with known ids (run k+1 is stored k-th), so each page's
first and last rows are known by hand.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.app import build_context
from bot.commands import COMMANDS
from bot.core.recording import store_result
from engine.result import RunResult
from tests.bot.telegram_harness import (
    ADMIN,
    GROUP,
    MEMBER,
    OTHER_MEMBER,
    STRANGERS,
    TOKEN,
    TOPIC,
    Shown,
    messages,
    running_bot,
    settings_for,
    until,
)
from tests.fakes.bot_api import Call, FakeBotApi
from tools.run_request import NormalisedRequest

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def seed_runs(fake: FakeBotApi, count: int = 45) -> None:
    """``count`` stored matmul_1x1 runs: run k+1 by m<k>, dally@1 = 1044 − k."""
    ctx = build_context(settings_for(fake))
    for k in range(count):
        result = RunResult(
            challenge="matmul_1x1", subject="p", kind="ir", ok=True, metrics={"dally@1": 1044.0 - k}, seeds=[0]
        )
        request = NormalisedRequest("matmul_1x1", "ir", "p", {}, f"prog {k}", ("dally@1",))
        store_result(ctx, result, request=request, member=f"m{k}")


def keyboard_of(message: dict[str, Any]) -> list[tuple[str, str]]:
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [(b["text"], b["callback_data"]) for row in rows for b in row]


def edits_of(calls: list[Call], message_id: int) -> list[Call]:
    return [c for c in calls if c.method == "editMessageText" and c.params.get("message_id") == str(message_id)]


def replies_to(calls: list[Call], message_id: int) -> list[Shown]:
    """The bot's messages sent as replies to ``message_id``."""
    return [
        m
        for m in messages(calls)
        if m.sent.params.get("reply_parameters") and m.sent.json_param("reply_parameters")["message_id"] == message_id
    ]


async def test_next_and_prev_redraw_the_runs_message_in_place(fake: FakeBotApi) -> None:
    seed_runs(fake)
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs", thread_id=TOPIC)
        calls = await until(fake, lambda cs: bool(messages(cs, "runs 1–20 of 45")))
        [card] = messages(calls, "runs 1–20 of 45")
        card_id = int(card.result["message_id"])
        assert keyboard_of(card.result) == [("page 2 ›", "pg:runs page=2")]
        query = fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data="pg:runs page=2")
        calls = await until(fake, lambda cs: any("runs 21–40 of 45" in c.params["text"] for c in edits_of(cs, card_id)))
        [edit] = edits_of(calls, card_id)
        lines = edit.params["text"].splitlines()
        assert any(line.startswith("#25 ") for line in lines) and any(line.startswith("#6 ") for line in lines)
        assert not any(line.startswith(("#26 ", "#5 ")) for line in lines)
        assert keyboard_of(edit.result) == [("‹ page 1", "pg:runs page=1"), ("page 3 ›", "pg:runs page=3")]
        fake.push_button_press(card=edit.result, user_id=MEMBER, data="pg:runs page=3")
        calls = await until(fake, lambda cs: len(edits_of(cs, card_id)) == 2)
        last = edits_of(calls, card_id)[-1]
        assert "runs 41–45 of 45" in last.params["text"] and keyboard_of(last.result) == [
            ("‹ page 2", "pg:runs page=2")
        ]
    assert len([c for c in calls if c.method == "sendMessage"]) == 1  # flips edit; they never post
    answered = [c.params["callback_query_id"] for c in calls if c.method == "answerCallbackQuery"]
    assert answered[0] == query and len(answered) == 2


async def test_a_records_page_is_drawn_on_the_job_board_and_shown_in_place(fake: FakeBotApi) -> None:
    seed_runs(fake)  # each stored run beats the one before: 45 records of matmul_1x1, 20 a page
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/records matmul_1x1", thread_id=TOPIC)
        calls = await until(fake, lambda cs: any(c.method == "sendPhoto" for c in cs), timeout=30)
        [card] = messages(calls, "(1/3)")
        card_id = int(card.result["message_id"])
        assert keyboard_of(card.result) == [("page 2 ›", "pg:records matmul_1x1 page=2")]
        photos = len([c for c in calls if c.method == "sendPhoto"])  # the progression chart, under the card
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data="pg:records matmul_1x1 page=2")
        calls = await until(fake, lambda cs: any("(2/3)" in c.params["text"] for c in edits_of(cs, card_id)), 30)
    assert len([c for c in calls if c.method == "sendPhoto"]) == photos  # the chart is not sent again
    assert len([c for c in calls if c.method == "sendMessage"]) == 1


async def test_a_page_press_is_refused_like_the_typed_command(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config list", thread_id=TOPIC, username="root")
        calls = await until(fake, lambda cs: bool(messages(cs, "settings 1–16 of")))
        [card] = messages(calls, "settings 1–16 of")
        card_id = int(card.result["message_id"])
        assert ("page 2 ›", "pg:config list page=2") in keyboard_of(card.result)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/config list page=2", thread_id=TOPIC)
        fake.push_button_press(card=card.result, user_id=MEMBER, data="pg:config list page=2")
        calls = await until(fake, lambda cs: len(messages(cs, "for admins only")) == 2)
        typed, pressed = messages(calls, "for admins only")
        assert typed.text == pressed.text == "/config is for admins only"
        assert [m.text for m in replies_to(calls, card_id)] == [pressed.text]  # answered under the card …
        assert not edits_of(calls, card_id)  # … which keeps its page
        fake.push_button_press(card=card.result, user_id=ADMIN, data="pg:config list page=2", username="root")
        calls = await until(fake, lambda cs: bool(edits_of(cs, card_id)))
        assert "settings 17–32 of" in edits_of(calls, card_id)[0].params["text"]


async def test_a_press_in_a_chat_no_longer_allowed_is_refused_like_a_message(fake: FakeBotApi) -> None:
    seed_runs(fake)
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs", thread_id=TOPIC)
        calls = await until(fake, lambda cs: bool(messages(cs, "runs 1–20 of 45")))
        [card] = messages(calls, "runs 1–20 of 45")
        build_context(settings_for(fake)).tool_config().set("chats.allowed", str(STRANGERS), by="test")
        fake.push_button_press(card=card.result, user_id=MEMBER, data="pg:runs page=2")
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs page=2", thread_id=TOPIC)
        calls = await until(fake, lambda cs: len(messages(cs, "allow-list")) == 2)
    card_id = int(card.result["message_id"])
    [pressed] = [m for m in replies_to(calls, card_id) if "allow-list" in m.text]  # under the card …
    [typed] = [m for m in messages(calls, "allow-list") if m.result["message_id"] != pressed.result["message_id"]]
    assert pressed.text == typed.text and pressed.text.startswith(f"this chat ({GROUP}) is not on the bot's allow-list")
    assert not edits_of(calls, card_id)  # the card keeps page 1


async def test_details_under_a_result_card_answers_with_show(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/submit matmul_1x1 name=tiny\n1,2\nmul 3,1,2\n3")
        calls = await until(fake, lambda cs: bool(messages(cs, "tiny (ir) on matmul_1x1")), timeout=60)
        [card] = messages(calls, "tiny (ir) on matmul_1x1")
        assert keyboard_of(card.result) == [("details", "go:show 1")]
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data="go:show 1")
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/show 1")
        calls = await until(fake, lambda cs: len(messages(cs, "#1 matmul_1x1 / tiny by ")) == 2, timeout=30)
        # a run nobody can see (there is no run 99): the same one line as typing /show 99
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data="go:show 99")
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/show 99")
        calls = await until(fake, lambda cs: len(messages(cs, "99")) >= 2, timeout=30)
    card_id = int(card.result["message_id"])
    pressed, typed = messages(calls, "#1 matmul_1x1 / tiny by ")
    assert pressed.text == typed.text and "by member — ok" in pressed.text
    assert [m.text for m in replies_to(calls, card_id)] == [pressed.text, *[m.text for m in messages(calls, "99")][:1]]
    refusals = {m.text for m in messages(calls, "99")}
    assert len(refusals) == 1 and "\n" not in next(iter(refusals))


async def test_the_fake_refuses_callback_data_over_64_bytes(fake: FakeBotApi) -> None:
    bot = Bot(TOKEN, base_url=fake.base_url, base_file_url=fake.base_file_url)
    async with bot:
        ok = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="pg:" + "a" * 61)]])
        await bot.send_message(chat_id=GROUP, text="fits", reply_markup=ok)
        long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="pg:" + "a" * 62)]])
        with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
            await bot.send_message(chat_id=GROUP, text="too long", reply_markup=long)
    sent = [json.loads(c.params["reply_markup"]) for c in fake.delivered("sendMessage")]
    assert len(sent) == 1


async def test_a_paged_reply_never_offers_a_button_telegram_would_refuse(fake: FakeBotApi) -> None:
    """A request too long for 64 bytes of callback data gets no page button (its text still names the next page)."""
    from bot.reply import Paging, Reply
    from bot.telegram_app.render import reply_buttons

    short = Paging("leaderboard", ("sparse_parity", "n=30", "k=4"), 1, 3)
    long = Paging("leaderboard", ("sparse_parity_medium_approx50", "--metric", "dally@1"), 1, 3)
    assert [b.data for b in reply_buttons(Reply(paging=short))] == ["pg:leaderboard sparse_parity n=30 k=4 page=2"]
    assert len(("pg:" + long.request(2)).encode()) > 64 and reply_buttons(Reply(paging=long)) == []
