"""The SQLModel tables: members, runs, their submissions, metric values and re-scored attributions, sprint-log entries
(the outbox), tool configuration.

Every change here needs an Alembic revision in ``storage/migrations/versions`` (tests/storage/test_migrations.py
runs ``alembic check`` to prove models and migrations agree). JSON columns are reassigned, never mutated in place:
SQLAlchemy does not track in-place JSON changes (docs/integrations.md#database).
"""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, Relationship, SQLModel

from storage.timestamps import UTCDateTime, utcnow

RUN_ACTIVE = "active"
RUN_SUPERSEDED = "superseded"

ROLE_MEMBER = "member"
"""A run a member asked for: it is theirs, on the boards, in their records and activity."""
ROLE_BASELINE = "baseline"
"""A run the system made by itself as a baseline (e.g. sgd beside a member's training method): stored under the
system member, reused, never on a board, in records or in activity."""
ROLE_PUBLISHED = "published"
"""A member's run of a program identical to one the group published (same content hash): credited to the program's
published authors, so never on a board, in the member's records or in their activity."""
SYSTEM_MEMBER = "(system)"
"""The member row that owns baseline runs (parentheses: no Telegram or terminal name looks like it)."""

ENTRY_PENDING = "pending"
ENTRY_DELIVERED = "delivered"
ENTRY_PARKED = "parked"
"""The sink refused the entry for good (its reason in ``last_error``); later entries go on without it."""
ENTRY_DROPPED = "dropped"
"""An admin gave up on a parked entry; the row is kept as a record."""


