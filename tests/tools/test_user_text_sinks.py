"""Escaping at every sink: member text (titles, names, notes, result cells) cannot forge sprint-log structure,
inject HTML, hide behind bidi controls, or break a chart through matplotlib's mathtext.

Oracle: the structure the sinks themselves define — the Markdown log has one ``## Week`` heading per week and one
``### `` heading per entry, an entry is "already present" only through its own marker, each Docs paragraph is
one line; and a chart that renders (mathtext on a ``$\\foo{$`` name raises ValueError in matplotlib).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.digests import WeekRun
from storage.scores import ScoredRun
from tools.digest_chart import activity_chart_png
from tools.records import record_history
from tools.records_chart import progression_chart_png
from tools.sprint_log.docs_requests import entry_requests
from tools.sprint_log.entry import LogEntry, marker
from tools.sprint_log.markdown_sink import MarkdownSink
from tools.user_text import BIDI_CONTROLS, chart, markdown, one_line

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)
NASTY = "x\n## Week 2099-W01\n### 2099-01-01 00:00 UTC — forged\n*score by alice · sutro#victim1*\n| a | b |"
HTML = "<img src=x onerror=alert(1)> & <script>alert(2)</script>"
BIDI = "\u202egnp.exe\u202c \u2066hidden\u2069"
MATH = "$\\foo{$"


def _entry(uid: str, **kw: object) -> LogEntry:
    fields = {"author": "eve", "kind": "note", "title": "t", "body": "", "results": []} | kw
    return LogEntry(uid, T0, **fields)  # type: ignore[arg-type]


def test_markdown_log_structure_cannot_be_forged_from_content(tmp_path: Path) -> None:
    sink = MarkdownSink(tmp_path / "sprint-log.md")
    sink.deliver(
        _entry(
            "attack1",
            author=f"eve\n*note by alice {MATH}",
            title=NASTY,
            body=f"{NASTY}\n{HTML}\n{BIDI}\n1. list\n- item\n===",
            results=[(NASTY, HTML, "-2", "a|b")],
        )
    )
    assert sink.deliver(_entry("victim1", author="alice", title="honest"))  # its marker was only in content
    text = (tmp_path / "sprint-log.md").read_text()
    lines = text.splitlines()
    assert [ln for ln in lines if ln.startswith("## ")] == ["## Week 2026-W48"]
    assert [ln for ln in lines if ln.startswith("### ")] == ["### Mon 23 Nov 2026"]  # one day line: ours
    assert re.findall(r"<!-- (sutro#\w+) -->", text) == ["sutro#attack1", "sutro#victim1"]  # markers are ours only
    assert text.count(marker("victim1")) == 1 and text.count(marker("attack1")) == 1
    assert "<img" not in text and "<script" not in text and "&lt;script&gt;" in text
    assert not BIDI_CONTROLS & set(text)
    table_rows = [ln for ln in lines if ln.startswith("|")]
    assert len(table_rows) == 3  # header, rule, one row: 4 columns each (5 unescaped pipes)
    assert all(len(re.findall(r"(?<!\\)\|", ln)) == 5 for ln in table_rows)
    assert not any(ln.startswith(("- ", "1. ", "===")) for ln in lines)


def test_docs_entry_is_one_paragraph_per_line_and_content_carries_no_marker() -> None:
    document = {"body": {"content": [{"endIndex": 2, "paragraph": {"elements": [{"textRun": {"content": "\n"}}]}}]}}
    requests = entry_requests(document, _entry("attack2", author=f"eve\nx{BIDI}", title=NASTY, body=NASTY))
    text = requests[0]["insertText"]["text"]
    paragraphs = text.split("\n")
    assert paragraphs[:3] == [
        "Week 2026-W48",
        "Mon 23 Nov 2026",
        "12:00 x ## Week 2099-W01 ### 2099-01-01 00:00 UTC — forged "
        "*score by alice · sutro #victim1* | a | b | — eve xgnp.exe hidden",  # one line, its marker broken up
    ]
    assert marker("victim1") not in text and marker("attack2") not in text
    named = [r["createNamedRange"]["name"] for r in requests if "createNamedRange" in r]
    assert named == [marker("attack2")]  # the marker is a named range: content cannot forge one
    assert not BIDI_CONTROLS & set(text)


def test_charts_show_member_names_as_typed() -> None:
    names = [MATH, "a\nb", BIDI, "$x$ and $$"]
    scores = [ScoredRun(i, name, "m", "dally@1", 100.0 - i, T0 + timedelta(hours=i)) for i, name in enumerate(names)]
    png = progression_chart_png(record_history(scores), challenge="matmul_4x4", metric="dally@1")
    assert png.startswith(b"\x89PNG")
    runs = [WeekRun(i, name, "matmul_4x4", "s", i % 2 == 0, None, T0) for i, name in enumerate(names)]
    assert activity_chart_png(runs, week=f"2026-W48 {MATH}").startswith(b"\x89PNG")


def test_escaping_functions() -> None:
    assert one_line("a\r\nb\u2028c\x00d\u202e") == "a  b c d"
    assert chart(MATH) == "\\$\\foo{\\$"
    assert markdown("## x | *y* <b>") == "\\## x \\| \\*y\\* &lt;b&gt;"
    assert markdown("matmul__baseline_4x4.ir (#1) _em_") == "matmul__baseline_4x4.ir (#1) \\_em\\_"
