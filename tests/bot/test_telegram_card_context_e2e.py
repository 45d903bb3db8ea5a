"""Context in the chat, through the real PTB Application against the fake Bot API: a command in a photo's or a
file's caption works like typed text, and ``/show``, ``/compare N`` or a plain "why?" sent as a reply to a result
card apply to that card's run (read from the card's sealed details button)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.commands import COMMANDS
from bot.telegram_app.callback_seal import CallbackSeal
from bot.telegram_app.card_context import asks_for_details, with_card_run
from bot.telegram_app.render import FOLLOWUP_PREFIX
from tests.bot.telegram_harness import GROUP, MEMBER, OTHER_MEMBER, TOKEN, messages, running_bot, sealed, until
from tests.fakes.bot_api import FakeBotApi

pytestmark = pytest.mark.e2e

TINY = "/submit matmul_1x1 name=tiny\n1,2\nmul 3,1,2\n3"


def reply_to(fake: FakeBotApi, card: dict[str, Any], text: str, user_id: int = OTHER_MEMBER) -> None:
    """``text`` from a member, sent as a reply to ``card`` (Telegram includes the replied-to message whole)."""
    message = fake.message(chat_id=GROUP, user_id=user_id, text=text)
    message["reply_to_message"] = card
    fake.push_update({"message": message})


async def first_card(fake: FakeBotApi) -> dict[str, Any]:
    fake.push_message(chat_id=GROUP, user_id=MEMBER, text=TINY)
    calls = await until(fake, lambda cs: bool(messages(cs, "tiny (ir) on matmul_1x1")), timeout=60)
    [card] = messages(calls, "tiny (ir) on matmul_1x1")[-1:]
    return card.result


async def test_show_and_why_sent_as_replies_to_a_card_show_that_cards_run(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        card = await first_card(fake)
        reply_to(fake, card, "/show")
        reply_to(fake, card, "why?")
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/show 1")  # the same, typed in full
        calls = await until(fake, lambda cs: len(messages(cs, "#1 tiny on matmul_1x1 by ")) == 3, timeout=30)
    shown = {m.text for m in messages(calls, "#1 tiny on matmul_1x1 by ")}
    assert len(shown) == 1  # three ways to ask, one answer


async def test_run_force_and_details_sent_as_replies_to_a_card_apply_to_its_run(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/run matmul_2x2")
        calls = await until(fake, lambda cs: bool(messages(cs, "run #1, logged")), timeout=60)
        [card] = messages(calls, "run #1, logged")
        reply_to(fake, card.result, "details", user_id=MEMBER)  # a plain word under the card: that run's summary
        calls = await until(fake, lambda cs: bool(messages(cs, "#1 baseline on matmul_2x2 by ")), timeout=30)
        reply_to(fake, card.result, "/run --force", user_id=MEMBER)  # the card's request, run again
        calls = await until(fake, lambda cs: bool(messages(cs, "run #2, logged")), timeout=60)
        submitted = await first_card(fake)  # a submitted program's card: not rebuilt from storage
        reply_to(fake, submitted, "/run --force", user_id=MEMBER)
        calls = await until(fake, lambda cs: bool(messages(cs, "is a submitted program")), timeout=30)
    [again] = messages(calls, "run #2, logged")
    assert again.text.split("\n\n")[-1].startswith("baseline on matmul_2x2")  # the same request as the card's
    [refusal] = messages(calls, "is a submitted program")
    assert "is a submitted program (ir)" in refusal.text and "/submit --force" in refusal.text


async def test_a_reply_to_a_message_without_a_details_button_gets_no_context(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        calls = await until(fake, lambda cs: bool(messages(cs, "challenges")))
        listing = messages(calls, "challenges")[0].result
        reply_to(fake, listing, "/show")
        calls = await until(fake, lambda cs: bool(messages(cs, "usage")) or bool(messages(cs, "missing")), timeout=30)
    [answer] = [m for m in messages(calls) if "usage" in m.text or "missing" in m.text]
    assert "#1 " not in answer.text  # /show with no id, as typed: asked for the id, nothing guessed


async def test_a_reply_to_a_message_showing_several_runs_gets_no_context(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        card = await first_card(fake)
        shared = dict(card)  # one member's two jobs on one message (bot/telegram_app/job_sheet.py): two runs
        shared["reply_markup"] = {
            "inline_keyboard": [
                [
                    {"text": "job 1: details", "callback_data": sealed(f"{FOLLOWUP_PREFIX}show 1")},
                    {"text": "job 2: details", "callback_data": sealed(f"{FOLLOWUP_PREFIX}show 2")},
                ]
            ]
        }
        reply_to(fake, shared, "/show")
        calls = await until(fake, lambda cs: bool(messages(cs, "usage")) or bool(messages(cs, "missing")), timeout=30)
    [answer] = [m for m in messages(calls) if "usage" in m.text or "missing" in m.text]
    assert "#1 " not in answer.text  # which run was meant is not known: asked for the id, nothing guessed


async def test_a_command_in_a_photo_or_file_caption_works_like_typed_text(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        photo = fake.message(chat_id=GROUP, user_id=MEMBER, caption="/challenges")
        photo["photo"] = [{"file_id": "p1", "file_unique_id": "p1u", "width": 90, "height": 60, "file_size": 900}]
        fake.push_update({"message": photo})
        fake.push_message(
            chat_id=GROUP, user_id=MEMBER, caption="/challenges", document=("plot.png", b"\x89PNG\r\n\x1a\n")
        )
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        calls = await until(fake, lambda cs: len(messages(cs, "challenges")) == 3, timeout=30)
    answers = {m.text for m in messages(calls, "challenges")}
    assert len(answers) == 1  # the photo's caption, the file's caption and the typed command: one answer


def test_the_run_fills_in_only_what_the_command_is_short_of() -> None:
    assert with_card_run("show", "", 7) == "7"
    assert with_card_run("show", "9", 7) == "9"  # an id typed wins
    assert with_card_run("compare", "5", 7) == "7 5"
    assert with_card_run("compare", "5 6", 7) == "5 6"
    assert with_card_run("run", "--force", 7) == "from=7 --force"  # that card's request, run again
    assert with_card_run("run", "sgd --force", 7) == "sgd --force"  # a method typed wins
    assert with_card_run("run", "n=30 --force", 7) == "n=30 --force"  # so does any parameter
    assert with_card_run("leaderboard", "", 7) == ""  # not a command about one run


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("why?", True),
        ("Details", True),
        ("more please", True),
        ("nice!", False),
        ("why is this so slow compared to the record of last week", False),
    ],
)
def test_plain_replies_that_ask_for_details(text: str, asks: bool) -> None:
    assert asks_for_details(text) is asks


def test_a_card_context_needs_the_bots_own_seal() -> None:
    assert CallbackSeal(TOKEN).open(CallbackSeal("another bot").seal("go:show 1")) is None
