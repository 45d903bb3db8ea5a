"""Load on the Telegram edge: N members send M queued commands within a time window to the real bot.

The real Application (``build_bot``) polls a local fake Bot API (tests/fakes/bot_api.py) on loopback. Each command is
a short job in a worker process (the ``sleepy`` test fixture: 2 progress steps, 0.05 s apart). Measured: time from
posting the update to the fake until the first message answering it reaches the fake (the acknowledgement — or, when
it had not gone out yet, the result that replaced it, or an instant refusal): median, p90, p95, max; exactly one
answer per command, nothing lost or duplicated; messages and edits per job; the bot process's RSS over the run.
Baseline in the same process: the acknowledgement latency of single commands sent one at a time before the load.

``--rate-limit``: the fake enforces Telegram's group limit (a sliding 20 messages and edits per minute, 429 with
``retry_after``) and the bot's outbox paces itself by Telegram's rules. ``--speed S`` runs the outbox's and the
fake's clock S times faster than the wall clock, so minutes of Telegram time take seconds (the jobs still run in
real time); every time printed is Telegram time (seconds on that clock).

    PYTHONPATH=$PWD python bench/telegram_load.py [--members 20] [--commands 200] [--seconds 60]
    PYTHONPATH=$PWD python bench/telegram_load.py --rate-limit --speed 20      # 200 commands/min, limit on
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy  # noqa: E402
from measure import machine_line

from bot.app import build_context  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.telegram_app.application import build_bot  # noqa: E402
from bot.telegram_app.send_rate import Pace, ScaledPace  # noqa: E402
from tests.bot.fixture_commands import SLEEPY  # noqa: E402
from tests.bot.telegram_harness import Shown, messages  # noqa: E402
from tests.fakes.bot_api import LIMITED, Call, FakeBotApi  # noqa: E402

TOKEN = "5550001:AAFakeTokenForBench-abcdefghijklmno"
GROUP = -1001500000001


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def command(i: int) -> str:
    """The i-th command: each a little different, so each is a job of its own (an identical repeat would join the
    job already queued) whose header names it (``job 7 /sleepy steps=2 pause=0.05007``)."""
    return f"/sleepy steps=2 pause={0.05 + i / 100_000:.5f}"


def reply_to(call: Call) -> int | None:
    return (call.json_param("reply_parameters") or {}).get("message_id")


def mentions(text: str, sent: str) -> bool:
    """Whether ``text`` holds the answer to the command ``sent``: its job's part (a header naming the command; a
    member's jobs may share one message) or an instant refusal replying to it (checked by the caller)."""
    return f" {sent}\n" in text


def first_answer(fake: FakeBotApi, message_id: int, sent: str) -> float | None:
    """When the chat first showed an answer to the command ``sent`` (message ``message_id``), on the fake's clock."""
    for call in fake.delivered():
        if call.method not in ("sendMessage", "editMessageText"):
            continue
        if mentions(call.params.get("text", ""), sent) or (
            call.method == "sendMessage" and reply_to(call) == message_id
        ):
            return call.clock
    return None


def is_final(text: str, sent: str) -> bool:
    refused = "you already have" in text or "rate limit" in text
    return refused or re.search(rf" {re.escape(sent)}\ndone in [\d.]+ s\n\nslept 2 steps", text) is not None


def answers(fake: FakeBotApi, pushed: list[tuple[int, str]]) -> dict[int, list[Shown]]:
    """Command message id -> the bot's messages showing its final answer now (edits applied)."""
    shown = messages(fake.delivered())
    return {
        m: [s for s in shown if is_final(s.text, sent) and (mentions(s.text, sent) or reply_to(s.sent) == m)]
        for m, sent in pushed
    }


