"""End to end with the REAL commands (no fixtures): the PTB Application polls the local fake Bot API, runs
``/run`` and ``/submit`` in worker processes, stores the runs and writes the sprint log.

Numbers come from reference/expected.tsv (matmul_4x4 baseline: dally@1 1,316) and from invariants (a GF(2)
solve() recovers the secret exactly: accuracy 100%).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.commands import COMMANDS
from engine.sandbox.tier import probe_tier
from tests.bot.telegram_harness import GROUP, MEMBER, TOPIC, any_text, running_bot, texts, until
from tests.fakes.bot_api import FakeBotApi
from tests.reference_data import REFERENCE

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

GF2_SOLVE = Path(__file__).resolve().parents[1] / "engine/sandbox/submissions/gf2_solve.py"


def _data_dir() -> Path:
    return Path(os.environ["SUTRO_DATA_DIR"])


def _sprint_log() -> str:
    return "".join(p.read_text() for p in _data_dir().rglob("*.md"))


async def test_run_local_update_acks_reports_progress_and_answers_in_the_topic(fake: FakeBotApi) -> None:
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/run local_update n=20", thread_id=TOPIC)
        calls = await until(fake, any_text("logged to the sprint log"), timeout=60)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/runs", thread_id=TOPIC)
        calls = await until(fake, lambda cs: len(texts(cs)) >= 3, timeout=20)
    ack, card, runs = [c for c in calls if c.method == "sendMessage"][:3]
    assert "#1 started" in ack.params["text"] or "queued #1" in ack.params["text"]
    assert ack.params["message_thread_id"] == card.params["message_thread_id"] == str(TOPIC)
    edits = [c.params["text"] for c in calls if c.method == "editMessageText"]
    assert any("running local_update" in e for e in edits)  # progress reported by the method, edited in
    assert "done in" in edits[-1]
    text = card.params["text"]
    assert "local_update: accuracy 100.0%" in text and "vs sgd" in text
    # sgd with the same parameters is the baseline: stored first (#1), then local_update (#2)
    assert "dmc@1" in text and "run #2, logged to the sprint log" in text and "vs baseline: −" in text
    # the run is stored: /runs (answered in the bot process, no queue acknowledgement) lists it
    assert "local_update" in runs.params["text"] and "queued" not in runs.params["text"]
    assert runs.params["message_thread_id"] == str(TOPIC)
    log = _sprint_log()
    assert "sgd, n=20 k=3, seed 0: dmc@1 " in log and "/show 1 · " in log
    assert "local_update vs sgd, n=20 k=3, seed 0: dmc@1 " in log and "/show 2 · " in log
    # the entry links to the member's /run message in its forum topic (t.me/c/<chat without -100>/<topic>/<id>)
    assert f"[message](https://t.me/c/{str(GROUP).removeprefix('-100')}/{TOPIC}/" in log


async def test_pasted_solve_and_attached_ir_are_scored(fake: FakeBotApi) -> None:
    tier = probe_tier()
    code = GF2_SOLVE.read_text()
    program = (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_bytes()
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, document=("naive.ir", program), thread_id=TOPIC)
        calls = await until(fake, any_text("naive.ir (ir) on matmul_4x4"), timeout=30)
        fake.push_message(
            chat_id=GROUP,
            user_id=MEMBER,
            text=code,
            entities=[{"type": "pre", "offset": 0, "length": len(code.encode("utf-16-le")) // 2}],
        )
        solve_answer = "solution.py (solve)" if tier.runs_submissions else "no sandbox (tier D)"
        calls = await until(fake, any_text(solve_answer), timeout=60)
        fake.push_message(
            chat_id=GROUP, user_id=MEMBER, caption="/submit matmul_4x4 name=naive", document=("p.ir", program)
        )
        calls = await until(fake, any_text("naive (ir) on matmul_4x4"), timeout=30)
        # the command and its code in one message: arguments on the first line, the program below
        inline = "/submit matmul_1x1 name=tiny\n1,2\nmul 3,1,2\n3"
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=inline)
        calls = await until(fake, any_text("tiny (ir) on matmul_1x1"), timeout=30)
    replies = texts(calls)
    [ir_card] = [t for t in replies if "naive.ir (ir) on matmul_4x4" in t]
    [solve_card] = [t for t in replies if solve_answer in t and "queued" not in t and "started" not in t]
    [named_card] = [t for t in replies if "naive (ir) on matmul_4x4" in t]
    assert "passed" in ir_card and "dally@1" in ir_card and "1,316" in ir_card
    assert "run #1, logged to the sprint log" in ir_card
    if tier.runs_submissions:
        assert "solution.py (solve) on sparse_parity: passed, accuracy 100.0%" in solve_card
        assert f"sandbox tier {tier.tier}" in solve_card and "none self-reported" in solve_card
    assert "1,316" in named_card and "run #" in named_card
    [inline_card] = [t for t in replies if "tiny (ir) on matmul_1x1" in t]
    assert "passed" in inline_card and "dally@1 5:" in inline_card  # cost 5: docs/metrics.md#dally-worked-examples
    assert any(c.method == "getFile" for c in calls)


async def test_a_chat_note_keeps_its_words_and_lines(fake: FakeBotApi) -> None:
    note = "/log tried lr=0.1 on local_update — didn't help\nthe dmc moved by −0.5% only"
    async with running_bot(fake, commands=COMMANDS):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text=note, thread_id=TOPIC)
        await until(fake, any_text("written to the markdown sprint log"), timeout=30)
    log = _sprint_log()
    assert "tried lr=0.1 on local_update — didn't help — " in log  # the title, with the apostrophe and key=value
    assert "the dmc moved by −0.5% only" in log  # the second line is the body
