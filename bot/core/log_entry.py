"""Sprint-log entries of the group's work: notes and stored runs, written through the outbox.

Where an entry goes is decided when it is saved (:func:`log_frame`): the running sprint's section, else its week;
the log's time zone (``sprint_log.timezone``, else the digest's); a section per member or one shared log
(``sprint_log.per_member``). A run's entry says what happened in words (:mod:`bot.core.run_entry`), links to the run
(``/show N``, the Telegram message that asked when known) and names its code, and carries a reuse-distance chart
when the run and its baseline have per-buffer tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.attribution_diff import results_diff
from bot.core.baselines import BaselineRun
from bot.core.comparison import Comparison
from bot.core.run_entry import RunFacts, detail_lines, entry_table, headline
from bot.core.services import Services
from bot.core.stored_result import result_of
from bot.core.verdict import configured_rule
from engine.attribution import ONE_STEP as ONE_STEP_SCOPE
from engine.attribution import AttributionDiff
from engine.result import RunResult
from storage.runs import get_run
from storage.sprints import running_sprint
from storage.tables import Run, Sprint
from storage.timestamps import utcnow
from tools.sprint_log.entry import EntryChart, EntryDetail, EntryLink, EntryTable, week_heading, zone_of
from tools.sprint_log.log import Appended

SHOW_COMMAND = "/show"


@dataclass(frozen=True)
class LogFrame:
    """Where an entry goes: its sprint (None: none runs), the log's time zone and the detail fields that follow."""

    sprint_id: int | None
    zone: str
    section: str
    show_author: bool
    document: str
    tldr: str = ""

    def detail(
        self,
        *,
        headline: str = "",
        lines: tuple[str, ...] = (),
        links: tuple[EntryLink, ...] = (),
        table: EntryTable | None = None,
        verdict: str = "",
    ) -> EntryDetail:
        """An EntryDetail in this frame with the entry's own headline, lines, links and table."""
        return EntryDetail(
            zone=self.zone,
            section=self.section,
            headline=headline,
            lines=lines,
            links=links,
            table=table,
            show_author=self.show_author,
            document=self.document,
            tldr=self.tldr,
            verdict=verdict,
        )


def log_zone(services: Services) -> str:
    """The sprint log's time zone: ``sprint_log.timezone``, else ``digest.timezone``."""
    config = services.tool_config()
    return str(config.get("sprint_log.timezone") or config.get("digest.timezone") or "UTC")


def sprint_heading(sprint: Sprint, *, zone: str, member: str = "") -> str:
    """``Technical Sprint 2 · 23 Nov 2026`` (the group's own heading shape), ``alice · …`` in a member's section."""
    started = sprint.started_at.astimezone(zone_of(zone))
    return (f"{member} · " if member else "") + f"{sprint.title} · {started:%d %b %Y}"


def log_frame(services: Services, author: str) -> LogFrame:
    """Where ``author``'s entry saved now goes (see the module docstring)."""
    config = services.tool_config()
    zone = log_zone(services)
    per_member = bool(config.get("sprint_log.per_member"))
    with services.sessions()() as session:
        sprint = running_sprint(session)
    member = author if per_member else ""
    if sprint is None:
        section = ""  # the sink heads it with its week
        if per_member:
            section = f"{author} · {week_heading(utcnow(), zone)}"
        return LogFrame(None, zone, section, not per_member, member)
    assert sprint.id is not None
    section = sprint_heading(sprint, zone=zone, member=member)
    tldr = sprint.tldr or (f"goal: {sprint.goal}" if sprint.goal else "nothing logged yet")
    return LogFrame(sprint.id, zone, section, not per_member, member, tldr)


def log_note(services: Services, *, author: str, title: str, body: str = "") -> Appended:
    """Save a note (one line ``H:MM text`` in the log) and deliver what is pending."""
    frame = log_frame(services, author)
    return services.sprint_log().append_entry(
        author=author, kind="note", title=title, body=body, detail=frame.detail(), sprint_id=frame.sprint_id
    )


def log_idea(services: Services, *, author: str, title: str, body: str, run_id: int | None = None) -> Appended:
    """Save an idea's entry (its card, or what became of it) in the running sprint or the week."""
    frame = log_frame(services, author)
    return services.sprint_log().append_entry(
        author=author,
        kind="idea",
        title=title,
        body=body,
        run_id=run_id,
        detail=frame.detail(),
        sprint_id=frame.sprint_id,
    )


def _baseline_result(
    services: Services, comparison: Comparison, known: BaselineRun | None
) -> tuple[str | None, RunResult | None, dict[str, float] | None]:
    """What the run is compared with (its comparison's baseline, bot/core/baselines.py): the baseline's name (with
    its run id when it is a stored run: ``sgd (#1)``), its stored result (None for a built-in IR program, which is
    computed; ``known``'s when it is that run, else read from storage) and its metrics."""
    baseline = comparison.baseline
    if baseline is None:
        return None, None, None
    result = None
    if known is not None and known.run_id == baseline.run_id:
        result = known.result
    elif baseline.run_id is not None:
        with services.sessions()() as session:
            result = result_of(get_run(session, run_id=baseline.run_id))
    name = baseline.name if baseline.run_id is None else f"{baseline.name} (#{baseline.run_id})"  # the stored run
    return name, result, dict(baseline.metrics)


