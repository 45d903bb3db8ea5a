"""Google Docs requests per sprint-log entry with 1 and with 20 processes writing at once, before and after the
one-writer lease (tools/sprint_log/delivery.py, storage/leases.py).

Each writer is a process of its own (as jobs and the bot are): it opens the shared SQLite database, saves one entry
and delivers the outbox through the real googleapiclient to the fake Docs server in this process, all writers
released together. "before" is ``OutboxDelivery(one_writer=False)`` (every process reads and writes the document
at once, and ``requiredRevisionId`` refuses the writes based on a stale read); "after" is the default. Printed for
each: entries delivered (each must be in the document exactly once, in the order saved), documents.get and
batchUpdate requests, refused (conflicting) writes, and requests per entry. Medians over ``ROUNDS`` rounds.

The database is SQLite in a temporary directory, then (where the PostgreSQL server binaries and ``runuser`` are
installed, run as root) a throwaway PostgreSQL server. On SQLite the rounds were serialised already: a round holds
the database's write lock (``BEGIN IMMEDIATE``) from its first read of the outbox to its end; on PostgreSQL they
were not.

Run: ``.venv/bin/python bench/docs_writers_bench.py`` (from the repository root).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from google.oauth2.credentials import Credentials  # noqa: E402
from measure import machine_line  # noqa: E402

from storage.database import make_engine, session_factory  # noqa: E402
from storage.migrate import upgrade_to_head  # noqa: E402
from tests.fakes.docs_server import FakeDocsServer  # noqa: E402
from tools.sprint_log.delivery import Backoff, OutboxDelivery  # noqa: E402
from tools.sprint_log.docs_requests import document_text  # noqa: E402
from tools.sprint_log.docs_sink import GoogleDocsSink  # noqa: E402
from tools.sprint_log.log import SprintLog  # noqa: E402

DOC_ID = "1WritersBenchDocumentId_abcdefghijklmnopq"
ROUNDS = 3


def writer(url: str, endpoint: str, one_writer: bool, title: str, start: multiprocessing.synchronize.Barrier) -> None:
    """One process: save one entry and deliver the outbox (its own and whatever else is pending)."""
    sessions = session_factory(make_engine(url))
    sink = GoogleDocsSink(document_id=DOC_ID, credentials=Credentials("t"), api_endpoint=endpoint)
    delivery = OutboxDelivery(sessions, sink, backoff=Backoff(base_s=0.05), tries_per_round=10, one_writer=one_writer)
    log = SprintLog(sessions, delivery, reply_budget_s=60.0)
    start.wait()
    try:
        log.append_entry(author="bench", kind="note", title=title)
    finally:
        log.close()


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server of its own on a unix socket (initdb as the ``postgres`` user), stopped afterwards; yields
    the URL prefix (a database name is appended per round)."""
    bindir = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="sutro-bench-pg-", dir="/tmp"))
    os.chmod(root, 0o755)
    shutil.chown(root, user="postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
    initdb = [str(bindir / "initdb"), "-D", str(root / "data"), "-A", "trust", "-U", "app", "--no-sync"]
    subprocess.run([*as_postgres, *initdb], check=True, capture_output=True)
    options = f"-c listen_addresses='' -c port=5499 -c unix_socket_directories={root} -c fsync=off"
    pg_ctl = [*as_postgres, str(bindir / "pg_ctl"), "-D", str(root / "data")]
    subprocess.run([*pg_ctl, "-o", options, "-w", "-l", str(root / "log"), "start"], check=True, capture_output=True)
    try:
        yield f"host={root}&port=5499"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


_ROUNDS = itertools.count(1)


def new_database(postgres: str | None, tmp: str) -> str:
    """A fresh database for one round: SQLite in ``tmp``, or a new database on the throwaway PostgreSQL."""
    if postgres is None:
        return f"sqlite:///{tmp}/bench.db"
    import psycopg

    query = dict(part.split("=", 1) for part in postgres.split("&"))
    name = f"bench_{next(_ROUNDS)}"
    with psycopg.connect(host=query["host"], port=query["port"], user="app", dbname="postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://app@/{name}?{postgres}"


def one_round(writers: int, one_writer: bool, postgres: str | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, FakeDocsServer() as docs:
        docs.create(DOC_ID)
        url = new_database(postgres, tmp)
        engine = make_engine(url)
        upgrade_to_head(engine)
        engine.dispose()
        mp = multiprocessing.get_context("fork")
        start = mp.Barrier(writers)
        titles = [f"entry {i:02d}" for i in range(writers)]
        procs = [mp.Process(target=writer, args=(url, docs.endpoint, one_writer, t, start)) for t in titles]
        began = time.perf_counter()
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        wall = time.perf_counter() - began
        # what is left pending (a writer that gave up waiting) is delivered by one last round, as the bot's job would
        sessions = session_factory(make_engine(url))
        sink = GoogleDocsSink(document_id=DOC_ID, credentials=Credentials("t"), api_endpoint=docs.endpoint)
        OutboxDelivery(sessions, sink).deliver_pending()
        sink.close()
        text = document_text(docs.documents[DOC_ID].to_json())
        assert all(text.count(t) == 1 for t in titles), "an entry missing or written twice"
        gets = sum(1 for method, path, _ in docs.received if method == "GET")
        updates = docs.batch_updates()
        return {
            "gets": gets,
            "updates": updates,
            "refused": updates - writers,
            "per_entry": (gets + updates) / writers,
            "wall_s": wall,
        }


def main() -> None:
    print(machine_line())
    with contextlib.ExitStack() as stack:
        databases: list[tuple[str, str | None]] = [("SQLite", None)]
        if glob.glob("/usr/lib/postgresql/*/bin/initdb") and shutil.which("runuser"):
            databases.append(("PostgreSQL", stack.enter_context(throwaway_postgres())))
        for db_name, postgres in databases:
            for writers in (1, 20):
                for label, one_writer in (("before (every process writes)", False), ("after (one writer)", True)):
                    rounds = [one_round(writers, one_writer, postgres) for _ in range(ROUNDS)]
                    med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
                    print(
                        f"{db_name}, {writers:2d} writers, {label}: {med['gets']:.0f} gets + "
                        f"{med['updates']:.0f} batchUpdates ({med['refused']:.0f} refused) for {writers} entries = "
                        f"{med['per_entry']:.2f} requests per entry; wall {med['wall_s']:.1f} s (medians of {ROUNDS})"
                    )


if __name__ == "__main__":
    main()