class Member(SQLModel, table=True):
    """A person who runs things: a Telegram member or the local terminal user."""

    __tablename__ = "members"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True, max_length=200)
    telegram_user_id: int | None = Field(default=None, index=True, sa_type=BigInteger)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Run(SQLModel, table=True):
    """One stored run or score.

    metrics: ``name@version`` -> value; re-scoring adds keys (both versions kept), it never replaces one.
    request_key: hash of normalised code + params + metric versions; ``active_key`` equals it while this row is the
    answer for that request and is NULL once a forced re-run superseded it (unique, so one active row per request).
    role: ``member`` (asked for by its member) or ``baseline`` (made by the system, owned by :data:`SYSTEM_MEMBER`).
    """

    __tablename__ = "runs"

    id: int | None = Field(default=None, primary_key=True)
    challenge: str = Field(index=True, max_length=100)
    kind: str = Field(max_length=20)
    subject: str = Field(index=True, max_length=200)
    params: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seeds: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    metrics: dict[str, float] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    result: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    accuracy: float | None = None
    ok: bool
    failure: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    wall_s: float = 0.0
    engine_version: str = Field(max_length=40)
    code: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    code_hash: str | None = Field(default=None, max_length=64)
    request_key: str = Field(index=True, max_length=64)
    active_key: str | None = Field(default=None, unique=True, max_length=64)
    member_id: int = Field(foreign_key="members.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    status: str = Field(default=RUN_ACTIVE, max_length=20)
    role: str = Field(default=ROLE_MEMBER, max_length=20, sa_column_kwargs={"server_default": ROLE_MEMBER})
    member: Member = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class Submission(SQLModel, table=True):
    """One member's request, answered by a stored run: who asked, under which label, when, and who holds the credit.

    A stored result is shared by identical requests (the same normalised code, parameters and metric versions), but
    every request gets its own row here. run_id: the run that answered it. computed: True when this request was
    computed (or re-computed with ``--force``), False when the stored run answered it. credit_id: the submission
    credited for the result, the first one of identical code (its own id when it is the first); a forced re-run keeps
    the credit where it was, and the run's ``member_id`` and ``subject`` are the credited submission's.
    """

    __tablename__ = "submissions"

    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="runs.id", index=True)
    member_id: int = Field(foreign_key="members.id", index=True)
    label: str = Field(max_length=200)
    computed: bool
    credit_id: int | None = Field(default=None, foreign_key="submissions.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    member: Member = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class MetricValue(SQLModel, table=True):
    """One metric value of one run, normalised for leaderboard queries (mirrors ``Run.metrics``).

    source: ``run`` (measured when the run was recorded) or ``rescore`` (added when a metric version changed).
    """

    __tablename__ = "metric_values"
    __table_args__ = (UniqueConstraint("run_id", "metric", name="uq_metric_values_run_metric"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="runs.id", index=True)
    metric: str = Field(index=True, max_length=100)
    value: float
    source: str = Field(default="run", max_length=20)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class RunAttribution(SQLModel, table=True):
    """Where a run's cost went, recomputed when a metric version was re-scored: the per-buffer tables and reuse
    histograms (``engine.attribution.Attribution.to_dict``, a few KB) that explain ``metric``'s value.

    The attribution measured when the run was recorded stays in the run's JSON detail; a re-scoring adds one row
    here per new metric version, so both versions' explanations are kept, as both values are (``metric_values``).
    """

    __tablename__ = "run_attributions"
    __table_args__ = (UniqueConstraint("run_id", "metric", name="uq_run_attributions_run_metric"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="runs.id", index=True)
    metric: str = Field(max_length=100)
    body: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class SprintLogEntry(SQLModel, table=True):
    """A sprint-log entry and its delivery state: the outbox row that a sink delivers exactly once, in id order.

    uid: a random marker written into the document with the entry, so a retry after a crash between the write and
    the state update finds it there and does not write it twice.
    results: rows of ``{"metric", "value", "vs_baseline", "vs_record"}`` (already formatted text; entries saved
    before ``detail`` existed).
    sprint_id: the sprint the entry belongs to (None: no sprint was running; it goes under its week).
    detail: how the entry reads (:class:`tools.sprint_log.entry.EntryDetail` as JSON): time zone, section heading,
    headline, table, extra lines; ``{}`` for entries saved before it existed.
    """

    __tablename__ = "sprint_log_entries"

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(unique=True, max_length=40)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    author: str = Field(max_length=200)
    kind: str = Field(max_length=20)
    title: str = Field(max_length=500)
    body: str = Field(default="", sa_column=Column(Text, nullable=False))
    results: list[dict[str, str]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    run_id: int | None = Field(default=None, foreign_key="runs.id")
    sprint_id: int | None = Field(default=None, foreign_key="sprints.id", index=True)
    detail: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}"))
    state: str = Field(default=ENTRY_PENDING, index=True, max_length=20)
    attempts: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class SprintLogChart(SQLModel, table=True):
    """A chart of one sprint-log entry (PNG bytes), kept with the entry until a sink has placed it: an image file
    beside the Markdown log, or an inline image in the Doc."""

    __tablename__ = "sprint_log_charts"

    id: int | None = Field(default=None, primary_key=True)
    entry_id: int = Field(foreign_key="sprint_log_entries.id", index=True)
    name: str = Field(max_length=100)
    caption: str = Field(max_length=300)
    png: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class Sprint(SQLModel, table=True):
    """A sprint of the group: a title, a goal, who started it, when it started and ended (None: still running).

    At most one sprint runs at a time; entries saved while it runs belong to it (``SprintLogEntry.sprint_id``).
    tldr: the summary last written at the top of the sprint in the log (kept to replace it in place).
    tldr_through: the id of the newest of the sprint's entries that summary covers (None: none written yet); a
    newer entry makes the TLDR due (:func:`storage.sprints.sprints_due_a_tldr`).
    """

    __tablename__ = "sprints"

    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(max_length=200)
    goal: str = Field(default="", sa_column=Column(Text, nullable=False))
    started_by: str = Field(max_length=200)
    started_by_id: int | None = Field(default=None, sa_type=BigInteger)
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    ended_by: str | None = Field(default=None, max_length=200)
    tldr: str = Field(default="", sa_column=Column(Text, nullable=False))
    tldr_through: int | None = Field(default=None)


class ToolConfigValue(SQLModel, table=True):
    """The current value of one admin-editable tool setting (used by the configuration issue)."""

    __tablename__ = "tool_config_values"

    key: str = Field(primary_key=True, max_length=100)
    value: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_by: str = Field(max_length=200)


class ToolConfigChange(SQLModel, table=True):
    """One audited change of a tool setting: who, when, old and new value."""

    __tablename__ = "tool_config_changes"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, max_length=100)
    old_value: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    new_value: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    changed_by: str = Field(max_length=200)
    changed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


DIGEST_CLAIMED = "claimed"
DIGEST_POSTED = "posted"


class DigestPost(SQLModel, table=True):
    """The weekly digest of one ISO week (``2026-W47``), claimed before it is sent so it is posted at most once.

    ``week`` is unique: of two bot processes racing for the same week, the second insert fails and that process
    does not post. state: ``claimed`` (sending, or the sender died mid-send) then ``posted``.
    """

    __tablename__ = "digest_posts"

    id: int | None = Field(default=None, primary_key=True)
    week: str = Field(unique=True, max_length=10)
    slot_at: datetime = Field(sa_type=UTCDateTime)
    state: str = Field(default=DIGEST_CLAIMED, max_length=20)
    reason: str = Field(max_length=20)
    claimed_by: str = Field(max_length=200)
    claimed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    posted_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    chat_id: int | None = Field(default=None, sa_type=BigInteger)


IDEA_DRAFTING = "drafting"
IDEA_PROPOSED = "proposed"
IDEA_RUNNING = "running"
IDEA_RAN = "ran"
IDEA_DISCARDED = "discarded"
IDEA_FAILED = "failed"


class Idea(SQLModel, table=True):
    """One ``/idea``: the member's text, the assistant's experiment spec and code, and what became of it.

    status: drafting (the assistant is working) -> proposed (card shown) -> running (a person pressed Run it; claimed
    atomically so a second press does nothing) -> ran; or discarded, or failed (the assistant gave no valid spec).
    spec: the experiment card (hypothesis, change, baseline, challenge, form, params, seeds) as the model proposed it.
    tokens: input + output tokens the assistant used for this idea (the monthly budget counts them).
    """

    __tablename__ = "ideas"

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="members.id", index=True)
    text: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(default=IDEA_DRAFTING, index=True, max_length=20)
    spec: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    code: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    failure: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    tokens: int = 0
    approved_by: str | None = Field(default=None, max_length=200)
    approved_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    run_id: int | None = Field(default=None, foreign_key="runs.id")
    outcome: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    member: Member = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class AssistantUsage(SQLModel, table=True):
    """Tokens the assistant used in one calendar month (UTC, ``YYYY-MM``): the monthly budget reads this."""

    __tablename__ = "assistant_usage"

    month: str = Field(primary_key=True, max_length=7)
    input_tokens: int = Field(default=0, sa_type=BigInteger)
    output_tokens: int = Field(default=0, sa_type=BigInteger)
    requests: int = 0


JOB_QUEUED = "queued"
JOB_RUNNING = "running"
JOB_DONE = "done"
JOB_FAILED = "failed"
JOB_CANCELLED = "cancelled"
JOB_STATES = (JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED, JOB_CANCELLED)
JOB_FINAL_STATES = (JOB_DONE, JOB_FAILED, JOB_CANCELLED)


class JobRecord(SQLModel, table=True):
    """The durable ledger row of one executor job (a command invocation run by local or Dask workers).

    key: the job key (hash of command, arguments and member): submitting the same key again while it is queued or
    running attaches to that job instead of starting another. attempts: how many times a worker started it (a
    worker that died and was replaced counts twice). reason: why it failed or was cancelled (one line).
    cancel_requested: set by ``cancel``; the worker running it polls this and kills its process group.
    """

    __tablename__ = "jobs"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, max_length=64)
    command: str = Field(max_length=100)
    description: str = Field(default="", max_length=500)
    member: str = Field(default="", max_length=200)
    state: str = Field(default=JOB_QUEUED, index=True, max_length=20)
    attempts: int = 0
    reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    cancel_requested: bool = False
    worker: str | None = Field(default=None, max_length=200)
    submitted_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


