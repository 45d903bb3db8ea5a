"""Reuse-distance histograms: a hand-computed trace, the chart, ``show`` in the chat and on the command line.

Oracles: the bins of a five-read trace worked out by hand; the invariants that the bins add up to the floats read
and the per-buffer rows stack to the run's histogram; the PNG signature; ``show``'s table agreeing with the stored
per-buffer table of the same run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.app import load_settings
from bot.cli import main
from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.recording import result_of
from bot.dispatch import execute
from engine.attribution.buffers import attribute_events
from engine.attribution.histogram import ReuseHistogram, bin_label
from engine.attribution.run_attribution import WHOLE_RUN
from storage.runs import get_run
from tools.reuse_chart import reuse_chart_png

PNG = b"\x89PNG\r\n\x1a\n"
BOB = Caller(name="bob", is_admin=True)


def hand_trace() -> ReuseHistogram:
    """Buffers a (2 floats), b (3 floats), c (1 float). The clock before an event is the floats of all events before
    it, and a read's distance is the clock before it minus the clock before its buffer's last write:

    event     write a  write b  read a  write c  read b  read a  read c
    size         2        3       2       1        3       2       1
    clock        0        2       5       7        8      11      13
    distance                      5                6      11       6   (a: 5-0, b: 8-2, a: 11-0, c: 13-7)

    Bins (2^k ≤ d < 2^(k+1)): d = 5, 6 → bin 2 (a 2, b 3, c 1 floats); d = 11 → bin 3 (a 2). 8 floats read.
    """
    is_write = [True, True, False, True, False, False, False]
    buffer = [0, 1, 0, 2, 1, 0, 2]
    size = [2, 3, 2, 1, 3, 2, 1]
    table = attribute_events(is_write, buffer, size, ["a", "b", "c"], WHOLE_RUN)
    assert [r.distance_sum for r in sorted(table.rows, key=lambda r: r.name)] == [2 * 5 + 2 * 11, 3 * 6, 1 * 6]
    return table.histogram


def test_hand_trace_bins_add_up() -> None:
    hist = hand_trace()
    rows = dict(zip(hist.names, hist.rows, strict=True))
    assert rows == {"a": {2: 2, 3: 2}, "b": {2: 3}, "c": {2: 1}}
    assert hist.total() == {2: 6, 3: 2}
    assert sum(hist.total().values()) == hist.floats_read() == 8  # bins sum to the floats read
    for b in hist.bins():  # every bin's stack is the sum of its per-buffer segments
        assert sum(row.get(b, 0) for row in hist.rows) == hist.total()[b]
    assert ReuseHistogram.from_json(hist.to_json()) == hist
    assert [bin_label(b) for b in hist.bins()] == ["4–7", "8–15"]


@pytest.mark.slow
def test_chart_is_a_png_even_for_names_matplotlib_would_parse() -> None:
    hist = ReuseHistogram(names=("$\\frac{$", "a_b^c", "x"), rows=({1: 3}, {2: 5}, {1: 1, 6: 2}))
    png = reuse_chart_png(hist, title="run 1 ($x$): reuse")
    assert png.startswith(PNG) and len(png) > 5000
    assert reuse_chart_png(ReuseHistogram((), ()), title="empty").startswith(PNG)


def call(ctx: AppContext, name: str, *args: str, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    flags = {a.removeprefix("--") for a in args if a.startswith("--")}
    inv = Invocation(command=name, args=[a for a in args if not a.startswith("--")], options=options, flags=flags)
    inv.caller = BOB
    return execute(ctx, command, inv)


@pytest.mark.slow
def test_show_sends_the_histogram_of_each_scope(tmp_path: Path) -> None:
    ctx = AppContext(settings=load_settings())
    reply, _ = call(ctx, "run", "sgd", n="8", epochs="1")
    assert reply.data is not None
    run_id = reply.data["run_id"]
    shown, status = call(ctx, "show", str(run_id), "--full")
    assert status == 0 and shown.data is not None
    with ctx.sessions()() as session:
        stored = result_of(get_run(session, run_id=run_id)).buffer_attribution
    assert stored is not None
    charts = [f for f in shown.files if f.mime == "image/png"]
    assert sorted(f.name for f in charts) == [f"run-{run_id}-reuse-one-step.png", f"run-{run_id}-reuse-whole-run.png"]
    assert all(f.content.startswith(PNG) for f in charts)
    for scope in stored.scopes:
        data = shown.data["reuse_histograms"][scope.scope]
        # the histogram adds up to the scope's floats read, the table's rows to the histogram's bins
        assert sum(data["total"].values()) == scope.floats_read
        table = next(t for t in shown.tables if t.title == f"reuse distances ({scope.scope})")
        assert sum(int(row[1].replace(",", "")) for row in table.rows) == scope.floats_read
    ctx.close()


@pytest.mark.slow
def test_cli_writes_the_chart_and_prints_its_path(_isolated_data_dir: Path) -> None:
    runner = CliRunner()
    ran = runner.invoke(main, ["run", "sgd", "n=8", "epochs=1", "--json"])
    run_id = json.loads(ran.output)["run_id"]
    shown = runner.invoke(main, ["show", str(run_id), "--full"])
    assert shown.exit_code == 0, shown.output
    path = _isolated_data_dir / "files" / f"run-{run_id}-reuse-whole-run.png"
    assert f"wrote {path}" in shown.output.replace("\n", "")
    assert path.read_bytes().startswith(PNG)
    as_json = json.loads(runner.invoke(main, ["show", str(run_id), "--full", "--json"]).output)
    assert str(path) in as_json["files"]


@pytest.mark.slow
def test_method_card_attaches_the_chart_on_request() -> None:
    ctx = AppContext(settings=load_settings())
    command = command_named("run")
    assert command is not None
    plain, _ = call(ctx, "run", "sgd", n="8", epochs="1")
    assert not [f for f in plain.files if f.mime == "image/png"]  # only on request
    inv = Invocation(command="run", args=["sgd"], options={"n": "8", "epochs": "1"}, flags={"histogram"}, caller=BOB)
    asked, _ = execute(ctx, command, inv)
    assert asked.data is not None and asked.data["reused"]  # the stored run's chart, not a second run
    names = sorted(f.name for f in asked.files if f.content.startswith(PNG))
    run_id = asked.data["run_id"]
    assert names == [f"run-{run_id}-reuse-one-step.png", f"run-{run_id}-reuse-whole-run.png"]
    ctx.close()
