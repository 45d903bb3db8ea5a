"""Load on the Telegram edge: N members send M queued commands within a time window to the real bot.

The real Application (``build_bot``) polls a local fake Bot API (tests/fakes/bot_api.py) on loopback. Each command is
a short job in a worker process (the ``sleepy`` test fixture: 2 progress steps, 0.05 s apart — this branch has no
``/run`` yet). Measured: time from posting the update to the fake until the bot's acknowledgement reaches it (median,
p90, max), exactly one result per command, nothing lost or duplicated, and the bot process's RSS over the run.
Baseline in the same process: the acknowledgement latency of single commands sent one at a time before the load.

    PYTHONPATH=$PWD python bench/telegram_load.py [--members 20] [--commands 200] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy  # noqa: E402
from measure import machine_line

from bot.app import build_context  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.telegram_app.application import build_bot  # noqa: E402
from tests.bot.fixture_commands import SLEEPY  # noqa: E402
from tests.fakes.bot_api import FakeBotApi  # noqa: E402

TOKEN = "5550001:AAFakeTokenForBench-abcdefghijklmno"
GROUP = -1001500000001


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def ack_for(fake: FakeBotApi, message_id: int) -> float | None:
    for call in fake.delivered("sendMessage"):
        reply_to = call.json_param("reply_parameters") or {}
        if reply_to.get("message_id") == message_id and "queued #" in call.params.get("text", ""):
            return call.at
    return None


async def wait_until(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def main(members: int, commands: int, seconds: float, workers: int, trace: bool) -> None:
    fake = FakeBotApi(TOKEN).start()
    settings = Settings(
        telegram_bot_token=TOKEN,
        telegram_base_url=fake.base_url,
        telegram_base_file_url=fake.base_file_url,
        allowed_chats=[GROUP],
        job_workers=workers,
        job_rate_per_minute=max(10, commands // members),
        telegram_progress_interval_s=1.0,
    )
    bot = build_bot(build_context(settings), commands=(SLEEPY,))
    await bot.start(poll_timeout_s=10)
    text = "/sleepy steps=2 pause=0.05"
    try:
        # baseline: one command at a time, idle bot
        baseline = []
        for i in range(5):
            sent = time.monotonic()
            msg = fake.push_message(chat_id=GROUP, user_id=10_000 + i, text=text)
            await wait_until(lambda m=msg: ack_for(fake, m["message_id"]) is not None, 10)
            baseline.append(ack_for(fake, msg["message_id"]) - sent)  # type: ignore[operator]
            await wait_until(lambda: not bot.board.active(), 10)
        rss_start = rss_mib()
        if trace:
            tracemalloc.start()
            snapshot = tracemalloc.take_snapshot()
        plan = [1 + (i % members) for i in range(commands)]
        random.Random(1).shuffle(plan)
        pushed: list[tuple[int, float]] = []
        rss_samples = [rss_start]
        start = time.monotonic()
        for i, member in enumerate(plan):
            due = start + seconds * i / commands
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            msg = fake.push_message(chat_id=GROUP, user_id=member, text=text)
            pushed.append((msg["message_id"], time.monotonic()))
            if i % (commands // 5 or 1) == 0:
                rss_samples.append(rss_mib())
        ids = {m for m, _ in pushed}

        def results() -> dict[int, int]:
            counts = {m: 0 for m in ids}
            for call in fake.delivered("sendMessage"):
                reply_to = (call.json_param("reply_parameters") or {}).get("message_id")
                if reply_to in counts and "queued #" not in call.params.get("text", ""):
                    counts[reply_to] += 1
            return counts

        await wait_until(lambda: all(v >= 1 for v in results().values()), 120)
        elapsed = time.monotonic() - start
        await asyncio.sleep(1.0)
        rss_samples.append(rss_mib())
        counts = results()
        acks = [ack_for(fake, m) for m, _ in pushed]
        latencies = [a - t for (_, t), a in zip(pushed, acks, strict=True) if a is not None]
        refused = [
            c.params.get("text", "")
            for c in fake.delivered("sendMessage")
            if "rate limit" in c.params.get("text", "") or "already have" in c.params.get("text", "")
        ]
        if trace:
            top = tracemalloc.take_snapshot().compare_to(snapshot, "filename")[:4]
            growth = [f"{Path(str(s.traceback[0].filename)).name} {s.size_diff / 1024:+.0f} KiB" for s in top]
        recorded_calls = len(fake.calls)
    finally:
        await bot.stop()
        fake.stop()

    print(machine_line())
    print(f"load: {members} members, {commands} commands over {seconds:.0f} s, {workers} worker processes")
    base = statistics.median(baseline)
    med = statistics.median(latencies)
    print(f"baseline ack latency (idle, 5 single commands): median {1000 * base:.1f} ms")
    print(
        f"ack latency under load: median {1000 * med:.1f} ms, p90 {1000 * numpy.percentile(latencies, 90):.1f} ms, "
        f"max {1000 * max(latencies):.1f} ms  (ratio median/baseline {med / base:.2f})"
    )
    print(
        f"acknowledged {len(latencies)}/{commands}; results: exactly one for "
        f"{sum(v == 1 for v in counts.values())}, none for {sum(v == 0 for v in counts.values())}, "
        f"duplicated {sum(v > 1 for v in counts.values())}; refused by the member limits {len(refused)}"
    )
    for text in refused:
        print(f"  refusal: {text}")
    print(f"all results in {elapsed:.1f} s after the first command")
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
    args = parser.parse_args()
    asyncio.run(main(args.members, args.commands, args.seconds, args.workers, args.trace))
