"""/idea end to end: the real PTB Application polls the fake Bot API, the real anthropic SDK talks to the fake
Messages API, and the approved run goes through the job board's worker process into the database."""

from __future__ import annotations

import logging

import pytest
from sqlmodel import select

from bot.app import build_context
from storage.ideas import get_idea
from storage.tables import Run, SprintLogEntry
from tests.bot.idea.script import FLIP_EACH_BIT_ONCE, IDEA, idea_settings
from tests.bot.telegram_harness import (
    GROUP,
    MEMBER,
    OTHER_MEMBER,
    STRANGERS,
    TOPIC,
    Shown,
    messages,
    running_bot,
    sealed,
    settings_for,
    unsealed,
    until,
)
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic, tool_use_message
from tests.fakes.bot_api import Call, FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def _sent(calls: list[Call], fragment: str) -> list[Shown]:
    """The bot's messages holding ``fragment`` as the chat shows them (a job's message edited into its result)."""
    return messages(calls, fragment)


def _has(fragment: str, count: int = 1):  # noqa: ANN202
    return lambda calls: len(_sent(calls, fragment)) >= count


async def test_idea_card_button_press_runs_once(
    fake: FakeBotApi, anthropic_fake: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    anthropic_fake.script += [
        tool_use_message(("list_methods", {})),
        tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)),
    ]
    overrides = idea_settings(anthropic_fake)
    async with running_bot(fake, **overrides):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/idea {IDEA}", thread_id=TOPIC, username="ada")
        calls = await until(fake, _has("idea #1: one membership query per bit"), timeout=30)
        [card] = _sent(calls, "idea #1: one membership query per bit")
        assert card.thread == str(TOPIC)
        assert "nothing runs until someone presses Run it" in card.text
        [row] = card.result["reply_markup"]["inline_keyboard"]
        assert [(b["text"], unsealed(b["callback_data"])) for b in row] == [
            ("Run it", "idea:run:1"),
            ("Edit", "idea:edit:1"),
            ("Discard", "idea:discard:1"),
        ]
        assert not _sent(calls, "approved by")  # nothing ran before the press
        fake.push_button_press(card=card.result, user_id=OTHER_MEMBER, data=sealed("idea:run:1"), username="grace")
        calls = await until(fake, _has("approved by grace"), timeout=30)
        fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("idea:run:1"), username="ada")
        calls = await until(fake, _has("not run again"), timeout=30)
    [result] = _sent(calls, "), approved by grace")
    assert "\n\nidea #1 (one membership query per bit), approved by grace" in result.text  # below the job's header
    assert "km_min" in result.text and "accuracy 100.0%" in result.text
    assert result.thread == str(TOPIC)
    assert result.sent.json_param("reply_parameters")["message_id"] == card.result["message_id"]  # under the card
    [again] = _sent(calls, "not run again")
    assert "already ran as run #1 (approved by grace)" in again.text
    assert len([c for c in calls if c.method == "answerCallbackQuery"]) == 2
    ctx = build_context(settings_for(fake, **overrides))
    with ctx.sessions()() as session:
        idea = get_idea(session, idea_id=1)
        runs = session.exec(select(Run)).all()
        entries = session.exec(select(SprintLogEntry).order_by(SprintLogEntry.id)).all()
    assert (idea.status, idea.approved_by, idea.run_id) == ("ran", "grace", 1)
    assert [(r.id, r.subject, r.kind, r.member.name) for r in runs] == [(1, "km_min", "method", "grace")]
    assert runs[0].params == {"n": 20, "k": 3, "seed": 7}
    assert [(e.kind, e.title) for e in entries] == [
        ("idea", "idea #1: one membership query per bit"),
        ("run", "sparse_parity / km_min k=3 n=20 seed=7 (#1)"),
        ("idea", "idea #1 ran: one membership query per bit"),
    ]
    assert IDEA in entries[0].body and entries[2].run_id == 1
    assert "/v1/messages" in caplog.text and API_KEY not in caplog.text  # the SDK logged its requests, not the key


async def test_discard_and_a_press_from_outside_the_group(fake: FakeBotApi, anthropic_fake: FakeAnthropic) -> None:
    anthropic_fake.script += [tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE))]
    overrides = idea_settings(anthropic_fake)
    async with running_bot(fake, **overrides):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/idea {IDEA}")
        calls = await until(fake, _has("idea #1: one membership"), timeout=30)
        [card] = _sent(calls, "idea #1: one membership")
        stranger_card = {**card.result, "chat": {"id": STRANGERS, "type": "supergroup"}}
        fake.push_button_press(card=stranger_card, user_id=MEMBER + 50, data=sealed("idea:run:1"))
        calls = await until(fake, lambda cs: any(c.method == "answerCallbackQuery" for c in cs))
        fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("idea:edit:1"))
        calls = await until(fake, _has("/idea --revise 1"))
        fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("idea:discard:1"))
        calls = await until(fake, _has("discarded by"), timeout=30)
        fake.push_button_press(card=card.result, user_id=MEMBER, data=sealed("idea:run:1"))
        calls = await until(fake, _has("was discarded — not run again"), timeout=30)
    [refused] = [c for c in calls if c.method == "answerCallbackQuery"][:1]
    assert refused.params.get("show_alert") == "true" and "allow-list" in refused.params.get("text", "")
    ctx = build_context(settings_for(fake, **overrides))
    with ctx.sessions()() as session:
        assert get_idea(session, idea_id=1).status == "discarded"
        assert session.exec(select(Run)).all() == []