CHAT_PENDING = "pending"
CHAT_SENT = "sent"


class ChatMessage(SQLModel, table=True):
    """A chat reply that Telegram would not take for a long while (an outage, a long rate limit): kept here and
    sent when possible, oldest first per forum topic (``chat_id``, ``thread_id``), so nothing acknowledged is lost.

    kind: ``text`` (HTML in ``text``), ``edit`` (replace the text of the bot's message ``message_id``), ``photo``
    or ``document`` (``file_name`` and ``content``). reply_to: the member's message it answers. buttons: inline
    buttons as ``[label, data]`` pairs. sent_message_id: the message Telegram created, once sent.
    """

    __tablename__ = "chat_messages"

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(index=True, sa_type=BigInteger)
    thread_id: int | None = Field(default=None, sa_type=BigInteger)
    reply_to: int | None = Field(default=None, sa_type=BigInteger)
    kind: str = Field(max_length=20)
    text: str = Field(default="", sa_column=Column(Text, nullable=False))
    message_id: int | None = Field(default=None, sa_type=BigInteger)
    buttons: list[list[str]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    file_name: str | None = Field(default=None, max_length=255)
    content: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    state: str = Field(default=CHAT_PENDING, index=True, max_length=20)
    attempts: int = 0
    last_error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    sent_message_id: int | None = Field(default=None, sa_type=BigInteger)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class PublishedSync(SQLModel, table=True):
    """One reading of the group's challenge repository (``sutro records sync``): where from, at which commit, when,
    and what it found — the records of every board in the group's order with their re-scoring status, the retired
    tiers and the rows that could not be read (``snapshot``: :class:`tools.published.snapshot.Snapshot` as JSON).

    The newest row is the product's picture of the group's records; older rows say what fell between two syncs.
    """

    __tablename__ = "published_syncs"

    id: int | None = Field(default=None, primary_key=True)
    source: str = Field(max_length=500)
    commit: str = Field(max_length=64)
    synced_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    snapshot: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class RunVerdict(SQLModel, table=True):
    """The verdict a stored run was given when it was judged (``bot.core.judgement.Judgement`` as JSON): kept so that
    every later rendering (``/show``, a reused answer's card, ``--json``) states the same verdict the card and the
    sprint log stated, never a second one computed against a record that has moved since."""

    __tablename__ = "run_verdicts"

    run_id: int = Field(foreign_key="runs.id", primary_key=True)
    body: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    judged_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class JudgeEpoch(SQLModel, table=True):
    """An epoch of the secret suite that judged ``solve()`` submissions are scored on: the hidden instances are
    derived from ``key`` (a 128-bit secret, hex), so the same code gives the same figure within an epoch. An admin
    starts a new epoch (``/epoch rotate``); the newest row is the current epoch."""

    __tablename__ = "judge_epochs"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=64)
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    started_by: str = Field(max_length=200)


