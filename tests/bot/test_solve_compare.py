"""A judged solve() run and a method run of sparse parity compared by buffer (issue 15: attribution in the same shape
for every kind of traced run).

Oracles: the solve() side's total is the first hidden instance's metered dmc@1; the changes add up to the change of
the totals; a name both runs use lines up.
"""

from __future__ import annotations

import math

import pytest

from bot.app import load_settings
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.context import AppContext
from bot.core.judging import Submission, judge
from bot.dispatch import execute
from engine.attribution.run_attribution import WHOLE_RUN
from engine.sandbox.tier import probe_tier
from tests.engine.sandbox.conftest import submission


@pytest.mark.slow
def test_compare_a_judged_solve_with_a_method_run() -> None:
    """A solve() run and a method run of sparse parity compare by buffer: names that match line up, the rest are
    listed, and the changes add up to the change of the totals (both tables in scope ``whole run``)."""
    if not probe_tier().runs_submissions:
        pytest.skip("this machine cannot run submissions")

    ctx = AppContext(settings=load_settings())
    solved = judge(ctx, Submission(code=submission("gf2_solve"), label="gf2"), member="alice")
    command = command_named("run")
    assert command is not None and solved.result.buffer_attribution is not None
    caller = Caller(name="bob", is_admin=True)
    ran, _ = execute(
        ctx, command, Invocation(command="run", args=["sgd"], options={"n": "8", "epochs": "1"}, caller=caller)
    )
    assert ran.data is not None
    compare = command_named("compare")
    assert compare is not None
    ids = [str(ran.data["run_id"]), str(solved.stored.id)]
    reply, status = execute(ctx, compare, Invocation(command="compare", args=ids, caller=caller))
    assert status == 0 and reply.data is not None and reply.data["buffers"] is not None
    buffers = reply.data["buffers"]
    assert buffers["scope"] == WHOLE_RUN and buffers["metric"] == "dmc@1"
    assert math.isclose(buffers["total_b"], solved.result.per_instance_metrics[0]["dmc@1"], rel_tol=1e-12)
    assert math.isclose(sum(r["change"] for r in buffers["rows"]), buffers["change"], rel_tol=1e-9)
    verdicts = {r["buffer"]: r["verdict"] for r in buffers["rows"]}
    assert verdicts["y"] != "only in B"  # both read their labels y: the name lines up
    assert "only in A" in verdicts.values() and "only in B" in verdicts.values()
    ctx.close()