def _method_defaults(run: Run, default_seeds: list[int]) -> dict[str, object] | None:
    """The method's default parameters and the admins' default seed set (``seeds``): what a run that names
    nothing gets, so the entry's "not at their defaults" line names only what the member changed."""
    if run.kind != "method":
        return None
    from engine.errors import EngineError
    from engine.methods import method_defaults

    instance: dict[str, str | int | float] = {key: run.params[key] for key in ("n", "k", "task") if key in run.params}
    try:
        # the defaults at the run's instance (gf2's m scales with n), and the admins' default seed set
        return {**dict(method_defaults(run.subject, instance)), "seeds": list(default_seeds)}
    except EngineError:
        return None


def _chart(mine: RunResult, base: RunResult | None, base_name: str | None, subject: str) -> EntryChart | None:
    """The reuse-distance histogram of one step, the run beside its baseline (None without per-buffer tables)."""
    ours = mine.buffer_attribution.scope(ONE_STEP_SCOPE) if mine.buffer_attribution else None
    theirs = base.buffer_attribution.scope(ONE_STEP_SCOPE) if base and base.buffer_attribution else None
    if ours is None:
        return None
    from tools.reuse_chart import comparison_chart_png

    series = ([(base_name or "baseline", theirs.histogram)] if theirs is not None else []) + [(subject, ours.histogram)]
    caption = f"reuse distances of one step: {subject}" + (f" vs {base_name}" if theirs is not None else "")
    return EntryChart("reuse", caption, comparison_chart_png(series, title=caption))


def run_links(run: Run, origin: str) -> tuple[EntryLink, ...]:
    """``/show N``, the asking message (when known), and the code: its hash for submitted code, else the engine's
    version (built-in methods and generators are engine code)."""
    links = [EntryLink(f"{SHOW_COMMAND} {run.id}")]
    if origin:
        links.append(EntryLink("message", origin))
    links.append(EntryLink(f"code {run.code_hash[:12]}" if run.code_hash else f"engine {run.engine_version}"))
    return tuple(links)


def log_run(
    services: Services,
    run: Run,
    comparison: Comparison,
    *,
    origin: str = "",
    baseline: BaselineRun | None = None,
    movers: AttributionDiff | None = None,
) -> str:
    """Append ``run``'s entry (kind ``run`` for methods and generators, ``score`` for submissions and IR); returns a
    note for the card when entries are waiting for an unreachable sink, else "".

    ``origin``: a link to the Telegram message that asked for the run ("" when unknown). ``baseline`` and
    ``movers``: the baseline run the caller holds and the per-buffer diff baseline → run it computed for the card
    (:func:`bot.core.attribution_diff.results_diff`); used when that run is the comparison's baseline, else the
    baseline is read and the diff computed here.
    """
    assert run.id is not None
    config = services.tool_config()
    mine = result_of(run)
    base_name, base, base_metrics = _baseline_result(services, comparison, baseline)
    primary = config.primary_metrics().get(run.challenge)
    if base is None:
        movers = None
    elif baseline is None or base is not baseline.result:
        movers = results_diff(services, base, mine)
    facts = RunFacts(
        run_id=run.id,
        challenge=run.challenge,
        subject=run.subject,
        kind=run.kind,
        ok=run.ok,
        failure=run.failure,
        params=run.params,
        seeds=tuple(run.seeds or ()),
        accuracy=run.accuracy,
        wall_s=run.wall_s,
        primary=primary,
        comparison=comparison,
        baseline=base_name,
        baseline_metrics=base_metrics,
        per_step=mine.per_step,
        baseline_per_step=base.per_step if base is not None else None,
        defaults=_method_defaults(run, [int(x) for x in config.get("seeds.default")]),
        movers=movers,
        rule=configured_rule(config.get),
    )
    line, outcome = headline(facts)
    chart = _chart(mine, base, base_name, run.subject) if run.ok else None
    frame = log_frame(services, run.member.name)
    params = " ".join(f"{k}={v}" for k, v in sorted(run.params.items()))
    title = f"{run.challenge} / {run.subject}" + (f" {params}" if params else "") + f" (#{run.id})"
    sprint_log = services.sprint_log()
    appended = sprint_log.append_entry(
        author=run.member.name,
        kind="run" if run.kind in ("method", "generate") else "score",
        title=title,
        body="",
        results=[row.cells() for row in comparison.rows] if run.ok else [],
        run_id=run.id,
        detail=frame.detail(
            headline=line,
            lines=detail_lines(facts),
            links=run_links(run, origin),
            table=entry_table(facts),
            verdict=outcome.value if outcome is not None else "",
        ),
        charts=[chart] if chart is not None else [],
        sprint_id=frame.sprint_id,
    )
    pending = appended.report.pending
    return "" if pending == 0 else f"{pending} entries waiting for {sprint_log.sink_name}"