class DeliveryLease(SQLModel, table=True):
    """Who may write to one shared destination now (the sprint-log sink), across processes: one holder at a time,
    until ``expires_at`` (renewed while it writes; a holder that died is replaced once it expires).

    name: the destination (``sprint-log:gdocs``); holder: host, process and deliverer of the writer.
    """

    __tablename__ = "delivery_leases"

    name: str = Field(primary_key=True, max_length=200)
    holder: str = Field(max_length=200)
    expires_at: datetime = Field(sa_type=UTCDateTime)


EXPLORE_RUNNING = "running"
EXPLORE_FINISHED = "finished"
EXPLORE_CANCELLED = "cancelled"
EXPLORE_INTERRUPTED = "interrupted"
"""The loop's process ended without finishing it (a restart, a killed worker): its journal and best are kept."""


class ExploreLoop(SQLModel, table=True):
    """One ``/explore`` search on one board (docs/explore.md): who started it, from what, its budget, and where it
    stands. ``best_code`` always holds the best program judged so far (the start when nothing beat it), so a loop
    that was cancelled or interrupted still has its best; ``run_id`` is the stored run the best became (None until
    the loop ends with an improvement).

    params: the board's instance (``{"band": 40}``); budget: ``{"steps", "seconds", "spend_usd"}`` as granted;
    record_cost: the board's record (dally@1) when the loop started, None when the board had none."""

    __tablename__ = "explore_loops"

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="members.id", index=True)
    board: str = Field(max_length=100)
    params: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    metric: str = Field(default="dally@1", max_length=40)
    """What the loop lowers (``dally@1`` on IR boards; a method's loop: its board's primary metric, each candidate's
    mean over the seeds rounded to a whole unit)."""
    goal: str = Field(default="", sa_column=Column(Text, nullable=False))
    start_label: str = Field(max_length=200)
    start_cost: int = Field(sa_type=BigInteger)
    record_cost: float | None = None
    budget: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=EXPLORE_RUNNING, max_length=20, index=True)
    stop_reason: str = Field(default="", sa_column=Column(Text, nullable=False))
    steps_done: int = 0
    cpu_s: float = 0.0
    spend_usd: float = 0.0
    best_cost: int = Field(sa_type=BigInteger)
    best_step: int | None = None
    best_code: str = Field(sa_column=Column(Text, nullable=False))
    run_id: int | None = Field(default=None, foreign_key="runs.id")
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    member: Member = Relationship(sa_relationship_kwargs={"lazy": "joined"})