async def wait_until(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def main(
    members: int, commands: int, seconds: float, workers: int, trace: bool, rate_limit: bool, speed: float
) -> None:
    pace: Pace = ScaledPace(speed) if speed != 1.0 else Pace()
    fake = FakeBotApi(TOKEN).start()
    on = rate_limit
    data = tempfile.TemporaryDirectory(prefix="telegram-load-")  # never the operator's database
    settings = Settings(
        data_dir=Path(data.name),
        telegram_bot_token=TOKEN,
        telegram_base_url=fake.base_url,
        telegram_base_file_url=fake.base_file_url,
        allowed_chats=[GROUP],
        job_workers=workers,
        job_rate_per_minute=max(10, commands // members),
        telegram_progress_interval_s=2.0,
        telegram_chat_gap_s=1.0 if on else 0.0,
        telegram_group_per_minute=20 if on else 0,
        telegram_overall_per_s=30 if on else 0,
    )
    bot = build_bot(build_context(settings), commands=(SLEEPY,), pace=pace)
    await bot.start(poll_timeout_s=10)
    fake.limit_groups(20 if on else 0, clock=pace.now)  # the fake reads the outbox's clock (limit 0: off)
    try:
        # baseline: one command at a time, idle bot
        baseline = []
        for i in range(5):
            sent = pace.now()
            text = command(90_000 + i)
            msg = fake.push_message(chat_id=GROUP, user_id=10_000 + i, text=text)
            await wait_until(lambda m=msg, t=text: first_answer(fake, m["message_id"], t) is not None, 30)
            baseline.append(first_answer(fake, msg["message_id"], text) - sent)  # type: ignore[operator]
            await wait_until(lambda: not bot.board.active(), 30)
        await wait_until(lambda: bot.outbox.waiting() == 0, 120)
        rss_start = rss_mib()
        if trace:
            tracemalloc.start()
            snapshot = tracemalloc.take_snapshot()
        plan = [1 + (i % members) for i in range(commands)]
        random.Random(1).shuffle(plan)
        pushed: list[tuple[int, float]] = []
        texts: list[tuple[int, str]] = []
        rss_samples = [rss_start]
        start = pace.now()
        calls_before = len(fake.calls)
        for i, member in enumerate(plan):
            await pace.sleep(start + seconds * i / commands - pace.now())
            msg = fake.push_message(chat_id=GROUP, user_id=member, text=command(i))
            pushed.append((msg["message_id"], pace.now()))
            texts.append((msg["message_id"], command(i)))
            if i % (commands // 5 or 1) == 0:
                rss_samples.append(rss_mib())

        def all_answered() -> bool:
            return all(answers(fake, texts).values())

        await wait_until(all_answered, max(120.0, 4 * 60 * commands / 20 / speed))
        elapsed = pace.now() - start
        await pace.sleep(5.0)
        rss_samples.append(rss_mib())
        got = answers(fake, texts)
        firsts = [first_answer(fake, m, sent) for m, sent in texts]
        latencies = [a - t for (_, t), a in zip(pushed, firsts, strict=True) if a is not None]
        jobs = {m: shown for m, shown in ((m, s[0]) for m, s in got.items() if s) if "slept" in shown.text}
        load_calls = [c for c in fake.calls[calls_before:] if c.method in LIMITED]
        load_sends = sum(1 for c in load_calls if c.status == 200 and c.method != "editMessageText")
        load_edits = sum(1 for c in load_calls if c.status == 200 and c.method == "editMessageText")
        refused = [s.text for got_ in got.values() for s in got_ if "rate limit" in s.text or "already have" in s.text]
        too_many = sum(1 for c in load_calls if c.status == 429)
        if trace:
            top = tracemalloc.take_snapshot().compare_to(snapshot, "filename")[:4]
            growth = [f"{Path(str(s.traceback[0].filename)).name} {s.size_diff / 1024:+.0f} KiB" for s in top]
        recorded_calls = len(fake.calls)
        tally = bot.outbox.tally
    finally:
        await bot.stop()
        fake.stop()
        data.cleanup()

    print(machine_line())
    limit = "Telegram's group limit on (sliding 20/min, 1 s per chat)" if on else "no rate limit"
    print(
        f"load: {members} members, {commands} commands over {seconds:.0f} s, {workers} worker processes; {limit}; "
        f"clock ×{speed:g} (times below are Telegram time)"
    )
    base = statistics.median(baseline)
    med = statistics.median(latencies)
    pct = numpy.percentile(latencies, [90, 95])
    print(f"baseline ack latency (idle, 5 single commands): median {base:.2f} s")
    print(
        f"ack latency under load: median {med:.2f} s, p90 {pct[0]:.2f} s, p95 {pct[1]:.2f} s, "
        f"max {max(latencies):.2f} s  (ratio median/baseline {med / base:.1f})"
    )
    print(
        f"answered {sum(1 for s in got.values() if s)}/{commands}: in exactly one message for "
        f"{sum(len(s) == 1 for s in got.values())}, none for {sum(not s for s in got.values())}, "
        f"more than one for {sum(len(s) > 1 for s in got.values())}; {len(jobs)} ran as jobs, "
        f"{len(refused)} refused by the member limits"
    )
    print(
        f"under load: {load_sends} messages and {load_edits} edits for {commands} commands "
        f"({(load_sends + load_edits) / commands:.2f} per command)"
    )
    print(
        f"outbox: {tally.sends} sends, {tally.edits} result edits, {tally.progress_edits} progress edits, "
        f"{tally.progress_dropped} progress lines dropped, {tally.coalesced} acknowledgements replaced by their "
        f"result before sending, {tally.sheets} messages carrying {tally.on_sheets} jobs' parts, "
        f"{too_many} answered 429, {tally.stored} stored for later"
    )
    waits = sorted(tally.result_waits)
    if waits:
        print(
            f"result computed → in the chat: median {statistics.median(waits):.2f} s, "
            f"worst {waits[-1]:.2f} s over {len(waits)} results"
        )
    print(f"all answers in {elapsed:.1f} s after the first command")
    print(
        "bot RSS (MiB) over the run: "
        + ", ".join(f"{r:.1f}" for r in rss_samples)
        + f"  (the in-process fake server keeps all {recorded_calls} calls it received)"
    )
    if trace:
        print("largest allocation growth by file during the load: " + "; ".join(growth))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--trace", action="store_true", help="attribute memory growth by file (tracemalloc)")
    parser.add_argument("--rate-limit", action="store_true", help="Telegram's group limit in the fake and the bot")
    parser.add_argument("--speed", type=float, default=1.0, help="run the outbox's and the fake's clock this fast")
    args = parser.parse_args()
    asyncio.run(main(args.members, args.commands, args.seconds, args.workers, args.trace, args.rate_limit, args.speed))
