"""Inline buttons end to end: the real PTB Application polls the local fake Bot API.

‹ page / page › under a paged answer redraw that message in place; "details" under a result card answers with
``/show ID``; a press runs as the presser, refused in the same one line as typing the command. Oracles: the
messages and edits the fake recorded, and 45 stored runs with known ids (run k+1 is stored k-th), so each page's
first and last rows are known by hand.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.app import build_context
from bot.commands import COMMANDS
from bot.core.recording import store_result
from bot.telegram_app.callback_seal import SEAL_CHARS, CallbackSeal
from bot.telegram_app.handlers import FORGED_BUTTON
from bot.telegram_app.render import toast
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
    sealed,
    settings_for,
    unsealed,
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
    return [(b["text"], unsealed(b["callback_data"])) for row in rows for b in row]


def toasts(calls: list[Call], query_id: str) -> list[str]:
    """The texts the bot answered a callback query with (answerCallbackQuery: a toast to the presser alone)."""
    return [
        c.params.get("text", "")
        for c in calls
        if c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == query_id
    ]


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
        query = fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data=sealed("pg:runs page=2"))
        calls = await until(fake, lambda cs: any("runs 21–40 of 45" in c.params["text"] for c in edits_of(cs, card_id)))
        [edit] = edits_of(calls, card_id)
        lines = edit.params["text"].splitlines()
        assert any(line.startswith("#25 ") for line in lines) and any(line.startswith("#6 ") for line in lines)
        assert not any(line.startswith(("#26 ", "#5 ")) for line in lines)
        assert keyboard_of(edit.result) == [("‹ page 1", "pg:runs page=1"), ("page 3 ›", "pg:runs page=3")]
        fake.push_button_press(card=edit.result, user_id=MEMBER, data=sealed("pg:runs page=3"))
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
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data=sealed("pg:records matmul_1x1 page=2"))
        calls = await until(fake, lambda cs: any("(2/3)" in c.params["text"] for c in edits_of(cs, card_id)), 30)
    assert len([c for c in calls if c.method == "sendPhoto"]) == photos  # the chart is not sent again
    assert len([c for c in calls if c.method == "sendMessage"]) == 1


async def test_a_page_press_is_refused_like_the_typed_command_but_as_a_toast(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config list", thread_id=TOPIC, username="root")
        calls = await until(fake, lambda cs: bool(messages(cs, "settings 1–16 of")))
        [card] = messages(calls, "settings 1–16 of")
        card_id = int(card.result["message_id"])
        assert ("page 2 ›", "pg:config list page=2") in keyboard_of(card.result)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/config list page=2", thread_id=TOPIC)
        query = fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("pg:config list page=2"))
        calls = await until(fake, lambda cs: bool(toasts(cs, query)) and bool(messages(cs, "for admins only")))
        [typed] = messages(calls, "for admins only")
        assert typed.text == toasts(calls, query)[0] == "/config is for admins only"  # the same words …
        assert not replies_to(calls, card_id)  # … to the presser alone: nothing public under the card
        assert not edits_of(calls, card_id)  # the card keeps its page
        fake.push_button_press(card=card.result, user_id=ADMIN, data=sealed("pg:config list page=2"), username="root")
        calls = await until(fake, lambda cs: bool(edits_of(cs, card_id)))
        assert "settings 17–32 of" in edits_of(calls, card_id)[0].params["text"]


async def test_a_press_in_a_chat_no_longer_allowed_is_refused_like_a_message_but_as_a_toast(fake: FakeBotApi) -> None:
    seed_runs(fake)
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs", thread_id=TOPIC)
        calls = await until(fake, lambda cs: bool(messages(cs, "runs 1–20 of 45")))
        [card] = messages(calls, "runs 1–20 of 45")
        build_context(settings_for(fake)).tool_config().set("chats.allowed", str(STRANGERS), by="test")
        query = fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("pg:runs page=2"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs page=2", thread_id=TOPIC)
        calls = await until(fake, lambda cs: bool(toasts(cs, query)) and bool(messages(cs, "allow-list")))
    card_id = int(card.result["message_id"])
    [typed] = messages(calls, "allow-list")
    assert toasts(calls, query) == [typed.text]
    assert typed.text.startswith(f"this chat ({GROUP}) is not on the bot's allow-list")
    assert not replies_to(calls, card_id) and not edits_of(calls, card_id)  # the card keeps page 1, nothing public


@pytest.mark.parametrize(
    "data",
    [
        "go:show 1",  # a real request, but never sealed by the bot
        "pg:config list page=2|AAAAAAAAAAAA",  # a seal of the right shape that does not match
        "idea:run:1",
        "free text the bot never sent",  # no prefix of ours at all
    ],
)
async def test_callback_data_the_bot_never_sent_is_refused_with_a_toast_and_runs_nothing(
    fake: FakeBotApi, data: str
) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/submit matmul_1x1 name=tiny\n1,2\nmul 3,1,2\n3")
        calls = await until(fake, lambda cs: bool(messages(cs, "tiny (ir) on matmul_1x1")), timeout=60)
        [card] = messages(calls, "tiny (ir) on matmul_1x1")
        before = [c.method for c in fake.delivered() if c.method in ("sendMessage", "editMessageText")]
        query = fake.push_button_press(card=card.result, user_id=ADMIN, data=data, username="root")
        calls = await until(fake, lambda cs: bool(toasts(cs, query)))
        await asyncio.sleep(0.3)  # a run the press had started would have posted or edited by now
    assert toasts(calls, query) == [FORGED_BUTTON]
    after = [c.method for c in fake.delivered() if c.method in ("sendMessage", "editMessageText")]
    assert after == before  # nothing ran: no message posted, the card not edited


def test_a_seal_holds_only_for_the_data_and_the_token_it_was_made_with() -> None:
    seal = CallbackSeal(TOKEN)
    data = "pg:records matmul_16x16 page=2"
    assert seal.open(seal.seal(data)) == data
    assert len(seal.seal(data)) == len(data) + SEAL_CHARS
    assert seal.open(seal.seal(data).replace("page=2", "page=3")) is None  # the data changed under its seal
    assert CallbackSeal(TOKEN + "x").open(seal.seal(data)) is None  # another token: buttons of another bot
    assert seal.open(data) is None and seal.open(data + "|") is None


async def test_details_under_a_result_card_answers_with_show(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/submit matmul_1x1 name=tiny\n1,2\nmul 3,1,2\n3")
        calls = await until(fake, lambda cs: bool(messages(cs, "tiny (ir) on matmul_1x1")), timeout=60)
        [card] = messages(calls, "tiny (ir) on matmul_1x1")
        assert keyboard_of(card.result) == [("details", "go:show 1")]
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data=sealed("go:show 1"))
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/show 1")
        calls = await until(fake, lambda cs: len(messages(cs, "#1 tiny on matmul_1x1 by ")) == 2, timeout=30)
        # a run nobody can see (there is no run 99): the same one line as typing /show 99
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data=sealed("go:show 99"))
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/show 99")
        calls = await until(fake, lambda cs: len(messages(cs, "99")) >= 2, timeout=30)
    card_id = int(card.result["message_id"])
    pressed, typed = messages(calls, "#1 tiny on matmul_1x1 by ")
    assert pressed.text == typed.text and "by member: ok" in pressed.text
    assert len(pressed.text.splitlines()) <= 25 and not any(c.method == "sendDocument" for c in calls)  # in place
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


def test_a_toast_is_one_line_within_telegrams_200_characters() -> None:
    refusal = "this chat is not on the bot's allow-list — " + "an admin can add it " * 20
    shown = toast(refusal)
    assert len(shown) == 200 and shown.endswith("…") and "\n" not in toast("two\nlines")
    assert toast("/config is for admins only") == "/config is for admins only"
