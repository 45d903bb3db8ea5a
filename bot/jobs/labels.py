"""How a job is named to people: ``job 7`` — never ``#7``, which names a stored run (``run #7``, ``show 7``).

A member reading ``job 1 /run local_update n=20`` above a card that says ``run #2`` and a baseline ``sgd (#1)``
can tell the queue's numbering from the store's at a glance; ``/cancel`` takes the number with or without the word.
"""

from __future__ import annotations

JOB_WORD = "job"


def job_label(job_id: int) -> str:
    """``job 7``."""
    return f"{JOB_WORD} {job_id}"


def job_number(token: str) -> int | None:
    """The job number in ``7``, ``#7``, ``job7`` or ``J7`` (what ``/cancel`` accepts); None when there is none."""
    digits = token.strip().lower().removeprefix(JOB_WORD).removeprefix("j").lstrip("#")
    return int(digits) if digits.isdigit() else None
