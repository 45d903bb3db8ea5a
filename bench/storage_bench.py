"""Storage and sprint-log speed: record_run, leaderboard (SQL window function vs pure Python ranking), and one
sprint-log entry delivered to the fake Google Docs server through the real client.

Run: ``PYTHONPATH=$PWD /work/venv/bin/python bench/storage_bench.py`` — prints medians, ratios and the machine.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from google.oauth2.credentials import Credentials  # noqa: E402
from measure import machine_line  # noqa: E402

from storage.database import make_engine, session_factory  # noqa: E402
from storage.migrate import upgrade_to_head  # noqa: E402
from storage.runs import NewRun, record_run  # noqa: E402
from storage.scores import best_per_member_method, scored_runs  # noqa: E402
from tests.fakes.docs_server import FakeDocsServer  # noqa: E402
from tools.leaderboard import rank_best  # noqa: E402
from tools.sprint_log.delivery import OutboxDelivery  # noqa: E402
from tools.sprint_log.docs_sink import GoogleDocsSink  # noqa: E402
from tools.sprint_log.log import SprintLog  # noqa: E402

RUNS = 2000
T0 = datetime(2026, 1, 5, tzinfo=UTC)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    print(machine_line(SQLAlchemy=sqlalchemy.__version__))
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/bench.db")
        upgrade_to_head(engine)
        sessions = session_factory(engine)
        record_s = []
        with sessions() as s:
            for i in range(RUNS):
                start = time.perf_counter()
                record_run(
                    s,
                    NewRun(
                        challenge="c",
                        kind="method",
                        subject=f"m{i % 7}",
                        ok=True,
                        metrics={"dally@1": float((i * 7919) % 1000), "ard@1": i / 3},
                        request_key=f"k{i}",
                        member=f"member{i % 11}",
                        engine_version="0",
                        created_at=T0 + timedelta(minutes=i),
                    ),
                )
                record_s.append(time.perf_counter() - start)
        print(f"record_run (SQLite file, WAL, one commit each): median {median_ms(record_s):.2f} ms over {RUNS}")
        sql_s, py_s = [], []
        for _ in range(15):
            with sessions() as s:
                start = time.perf_counter()
                best_per_member_method(s, challenge="c", metric="dally@1")
                sql_s.append(time.perf_counter() - start)
                start = time.perf_counter()
                rank_best(scored_runs(s, challenge="c", metric="dally@1"))
                py_s.append(time.perf_counter() - start)
        print(
            f"leaderboard over {RUNS} runs: SQL window function median {median_ms(sql_s):.2f} ms; "
            f"fetch-all + Python ranking (baseline) {median_ms(py_s):.2f} ms; "
            f"ratio baseline/SQL {statistics.median(py_s) / statistics.median(sql_s):.2f}"
        )
        with FakeDocsServer() as docs:
            doc_id = "1" + "x" * 40
            docs.create(doc_id)
            sink = GoogleDocsSink(document_id=doc_id, credentials=Credentials("t"), api_endpoint=docs.endpoint)
            log = SprintLog(sessions, OutboxDelivery(sessions, sink))
            append_s = []
            for i in range(40):
                start = time.perf_counter()
                log.append_entry(
                    author="al",
                    kind="run",
                    title=f"entry {i} 🚀",
                    results=[("dally@1", "123", "−4 (−3.1%)", "+1"), ("ard@1", "5.5", "", "")],
                )
                append_s.append(time.perf_counter() - start)
            log.close()
            first = append_s[0]
            print(
                f"sprint-log entry to fake Docs (save + get + batchUpdate): first {first * 1000:.1f} ms "
                f"(builds the cached service), then median {median_ms(append_s[1:]):.1f} ms over 39; "
                f"ratio first/median {first / statistics.median(append_s[1:]):.1f}"
            )
        engine.dispose()


if __name__ == "__main__":
    main()
