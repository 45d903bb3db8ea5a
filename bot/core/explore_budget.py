"""What one /explore loop may spend, and how a member asks for less (docs/explore.md#stopping).

``budget=60s``, ``budget=200`` (steps), ``budget=$0.20`` or several joined by commas; a part left out is the admins'
cap (``explore.max_steps``, ``explore.max_seconds``, ``explore.max_spend_usd``), and asking for more than a cap is
refused in one line before anything runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.core.services import Services
from engine.errors import BadParameter


@dataclass(frozen=True)
class Budget:
    """What one loop may spend: candidates judged, CPU seconds (proposing and judging), USD on Claude."""

    steps: int
    seconds: float
    spend_usd: float

    def as_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "seconds": self.seconds, "spend_usd": self.spend_usd}


_PART = re.compile(
    r"^(?:(?P<usd>\$\d+(?:\.\d+)?)|(?P<sec>\d+(?:\.\d+)?)(?P<unit>s|m|min|h)|(?P<steps>\d+)(?:steps?)?)$"
)


def parse_budget(text: str | None, caps: Budget) -> Budget:
    """``budget=60s``, ``budget=200`` (steps), ``budget=$0.20``, or several joined by commas (``60s,100``); a part
    left out is the admins' cap. Over a cap, or unreadable: a one-line BadParameter."""
    if text is None or not text.strip():
        return caps
    steps, seconds, spend = caps.steps, caps.seconds, caps.spend_usd
    for part in (p.strip().lower() for p in text.split(",") if p.strip()):
        m = _PART.match(part)
        if m is None:
            raise BadParameter(
                f"cannot read the budget '{part}'", hint="e.g. budget=60s, budget=200 (steps), budget=$0.20, or 60s,200"
            )
        if m["usd"]:
            spend = float(m["usd"][1:])
            _cap(spend, caps.spend_usd, "$", "explore.max_spend_usd")
        elif m["sec"]:
            seconds = float(m["sec"]) * {"s": 1, "m": 60, "min": 60, "h": 3600}[m["unit"]]
            _cap(seconds, caps.seconds, "s", "explore.max_seconds")
        else:
            steps = int(m["steps"])
            _cap(steps, caps.steps, " steps", "explore.max_steps")
    if steps < 1 or seconds <= 0:
        raise BadParameter("a budget needs at least one step and some seconds", hint="e.g. budget=60s")
    return Budget(steps=steps, seconds=seconds, spend_usd=spend)


def _cap(asked: float, cap: float, unit: str, key: str) -> None:
    if asked > cap:
        shown = (lambda x: f"${x:g}") if unit == "$" else (lambda x: f"{x:g}{unit}")
        raise BadParameter(
            f"a budget of {shown(asked)} is over the admins' cap of {shown(cap)}",
            hint=f"ask for {shown(cap)} or less; an admin can change it with /config set {key} …",
        )


def budget_caps(services: Services) -> Budget:
    config = services.tool_config()
    return Budget(
        steps=int(config.get("explore.max_steps")),
        seconds=float(config.get("explore.max_seconds")),
        spend_usd=float(config.get("explore.max_spend_usd")),
    )
