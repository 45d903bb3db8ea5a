"""Re-scoring a metric version recomputes the run's attribution and stores it beside the new value; ``compare``
then explains the runs under the board's version.

Oracles: the re-scored ring table adds up exactly to the re-scored ``dally@1`` (ring r costs r per read); the
re-scored value equals what the scorer gives the same program directly; before re-scoring the runs had no table.
"""

from __future__ import annotations

import math
from pathlib import Path

from bot.app import build_context, load_settings
from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.recording import store_result
from bot.core.rescoring import Rescored, ir_rescorer, method_rescorer
from bot.dispatch import execute
from engine.attribution.rings import WHOLE_PROGRAM
from engine.attribution.run_attribution import WHOLE_RUN, Attribution
from engine.methods import run_method
from engine.result import RunResult
from engine.scoring.ir import score_ir
from storage.attributions import attribution_body
from storage.tables import Run
from tools.run_request import NormalisedRequest

IR = Path(__file__).resolve().parents[1] / "data" / "ir"
ADMIN = Caller(name="bob", is_admin=True)


def call(ctx: AppContext, name: str, *args: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), caller=ADMIN))


def store_old(ctx: AppContext, name: str, value: float) -> int:
    """An IR run stored under an older dally version, without any per-buffer table (as before attribution)."""
    code = (IR / name).read_text()
    result = RunResult(challenge="matmul_4x4", subject=name, kind="ir", ok=True, metrics={"dally@0": value})
    request = NormalisedRequest("matmul_4x4", "ir", name, {}, code, ("dally@0",))
    return store_result(ctx, result, request=request, member="alice").id


def test_rescoring_recomputes_the_attribution_and_compare_uses_it() -> None:
    ctx = AppContext(settings=load_settings())
    ctx.rescorers["dally@1"] = ir_rescorer()
    names = ("matmul__baseline_4x4.ir", "matmul__outer_product_4x4.ir")
    ids = [store_old(ctx, name, 1.0) for name in names]
    before, _ = call(ctx, "compare", *map(str, ids))
    assert before.data is not None and before.data["buffers"] is None
    reply, status = call(ctx, "rescore", "dally@0", "dally@1")
    assert status == 0 and reply.data is not None
    assert reply.data["rescored"] == reply.data["attributed"] == 2
    direct = [score_ir("matmul_4x4", (IR / n).read_text(), seeds=[1]).metrics["dally@1"] for n in names]
    with ctx.sessions()() as session:
        for run_id, value in zip(ids, direct, strict=True):
            body = attribution_body(session, run_id=run_id, metric="dally@1")
            assert body is not None
            table = Attribution.from_dict(body).scope(WHOLE_PROGRAM)
            assert table is not None
            assert sum(r.contribution("dally@1") for r in table.rows) == value == table.metrics["dally@1"]
            assert session.get(Run, run_id).metrics["dally@1"] == value  # type: ignore[union-attr]
    after, _ = call(ctx, "compare", *map(str, ids))
    assert after.data is not None and after.data["buffers"] is not None
    buffers = after.data["buffers"]
    assert (buffers["metric"], buffers["total_a"], buffers["total_b"]) == ("dally@1", direct[0], direct[1])
    assert sum(r["change"] for r in buffers["rows"]) == direct[1] - direct[0]
    ctx.close()


def test_a_rescorer_returning_a_plain_value_stores_no_attribution() -> None:
    ctx = AppContext(settings=load_settings())
    run_id = store_old(ctx, "matmul__baseline_4x4.ir", 5.0)
    ctx.rescorers["dally@1"] = lambda run: 7.0
    reply, status = call(ctx, "rescore", "dally@0", "dally@1")
    assert status == 0 and reply.data is not None and (reply.data["rescored"], reply.data["attributed"]) == (1, 0)
    with ctx.sessions()() as session:
        assert attribution_body(session, run_id=run_id, metric="dally@1") is None
    assert Rescored(1.0).attribution is None
    ctx.close()


def test_method_runs_are_traced_again_with_their_histograms() -> None:
    ctx = AppContext(settings=load_settings())
    params = {"n": 8, "epochs": 1}
    fresh = run_method("sgd", params)
    result = RunResult(
        challenge="sparse_parity", subject="sgd", kind="method", ok=fresh.ok, params=dict(fresh.params),
        seeds=list(fresh.seeds), metrics={"dmc@0": 1.0},
    )  # fmt: skip
    request = NormalisedRequest("sparse_parity", "method", "sgd", dict(fresh.params), None, ("dmc@0",))
    run_id = store_result(ctx, result, request=request, member="alice").id
    wired = build_context(load_settings())  # the composition root wires one per metric a method computes
    assert {"ard@1", "ard_per_read@1", "dmc@1", "bytedmd@2", "dally@1"} <= set(wired.rescorers)
    wired.close()
    ctx.rescorers["dmc@1"] = method_rescorer("dmc@1")
    reply, status = call(ctx, "rescore", "dmc@0", "dmc@1")
    assert status == 0 and reply.data is not None and reply.data["attributed"] == 1
    with ctx.sessions()() as session:
        stored = session.get(Run, run_id)
        assert stored is not None and stored.metrics["dmc@1"] == fresh.metrics["dmc@1"]  # the same seed, same run
        body = attribution_body(session, run_id=run_id, metric="dmc@1")
    assert body is not None and fresh.buffer_attribution is not None
    rescored = Attribution.from_dict(body)
    for scope in rescored.scopes:  # the same tables and histograms as the fresh trace
        original = fresh.buffer_attribution.scope(scope.scope)
        assert original is not None and scope.histogram == original.histogram
        assert scope.histogram.floats_read() == scope.floats_read
    whole = rescored.scope(WHOLE_RUN)
    assert whole is not None
    assert math.isclose(sum(r.dmc for r in whole.rows), fresh.metrics["dmc@1"], rel_tol=1e-9)
    assert method_rescorer("dmc@1")(stored) is not None and method_rescorer("dally@1")(stored) is None
    ctx.close()
