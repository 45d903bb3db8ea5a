"""Telegram's privacy mode, with the fake's getMe reporting it either way (``can_read_all_group_messages``).

With privacy on (Telegram's default for a new bot) a group member's pasted code never reaches the bot, but a
``/submit`` sent as a reply to it does, carrying the replied-to message whole. The fake delivers every pushed
update whatever it reports, so these tests push only what a privacy-mode bot would receive: the command, with the
code message inside it as ``reply_to_message``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.telegram_harness import GROUP, MEMBER, OTHER_MEMBER, TOKEN, TOPIC, any_text, running_bot, texts, until
from tests.fakes.bot_api import BOT_ID, BOT_USERNAME, FakeBotApi


@pytest.fixture(params=[False, True], ids=["privacy-on", "privacy-off"])
def api(request: pytest.FixtureRequest) -> Any:
    fake = FakeBotApi(TOKEN, can_read_all_group_messages=request.param).start()
    yield fake
    fake.stop()


def _reply(api: FakeBotApi, replied: dict[str, Any], text: str, **kwargs: Any) -> None:
    """Push ``text`` from MEMBER as a reply to ``replied`` (a message dict that was never pushed itself)."""
    message = api.message(chat_id=GROUP, user_id=MEMBER, text=text, **kwargs)
    message["reply_to_message"] = replied
    api.push_update({"message": message})


@pytest.mark.slow
async def test_status_says_whether_the_bot_reads_all_group_messages(api: FakeBotApi) -> None:
    async with running_bot(api):
        api.push_message(chat_id=GROUP, user_id=MEMBER, text="/status")
        calls = await until(api, any_text("group messages"))
    [status] = [t for t in texts(calls) if "group messages" in t]
    if api.can_read_all_group_messages:
        assert "all (privacy mode is off)" in status and "privacy mode is on" not in status
    else:
        assert "commands and replies only: privacy mode is on" in status
        assert "reply /submit" in status and "/setprivacy" in status


@pytest.mark.slow
async def test_submit_as_a_reply_judges_the_pasted_code_it_answers(api: FakeBotApi) -> None:
    code = "def solve(x):\n    return x + 1"
    pasted = api.message(
        chat_id=GROUP,
        user_id=OTHER_MEMBER,
        text=code,
        entities=[{"type": "pre", "offset": 0, "length": len(code), "language": "python"}],
    )
    async with running_bot(api):
        _reply(api, pasted, "/submit name=reply")
        calls = await until(api, any_text("1 attachments"))
    [card] = [t for t in texts(calls) if "attachments" in t]
    assert "solution.py" in card and "x + 1" in card and "'name': 'reply'" in card


@pytest.mark.slow
async def test_submit_as_a_reply_to_a_file_downloads_that_file(api: FakeBotApi) -> None:
    source = b"def generate(n):\n    return 'x'\n"
    shared = api.message(chat_id=GROUP, user_id=OTHER_MEMBER, document=("mine.py", source))
    async with running_bot(api):
        _reply(api, shared, "/submit")
        calls = await until(api, any_text("1 attachments"))
    [card] = [t for t in texts(calls) if "attachments" in t]
    assert "mine.py" in card and str(len(source)) in card
    assert [c.params["file_id"] for c in api.delivered("getFile")] == [shared["document"]["file_id"]]


@pytest.mark.slow
async def test_an_oversized_file_replied_to_is_refused_before_download(api: FakeBotApi) -> None:
    shared = api.message(chat_id=GROUP, user_id=OTHER_MEMBER, document=("big.py", b"#" * (300 * 1024)))
    async with running_bot(api):
        _reply(api, shared, "/submit")
        calls = await until(api, any_text("over the"))
    assert any("big.py is 300 KiB, over the 256 KiB limit" in t for t in texts(calls))
    assert api.delivered("getFile") == []


@pytest.mark.slow
async def test_a_reply_without_code_and_the_topics_own_root_are_not_code(api: FakeBotApi) -> None:
    """A reply to plain chat, to the bot's own card, or a message in a topic (whose reply target Telegram sets to the
    topic's opening message) hands the command nothing."""
    chatter = api.message(chat_id=GROUP, user_id=OTHER_MEMBER, text="nice result!")
    table = "step  loss\n1     0.5"
    own_card = api.message(
        chat_id=GROUP, user_id=BOT_ID, text=table, entities=[{"type": "pre", "offset": 0, "length": len(table)}]
    )
    own_card["from"].update(is_bot=True, username=BOT_USERNAME)
    root = api.message(chat_id=GROUP, user_id=OTHER_MEMBER, thread_id=None)
    root.update(message_id=TOPIC, forum_topic_created={"name": "sparse parity", "icon_color": 7322096})
    root.pop("text", None)
    async with running_bot(api):
        _reply(api, chatter, "/submit")
        _reply(api, own_card, "/submit")
        _reply(api, root, "/submit", thread_id=TOPIC)
        calls = await until(api, lambda cs: sum("0 attachments" in t for t in texts(cs)) == 3)
    assert not any("1 attachments" in t for t in texts(calls))
