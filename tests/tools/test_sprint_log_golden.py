"""Golden renderings of one sprint in both sinks: the Markdown file and the Docs ``batchUpdate`` bodies (checked
against the discovery document shipped in google-api-python-client, and applied to the fake's document model).

The sprint holds what the group's logs hold: its start (with the TLDR line), a note, a method run against its
baseline (headline, parameters, movers, links, table, chart), a submission, an idea, a note on the next day, the
sprint's end, and the TLDR replaced in place. Clocks are pinned: every entry has a fixed time (Europe/Berlin, UTC+1
in November). Regenerate after a deliberate change with ``SUTRO_UPDATE_GOLDEN=1`` and read the diff.

Independent oracles beside the golden files (hand arithmetic on the run's figures, from ``sutro run local_update
n=20`` on seed 0): the headline states the run's one verdict, on the whole run's dmc@1 (the board's primary metric):
58,659,867,413 against sgd's 58,932,701,991 is −0.463 %, inside the rule's 1 % minimum → INCONCLUSIVE ("−0.5 %");
the one-step figures are diagnostics with no verdict of their own (one-step dmc@1 3,336,857.56 / 3,435,197.12 − 1 =
−2.86 % → "−2.9 %" in the table only). The submission 133,783 against the built-in baseline 340,704 is
340,704 / 133,783 = 2.55 → "2.5× cheaper" (a WIN), and against the record 150,000 −10.81 % → "−10.8 %", a WIN and
not a LOSS against the baseline → a new record.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.comparison import Comparison, MetricComparison, Standing
from bot.core.judgement import Judgement
from bot.core.run_entry import RunFacts, detail_lines, entry_table, headline
from bot.core.verdict import judge
from engine.attribution.diff import AttributionDiff, BufferChange
from tests.fakes.docs_discovery import batch_update_problems
from tests.fakes.docs_model import Document
from tools.sprint_log.docs_requests import document_text, entry_requests, tldr_requests
from tools.sprint_log.entry import EntryChart, EntryDetail, EntryLink, LogEntry
from tools.sprint_log.images import PublicFolder
from tools.sprint_log.markdown_sink import MarkdownSink

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
UPDATE = os.environ.get("SUTRO_UPDATE_GOLDEN") == "1"
ZONE = "Europe/Berlin"
SECTION = "Technical Sprint 2 · 23 Nov 2026"
T0 = datetime(2026, 11, 23, 2, 6, tzinfo=UTC)  # 3:06 in Berlin
PNG = b"\x89PNG\r\n\x1a\n" + b"golden chart bytes"

SGD_STEP = {"ard@1 (one step)": 13940.49, "ard_per_read@1 (one step)": 7611.04, "dmc@1 (one step)": 3435197.12}
MINE_STEP = {"ard@1 (one step)": 13252.99, "ard_per_read@1 (one step)": 4611.62, "dmc@1 (one step)": 3336857.56}


def _detail(**fields: Any) -> EntryDetail:
    return EntryDetail(zone=ZONE, section=SECTION, tldr="goal: find a cheaper update", **fields)


def method_run_facts() -> RunFacts:
    rows = (
        MetricComparison("ard@1", 1916496.97, 1916622.6, 1916622.6),
        MetricComparison("bytedmd@1", 2236538.0, 2264314.0, 2264314.0),
        MetricComparison("dmc@1", 58659867413.26, 58932701991.0, 58932701991.0),
    )
    movers = AttributionDiff(
        metric="dmc@1",
        scope="one step",
        total_a=3435197.12,
        total_b=3336857.56,
        rows=(
            BufferChange("b1", None, None, -52112.61, 0.5299, "moved"),
            BufferChange("w1", None, None, 47033.40, -0.4783, "moved"),
            BufferChange("dw1", None, None, -41988.59, 0.4270, "moved"),
        ),
        moved_floats_share=0.4,
        moved_contribution_share=0.5,
    )
    return RunFacts(
        run_id=2,
        challenge="sparse_parity",
        subject="local_update",
        kind="method",
        ok=True,
        failure=None,
        params={"n": 20, "k": 3, "seed": 0, "hidden": 200, "lr": 0.05, "wd": 0.01, "batch": 32, "epochs": 200},
        seeds=(0,),
        accuracy=1.0,
        wall_s=0.93,
        primary="dmc@1",
        comparison=Comparison(
            rows=rows,
            judgement=Judgement(
                "dmc@1",
                "sparse_parity n=20 k=3 · training · dmc@1",
                True,
                58659867413.26,
                baseline="sgd",
                versus_baseline=judge([58659867413.26], [58932701991.0]),
            ),
        ),
        baseline="sgd",
        baseline_metrics={r.metric: r.baseline for r in rows if r.baseline is not None},
        per_step=MINE_STEP,
        baseline_per_step=SGD_STEP,
        defaults={"n": 20, "k": 3, "seed": 0, "hidden": 200, "lr": 0.1, "wd": 0.01, "batch": 32, "epochs": 200},
        movers=movers,
    )


def submission_facts() -> RunFacts:
    rows = (MetricComparison("dally@1", 133783.0, 340704.0, 150000.0),)
    standing = Standing("matmul_16x16", "dally@1", 133783.0, 150000.0)
    return RunFacts(
        run_id=3,
        challenge="matmul_16x16",
        subject="tiled",
        kind="ir",
        ok=True,
        failure=None,
        params={},
        seeds=(),
        accuracy=None,
        wall_s=0.41,
        primary="dally@1",
        comparison=Comparison(
            rows=rows,
            standing=standing,
            judgement=Judgement(
                "dally@1",
                "matmul_16x16 · program · dally@1",
                True,
                133783.0,
                baseline="baseline program",
                versus_baseline=judge([133783.0], [340704.0]),
                record=150000.0,
                record_label="#1",
                versus_record=judge([133783.0], [150000.0]),
            ),
        ),
        baseline="baseline",
        baseline_metrics={"dally@1": 340704.0},
    )


def _run_entry(uid: str, when: datetime, author: str, kind: str, facts: RunFacts, code: str) -> LogEntry:
    line, verdict = headline(facts)
    links = (EntryLink(f"/show {facts.run_id}"), EntryLink("message", f"https://t.me/c/1234567890/813/{facts.run_id}"))
    return LogEntry(
        uid,
        when,
        author,
        kind,
        title=f"{facts.challenge} / {facts.subject} (#{facts.run_id})",
        detail=_detail(
            headline=line,
            lines=detail_lines(facts),
            links=(*links, EntryLink(code)),
            table=entry_table(facts),
            verdict=verdict.value if verdict else "",
        ),
        charts=(EntryChart("reuse", "reuse distances of one step: local_update vs sgd", PNG),) if kind == "run" else (),
    )


def sprint_entries() -> list[LogEntry]:
    minute = timedelta(minutes=1)
    return [
        LogEntry("s1", T0 - 6 * minute, "yaroslav", "sprint", "Sprint started: Technical Sprint 2", detail=_detail()),
        LogEntry("n1", T0, "yaroslav", "note", "Finished reading the slides; make a plan.", detail=_detail()),
        _run_entry("r1", T0 + 24 * minute, "yaroslav", "run", method_run_facts(), "engine 0.1.0"),
        _run_entry("r2", T0 + 41 * minute, "alice", "score", submission_facts(), "code 3f2a9c1d7b4e"),
        LogEntry(
            "i1",
            T0 + 55 * minute,
            "alice",
            "idea",
            "idea #1: update w1 in blocks of 16",
            body="Hypothesis: reading w1 in blocks keeps its reuse distance under 2^11.\nRun it: /idea --run 1",
            detail=_detail(),
        ),
        LogEntry("n2", T0 + timedelta(days=1), "yaroslav", "note", "Blocked update: no change.", detail=_detail()),
        LogEntry(
            "s2",
            T0 + timedelta(days=1, hours=1),
            "yaroslav",
            "sprint",
            "Sprint ended: Technical Sprint 2",
            detail=_detail(),
        ),
    ]


TLDR = LogEntry(
    "t1",
    T0 + timedelta(days=1, hours=1),
    "yaroslav",
    "tldr",
    "TLDR of Technical Sprint 2",
    body="1 run, 1 submission, 2 notes, 1 idea. Best: sparse_parity n=20 k=3 · training · dmc@1: 58,659,867,413 "
    "(local_update, #2, yaroslav). Verdicts: 2 WIN.",
    detail=_detail(),
)


def _golden(name: str, text: str) -> str:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    return path.read_text(encoding="utf-8")


def test_the_markdown_rendering_of_a_sprint_matches_the_golden_file(tmp_path: Path) -> None:
    sink = MarkdownSink(tmp_path / "sprint-log.md")
    for entry in [*sprint_entries(), TLDR]:
        assert sink.deliver(entry) is True
    text = (tmp_path / "sprint-log.md").read_text(encoding="utf-8")
    assert text == _golden("sprint-log.md", text)
    # the figures of the oracles above, and the chart as a file beside the log
    assert "local_update vs sgd, n=20 k=3, seed 0: INCONCLUSIVE vs sgd: dmc@1 −0.5 %; first on its board" in text
    assert "one step (WIN)" not in text  # a diagnostic carries no verdict of its own
    assert "| dmc@1 (one step), diagnostic | 3,336,858 | −2.9 % |  |" in text
    assert "| ard@1 (one step), diagnostic | 13,253 | −4.9 % |  |" in text
    assert "tiled vs baseline, matmul_16x16: WIN vs baseline program: dally@1 2.5× cheaper; new record (−10.8 %" in text
    assert "parameters not at their defaults: lr=0.05" in text
    assert (tmp_path / "sprint-log-charts" / "r1-reuse.png").read_bytes() == PNG
    assert text.count("**TLDR:**") == 1 and "**TLDR:** 1 run, 1 submission" in text  # replaced, not added


def _docs_rendering(images: bool, tmp_path: Path) -> tuple[list[dict[str, Any]], Document]:
    document = Document("golden")
    host = PublicFolder(tmp_path / "public", "https://charts.example.org/sutro")
    bodies = []
    for entry in sprint_entries():
        urls = {c.name: host.publish(entry, c) for c in entry.charts} if images else {}
        requests = entry_requests(document.to_json(), entry, images=urls, image_problem="no public address")
        bodies.append({"requests": requests})
        document.apply(requests)
    replace = tldr_requests(document.to_json(), TLDR)
    assert replace is not None
    bodies.append({"requests": replace})
    document.apply(replace)
    return bodies, document


def test_the_docs_rendering_of_a_sprint_matches_the_golden_requests_and_reads_back(tmp_path: Path) -> None:
    bodies, document = _docs_rendering(True, tmp_path)
    for body in bodies:
        assert batch_update_problems(body) == []  # every field as the shipped discovery document defines it
    dumped = json.dumps(bodies, indent=1, ensure_ascii=False) + "\n"
    assert dumped == _golden("sprint-log-docs.json", dumped)
    text = document_text(document.to_json())
    assert text == _golden("sprint-log-docs.txt", text)
    assert document.image_uris() == ["https://charts.example.org/sutro/r1-reuse.png"]
    assert sorted(document.named_ranges) == sorted(f"sutro#{e.uid}" for e in sprint_entries())
    styles = [
        (e["paragraph"]["paragraphStyle"]["namedStyleType"], e["paragraph"]["elements"][0].get("textRun", {}))
        for e in document.to_json()["body"]["content"]
        if "paragraph" in e
    ]
    headings = [run.get("content", "").strip() for style, run in styles if style.startswith("HEADING")]
    assert headings == [SECTION, "Mon 23 Nov 2026", "Tue 24 Nov 2026"]  # one outline heading per sprint and day
    assert text.count("TLDR: ") == 1


def test_a_chart_without_a_public_address_is_a_text_line_and_the_entry_still_lands(tmp_path: Path) -> None:
    bodies, document = _docs_rendering(False, tmp_path)
    assert all(batch_update_problems(body) == [] for body in bodies)
    text = document_text(document.to_json())
    assert "chart “reuse distances of one step: local_update vs sgd” not embedded: no public address\n" in text
    assert document.image_uris() == [] and "sutro#r1" in document.named_ranges
