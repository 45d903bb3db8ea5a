"""Credit by first submitter: identical code shares one stored result, every member's request gets its own
submission record, the board credits the first submitter, and a later submitter is told whose run answered them.

The scenario is the red team's stolen credit: a thief submits the victim's posted code first, under the victim's
own label. The oracle is the rule itself, checked from both members' cards, the JSON and the stored rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from bot.app import build_context
from bot.commands import command_named
from bot.commands.base import Attachment, Caller, Invocation, Reply
from bot.context import AppContext
from bot.dispatch import execute
from bot.settings import Settings
from storage.tables import Submission
from tests.reference_data import REFERENCE

PROGRAM = (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_bytes().replace(b"\n", b"\n\n", 1)
"""The published 4×4 baseline with one blank line after its input line: the same cost (1,316), but not the group's
published program (that one is credited to its published author, tests/tools/test_records_sync.py), so the credit
between two members is what these tests see."""
THIEF = Caller(name="thief", user_id=66, chat_id=-100)
VICTIM = Caller(name="victim", user_id=77, chat_id=-100)


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> AppContext:
    return build_context(Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def _run(ctx: AppContext, command_name: str, caller: Caller, *args: str, **options: str) -> Reply:
    command = command_named(command_name)
    assert command is not None
    flags = {"force"} if options.pop("force", "") else set()
    attachments = [Attachment("posted.ir", PROGRAM)] if command_name == "submit" else []
    inv = Invocation(
        command=command_name, args=list(args), options=options, flags=flags, attachments=attachments, caller=caller
    )
    reply, status = execute(ctx, command, inv)
    assert "Traceback" not in reply.text and "internal error" not in reply.text, reply.text
    return reply


def _data(reply: Reply) -> dict[str, Any]:
    assert reply.data is not None
    return reply.data


def _board(ctx: AppContext) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for board in _data(_run(ctx, "leaderboard", VICTIM, "matmul_4x4"))["boards"]:
        rows += board["rows"]
    return rows


def test_stolen_credit_is_told_not_taken(ctx: AppContext) -> None:
    stolen = _run(ctx, "submit", THIEF, name="victim-fast")
    mine = _run(ctx, "submit", VICTIM, name="victim-fast")
    thief, victim = _data(stolen), _data(mine)
    # one stored result, shared; two submission records
    assert victim["run_id"] == thief["run_id"] and victim["reused"] is True
    assert victim["submission_id"] != thief["submission_id"]
    assert victim["metrics"] == thief["metrics"] == {"dally@1": 1316}
    # the victim is told whose run answered, and when it was submitted; the thief holds the credit
    assert thief["identical_to"] is None
    told = victim["identical_to"]
    assert told["run_id"] == thief["run_id"] and told["member"] == "thief" and told["label"] == "victim-fast"
    assert f"identical to run #{thief['run_id']} by thief" in mine.text and told["submitted_at"].startswith("20")
    assert f"yours is #{victim['submission_id']}" in mine.text
    # never shown as the victim's own run: no standing of someone else's run, no "stored result" of theirs
    assert "first stored result" not in mine.text and "new record" not in mine.text
    assert "stored answer" not in mine.text
    # the board credits the first submitter, once
    rows = _board(ctx)
    assert [(r["member"], r["method"]) for r in rows] == [("thief", "victim-fast")]
    # both submissions are stored, each with its own member and label, both pointing at the one result
    with ctx.sessions()() as session:
        stored = session.exec(select(Submission).order_by(Submission.id)).all()  # type: ignore[arg-type]
        seen = [(s.member.name, s.label, s.run_id, s.computed, s.credit_id) for s in stored]
    first_id = thief["submission_id"]
    assert seen == [
        ("thief", "victim-fast", thief["run_id"], True, first_id),
        ("victim", "victim-fast", thief["run_id"], False, first_id),
    ]


def test_a_different_label_shares_the_result_and_the_credit(ctx: AppContext) -> None:
    thief = _data(_run(ctx, "submit", THIEF, name="my-own-name"))
    victim = _data(_run(ctx, "submit", VICTIM, name="victim-fast"))
    assert victim["run_id"] == thief["run_id"] and victim["identical_to"]["label"] == "my-own-name"
    assert victim["label"] == "victim-fast"  # the victim's card keeps the victim's label
    assert [(r["member"], r["method"]) for r in _board(ctx)] == [("thief", "my-own-name")]


@pytest.mark.slow
def test_a_forced_rerun_keeps_the_credit_with_the_first_submitter(ctx: AppContext) -> None:
    thief = _data(_run(ctx, "submit", THIEF, name="victim-fast"))
    rerun = _run(ctx, "submit", VICTIM, name="victim-fast", force="1")
    forced = _data(rerun)
    assert forced["run_id"] != thief["run_id"] and forced["reused"] is False
    assert forced["identical_to"]["member"] == "thief" and "run again at your request" in rerun.text
    assert [(r["member"], r["method"], r["run"]) for r in _board(ctx)] == [("thief", "victim-fast", forced["run_id"])]
    # and a third member is told the same first submitter, with the run that answers now
    third = _data(_run(ctx, "submit", Caller(name="carol", user_id=88, chat_id=-100), name="c"))
    assert third["run_id"] == forced["run_id"] and third["identical_to"]["member"] == "thief"


def test_own_resubmission_is_a_plain_stored_answer(ctx: AppContext) -> None:
    first = _data(_run(ctx, "submit", VICTIM, name="victim-fast"))
    again = _run(ctx, "submit", VICTIM, name="another-name")
    assert _data(again)["run_id"] == first["run_id"] and _data(again)["identical_to"] is None
    assert "stored answer (--force reruns)" in again.text and "identical to" not in again.text
