"""Re-judge a challenge's stored IR runs under its current correctness rules (``rescore rules CHALLENGE``): what
changed rank and what fell out.

A run keeps the rules it was judged under (``RunResult.rules`` in its detail; none for runs judged before rules
were versioned). Re-judging scores its stored program again with the current rules; the cost is static and does not
change, the verdict may. A run whose verdict changes gets the new one (``ok``, ``failure``) and keeps the earlier
judgement in its detail (``judged_before``: rules, ok, failure), so "valid under the rules of 2026-05, not under
those of 2026-09" stays readable. Runs already judged under the current rules, and runs without a stored IR
program (a generate() run is re-judged only by running it again: not here), are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import col, select

from bot.core.judging import score_ir_limited
from engine.scoring import METRIC, ir_challenge
from storage.database import SessionFactory
from storage.scores import scored_runs
from storage.tables import RUN_ACTIVE, Run
from tools.errors import ToolError
from tools.leaderboard import rank_best


@dataclass(frozen=True)
class RulesChange:
    """One run whose standing moved: its board rank before and after (None: not on the board)."""

    run_id: int
    member: str
    subject: str
    old_rank: int | None
    new_rank: int | None
    failure: str | None = None


@dataclass
class RejudgeReport:
    challenge: str
    rules: str
    rejudged: int = 0
    fell_out: list[RulesChange] = field(default_factory=list)
    rank_changes: list[RulesChange] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)


def _ranks(sessions: SessionFactory, challenge: str) -> dict[int, tuple[int, str, str]]:
    """Run id -> (rank, member, subject) of the best entry per member and method on the challenge's board."""
    with sessions() as session:
        board = rank_best(scored_runs(session, challenge=challenge, metric=METRIC))
    return {row.best.run_id: (row.rank, row.best.member, row.best.subject) for row in board}


def rejudge(sessions: SessionFactory, *, challenge: str) -> RejudgeReport:
    """Re-judge every active IR run of ``challenge`` not yet judged under its current rules."""
    rules = ir_challenge(challenge).rules
    if not rules:
        raise ToolError(
            f"{challenge} has no versioned rules", hint="rules versions exist where a challenge's rules changed"
        )
    report = RejudgeReport(challenge=challenge, rules=rules)
    before = _ranks(sessions, challenge)
    failures: dict[int, str] = {}
    with sessions() as session:
        runs = session.exec(select(Run).where(col(Run.challenge) == challenge, col(Run.status) == RUN_ACTIVE)).all()
        for run in runs:
            assert run.id is not None
            detail = dict(run.result or {})
            if detail.get("rules") == rules:
                continue
            if run.kind != "ir" or not run.code:
                report.skipped.append(run.id)
                continue
            result = score_ir_limited(challenge, run.code, label=run.subject)
            report.rejudged += 1
            history = [
                *detail.get("judged_before", []),
                {"rules": detail.get("rules"), "ok": run.ok, "failure": run.failure},
            ]
            detail.update(rules=rules, judged_before=history)
            if result.ok != run.ok:
                run.ok = result.ok
                run.failure = result.failure
                detail["failure_kind"] = None if result.failure_kind is None else result.failure_kind.value
                if result.failure:
                    failures[run.id] = result.failure
            run.result = detail
            session.add(run)
        session.commit()
    after = _ranks(sessions, challenge)
    for run_id in sorted(set(before) | set(after)):
        old, new = before.get(run_id), after.get(run_id)
        member, subject = (old or new)[1:]  # type: ignore[index]
        change = RulesChange(
            run_id,
            member,
            subject,
            None if old is None else old[0],
            None if new is None else new[0],
            failures.get(run_id),
        )
        if new is None:
            report.fell_out.append(change)
        elif old is None or old[0] != new[0]:
            report.rank_changes.append(change)
    return report