class ExploreStep(SQLModel, table=True):
    """One candidate of a loop, as judged: the operator that made it, its one-line hypothesis, its cost and what
    became of it (``kept``: verified and cheaper than the loop's best; ``discarded``: verified, not cheaper;
    ``invalid``: refused by the board's rules, ``reason`` says why). delta_pct: the cost against the loop's best
    before this step, in percent (negative = cheaper); None when not priced."""

    __tablename__ = "explore_steps"
    __table_args__ = (UniqueConstraint("loop_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    loop_id: int = Field(foreign_key="explore_loops.id", index=True)
    number: int
    operator: str = Field(max_length=100)
    hypothesis: str = Field(sa_column=Column(Text, nullable=False))
    outcome: str = Field(max_length=20)
    cost: int | None = Field(default=None, sa_type=BigInteger)
    delta_pct: float | None = None
    reason: str = Field(default="", sa_column=Column(Text, nullable=False))
    wall_s: float = 0.0
    code_hash: str = Field(default="", max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


REJUDGE_PENDING = "pending"
"""A board entry a new judge epoch has still to judge again."""
REJUDGE_DONE = "done"
"""Judged again on the new epoch's suite (``new_run``; its earlier entry retired)."""
REJUDGE_SKIPPED = "skipped"
"""Not judged again: its run keeps no code."""
REJUDGE_DROPPED = "dropped"
"""Left pending when a later epoch started: that epoch's rotation covers the board entry instead."""


class EpochRejudge(SQLModel, table=True):
    """One board entry that a judge epoch's rotation judges again (bot/core/epoch_rotation.py): the plan is written
    when the epoch starts and each row is marked when its entry is done, so an interrupted rotation resumes where it
    stopped. position: the order of the work; old_value / old_rank: the entry's figure and rank on its board before
    the rotation (on ``metric``); new_run / new_value: its run on the new suite (value None: it failed there,
    ``failure`` says why)."""

    __tablename__ = "epoch_rejudges"
    __table_args__ = (UniqueConstraint("epoch_id", "old_run"),)

    id: int | None = Field(default=None, primary_key=True)
    epoch_id: int = Field(foreign_key="judge_epochs.id", index=True)
    position: int
    board: str = Field(max_length=200)
    metric: str = Field(max_length=100)
    member: str = Field(max_length=200)
    label: str = Field(max_length=200)
    old_run: int = Field(foreign_key="runs.id")
    old_value: float
    old_rank: int
    state: str = Field(default=REJUDGE_PENDING, max_length=20, index=True)
    new_run: int | None = Field(default=None, foreign_key="runs.id")
    new_value: float | None = None
    failure: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    done_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
