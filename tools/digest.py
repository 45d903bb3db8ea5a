"""The weekly digest as text (pure): new records with who beat whom and by how much, the leaderboard per
enabled challenge, the most active members, the week's sprints with their TLDRs, its notes and ideas, the verdicts
its results stated, the failures still open, and the sprint-log link.

The week is the half-open window ``[start, end)`` in UTC; every value carries its metric name and version, and
lower is better for every metric (tools/records.py, tools/leaderboard.py). Failed runs are not results: they are
counted only under "Failures worth a look", never in the week's results or the most active members.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from storage.digests import WeekRun
from tools.leaderboard import LeaderboardRow
from tools.metric_format import format_value, ratio_words
from tools.param_diff import method_label
from tools.records import RecordChange
from tools.user_text import one_line

TOP_MEMBERS = 5
TOP_FAILURES = 5
LEADERBOARD_ROWS = 5
DIGEST_BOARD_HEADERS = ["#", "member", "method", "value", "run"]
"""Narrow enough for a phone (the metric and version are in the table's title)."""


@dataclass(frozen=True)
class ChallengeWeek:
    """One board of an enabled challenge (``challenge`` is the board's name): records set during the week, the
    standing at its end, how many scored results it received during the week (``active``) and its whole record
    progression up to the week's end, the group's published records included (``history``: what its chart draws)."""

    challenge: str
    metric: str
    records: list[RecordChange]
    leaderboard: list[LeaderboardRow]
    active: int = 0
    history: list[RecordChange] = field(default_factory=list)


@dataclass(frozen=True)
class SprintWeek:
    """A sprint that ran during the week: its title, TLDR (may be empty) and whether it ended before the week did."""

    title: str
    tldr: str
    ended: bool


@dataclass(frozen=True)
class WeekEntry:
    """A sprint-log entry of the week: when (UTC), who, its first line, and the verdict it stated ("" if none)."""

    created_at: datetime
    author: str
    kind: str
    line: str
    verdict: str = ""
    run_id: int | None = None


@dataclass(frozen=True)
class DigestInput:
    week: str
    start: datetime
    end: datetime
    challenges: list[ChallengeWeek]
    runs: list[WeekRun]
    sprint_log: str
    sprints: list[SprintWeek] = field(default_factory=list)
    entries: list[WeekEntry] = field(default_factory=list)


@dataclass(frozen=True)
class DigestTable:
    title: str
    headers: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class Digest:
    """The rendered digest: a message and one leaderboard table per challenge with results."""

    text: str
    tables: list[DigestTable] = field(default_factory=list)


def record_line(challenge: str, change: RecordChange) -> str:
    r, p = change.record, change.previous
    head = f"• {challenge} {r.metric}: {r.member} {format_value(r.value)} ({r.subject}, #{r.run_id})"
    if p is None:
        return head + " — first record"
    share = f" ({record_margin(r.value, p.value)})" if p.value else ""
    beaten = f"{p.member} {format_value(p.value)} (#{p.run_id})"
    return f"{head} beat {beaten} by {format_value(p.value - r.value)}{share}"


def record_margin(new: float, old: float) -> str:
    """How much cheaper a record is than the one it beat, with the precision it needs: ``20.0%``, ``0.019%`` for a
    13-unit record on 66,720 (one decimal would say 0.0 %), ``20× cheaper`` beyond a factor of 2."""
    ratio = ratio_words(new, old)
    if ratio is not None:
        return ratio
    pct = (old - new) / abs(old) * 100
    return f"{pct:.1f}%" if round(pct, 1) != 0 else f"{pct:.2g}%"


def most_active(runs: Sequence[WeekRun], top: int = TOP_MEMBERS) -> list[tuple[str, int]]:
    """(member, results) by most results, then name: failed runs are not results and do not count."""
    counts = Counter(r.member for r in runs if r.ok)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]


def notable_failures(runs: Sequence[WeekRun], top: int = TOP_FAILURES) -> list[tuple[WeekRun, int]]:
    """Failed runs that are still open — no later passing run of the same member, challenge and subject in the
    week — newest first, one per (member, challenge, subject, reason) with how often it happened."""
    groups: dict[tuple[str, str, str, str], list[WeekRun]] = {}
    fixed = {(r.member, r.challenge, r.subject): r.created_at for r in runs if r.ok}
    for run in runs:
        later_pass = fixed.get((run.member, run.challenge, run.subject))
        if not run.ok and not (later_pass is not None and later_pass > run.created_at):
            reason = (run.failure or "failed").strip().splitlines()[0][:120] if run.failure else "failed"
            groups.setdefault((run.member, run.challenge, run.subject, reason), []).append(run)
    newest = sorted(groups.values(), key=lambda g: (g[-1].created_at, g[-1].run_id), reverse=True)
    return [(group[-1], len(group)) for group in newest[:top]]


