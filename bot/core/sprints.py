"""Sprints: start one with a title and a goal, end it, and keep its TLDR at the top of its section of the log.

A sprint is the group's unit of work ("Technical Sprint 2", a goal, a few days). While one runs, every entry goes
under its section (:func:`bot.core.log_entry.log_frame`); without one, entries go under their week as before. One
sprint runs at a time. It is ended by an admin or by the member who started it.

Starting a sprint logs its first entry (which opens the section with a TLDR line); ending it logs the last one and
writes the final TLDR (:mod:`bot.core.sprint_tldr`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.log_entry import log_frame
from bot.core.services import Services
from bot.core.sprint_tldr import refresh_tldr
from bot.invocation import Caller, UsageError
from storage.sprints import end_sprint, get_sprint, running_sprint, start_sprint
from storage.tables import Sprint
from tools.sprint_log.log import Appended

TITLE_LIMIT = 200
GOAL_LIMIT = 2000


@dataclass(frozen=True)
class SprintChange:
    """A sprint started or ended, and the sprint-log entry that says so."""

    sprint: Sprint
    appended: Appended


def current_sprint(services: Services) -> Sprint | None:
    """The running sprint, if any."""
    with services.sessions()() as session:
        return running_sprint(session)


def begin(services: Services, *, title: str, goal: str, caller: Caller) -> SprintChange:
    """Start sprint ``title`` with ``goal``; UsageError (one line) for an empty or too long title or goal, or while
    another sprint runs."""
    title, goal = " ".join(title.split()), goal.strip()
    if not title:
        raise UsageError("a sprint needs a title", hint='usage: sprint start "Technical Sprint 2" [goal]')
    if len(title) > TITLE_LIMIT or len(goal) > GOAL_LIMIT:
        raise UsageError(
            f"the title holds at most {TITLE_LIMIT} characters and the goal {GOAL_LIMIT:,}",
            hint="put the details in a note: log TEXT",
        )
    with services.sessions()() as session:
        sprint = start_sprint(session, title=title, goal=goal, started_by=caller.name, started_by_id=caller.user_id)
        running = running_sprint(session) if sprint is None else None
    if sprint is None:
        assert running is not None
        raise UsageError(
            f"sprint “{running.title}” is running (started by {running.started_by} on {running.started_at:%d %b})",
            hint="end it first: sprint end",
        )
    frame = log_frame(services, caller.name)
    text = f"Sprint started: {title}" + (f" — goal: {goal}" if goal else "")
    appended = services.sprint_log().append_entry(
        author=caller.name, kind="sprint", title=text, detail=frame.detail(), sprint_id=frame.sprint_id
    )
    return SprintChange(sprint, appended)


def may_end(sprint: Sprint, caller: Caller) -> bool:
    """Admins, and the member who started it (matched by Telegram user id where both have one, else by name)."""
    if caller.is_admin:
        return True
    if sprint.started_by_id is not None and caller.user_id is not None:
        return sprint.started_by_id == caller.user_id
    return sprint.started_by == caller.name


def finish(services: Services, *, caller: Caller) -> SprintChange:
    """End the running sprint: log its last entry and its final TLDR. UsageError when none runs or the caller may
    not end it."""
    sprint = current_sprint(services)
    if sprint is None:
        raise UsageError("no sprint is running", hint='start one: sprint start "Technical Sprint 2" [goal]')
    if not may_end(sprint, caller):
        raise UsageError(
            f"only admins or {sprint.started_by}, who started it, can end sprint “{sprint.title}”",
            hint="ask one of them",
        )
    assert sprint.id is not None
    frame = log_frame(services, caller.name)  # still the sprint's section
    appended = services.sprint_log().append_entry(
        author=caller.name,
        kind="sprint",
        title=f"Sprint ended: {sprint.title}",
        detail=frame.detail(),
        sprint_id=sprint.id,
        deliver=False,
    )
    with services.sessions()() as session:
        end_sprint(session, sprint_id=sprint.id, ended_by=caller.name)
    refresh_tldr(services, sprint.id)
    with services.sessions()() as session:
        ended = get_sprint(session, sprint_id=sprint.id)
    assert ended is not None
    return SprintChange(ended, appended)
