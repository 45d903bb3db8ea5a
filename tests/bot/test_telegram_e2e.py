"""End to end: the real PTB Application polls a local fake Bot API over HTTP and answers like it would in the group.

Each test starts the fake server and the bot (a few seconds at most) and asserts on what the server received.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot.commands import COMMANDS
from engine.challenges import CHALLENGES
from tests.bot.telegram_harness import (
    ADMIN,
    GROUP,
    MEMBER,
    OTHER_MEMBER,
    STRANGERS,
    TEST_COMMANDS,
    TOKEN,
    TOPIC,
    any_text,
    process_alive,
    running_bot,
    texts,
    until,
)
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


async def test_challenges_answered_in_the_same_topic_as_a_table(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges", thread_id=TOPIC)
        calls = await until(fake, any_text("challenges"))
    [reply] = [c for c in calls if c.method == "sendMessage"]
    assert reply.params["chat_id"] == str(GROUP)
    assert reply.params["message_thread_id"] == str(TOPIC)
    assert reply.params["parse_mode"] == "HTML"
    assert "challenge" in reply.params["text"] and "metric" in reply.params["text"]  # the table


async def test_menu_and_help_come_from_the_registry(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help")
        calls = await until(fake, any_text("/challenges"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help cancel")
        calls = await until(fake, any_text("/cancel ID"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help chalenges")
        calls = await until(fake, any_text("did you mean"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/chalenges")
        calls = await until(fake, lambda cs: sum("did you mean" in t for t in texts(cs)) == 2)
    [menu_call] = [c for c in calls if c.method == "setMyCommands"]
    menu = [entry["command"] for entry in menu_call.json_param("commands")]
    assert menu == [c.name for c in TEST_COMMANDS if c.telegram]
    help_text = texts(calls)[0]
    for command in COMMANDS:
        assert (f"/{command.name}" in help_text) == command.telegram
    assert "'challenges'" in texts(calls)[2]
    assert texts(calls)[3].startswith("unknown command 'chalenges' — did you mean 'challenges'?")


async def test_a_stranger_chat_is_refused_and_nothing_runs(fake: FakeBotApi, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    async with running_bot(fake):
        fake.push_message(chat_id=STRANGERS, user_id=MEMBER, text=f"/sleepy steps=1 child={marker}")
        calls = await until(fake, any_text("allow-list"))
        await asyncio.sleep(0.5)
    assert texts(calls, chat_id=STRANGERS) == [texts(calls)[0]]  # the refusal and nothing else
    assert not marker.exists()


async def test_admin_only_command_refused_for_members_allowed_for_admins(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/wipe rows=2")
        await until(fake, any_text("for admins only"))
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/wipe rows=2")
        await until(fake, any_text("2 rows"))
        calls = await until(fake, any_text("2 rows"))
    assert sum("for admins only" in t for t in texts(calls)) == 1


async def test_an_anonymous_group_admin_is_not_a_bot_admin_unless_trusted(fake: FakeBotApi) -> None:
    # an anonymous group admin posts as the group itself (from = GroupAnonymousBot); SUTRO_ADMIN_IDS cannot name them
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=1087968824, sender_chat_id=GROUP, text="/wipe rows=3")
        calls = await until(fake, any_text("for admins only"))
    refusal = next(t for t in texts(calls) if "for admins only" in t)
    assert "SUTRO_ADMIN_IDS" in refusal and "\n" not in refusal
    assert not any("3 rows" in t for t in texts(calls))
    fake.calls.clear()
    async with running_bot(fake, trust_anonymous_admins=True):
        fake.push_message(chat_id=GROUP, user_id=1087968824, sender_chat_id=GROUP, text="/wipe rows=3")
        await until(fake, any_text("3 rows"))


async def test_progress_edits_one_message_then_the_result_arrives_in_the_topic(fake: FakeBotApi) -> None:
    async with running_bot(fake):  # progress edits at most every 0.2 s
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=16 pause=0.05", thread_id=TOPIC)
        calls = await until(fake, any_text("slept 16 steps"))
    [ack] = [c for c in calls if c.method == "sendMessage"]  # one message per job: the result replaces it
    assert "queued as job 1, position 1" in ack.params["text"]
    assert ack.params["message_thread_id"] == str(TOPIC)
    edits = [c for c in calls if c.method == "editMessageText"]
    assert {e.params["message_id"] for e in edits} == {str(ack.result["message_id"])}  # one message, edited
    progress = [e for e in edits if "/16 (" in e.params["text"]]
    assert len(progress) >= 2
    gaps = [b.at - a.at for a, b in zip(progress, progress[1:], strict=False)]
    assert min(gaps) >= 0.15, (gaps, [e.params["text"] for e in edits])  # throttled
    assert len(edits) < 16
    assert "done in" in edits[-1].params["text"] and "slept 16 steps" in edits[-1].params["text"]


async def test_cancel_kills_the_job_and_its_child_processes(fake: FakeBotApi, tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/sleepy steps=400 pause=0.05 child={pids_file}")
        await until(fake, any_text("/400 (", "editMessageText"))
        worker_pid, grandchild_pid = map(int, pids_file.read_text().split())
        assert process_alive(worker_pid) and process_alive(grandchild_pid)
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/cancel 1")
        await until(fake, any_text("job 1 is member's"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/queue")
        await until(fake, any_text("1 running, 0 queued"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/cancel 1")
        calls = await until(fake, any_text("cleaned up after a stopped sleepy (400 steps)"))
        deadline = time.monotonic() + 3
        while (process_alive(worker_pid) or process_alive(grandchild_pid)) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    assert not process_alive(worker_pid)
    assert not process_alive(grandchild_pid)
    assert "cancelled by member" in texts(calls, "editMessageText")[-1]
    assert not any("slept" in t for t in texts(calls))
    assert any("cancelled by member; its processes were killed" in t for t in texts(calls))


async def test_a_document_reaches_the_command_as_an_attachment(fake: FakeBotApi) -> None:
    program = b"x = load a\ny = mul x x\nstore y\n"
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, caption="/attach tag=demo", document=("prog.ir", program))
        calls = await until(fake, any_text("1 attachments"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, document=("solve.py", b"def solve(x):\n    return x\n"))
        calls = await until(fake, lambda cs: sum("1 attachments" in t for t in texts(cs)) == 2)
    first, second = [t for t in texts(calls) if "1 attachments" in t]
    assert "options={&#x27;tag&#x27;" not in first and "options={'tag': 'demo'}" in first
    assert "prog.ir" in first and str(len(program)) in first
    assert "solve.py" in second  # an uncaptioned .py goes to the paste command (here the submit fixture)
    assert any(c.method == "getFile" for c in calls)


async def test_an_oversized_upload_is_refused_before_download(fake: FakeBotApi) -> None:
    # the default Python source limit is 256 KiB (engine/sandbox/limits.py); IR files may be up to 8 MiB
    big_source = b"def solve(x):\n    return x\n" + b"# pad\n" * (300 * 1024 // 6)
    big_ir = b"x = load a\n" * (300 * 1024 // 11)
    assert len(big_source) > 256 * 1024 and len(big_ir) > 256 * 1024
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, caption="/attach", document=("big.py", big_source))
        calls = await until(fake, any_text("over the 256 KiB limit"))
        assert not any(c.method == "getFile" for c in calls)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, caption="/attach", document=("big.ir", big_ir))
        calls = await until(fake, any_text("1 attachments"))
    refusal = next(t for t in texts(calls) if "over the" in t)
    assert refusal.startswith("big.py is 300 KiB") and "\n" not in refusal
    assert sum(c.method == "getFile" for c in calls) == 1  # only the IR file was fetched


async def test_a_very_long_command_is_echoed_as_a_preview_and_no_message_is_too_long(fake: FakeBotApi) -> None:
    note = " ".join(f"word{i}" for i in range(800))  # about 5,500 characters
    assert len(note) > 5000
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/log {note}")
        calls = await until(fake, lambda cs: any(c.method == "editMessageText" for c in cs))
        await asyncio.sleep(0.5)
    assert not [c for c in fake.calls if c.status == 400]  # the fake refuses texts over 4096 as Telegram does
    ack = next(c for c in calls if c.method == "sendMessage" and "/log word0" in c.params["text"])
    header = ack.params["text"].splitlines()[0]
    assert header.endswith("…") and len(header) <= 80 + len("#1 ")


async def test_an_edited_command_is_answered_once_and_not_re_run(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        original = fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/wipe rows=2", thread_id=TOPIC)
        await until(fake, any_text("for admins only"))
        edited = {**fake.message(chat_id=GROUP, user_id=MEMBER, text="/wipe rows=5", thread_id=TOPIC)}
        edited.update(message_id=original["message_id"], edit_date=int(time.time()))
        fake.push_update({"edited_message": edited})
        calls = await until(fake, any_text("edits are not re-run"))
        stranger_edit = {**fake.message(chat_id=STRANGERS, user_id=OTHER_MEMBER, text="/wipe rows=1")}
        stranger_edit.update(edit_date=int(time.time()))
        fake.push_update({"edited_message": stranger_edit})
        await asyncio.sleep(0.5)
    answer = next(c for c in calls if "edits are not re-run" in c.params.get("text", ""))
    assert answer.params["text"] == "edits are not re-run — send /wipe again as a new message"
    assert answer.params["message_thread_id"] == str(TOPIC)
    sent = texts(fake.delivered())
    assert sum("edits are not re-run" in t for t in sent) == 1
    assert not any("rows=5" in t for t in sent)  # the edit was not run
    assert not texts(fake.delivered(), chat_id=STRANGERS)  # a stranger's edit gets nothing


async def test_start_up_warns_when_privacy_mode_hides_group_messages(caplog: pytest.LogCaptureFixture) -> None:
    warnings = []
    for can_read_all in (False, True):
        api = FakeBotApi(TOKEN, can_read_all_group_messages=can_read_all).start()
        caplog.clear()
        try:
            with caplog.at_level(logging.WARNING, logger="sutro.telegram"):
                async with running_bot(api):
                    pass
        finally:
            api.stop()
        warnings.append([r.getMessage() for r in caplog.records if "privacy mode" in r.getMessage()])
    hidden, readable = warnings
    assert len(hidden) == 1 and "/setprivacy" in hidden[0] and "admin" in hidden[0]
    assert readable == []


async def test_pasted_code_is_submitted(fake: FakeBotApi) -> None:
    code = "def solve(x):\n    return x + 1"
    async with running_bot(fake):
        # Telegram turns a ``` fence into a pre entity and strips the backticks
        fake.push_message(
            chat_id=GROUP,
            user_id=MEMBER,
            text=code,
            entities=[{"type": "pre", "offset": 0, "length": len(code), "language": "python"}],
        )
        await until(fake, any_text("solution.py"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="just chatting, no code here")
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="def generate(n):\n    return list(range(n))")
        calls = await until(fake, lambda cs: sum("solution.py" in t for t in texts(cs)) == 2)
        await asyncio.sleep(0.3)
    replies = [t for t in texts(calls) if "queued" not in t]  # results, without the acknowledgements
    assert len(replies) == 2  # the chat line got no answer
    assert "x + 1" in replies[0]
    assert "range(n" in replies[1]


async def test_commands_replayed_after_downtime_are_skipped_not_run(fake: FakeBotApi, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/sleepy steps=1 child={marker}", date=time.time() - 600)
        calls = await until(fake, any_text("skipped /sleepy"))
        await asyncio.sleep(0.5)
    assert "send it again" in texts(calls)[0]
    assert len(texts(calls)) == 1
    assert not marker.exists()


async def test_stopping_the_bot_answers_running_and_queued_jobs(fake: FakeBotApi, tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    async with running_bot(fake, job_workers=1):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=f"/sleepy steps=400 pause=0.05 child={pids_file}")
        await until(fake, any_text("/400 (", "editMessageText"))
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/sleepy steps=1")
        await until(fake, any_text("queued as job 2, position 1"))
    calls = fake.delivered()
    worker_pid, grandchild_pid = map(int, pids_file.read_text().split())
    replies = texts(calls)
    assert any("job 1 /sleepy" in t and "was stopped: the bot is shutting down; send it again" in t for t in replies)
    assert any("job 2 /sleepy" in t and "was not run: the bot is shutting down; send it again" in t for t in replies)
    deadline = time.monotonic() + 3
    while (process_alive(worker_pid) or process_alive(grandchild_pid)) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not process_alive(worker_pid) and not process_alive(grandchild_pid)


async def test_the_per_member_queue_limit_answers_in_the_chat(fake: FakeBotApi) -> None:
    async with running_bot(fake, job_queue_per_member=1, job_workers=1):  # one worker: the held job must wait
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=20 pause=0.05")
        await until(fake, any_text("queued as job 1"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=1")
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, text="/sleepy steps=1")
        # the two messages may be taken up in either order, so neither the job numbers nor which job answers
        # first are fixed: wait until the held acknowledgement and a finished job have both been sent
        calls = await until(
            fake,
            lambda cs: (
                any("slept 1 steps" in t for t in texts(cs))
                and any("starts after others'" in c.params.get("text", "") for c in cs)
            ),
        )
    # over the member's share of 1: held, not refused — it waits behind other members' jobs and says so once
    sent = [c.params.get("text", "") for c in calls]  # every send and edit, the acknowledgement included
    assert sum("queued as job " in t and "starts after others'" in t for t in sent) == 1
    assert not any("you already have" in t for t in sent)
    assert not any("cleaned up" in t for t in texts(calls))  # a job that answered leaves nothing to undo


async def test_an_admins_chats_allowed_change_applies_to_the_next_message(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text=f"/config set chats.allowed {STRANGERS}")
        await until(fake, any_text("chats.allowed"))
        fake.push_message(chat_id=STRANGERS, user_id=MEMBER, text="/challenges")
        await until(fake, lambda cs: bool(texts(cs, chat_id=STRANGERS)))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        await until(fake, any_text("allow-list"))
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text=f"/config set chats.allowed {GROUP}")
        calls = await until(fake, lambda cs: sum("chats.allowed" in t for t in texts(cs, chat_id=GROUP)) == 2)
    [stranger_reply] = texts(calls, chat_id=STRANGERS)
    assert f"{len(CHALLENGES.names())} challenges" in stranger_reply  # answered there now
    group = texts(calls, chat_id=GROUP)
    assert group[1].startswith(f"this chat ({GROUP}) is not on the bot's allow-list")
    assert "/config set chats.allowed" in group[1]  # the admin was still answered there, and put it back


async def test_an_admins_queue_limit_change_applies_to_the_next_submission(fake: FakeBotApi) -> None:
    async with running_bot(fake, job_queue_per_member=5):
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config set limits.queue_per_member 1")
        await until(fake, any_text("limits.queue_per_member"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=20 pause=0.05")
        await until(fake, any_text("job 1 /sleepy"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=1")
        calls = await until(fake, any_text("starts after others'"))
    # the admins' new share (1), not the deployment's (5): the second job is held behind everyone else's
    sent = [c.params.get("text", "") for c in calls]
    assert any("queued as job 2" in t and "starts after others'" in t for t in sent)
