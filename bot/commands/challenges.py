"""``challenges``: list the challenge registry (name, track, primary metric, summary)."""

from __future__ import annotations

from bot.commands.base import Command, Invocation, Reply, Table
from bot.context import AppContext
from engine.challenges import CHALLENGES


def list_challenges(ctx: AppContext, inv: Invocation) -> Reply:
    rows = [[c.name, c.track, c.primary_metric, c.summary] for c in CHALLENGES]
    data = {
        "challenges": [
            {"name": c.name, "track": c.track, "primary_metric": c.primary_metric, "summary": c.summary}
            for c in CHALLENGES
        ]
    }
    return Reply(
        text=f"{len(rows)} challenges",
        tables=[Table(headers=["challenge", "track", "metric", "what"], rows=rows)],
        data=data,
    )


COMMAND = Command(
    name="challenges",
    summary="List the challenges with their track and primary metric",
    usage="",
    handler=list_challenges,
    background=False,
)
