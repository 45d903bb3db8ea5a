"""An IR run's ``dally@1`` by address ring, in the per-buffer shape, and ``compare`` of two IR runs by ring.

Oracles: a hand-priced ring table (ring r costs r per read); the invariant that the rings add up exactly to the
run's ``dally@1`` and its read count, and agree with the legacy ``attribution`` dict the scorer already wrote; for
``compare``, the changes adding up to the change of the totals.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.app import load_settings
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.context import AppContext
from bot.core.recording import store_result
from bot.dispatch import execute
from engine.attribution.diff import diff_attribution
from engine.attribution.histogram import OTHER, reuse_histogram
from engine.attribution.rings import WHOLE_PROGRAM, ring_attribution, ring_histogram, ring_name
from engine.attribution.run_attribution import Attribution
from engine.scoring.ir import score_ir
from tools.run_request import NormalisedRequest

IR = Path(__file__).resolve().parents[1] / "data" / "ir"


def test_hand_priced_rings() -> None:
    # ring 1 = address 1 (cost 1), ring 2 = addresses 2-4 (cost 2), ring 3 = 5-9 (cost 3)
    attribution = ring_attribution({1: 4, 3: 2})
    assert attribution is not None
    table = attribution.scope(WHOLE_PROGRAM)
    assert table is not None
    assert [(r.name, r.reads, r.contribution("dally@1"), r.mean_distance) for r in table.rows] == [
        ("ring 3 (5–9)", 2, 6.0, 3.0),
        ("ring 1 (1–1)", 4, 4.0, 1.0),
    ]
    assert table.metrics == {"dally@1": 10.0} and table.reads == 6
    # histogram by ring distance: ring 1 in bin 0 (1 ≤ r < 2), ring 3 in bin 1 (2 ≤ r < 4); reads, one row a ring
    assert table.histogram.total() == {0: 4, 1: 2}
    assert dict(zip(table.histogram.names, table.histogram.rows, strict=True)) == {
        "ring 1 (1–1)": {0: 4},
        "ring 3 (5–9)": {1: 2},
    }
    assert Attribution.from_dict(Attribution(scopes=(table,)).to_dict()).scope(WHOLE_PROGRAM) == table
    # a cost past 2**53 is not exact in floats: no table (the run keeps its ring counts)
    assert ring_attribution({10**20: 1}) is None and ring_attribution({2**26: 2**27 - 1}) is not None


def test_ring_histogram_lays_out_rows_as_a_traced_runs() -> None:
    # 30 rings (more than a histogram keeps rows for): the same table the numpy builder makes from the same reads
    reads = {r: (r * 7) % 11 + 1 for r in range(1, 31)}
    rings = list(reads)
    expected = reuse_histogram(
        np.arange(len(rings)), [ring_name(r) for r in rings], np.array([reads[r] for r in rings]), np.array(rings)
    )
    assert ring_histogram(reads) == expected and expected.names[-1] == OTHER
    assert ring_histogram(reads).floats_read() == sum(reads.values())


def scored(name: str, subject: str):  # type: ignore[no-untyped-def]
    return score_ir("matmul_4x4", (IR / name).read_text(), seeds=[1], subject=subject)


def test_scored_programs_add_up_by_ring() -> None:
    for name in ("matmul__baseline_4x4.ir", "matmul__outer_product_4x4.ir"):
        result = scored(name, "p")
        assert result.buffer_attribution is not None and result.attribution is not None
        table = result.buffer_attribution.scope(WHOLE_PROGRAM)
        assert table is not None
        assert sum(int(r.contribution("dally@1")) for r in table.rows) == result.metrics["dally@1"]
        assert sum(r.reads for r in table.rows) == result.counts["reads"]
        assert table.histogram.floats_read() == result.counts["reads"]  # one value per read
        legacy = result.attribution["dally@1 by address ring"]
        assert sorted(r.contribution("dally@1") for r in table.rows) == sorted(legacy.values())


def test_compare_two_ir_runs_by_ring() -> None:
    a, b = scored("matmul__baseline_4x4.ir", "baseline"), scored("matmul__outer_product_4x4.ir", "outer")
    assert a.buffer_attribution is not None and b.buffer_attribution is not None
    sa, sb = a.buffer_attribution.scope(WHOLE_PROGRAM), b.buffer_attribution.scope(WHOLE_PROGRAM)
    assert sa is not None and sb is not None
    diff = diff_attribution(sa, sb, "dally@1")
    assert diff.change == b.metrics["dally@1"] - a.metrics["dally@1"]
    assert sum(r.change for r in diff.rows) == diff.change  # integers in floats: exact
    ctx = AppContext(settings=load_settings())
    ids = []
    for result in (a, b):
        request = NormalisedRequest("matmul_4x4", "ir", result.subject, {}, result.subject, ("dally@1",))
        ids.append(store_result(ctx, result, request=request, member="alice").id)
    command = command_named("compare")
    assert command is not None
    caller = Caller(name="alice", is_admin=False)
    reply, status = execute(ctx, command, Invocation(command="compare", args=[str(i) for i in ids], caller=caller))
    assert status == 0 and reply.data is not None
    buffers = reply.data["buffers"]
    assert buffers["metric"] == "dally@1" and buffers["scope"] == WHOLE_PROGRAM
    assert sum(r["change"] for r in buffers["rows"]) == buffers["change"] == diff.change
    assert all(r["buffer"].startswith("ring ") for r in buffers["rows"])
    assert not [t for t in reply.tables if t.title == "where the cost moved"]  # the rings are in the buffer table
    ctx.close()


def test_show_draws_an_ir_runs_reads_by_ring_distance() -> None:
    result = scored("matmul__outer_product_4x4.ir", "outer")
    ctx = AppContext(settings=load_settings())
    request = NormalisedRequest("matmul_4x4", "ir", "outer", {}, "outer", ("dally@1",))
    run_id = store_result(ctx, result, request=request, member="alice").id
    command = command_named("show")
    assert command is not None
    caller = Caller(name="alice", is_admin=False)
    shown, status = execute(ctx, command, Invocation(command="show", args=[str(run_id)], flags={"full"}, caller=caller))
    assert status == 0 and shown.data is not None
    assert [f.name for f in shown.files if f.mime == "image/png"] == [f"run-{run_id}-reuse-whole-program.png"]
    # every read lands in one bin, the bin of its ring r (2^b ≤ r < 2^(b+1))
    data = shown.data["reuse_histograms"][WHOLE_PROGRAM]
    assert sum(data["total"].values()) == result.counts["reads"]
    table = next(t for t in shown.tables if t.title == f"read distances by address ring ({WHOLE_PROGRAM})")
    assert sum(int(row[1].replace(",", "")) for row in table.rows) == result.counts["reads"]
    ctx.close()
