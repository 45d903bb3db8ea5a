"""The TLDR at the top of a sprint's section: what the sprint found, from its stored results, kept current.

Deterministic (always available, and the fallback): how many runs, submissions, notes and ideas; the best stored
result per board on the admins' primary metric (with its run and member); the verdicts the entries stated.

With Claude configured (``SUTRO_ANTHROPIC_API_KEY``), the assistant writes 2–4 sentences from the same facts. It may
not invent figures: every number in its text must be one of the figures it was given (compared digit for digit,
:func:`numbers_in`), and every metric it names must carry its version (``dmc@1``); otherwise — or if the API fails —
the deterministic summary is written instead. The tokens count towards the assistant's monthly budget, and once
that is spent no request is made.

The TLDR is an outbox entry of kind ``tldr``: the sinks replace the section's TLDR line in place (never a second
one). It is refreshed after each run or submission of the sprint and when the sprint ends.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bot.core.log_entry import log_frame, sprint_heading
from bot.core.services import Services
from storage.outbox import sprint_entries
from storage.runs import get_run
from storage.sprints import get_sprint, set_tldr
from storage.tables import Run, Sprint, SprintLogEntry
from tools.board import board_of
from tools.metric_format import format_compact
from tools.sprint_log.entry import EntryDetail

TLDR_MAX_CHARS = 600
_NUMBER = re.compile(r"(?<![\w@.])[-−+]?\d[\d,]*(?:\.\d+)?")
_METRIC = re.compile(r"\b([a-z_]+)@\d+")
SYSTEM = (
    "You write the TLDR at the top of a research group's sprint log. Write 2 to 4 plain sentences. Use only the "
    "facts given; copy every number exactly as written there, and always name a metric with its version as given "
    "(for example dmc@1). No markdown, no lists, no greeting."
)


@dataclass(frozen=True)
class SprintFacts:
    """What a sprint's TLDR may say: counts by kind, the best result per board, the verdicts stated."""

    title: str
    goal: str
    counts: dict[str, int]
    best: list[str]
    verdicts: dict[str, int]

    def lines(self) -> list[str]:
        """The facts as plain lines (the assistant's input, and the figures its text is checked against)."""
        out = [f"sprint: {self.title}"]
        if self.goal:
            out.append(f"goal: {self.goal}")
        out.append("entries: " + (", ".join(f"{n} {k}" for k, n in self.counts.items()) or "none"))
        out += [f"best: {b}" for b in self.best]
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
    for run in runs.values():
        metric = primary.get(run.challenge)
        if not run.ok or metric is None or metric not in run.metrics:
            continue
        board = board_of(run.challenge, run.kind, run.subject, run.params, metric).title
        value = float(run.metrics[metric])
        if board not in best or (value, run.id or 0) < (best[board][0], best[board][1].id or 0):
            best[board] = (value, run)
    lines = [
        f"{board}: {format_compact(value)} ({run.subject}, #{run.id}, {run.member.name})"
        for board, (value, run) in sorted(best.items())
    ]
    verdicts = Counter(str(e.detail.get("verdict")) for e in entries if (e.detail or {}).get("verdict"))
    ordered = {v: verdicts[v] for v in ("WIN", "INCONCLUSIVE", "LOSS") if verdicts[v]}
    return SprintFacts(sprint.title, sprint.goal, counts, lines, ordered)


def deterministic_tldr(facts: SprintFacts) -> str:
    """``4 runs, 1 submission, 2 notes. Best: <board>: <value> (<subject>, #N, member); … Verdicts: 2 WIN, 1 LOSS.``"""
    parts = []
    counted = ", ".join(f"{n} {k}{'' if n == 1 else 's'}" for k, n in facts.counts.items())
    parts.append((counted or "nothing logged yet") + ".")
    if facts.best:
        parts.append("Best: " + "; ".join(facts.best) + ".")
    if facts.verdicts:
        parts.append("Verdicts: " + ", ".join(f"{n} {v}" for v, n in facts.verdicts.items()) + ".")
    return " ".join(parts)


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


def assistant_tldr(services: Services, facts: SprintFacts) -> str | None:
    """The assistant's summary of ``facts`` when configured and grounded, else None (the caller falls back)."""
    settings = services.settings
    key = settings.anthropic_api_key.get_secret_value().strip() if settings.anthropic_api_key else ""
    if not key:
        return None
    import anthropic

    from storage.ideas import add_usage, month_key, tokens_used
    from storage.timestamps import utcnow

    month = month_key(utcnow())
    with services.sessions()() as session:
        used_in, used_out = tokens_used(session, month=month)
    price_in, price_out = settings.anthropic_usd_per_mtok_input, settings.anthropic_usd_per_mtok_output
    spent_usd = (used_in * price_in + used_out * price_out) / 1e6
    budget_usd = float(services.tool_config().get("assistant.monthly_budget_usd"))
    if used_in + used_out >= settings.anthropic_monthly_budget_tokens or spent_usd >= budget_usd:
        return None  # the month's budget is spent: the plain summary, no request
    client = anthropic.Anthropic(
        api_key=key,
        base_url=settings.anthropic_base_url or None,
        timeout=settings.anthropic_timeout_s,
        max_retries=settings.anthropic_max_retries,
    )
    try:
        with client:
            response = client.messages.create(
                model=str(services.tool_config().get("assistant.model")),
                max_tokens=400,
                system=SYSTEM,
                messages=[{"role": "user", "content": "\n".join(facts.lines())}],
            )
    except anthropic.APIError:
        return None
    with services.sessions()() as session:
        add_usage(
            session,
            month=month,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
        )
    text = " ".join("".join(b.text for b in response.content if b.type == "text").split())
    return text if text and grounded(text, facts) else None


def refresh_running_tldr(services: Services) -> None:
    """Refresh the running sprint's TLDR (after a run or submission was logged); nothing when none runs."""
    from storage.sprints import running_sprint

    with services.sessions()() as session:
        sprint = running_sprint(session)
    if sprint is not None and sprint.id is not None:
        refresh_tldr(services, sprint.id)


def refresh_tldr(services: Services, sprint_id: int) -> str:
    """Write sprint ``sprint_id``'s TLDR now (saved, then delivered with the outbox) and return it."""
    config = services.tool_config()
    with services.sessions()() as session:
        sprint = get_sprint(session, sprint_id=sprint_id)
        assert sprint is not None, sprint_id
        entries = sprint_entries(session, sprint_id=sprint_id)
        runs = {e.run_id: get_run(session, run_id=e.run_id) for e in entries if e.run_id is not None}
    facts = sprint_facts(sprint, entries, runs, config.primary_metrics())
    text = assistant_tldr(services, facts) or deterministic_tldr(facts)
    with services.sessions()() as session:
        set_tldr(session, sprint_id=sprint_id, tldr=text)
    frame = log_frame(services, sprint.started_by)
    section = sprint_heading(sprint, zone=frame.zone, member=sprint.started_by if frame.document else "")
    services.sprint_log().append_entry(
        author=sprint.started_by,
        kind="tldr",
        title=f"TLDR of {sprint.title}",
        body=text,
        detail=EntryDetail(zone=frame.zone, section=section, show_author=False, document=frame.document),
        sprint_id=sprint_id,
    )
    return text
