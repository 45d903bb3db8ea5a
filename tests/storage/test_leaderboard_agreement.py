"""The SQL leaderboard query (window function) and the pure Python ranking agree on random data (an invariant)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.database import make_engine, session_factory
from storage.runs import NewRun, record_run
from storage.scores import best_per_member_method, scored_runs
from tests.conftest import copy_migrated_database
from tools.leaderboard import rank_best

T0 = datetime(2026, 1, 5, tzinfo=UTC)
RUNS = st.lists(
    st.tuples(
        st.sampled_from(["al", "bo", "cy"]),
        st.sampled_from(["m1", "m2"]),
        st.integers(0, 5),
        st.integers(0, 3),
        st.booleans(),
    ),
    max_size=25,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=RUNS)
@pytest.mark.slow
def test_sql_best_per_member_method_matches_python(
    tmp_path_factory: pytest.TempPathFactory, migrated_database: Path, runs: list[tuple[str, str, int, int, bool]]
) -> None:
    path = copy_migrated_database(migrated_database, tmp_path_factory.mktemp("agree") / "db.sqlite")
    engine = make_engine(f"sqlite:///{path}")
    with session_factory(engine)() as s:
        for i, (member, subject, value, hour, ok) in enumerate(runs):
            # equal hours on purpose: ties on value and time fall back to the run id
            record_run(
                s,
                NewRun(
                    challenge="c",
                    kind="method",
                    subject=subject,
                    ok=ok,
                    metrics={"dally@1": float(value)},
                    request_key=f"k{i}",
                    member=member,
                    engine_version="0",
                    created_at=T0 + timedelta(hours=hour),
                ),
            )
        sql = best_per_member_method(s, challenge="c", metric="dally@1")
        python = [row.best for row in rank_best(scored_runs(s, challenge="c", metric="dally@1"))]
    engine.dispose()
    assert sql == python
