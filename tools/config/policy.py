"""The run policy the admins set through ``/config``: what members may run, and within which limits.

Read fresh from :class:`~tools.config.store.ToolConfig` for each request, so a ``/config set`` (in this process
or another) applies to the next run without a restart. Keys used: ``challenges.enabled``, ``methods.enabled``,
``limits.cpu_s``, ``limits.wall_s``, ``limits.memory_mib`` (per sandboxed process running submitted code;
docs/sandbox.md#l2-rlimits), ``limits.source_kib`` (largest source, checked before parsing), ``limits.job_wall_s``,
``limits.queue_per_member``, ``limits.running_per_member`` and ``limits.limit_failures_per_hour`` (the bot's job
queue and its fairness rules, bot/jobs/fair_queue.py), ``limits.sweep_points`` (the largest ``/sweep`` grid),
``limits.code_kib`` (the largest submission stored).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.challenges import CHALLENGES
from engine.sandbox import DEFAULT_LIMITS, KIB, MIB, Limits
from tools.config import defaults
from tools.config.store import ToolConfig
from tools.errors import ToolError


@dataclass(frozen=True)
class RunPolicy:
    """The effective admin rules for runs: enabled names and resource limits (seconds, MiB)."""

    challenges: tuple[str, ...]
    methods: tuple[str, ...]
    cpu_s: float
    wall_s: float
    memory_mib: int
    job_wall_s: float
    queue_per_member: int
    source_kib: int = DEFAULT_LIMITS.source_bytes // KIB
    running_per_member: int = defaults.RUNNING_PER_MEMBER
    limit_failures_per_hour: int = defaults.LIMIT_FAILURES_PER_HOUR
    sweep_points: int = defaults.SWEEP_POINTS
    code_kib: int = defaults.CODE_KIB

    def sandbox_limits(self, base: Limits = DEFAULT_LIMITS) -> Limits:
        """``base`` with the admins' CPU, wall-clock and memory caps for one sandboxed process."""
        return replace(
            base,
            cpu_s=self.cpu_s,
            wall_s=self.wall_s,
            memory_bytes=self.memory_mib * MIB,
            source_bytes=self.source_kib * KIB,
        )

    def check_challenge(self, name: str) -> None:
        """Raise a one-line :class:`ToolError` when ``name`` is not among the enabled challenges.

        A size reached by name (``matmul_32x32``) is enabled when a listed member of its family is.
        """
        if name not in self.challenges and not set(CHALLENGES.relatives(name)) & set(self.challenges):
            raise ToolError(
                f"challenge {name} is not enabled here",
                hint=_enabled_hint(self.challenges, "challenges.enabled"),
            )

    def check_code_size(self, code: str) -> None:
        """Raise a one-line :class:`ToolError` when ``code`` (UTF-8) is over ``limits.code_kib``: nothing of it is
        judged or stored."""
        size = len(code.encode("utf-8", errors="replace"))
        if size > self.code_kib * KIB:
            raise ToolError(
                f"the submission is {size:,} bytes, over the limit of {self.code_kib:,} KiB for stored code",
                hint="send a smaller program; an admin can change this with /config set limits.code_kib …",
            )

    def check_sweep(self, points: int) -> None:
        """Raise a one-line :class:`ToolError` when a sweep grid has more points than ``limits.sweep_points``."""
        if points > self.sweep_points:
            raise ToolError(
                f"the sweep grid has {points:,} points, over the limit of {self.sweep_points}",
                hint="give fewer values; an admin can change this with /config set limits.sweep_points …",
            )

    def check_method(self, name: str) -> None:
        """Raise a one-line :class:`ToolError` when the built-in method ``name`` is not enabled."""
        if name not in self.methods:
            raise ToolError(f"method {name} is not enabled here", hint=_enabled_hint(self.methods, "methods.enabled"))


def _enabled_hint(enabled: tuple[str, ...], key: str) -> str:
    listed = ", ".join(enabled) if enabled else "none"
    return f"enabled: {listed}; an admin can change this with /config set {key} …"


def run_policy(config: ToolConfig) -> RunPolicy:
    """The policy from the effective tool settings (stored overrides, else defaults)."""
    values = {setting.key.name: setting.value for setting in config.all()}
    return RunPolicy(
        challenges=tuple(values["challenges.enabled"]),
        methods=tuple(values["methods.enabled"]),
        cpu_s=float(values["limits.cpu_s"]),
        wall_s=float(values["limits.wall_s"]),
        memory_mib=int(values["limits.memory_mib"]),
        job_wall_s=float(values["limits.job_wall_s"]),
        queue_per_member=int(values["limits.queue_per_member"]),
        source_kib=int(values["limits.source_kib"]),
        running_per_member=int(values["limits.running_per_member"]),
        limit_failures_per_hour=int(values["limits.limit_failures_per_hour"]),
        sweep_points=int(values["limits.sweep_points"]),
        code_kib=int(values["limits.code_kib"]),
    )
