"""/idea overheads (issue 8): what the tool-use loop and the contract check add, measured locally.

1. The loop against the local fake Messages API (real anthropic SDK over HTTP on 127.0.0.1): a two-reply exchange
   ending in a checked method card, against a baseline of one bare ``messages.create`` round trip.
2. The contract check's dry run of a solve() (one hidden instance in the sandbox) against the full judge
   (three instances), the run an approval triggers.
The model's own latency (seconds per reply in production) is not included: it dominates and is not ours.
Run: PYTHONPATH=$PWD python bench/bench_idea.py [--repeat N]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import anthropic
from measure import machine_line, median_s

from bot.commands.ideas.config import AssistantConfig
from bot.core.idea_budget import MonthlyBudget
from bot.core.idea_drafting import draft_experiment
from engine.sandbox import judge_solve, probe_tier
from storage.database import make_engine, session_factory
from storage.migrate import upgrade_to_head
from tests.bot.idea.script import BRUTE_FORCE_SOLVE, FLIP_EACH_BIT_ONCE
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic, text_message, tool_use_message
from tools.assistant.contract import check_submission
from tools.assistant.spec import Submission
from tools.assistant.toolbox import Toolbox


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    print(machine_line(anthropic=anthropic.__version__))
    print(probe_tier().description)
    fake = FakeAnthropic().start()
    engine = make_engine(f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}")
    upgrade_to_head(engine)
    sessions = session_factory(engine)
    config = AssistantConfig(
        api_key=API_KEY,
        base_url=fake.base_url,
        model="bench",
        monthly_budget_tokens=10**12,
        monthly_budget_usd=1e9,
        usd_per_mtok=(3.0, 15.0),
        timeout_s=10.0,
        max_retries=0,
        rate_per_hour=10**6,
        max_turns=4,
    )
    client = anthropic.Anthropic(api_key=API_KEY, base_url=fake.base_url, max_retries=0)

    def bare() -> None:
        fake.script.append(text_message("hi"))
        client.messages.create(model="bench", max_tokens=10, messages=[{"role": "user", "content": "hi"}])

    def loop() -> None:
        fake.script.extend(
            [
                tool_use_message(("list_methods", {})),
                tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)),
            ]
        )
        draft_experiment(
            config,
            Toolbox(sessions),
            "flip",
            budget=MonthlyBudget(
                sessions, config.monthly_budget_tokens, config.monthly_budget_usd, config.usd_per_mtok
            ),
        )

    base, full = median_s(bare, repeat), median_s(loop, repeat)
    print(f"baseline: one bare messages.create round trip to the local fake: median {base * 1000:.1f} ms")
    print(
        f"/idea loop, 2 replies + tools + method check + budget rows: median {full * 1000:.1f} ms "
        f"({full / base:.1f}x the baseline)"
    )
    dry = median_s(lambda: check_submission(Submission("solve", "sparse_parity", code=BRUTE_FORCE_SOLVE)), repeat)
    judged = median_s(lambda: judge_solve(BRUTE_FORCE_SOLVE, instances=3), repeat)
    print(f"baseline: full judge_solve, 3 hidden instances: median {judged * 1000:.1f} ms")
    print(
        f"contract check dry run of the same solve(), 1 instance: median {dry * 1000:.1f} ms "
        f"({dry / judged:.2f}x the full judge)"
    )
    fake.stop()


if __name__ == "__main__":
    main()
