"""The TLDR at the top of a sprint's section: what the sprint found, from its stored results, in a few short lines.

Deterministic (always available, and the fallback): how many runs, submissions, notes and ideas; the best stored
result on the sprint's busiest boards (at most :data:`TOP_BOARDS`, by how many of its runs they hold, the rest
counted), each with its run and member; the verdicts the entries stated. One short line each (they read as
sentences where the log keeps the TLDR on one line).

The TLDR is never written inside a member's run. A scheduled job at the edge (bot/telegram_app/tldr_job.py) calls
:func:`refresh_due_tldrs` every minute: each sprint with an entry newer than the one its TLDR covers gets one new
TLDR, so it is rewritten once per change. That job may hand in a ``writer`` — the assistant's summary of the same
facts (bot/commands/ideas/tldr_summary.py, which keeps to the assistant's one monthly budget); its text is used only
when :func:`grounded` (every number one of the given figures, digit for digit, every metric named with its version,
2–4 short sentences), else the deterministic lines are. Ending a sprint writes its final TLDR at once, without the
assistant (the command must not wait on it, and works where no bot process runs).

The TLDR is an outbox entry of kind ``tldr``: the sinks replace the section's TLDR line in place (never a second
one).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.log_entry import log_frame, sprint_heading
from bot.core.services import Services
from storage.outbox import sprint_entries
from storage.runs import get_run
from storage.sprints import TLDR_KIND, get_sprint, set_tldr, sprints_due_a_tldr
from storage.tables import Run, Sprint, SprintLogEntry
from tools.board import board_of
from tools.metric_format import format_compact
from tools.sprint_log.entry import EntryDetail

TLDR_MAX_CHARS = 400
"""Longest TLDR the assistant may write (a few short sentences)."""
_NUMBER = re.compile(r"(?<![\w@.])[-−+]?\d[\d,]*(?:\.\d+)?")
_METRIC = re.compile(r"\b([a-z_]+)@\d+")
SYSTEM = (
    "You write the TLDR at the top of a research group's sprint log. Write 2 to 4 short plain sentences, at most "
    f"{TLDR_MAX_CHARS} characters in all. Use only the facts given; copy every number exactly as written there, and "
    "always name a metric with its version as given (for example dmc@1). No markdown, no lists, no greeting."
)


TOP_BOARDS = 3
"""Boards a TLDR names (the sprint's busiest); the rest are counted."""


@dataclass(frozen=True)
class SprintFacts:
    """What a sprint's TLDR may say: counts by kind, the best result on its busiest boards (``more_boards``: how
    many other boards it has results on), the verdicts stated."""

    title: str
    goal: str
    counts: dict[str, int]
    best: list[str]
    verdicts: dict[str, int]
    more_boards: int = 0

    def lines(self) -> list[str]:
        """The facts as plain lines (the assistant's input, and the figures its text is checked against)."""
        out = [f"sprint: {self.title}"]
        if self.goal:
            out.append(f"goal: {self.goal}")
        out.append("entries: " + (", ".join(f"{n} {k}" for k, n in self.counts.items()) or "none"))
        out += [f"best: {b}" for b in self.best]
        if self.more_boards:
            out.append(f"other boards with results: {self.more_boards}")
        if self.verdicts:
            out.append("verdicts: " + ", ".join(f"{n} {v}" for v, n in self.verdicts.items()))
        return out


def sprint_facts(
    sprint: Sprint, entries: list[SprintLogEntry], runs: dict[int, Run], primary: dict[str, str]
) -> SprintFacts:
    """The facts of ``sprint`` from its entries and their stored runs (``primary``: challenge -> ranking metric)."""
    kinds = Counter(e.kind for e in entries if e.kind in ("run", "score", "note", "idea"))
    names = {"run": "run", "score": "submission", "note": "note", "idea": "idea"}
    counts = {names[k]: kinds[k] for k in ("run", "score", "note", "idea") if kinds[k]}
    best: dict[str, tuple[float, Run]] = {}
    held: Counter[str] = Counter()
    for run in runs.values():
        metric = primary.get(run.challenge)
        if not run.ok or metric is None or metric not in run.metrics:
            continue
        board = board_of(run.challenge, run.kind, run.subject, run.params, metric).title
        held[board] += 1
        value = float(run.metrics[metric])
        if board not in best or (value, run.id or 0) < (best[board][0], best[board][1].id or 0):
            best[board] = (value, run)
    busiest = sorted(best, key=lambda board: (-held[board], board))[:TOP_BOARDS]
    lines = [
        f"{board}: {format_compact(value)} ({run.subject}, #{run.id}, {run.member.name})"
        for board, (value, run) in ((b, best[b]) for b in busiest)
    ]
    verdicts = Counter(str(e.detail.get("verdict")) for e in entries if (e.detail or {}).get("verdict"))
    ordered = {v: verdicts[v] for v in ("WIN", "INCONCLUSIVE", "LOSS") if verdicts[v]}
    return SprintFacts(sprint.title, sprint.goal, counts, lines, ordered, max(0, len(best) - len(busiest)))


def deterministic_tldr(facts: SprintFacts) -> str:
    """A few short lines: ``4 runs, 1 submission, 2 notes.`` / ``Best: <board>: <value> (<subject>, #N, member).``
    (one line per named board) / ``+13 more boards: see the leaderboard.`` / ``Verdicts: 2 WIN, 1 LOSS.``"""
    counted = ", ".join(f"{n} {k}{'' if n == 1 else 's'}" for k, n in facts.counts.items())
    lines = [(counted or "nothing logged yet") + "."]
    lines += [f"Best: {best}." for best in facts.best]
    if facts.more_boards:
        plural = "s" if facts.more_boards > 1 else ""
        lines.append(f"+{facts.more_boards} more board{plural}: see the leaderboard.")
    if facts.verdicts:
        lines.append("Verdicts: " + ", ".join(f"{n} {v}" for v, n in facts.verdicts.items()) + ".")
    return "\n".join(lines)


def numbers_in(text: str) -> set[str]:
    """The numbers written in ``text`` (``3,336,858``, ``−4.9``, ``#2`` → ``2``), signs and grouping dropped."""
    return {m.group(0).lstrip("-−+").replace(",", "") for m in _NUMBER.finditer(text)}


def grounded(summary: str, facts: SprintFacts) -> bool:
    """Whether ``summary`` uses only numbers from ``facts`` and names metrics with their version, in 2–4
    sentences."""
    given = "\n".join(facts.lines())
    if not numbers_in(summary) <= numbers_in(given):
        return False
    for name in {m.group(1) for m in _METRIC.finditer(given)}:  # every metric the facts name, e.g. dmc@1
        if re.search(rf"\b{re.escape(name)}\b(?!@\d)", summary):
            return False
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", summary.strip()) if s]
    return 2 <= len(sentences) <= 4 and len(summary) <= TLDR_MAX_CHARS


Writer = Callable[[SprintFacts], str | None]
"""Another author of a TLDR (the assistant): its text for the facts, or None to leave it to the plain lines."""


def refresh_due_tldrs(services: Services, writer: Writer | None = None) -> list[int]:
    """Rewrite the TLDR of every sprint with an entry newer than the one its TLDR covers (once per change); the
    ids of the sprints rewritten. ``writer``'s text is used when :func:`grounded` in the facts."""
    with services.sessions()() as session:
        due = sprints_due_a_tldr(session)
    for sprint_id in due:
        refresh_tldr(services, sprint_id, writer)
    return due


def refresh_tldr(services: Services, sprint_id: int, writer: Writer | None = None) -> str:
    """Write sprint ``sprint_id``'s TLDR now (saved with the newest entry it covers, then delivered with the
    outbox) and return it: ``writer``'s text when given, the sprint has entries to summarise and the text is
    grounded; else :func:`deterministic_tldr`."""
    config = services.tool_config()
    with services.sessions()() as session:
        sprint = get_sprint(session, sprint_id=sprint_id)
        assert sprint is not None, sprint_id
        entries = sprint_entries(session, sprint_id=sprint_id)
        runs = {e.run_id: get_run(session, run_id=e.run_id) for e in entries if e.run_id is not None}
    facts = sprint_facts(sprint, entries, runs, config.primary_metrics())
    offered = writer(facts) if writer is not None and facts.counts else None  # nothing logged: nothing to ask
    text = offered if offered and grounded(offered, facts) else deterministic_tldr(facts)
    through = max((e.id for e in entries if e.kind != TLDR_KIND and e.id is not None), default=None)
    with services.sessions()() as session:
        set_tldr(session, sprint_id=sprint_id, tldr=text, through=through)
    frame = log_frame(services, sprint.started_by)
    section = sprint_heading(sprint, zone=frame.zone, member=sprint.started_by if frame.document else "")
    services.sprint_log().append_entry(
        author=sprint.started_by,
        kind=TLDR_KIND,
        title=f"TLDR of {sprint.title}",
        body=text,
        detail=EntryDetail(zone=frame.zone, section=section, show_author=False, document=frame.document),
        sprint_id=sprint_id,
    )
    return text
