"""A sheet: one chat message that shows several of one member's jobs, a part each.

Why: a group takes 20 messages a minute. When a member fires ten commands at once, ten acknowledgements and ten
results would need twenty messages and the last result would wait a minute or more. So when several of one
member's job messages wait in a topic at the same moment, the outbox sends them as one message (a sheet), one
part per job, in the order the jobs were queued; that message replies to the member's latest command. Each part
keeps its job's header (``job 7 sleepy steps=2``), so every command still finds its own answer, named by its job.

A job keeps its place on the sheet: its progress and its result edit the sheet (the other parts unchanged). When a
job that was already shown elsewhere (its own acknowledgement, or an earlier sheet) goes out on a newer sheet, the
older message's part is replaced by a pointer that says where the job went. That pointer edit costs a message, so
the outbox sends it only when nothing else waits and the group's minute has room (chat_outbox.py); until then the
older message shows what it showed when it was sent — "queued", never a wrong result — and the job's current
state, under the same job header, is on a later message in the same topic. A result with page buttons never
shares a message (a page press redraws the whole message it is on), nor does a part that would make the message
too long for Telegram.

Telegram-free and storage-free: the outbox owns the sheets and sends them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.reply import Button
from storage.chat_messages import Topic


class SheetJob(Protocol):
    """What a sheet needs of a job's message (chat_outbox.JobMessage)."""

    @property
    def tag(self) -> str:
        """The job's short name, ``job 7``."""

    @property
    def head(self) -> str:
        """The first line of its acknowledgement: the job's header."""

    @property
    def finished(self) -> bool: ...


PART_GAP = "\n\n"
"""Between two jobs' parts on one sheet."""
MOVED_DONE = "done: its result is in a later message of this topic ↓"
MOVED_ON = "followed in a later message of this topic ↓"


@dataclass(eq=False)
class Sheet:
    """One message shared by several jobs of one member in one topic. ``parts``: each job's text as the sheet shows
    it (HTML), in the order the jobs were queued; ``buttons``: each finished job's buttons."""

    topic: Topic
    message_id: int | None = None
    parts: dict[SheetJob, str] = field(default_factory=dict)
    buttons: dict[SheetJob, list[Button]] = field(default_factory=dict)

    def text(self, job: SheetJob | None = None, part: str = "") -> str:
        """The sheet's text (HTML), with ``job``'s part replaced by ``part`` when given. A part shown twice (the
        member sent the same request twice and both joined one job) is shown once."""
        texts = [part if j is job else shown for j, shown in self.parts.items()]
        return PART_GAP.join(dict.fromkeys(texts))

    def keyboard(self, job: SheetJob | None = None, buttons: list[Button] | None = None) -> list[Button]:
        """The sheet's buttons, each labelled with its job (``job 7: details``) so two jobs' buttons differ (a
        job shown twice, for two of the member's identical requests, has its buttons once)."""
        out: list[Button] = []
        for j in self.parts:
            mine = (buttons or []) if j is job else self.buttons.get(j, [])
            out.extend(Button(f"{j.tag}: {b.label}" if j.tag else b.label, b.data) for b in mine)
        return list(dict.fromkeys(out))


def composed(parts: list[tuple[SheetJob, str, list[Button]]]) -> tuple[str, list[Button]]:
    """The text and buttons of a new sheet holding ``parts`` (job, its text, its buttons), in that order."""
    sheet = Sheet(Topic(0, None))
    for job, text, buttons in parts:
        sheet.parts[job], sheet.buttons[job] = text, buttons
    return sheet.text(), sheet.keyboard()


def pointer(job: SheetJob) -> str:
    """What an older message shows of ``job`` once the job is shown on a later sheet: its header and where it went."""
    return f"{job.head}\n{MOVED_DONE if job.finished else MOVED_ON}"
