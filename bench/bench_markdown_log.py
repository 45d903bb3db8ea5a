"""Markdown sprint-log appends (issue 16): the time of one append with 100, 1,000 and 10,000 entries already in
the file. An append reads a small state file, not the log; for comparison, the time of one full read of the log
(what every append cost before: 31–43 ms at 10,000 entries, as reported in the issue) is printed beside it.
Each append includes its fsync, so the figures depend on the disk; ``--dir /dev/shm`` (memory) leaves the sink's
own work.
Run: PYTHONPATH=$PWD python bench/bench_markdown_log.py [--repeat N] [--dir DIR]   (about 10 s)
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from measure import machine_line, median_s

from tools.sprint_log.entry import LogEntry
from tools.sprint_log.markdown_sink import MarkdownSink, render_markdown, scan_log

RESULTS = [("dally@1", "1 234", "−66 (−5.1%)", "+10"), ("ard@1", "3.5", "", "")]
START = datetime(2026, 1, 5, 9, tzinfo=UTC)


def entry(i: int) -> LogEntry:
    """Entry ``i``: one every 20 minutes (about 500 a week), every third with a results table."""
    return LogEntry(
        uid=f"{i:012x}",
        created_at=START + timedelta(minutes=20 * i),
        author="alice",
        kind="run" if i % 3 == 0 else "note",
        title=f"local_update n=20 k=3 lr=0.1 seed={i}",
        body="tried a smaller learning rate; accuracy held",
        results=RESULTS if i % 3 == 0 else [],
    )


def prefilled(directory: Path, entries: int) -> Path:
    """A log with ``entries`` entries written the way the sink writes them (week headings included)."""
    path = directory / f"log-{entries}.md"
    last_week = last_day = None
    with path.open("w", encoding="utf-8") as fh:
        for i in range(entries):
            week, day = entry(i).created_at.isocalendar()[:2], entry(i).created_at.date()
            fh.write(render_markdown(entry(i), new_section=week != last_week, new_day=day != last_day))
            last_week, last_day = week, day
    return path


def measure(path: Path, entries: int, repeat: int) -> str:
    """One table line: the median append after ``entries`` entries, a full read for comparison, the file size."""
    sink = MarkdownSink(path)
    counter = itertools.count(entries)
    append_s = median_s(lambda: sink.deliver(entry(next(counter))), repeat, warm_up=True)  # warm-up builds the state
    read_s = median_s(lambda: scan_log(path.read_bytes(), ["not-there"]), 5)
    size_mb = path.stat().st_size / 1e6
    return f"{entries:>8} {append_s * 1e3:>13.2f} ms {read_s * 1e3:>7.2f} ms {size_mb:>8.2f} {sink.full_reads:>10}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None, help="where the log files go (default: a temp folder)")
    args = parser.parse_args()
    print(machine_line())
    print(f"{'entries':>8} {'append (median)':>16} {'full read':>10} {'file MB':>8} {'full reads':>10}")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for entries in (100, 1_000, 10_000):
            print(measure(prefilled(Path(tmp), entries), entries, args.repeat))


if __name__ == "__main__":
    main()