def _failure_line(run: WeekRun, count: int) -> str:
    reason = (run.failure or "failed").strip().splitlines()[0][:120] if run.failure else "failed"
    times = f" ×{count}" if count > 1 else ""
    return f"• #{run.run_id} {run.member} {run.challenge}/{run.subject}{times}: {reason}"


TOP_NOTES = 12
TOP_VERDICTS = 8


def _when(entry: WeekEntry) -> str:
    return f"{entry.created_at:%a %H:%M}"


def _week_log_lines(week: DigestInput) -> list[str]:
    """The week as the sprint log tells it: sprints and their TLDRs, verdicts, notes, ideas (each section only
    when it has something; one line per item, member text made one line)."""
    lines: list[str] = []
    if week.sprints:
        lines += ["", f"Sprints ({len(week.sprints)}):"]
        for sprint in week.sprints:
            state = "ended" if sprint.ended else "running"
            lines.append(
                f"• {one_line(sprint.title)} ({state})" + (f": {one_line(sprint.tldr)}" if sprint.tldr else "")
            )
    judged = [e for e in week.entries if e.verdict]
    if judged:
        tally = Counter(e.verdict for e in judged)
        counts = ", ".join(f"{tally[v]} {v}" for v in ("WIN", "INCONCLUSIVE", "LOSS") if tally[v])
        lines += ["", f"Verdicts of the week ({counts}):"]
        lines += [
            f"• {one_line(e.line)} — {one_line(e.author)}" + (f" (#{e.run_id})" if e.run_id else "")
            for e in judged[-TOP_VERDICTS:]
        ]
    notes = [e for e in week.entries if e.kind == "note"]
    if notes:
        more = f", the last {TOP_NOTES}" if len(notes) > TOP_NOTES else ""
        lines += ["", f"Notes ({len(notes)}{more}):"]
        lines += [f"• {_when(e)} {one_line(e.author)}: {one_line(e.line)}" for e in notes[-TOP_NOTES:]]
    ideas = [e for e in week.entries if e.kind == "idea"]
    if ideas:
        lines += ["", f"Ideas ({len(ideas)}):"]
        lines += [f"• {one_line(e.line)} — {one_line(e.author)}" for e in ideas[-TOP_NOTES:]]
    return lines


def render_digest(week: DigestInput) -> Digest:
    """The digest message for ``week`` (plain text, first line a summary) and its leaderboard tables."""
    records = [(c.challenge, r) for c in week.challenges for r in c.records]
    records.sort(key=lambda item: (item[1].record.created_at, item[1].record.run_id))
    results = sum(r.ok for r in week.runs)
    lines = [
        f"Weekly digest {week.week}: {results} result(s), {len(records)} new record(s) "
        f"({week.start:%a %d %b %H:%M} – {week.end:%a %d %b %Y %H:%M} UTC); lower is better",
        "",
        f"New records ({len(records)}):" if records else "New records: none this week",
        *(record_line(challenge, change) for challenge, change in records),
        "",
    ]
    active = most_active(week.runs)
    if active:
        lines.append("Most active: " + ", ".join(f"{m} {n} result{'s' if n != 1 else ''}" for m, n in active))
    else:
        lines.append("Most active: no results this week")
    failures = notable_failures(week.runs)
    failed_total = sum(not r.ok for r in week.runs)
    lines.append("")
    if failures:
        lines.append(f"Failures worth a look ({failed_total} failed run(s)):")
        lines += [_failure_line(run, count) for run, count in failures]
    else:
        lines.append("Failures worth a look: none")
    lines += _week_log_lines(week)
    lines += ["", f"Sprint log: {week.sprint_log}"]
    tables = [
        DigestTable(
            title=f"{c.challenge} — {c.metric}",
            headers=DIGEST_BOARD_HEADERS,
            rows=[
                [
                    str(r.rank),
                    r.best.member,
                    method_label(r.best.kind, r.best.subject, r.best.params),
                    format_value(r.best.value),
                    f"#{r.best.run_id}",
                ]
                for r in c.leaderboard[:LEADERBOARD_ROWS]
            ],
        )
        for c in week.challenges
        if c.leaderboard
    ]
    return Digest(text="\n".join(lines), tables=tables)
