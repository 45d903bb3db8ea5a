"""Per-buffer attribution through storage, ``compare`` of two method runs by buffer, its bad input, and the movers
on a method's card — through the real dispatcher with a SQLite file in a temporary data dir.

Oracles are invariants: a stored run's per-buffer contributions add up to the run's stored metrics (whole run) and
per-step figures (one step); the per-buffer changes add up to the change of the totals; the one-step totals that
``compare`` diffs are the ``dmc@1 (one step)`` figures each run stored on its own.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.attribution_diff import buffer_diff
from bot.core.recording import result_of, store_result
from bot.dispatch import execute
from bot.settings import Settings
from engine.attribution.buffers import CLOCK_METRICS
from engine.attribution.run_attribution import ONE_STEP, WHOLE_RUN, Attribution
from engine.result import RunResult
from storage.runs import get_run
from tools.run_request import NormalisedRequest

BOB = Caller(name="bob", is_admin=True)
SMALL = {"n": "8", "epochs": "2"}
"""Small enough for a fast test (about a second for both runs), large enough for every buffer to be read."""


@pytest.fixture
def ctx(tmp_path: Path) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]


def call(ctx: AppContext, name: str, *args: str, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), options=options, caller=BOB))


def run_pair(ctx: AppContext, params: dict[str, str] = SMALL) -> tuple[Reply, int, int]:
    """``run local_update`` stores its sgd baseline first, then itself: (card, sgd id, local_update id)."""
    reply, status = call(ctx, "run", "local_update", **params)
    assert reply.data is not None
    local_id = reply.data["run_id"]
    with ctx.sessions()() as session:
        ids = {get_run(session, run_id=i).subject: i for i in range(1, local_id + 1)}
    return reply, ids["sgd"], local_id


@pytest.mark.slow
def test_buffer_attribution_round_trips_through_storage(ctx: AppContext) -> None:
    reply, status = call(ctx, "run", "sgd", **SMALL)
    assert status in (0, 1) and reply.data is not None  # a 2-epoch run need not pass; it is stored either way
    with ctx.sessions()() as session:
        run = get_run(session, run_id=reply.data["run_id"])
    result = result_of(run)
    assert result.buffer_attribution is not None
    whole, step = result.buffer_attribution.scope(WHOLE_RUN), result.buffer_attribution.scope(ONE_STEP)
    assert whole is not None and step is not None
    for metric in CLOCK_METRICS:
        # contributions add up to the stored metric (whole run) and to the stored per-step figure (one step)
        assert math.isclose(sum(r.contribution(metric) for r in whole.rows), run.metrics[metric], rel_tol=1e-9)
        per_step = result.per_step[f"{metric} (one step)"]
        assert math.isclose(sum(r.contribution(metric) for r in step.rows), per_step, rel_tol=1e-9)
    assert sum(r.floats_read for r in step.rows) == step.floats_read
    assert {"w1", "b1", "dw2"} <= {r.name for r in step.rows}


@pytest.mark.slow
def test_compare_sgd_and_local_update_by_buffer(ctx: AppContext) -> None:
    _, sgd_id, local_id = run_pair(ctx)
    reply, status = call(ctx, "compare", str(sgd_id), str(local_id))
    assert status == 0 and reply.data is not None
    buffers = reply.data["buffers"]
    # the board's primary metric (sparse parity: dmc@1) in the scope both runs have (one step)
    assert buffers["metric"] == "dmc@1" and buffers["scope"] == ONE_STEP
    with ctx.sessions()() as session:
        sgd, local = (result_of(get_run(session, run_id=i)) for i in (sgd_id, local_id))
    assert math.isclose(buffers["total_a"], sgd.per_step["dmc@1 (one step)"], rel_tol=1e-9)
    assert math.isclose(buffers["total_b"], local.per_step["dmc@1 (one step)"], rel_tol=1e-9)
    rows = buffers["rows"]
    names = {r["buffer"] for r in rows}
    assert {"w1", "b1", "dw1", "dw2", "db1"} <= names
    # invariant: the per-buffer changes add up to the change of the totals; each side adds up to its total
    assert math.isclose(sum(r["change"] for r in rows), buffers["change"], rel_tol=1e-9)
    assert math.isclose(sum(r["a"] or 0.0 for r in rows), buffers["total_a"], rel_tol=1e-9)
    assert math.isclose(sum(r["share_of_change"] for r in rows), 1.0, rel_tol=1e-9)
    changes = [abs(r["change"]) for r in rows]
    assert changes == sorted(changes, reverse=True)  # sorted by part of the change
    assert {r["verdict"] for r in rows} <= {"moved", "unchanged", "only in A", "only in B"}
    assert any(r["verdict"] == "moved" for r in rows)
    assert 0.0 < buffers["moved_floats_share"] <= 1.0
    # the text and the table say the same: the table lists the top buffer first, the text what moved
    table = next(t for t in reply.tables if t.title and "by buffer" in t.title)
    assert table.rows[0][0] == rows[0]["buffer"] and table.rows[-1][0] == "total"
    assert "no per-buffer attribution" not in reply.text and "buffers that moved read" in reply.text


@pytest.mark.slow
def test_method_card_names_top_three_movers(ctx: AppContext) -> None:
    card, sgd_id, local_id = run_pair(ctx)
    assert card.data is not None
    movers = card.data["movers"]
    compared, _ = call(ctx, "compare", str(sgd_id), str(local_id))
    assert compared.data is not None
    # the card's movers are the first three rows of compare's table (same runs, same metric, same scope)
    assert [m["buffer"] for m in movers["rows"]] == [r["buffer"] for r in compared.data["buffers"]["rows"][:3]]
    lines = card.text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("DMC, one step: "))
    parts = [p.rsplit(" ", 2) for p in lines[start + 1].split(", ")]  # "b1 −1.5 %" → name, signed share, "%"
    assert len(parts) >= 2 and [p[0] for p in parts] == [m["buffer"] for m in movers["rows"]][: len(parts)]
    for (_, share, _), mover in zip(parts, movers["rows"], strict=False):
        # each share is the buffer's change over sgd's total: its sign is the change's (no "−52,113 (53%)")
        assert share[0] == ("−" if mover["change"] < 0 else "+")
        assert float(share[1:]) == pytest.approx(abs(mover["change"]) / movers["total_a"] * 100, abs=0.051)
    assert all(len(line) <= 40 for line in lines[1:])


@pytest.mark.slow
def test_card_and_log_entry_name_the_same_movers(ctx: AppContext) -> None:
    # both pass at this size (a failed baseline compares with nothing in the log), one seed keeps it quick
    card, sgd_id, local_id = run_pair(ctx, {"n": "8", "epochs": "16", "seed": "42"})
    assert card.data is not None and card.data["ok"]
    movers = card.data["movers"]["rows"]
    entry = next(
        line
        for line in (ctx.settings.data_dir / "sprint-log.md").read_text().splitlines()
        if "where it moved vs" in line
    )
    # the entry names the baseline by its stored run, and the card's top three buffers in the card's order
    assert f"where it moved vs sgd (#{sgd_id}) (dmc@1, one step): " in entry
    named = [part.strip().split(" ")[0] for part in entry.split("one step): ", 1)[1].split(", ")]
    assert named == [m["buffer"] for m in movers]


def store_ir(ctx: AppContext) -> int:
    result = RunResult(challenge="matmul_4x4", subject="naive", kind="ir", ok=True, metrics={"dally@1": 200.0})
    request = NormalisedRequest("matmul_4x4", "ir", "naive", {"n": 4}, "naive", ("dally@1",))
    return store_result(ctx, result, request=request, member="alice").id


@pytest.mark.slow
def test_bad_input_is_one_line_with_a_hint(ctx: AppContext) -> None:
    ir_id = store_ir(ctx)
    reply, status = call(ctx, "compare", "5")
    assert (
        status == 2
        and reply.text == "compare needs two run ids, got one run id — usage: compare ID ID (see ids with: runs)"
    )
    reply, status = call(ctx, "compare", str(ir_id), "42")
    assert status == 2 and reply.text == f"no run #42 — run ids go from 1 to {ir_id}; see recent ones with: runs"
    _, sgd_id, _ = run_pair(ctx)
    reply, status = call(ctx, "compare", str(ir_id), str(sgd_id))
    assert status == 2 and "\n" not in reply.text
    assert reply.text.startswith(f"#{ir_id} is a matmul_4x4 run and #{sgd_id} a sparse_parity run")
    assert "pick two runs of one challenge" in reply.text
    reply, status = call(ctx, "compare")
    assert status == 2 and "got 0 run ids" in reply.text


@pytest.mark.slow
def test_scope_and_metric_of_the_diff(ctx: AppContext) -> None:
    _, sgd_id, local_id = run_pair(ctx)
    with ctx.sessions()() as session:
        a, b = (result_of(get_run(session, run_id=i)).buffer_attribution for i in (sgd_id, local_id))
    assert a is not None and b is not None
    whole_only = Attribution(scopes=tuple(s for s in b.scopes if s.scope == WHOLE_RUN))
    assert buffer_diff(a, b, "dmc@1").scope == ONE_STEP  # type: ignore[union-attr]
    fallback = buffer_diff(a, whole_only, "dmc@1")
    assert fallback is not None and fallback.scope == WHOLE_RUN
    assert math.isclose(fallback.total_a, a.scope(WHOLE_RUN).metrics["dmc@1"])  # type: ignore[union-attr]
    assert buffer_diff(a, b, "ard@1").metric == "ard@1"  # type: ignore[union-attr]
    assert buffer_diff(a, b, "bytedmd@1").metric == "dmc@1"  # type: ignore[union-attr]  # not a clock metric
    assert buffer_diff(None, b, "dmc@1") is None
    assert buffer_diff(a, Attribution(scopes=()), "dmc@1") is None
    # the admins' primary metric decides what compare diffs
    ctx.tool_config().set("metric.primary.sparse_parity", "ard@1", by="bob")
    reply, _ = call(ctx, "compare", str(sgd_id), str(local_id))
    assert reply.data is not None and reply.data["buffers"]["metric"] == "ard@1"
    assert math.isclose(sum(r["change"] for r in reply.data["buffers"]["rows"]), reply.data["buffers"]["change"])
