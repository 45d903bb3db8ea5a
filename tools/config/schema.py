"""The schema of every admin-editable tool setting: name, meaning, default and parser (pure).

Keys are grouped by a dotted prefix (``digest.day``). One ``metric.primary.<challenge>`` key exists per
registered challenge, and its parser accepts only the metrics that challenge's track measures. Defaults may be
*seeded* from the deployment's settings (environment / ``.env``) by the caller — this module never reads
settings itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.challenges import CHALLENGES
from engine.compat import SEEDS as DEFAULT_SEEDS
from engine.methods import MAX_POINTS, METHODS
from engine.metrics import track_metrics
from engine.sandbox import DEFAULT_LIMITS, KIB, MIB
from tools.config import defaults
from tools.config import values as v
from tools.published.source import DEFAULT_SOURCE, SPC_SOURCE

PRIMARY_METRIC_PREFIX = "metric.primary."


@dataclass(frozen=True)
class ConfigKey:
    """One setting: ``parse`` turns admin text into the stored value or raises ValueError with the reason."""

    name: str
    description: str
    default: Any
    parse: v.Parser
    kind: str

    def check(self, value: Any) -> Any:
        """``value`` (a default or a stored value) re-validated through the parser."""
        return self.parse(v.as_text(value))


def _metrics_of(challenge: str) -> tuple[str, ...]:
    entry = CHALLENGES.get(challenge)
    known = track_metrics(entry.track)
    return tuple(dict.fromkeys((entry.primary_metric, *known)))


def build_schema(seeds: Mapping[str, Any] | None = None) -> dict[str, ConfigKey]:
    """Every key in display order; ``seeds`` (key -> value, e.g. from settings) replace built-in defaults."""
    challenges = CHALLENGES.names()
    methods = METHODS.names()
    ir_boards = [c.name for c in CHALLENGES if c.track == "ir"]  # the registry: no scorer imported to list them
    explore_boards = [c.name for c in CHALLENGES if c.track == "ir" and c.retired is None]
    keys = [
        ConfigKey(
            "sprint_log.document_id",
            "Google Doc id of the sprint log (between /d/ and /edit).",
            defaults.SPRINT_LOG_DOCUMENT_ID,
            v.text_value,
            "text",
        ),
        ConfigKey(
            "sprint_log.sink",
            "Where sprint-log entries go: markdown or gdocs.",
            defaults.SPRINT_LOG_SINK,
            v.one_of(("markdown", "gdocs")),
            "markdown|gdocs",
        ),
        ConfigKey(
            "sprint_log.timezone",
            "IANA timezone of the sprint log's H:MM times and day lines; none = digest.timezone.",
            "",
            v.optional_timezone_name,
            "IANA name|none",
        ),
        ConfigKey(
            "sprint_log.per_member",
            "Give each member their own sprint section (Markdown: their own file) instead of one shared log.",
            False,
            v.boolean,
            "true|false",
        ),
        ConfigKey("digest.enabled", "Post the weekly digest on schedule.", True, v.boolean, "true|false"),
        ConfigKey("digest.day", "Day of the weekly digest.", "mon", v.day_name, "mon…sun"),
        ConfigKey("digest.time", "Local time of the weekly digest (24-hour HH:MM).", "09:00", v.clock_time, "HH:MM"),
        ConfigKey(
            "digest.timezone",
            "IANA timezone of digest.day and digest.time.",
            "UTC",
            v.timezone_name,
            "IANA name",
        ),
        ConfigKey(
            "digest.chat_id",
            "Chat the digest is posted to (none = not posted).",
            None,
            v.optional_chat_id,
            "chat id|none",
        ),
        ConfigKey(
            "digest.topic_id",
            "Forum topic (message_thread_id) of the digest; none = main thread.",
            None,
            v.optional_chat_id,
            "topic id|none",
        ),
        *(
            ConfigKey(
                f"{PRIMARY_METRIC_PREFIX}{name}",
                f"Metric that ranks {name}.",
                CHALLENGES.get(name).primary_metric,
                v.metric_version(_metrics_of(name)),
                "|".join(_metrics_of(name)),
            )
            for name in challenges
        ),
        ConfigKey(
            "records.sync_hours",
            "Hours between automatic syncs of the group's published records (records sync); 0 = never.",
            24,
            v.number(minimum=0, maximum=720, integer=True),
            "hours",
        ),
        ConfigKey(
            "records.sync_source",
            "Git repository the records are synced from (an https URL, or a local checkout path).",
            DEFAULT_SOURCE,
            v.nonempty_text,
            "URL|path",
        ),
        ConfigKey(
            "records.spc_source",
            "Git repository the sparse-parity-challenge board is synced from on the records' schedule ('none': off).",
            SPC_SOURCE,
            v.nonempty_text,
            "URL|path|none",
        ),
        ConfigKey(
            "verdict.min_change",
            "Smallest relative change (0.01 = 1 %: a factor of 1.01 either way) that a comparison calls a WIN or a "
            "LOSS (docs/verdicts.md).",
            0.01,
            v.number(minimum=0, maximum=1, integer=False),
            "fraction",
        ),
        ConfigKey(
            "verdict.spread_factor",
            "How many standard deviations of the seeds' log costs (of the per-seed log-ratios when both sides ran "
            "on the same seeds) a change must exceed to be a WIN or a LOSS (docs/verdicts.md).",
            1.0,
            v.number(minimum=0, maximum=10, integer=False),
            "factor",
        ),
        ConfigKey(
            "epoch.rejudge_budget",
            "The most board entries one epoch rotate or epoch resume judges again on the new epoch's suite; the "
            "rest wait, in order, for the next epoch resume (docs/verdicts.md#judge-epochs-noise-that-holds-still).",
            50,
            v.number(minimum=1, maximum=10000, integer=True),
            "entries",
        ),
        ConfigKey(
            "baseline.reference",
            "What solvers (gf2, km …) are compared with on their instance and seeds: best (the best other built-in "
            "solver there, oracle solvers never) or one method's name (docs/verdicts.md).",
            "best",
            v.one_of(["best", *methods]),
            "method",
        ),
        ConfigKey(
            "seeds.default",
            "Seeds a method run uses when none are named (the sparse-parity-challenge protocol's three).",
            list(DEFAULT_SEEDS),
            v.seed_list,
            "seeds",
        ),
        ConfigKey(
            "seeds.max",
            "Most seeds one run may name (seeds=…); each seed is a full traced run.",
            10,
            v.number(minimum=1, maximum=100, integer=True),
            "count",
        ),
        ConfigKey(
            "limits.cpu_s",
            "CPU seconds submitted code may use, per sandboxed process.",
            DEFAULT_LIMITS.cpu_s,
            v.number(minimum=1, maximum=600, integer=False),
            "seconds",
        ),
        ConfigKey(
            "limits.wall_s",
            "Wall-clock seconds submitted code may take, per sandboxed process.",
            DEFAULT_LIMITS.wall_s,
            v.number(minimum=1, maximum=1800, integer=False),
            "seconds",
        ),
        ConfigKey(
            "limits.memory_mib",
            "Address space submitted code may use, per sandboxed process (MiB).",
            DEFAULT_LIMITS.memory_bytes // MIB,
            v.number(minimum=256, maximum=65536, integer=True),
            "MiB",
        ),
        ConfigKey(
            "limits.source_kib",
            "Largest submission source accepted (KiB); larger ones are refused before anything parses them.",
            DEFAULT_LIMITS.source_bytes // KIB,
            v.number(minimum=1, maximum=4096, integer=True),
            "KiB",
        ),
        ConfigKey(
            "limits.code_kib",
            "Largest submission stored (KiB): IR text or Python source; larger ones are refused and nothing is stored.",
            defaults.CODE_KIB,
            v.number(minimum=1, maximum=65536, integer=True),
            "KiB",
        ),
        ConfigKey(
            "limits.job_wall_s",
            "Wall-clock seconds one queued job may run before the bot stops it.",
            600.0,
            v.number(minimum=10, maximum=86400, integer=False),
            "seconds",
        ),
        ConfigKey(
            "limits.queue_per_member",
            "Jobs one member may have queued or running before more wait behind everyone else's (4× this: refused).",
            defaults.QUEUE_PER_MEMBER,
            v.number(minimum=1, maximum=100, integer=True),
            "count",
        ),
        ConfigKey(
            "limits.running_per_member",
            "Most jobs one member may have running while another member's job waits (0 = every worker but one).",
            defaults.RUNNING_PER_MEMBER,
            v.number(minimum=0, maximum=100, integer=True),
            "count",
        ),
        ConfigKey(
            "limits.limit_failures_per_hour",
            "Jobs a member may have end on a resource limit within an hour; after that their queued jobs start "
            "only when no one else's wait.",
            defaults.LIMIT_FAILURES_PER_HOUR,
            v.number(minimum=1, maximum=1000, integer=True),
            "count",
        ),
        ConfigKey(
            "limits.sweep_points",
            "Most points (runs) one /sweep grid may have.",
            defaults.SWEEP_POINTS,
            v.number(minimum=1, maximum=MAX_POINTS, integer=True),
            "count",
        ),
        ConfigKey(
            "explore.boards",
            "Boards /explore may search (comma-separated IR challenges, or all).",
            list(explore_boards),
            v.name_list(ir_boards, what="IR board"),
            "names|all",
        ),
        ConfigKey(
            "explore.max_steps",
            "Most candidates one /explore loop may judge (a member's budget= may ask for less).",
            defaults.EXPLORE_MAX_STEPS,
            v.number(minimum=1, maximum=100_000, integer=True),
            "count",
        ),
        ConfigKey(
            "explore.max_seconds",
            "Most CPU seconds one /explore loop may spend (a member's budget= may ask for less).",
            defaults.EXPLORE_MAX_SECONDS,
            v.number(minimum=1, maximum=86400, integer=False),
            "seconds",
        ),
        ConfigKey(
            "explore.max_spend_usd",
            "Most one /explore loop may spend on Claude's proposals (USD; within assistant.monthly_budget_usd).",
            defaults.EXPLORE_MAX_SPEND_USD,
            v.number(minimum=0, integer=False),
            "USD",
        ),
        ConfigKey(
            "explore.stale_steps",
            "Circuit breaker: an /explore loop ends after this many candidates in a row not kept.",
            defaults.EXPLORE_STALE_STEPS,
            v.number(minimum=1, maximum=10_000, integer=True),
            "count",
        ),
        ConfigKey(
            "explore.invalid_in_a_row",
            "Circuit breaker: an /explore loop ends after this many candidates in a row refused by the board's rules.",
            defaults.EXPLORE_INVALID_IN_A_ROW,
            v.number(minimum=1, maximum=10_000, integer=True),
            "count",
        ),
        ConfigKey(
            "challenges.enabled",
            "Challenges members may run (comma-separated, or all).",
            list(challenges),
            v.name_list(challenges, what="challenge"),
            "names|all",
        ),
        ConfigKey(
            "methods.enabled",
            "Built-in methods members may run (comma-separated, or all).",
            list(methods),
            v.name_list(methods, what="method"),
            "names|all",
        ),
        ConfigKey(
            "chats.allowed",
            "Chat ids the bot answers in (comma-separated); admins are answered anywhere.",
            [],
            v.id_list,
            "ids",
        ),
        ConfigKey("assistant.model", "Claude model used by /idea.", defaults.ASSISTANT_MODEL, v.nonempty_text, "text"),
        ConfigKey(
            "assistant.monthly_budget_usd",
            "Most the assistant may spend per month (USD).",
            defaults.ASSISTANT_MONTHLY_BUDGET_USD,
            v.number(minimum=0, integer=False),
            "USD",
        ),
    ]
    schema = {key.name: key for key in keys}
    for name, value in (seeds or {}).items():
        if name in schema and value is not None:
            key = schema[name]
            schema[name] = ConfigKey(key.name, key.description, key.check(value), key.parse, key.kind)
    return schema
