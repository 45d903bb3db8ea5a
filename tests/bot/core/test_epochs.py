"""Judge epochs (bot/core/epochs.py): a fixed secret suite per epoch, so the same code gives the same figure.

Oracles: HMAC-SHA256 computed here with the standard library on the documented message; the judge run twice on one
suite gives identical metrics (the cost depends on the instances alone); a brute force over the secret's position
costs differently on another epoch's suite; the names recorded in a result resolve to the seeds that built its
instances; rotation re-judges the leader and retires its earlier entry.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import numpy as np
import pytest

from bot.context import AppContext
from bot.core.epoch_rotation import rotate_epoch
from bot.core.epochs import (
    Epoch,
    instance_seed,
    parse_instance_name,
    seed_hex,
    suite_of,
    the_current_epoch,
)
from bot.core.judging import Submission, judge
from bot.settings import Settings
from engine.sandbox.judge import HIDDEN_INSTANCES, hidden_instance, instance_data, judge_solve
from engine.sandbox.tier import probe_tier
from storage.runs import get_run
from storage.tables import RUN_SUPERSEDED
from tests.engine.sandbox.conftest import submission

SHAPE = (20, 3, 200, 1000)
SMALL = (12, 3, 200, 1000)
"""For judging directly: brute force tries up to 220 subsets at n=12 instead of 1,140, and what is asserted (one
figure per suite, another for another suite) does not depend on n."""
KEY = "00112233445566778899aabbccddeeff"


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def test_an_instance_seed_is_the_hmac_of_the_epoch_key() -> None:
    digest = hmac.new(bytes.fromhex(KEY), b"sparse_parity:20:3:200:1000:1", hashlib.sha256).digest()
    assert instance_seed(KEY, SHAPE, 1) == int.from_bytes(digest[:16], "big")
    assert instance_seed(KEY, SHAPE, 0) != instance_seed(KEY, SHAPE, 1)
    assert instance_seed(KEY, (20, 5, 200, 1000), 1) != instance_seed(KEY, SHAPE, 1)  # another shape, another suite
    epoch = Epoch(4, KEY, None, "admin")  # type: ignore[arg-type]
    assert suite_of(epoch, SHAPE, 2) == [("e4.0", instance_seed(KEY, SHAPE, 0)), ("e4.1", instance_seed(KEY, SHAPE, 1))]
    assert parse_instance_name("e4.1") == (4, 1) and parse_instance_name("00ff") is None


def test_recorded_names_resolve_to_the_suite_that_judged(ctx: AppContext) -> None:
    epoch = the_current_epoch(ctx)  # the first epoch starts by itself
    assert epoch.number == 1 and the_current_epoch(ctx) == epoch
    name, seed = suite_of(epoch, SHAPE, 3)[2]
    rebuilt = instance_data(seed_hex(ctx, name, SHAPE), *SHAPE)
    judged = hidden_instance(*SHAPE, seed)
    assert rebuilt.secret == judged["secret"] and np.array_equal(rebuilt.x_train, judged["x_train"])
    assert seed_hex(ctx, "0f" * 16, SHAPE) == "0f" * 16  # a fresh draw's recorded seed is the seed
    with pytest.raises(LookupError):
        seed_hex(ctx, "e9.0", SHAPE)


@pytest.mark.slow
def test_one_suite_one_figure_and_another_epoch_judges_again(ctx: AppContext) -> None:
    if not probe_tier().runs_submissions:
        pytest.skip("this machine cannot run submissions")
    code = submission("brute_force_solve")
    suite = suite_of(Epoch(1, KEY, None, "admin"), SMALL, 3)  # type: ignore[arg-type]
    first = judge_solve(code, suite=suite, n_bits=SMALL[0])
    second = judge_solve(code, suite=suite, n_bits=SMALL[0])
    assert first.ok and first.metrics == second.metrics  # the same code on the same suite: one figure
    assert first.params[HIDDEN_INSTANCES] == ["e1.0", "e1.1", "e1.2"]  # names, never the secret seeds
    other_suite = suite_of(Epoch(2, "ff" * 16, None, "admin"), SMALL, 3)  # type: ignore[arg-type]
    other = judge_solve(code, suite=other_suite, n_bits=SMALL[0])
    assert other.metrics["dmc@1"] != first.metrics["dmc@1"]  # brute force's cost follows the secret's position
    # the bot: identical code in one epoch is one stored run; a rotation re-judges the leader on the new suite
    stored = judge(ctx, Submission(code=code, label="brute"), member="ann")
    again = judge(ctx, Submission(code=code, label="brute"), member="ann")
    assert again.stored.id == stored.stored.id and again.result.metrics == stored.result.metrics
    rotation = rotate_epoch(ctx, by="root")
    assert rotation.previous == 1 and rotation.epoch.number == 2
    [moved] = rotation.rejudged
    assert (moved.old_run, moved.member, moved.old_rank, moved.new_rank) == (stored.stored.id, "ann", 1, 1)
    with ctx.sessions()() as session:
        assert get_run(session, run_id=stored.stored.id).status == RUN_SUPERSEDED  # off the board, kept
        renewed = get_run(session, run_id=moved.new_run)
    assert renewed.params["epoch"] == 2 and renewed.params[HIDDEN_INSTANCES] == ["e2.0", "e2.1", "e2.2"]
    assert moved.new_value == renewed.metrics["dmc@1"] and moved.old_value == stored.result.metrics["dmc@1"]
