"""``run from=ID [--force]``: the request of a stored run, made again — what ``/run --force`` sent as a reply to a
result card means (bot/telegram_app/card_context.py adds ``from=`` the card's run).

A built-in method's run is its method and stored parameters (seeds included); a built-in generator's score is its
challenge and generator. A submitted program is not rebuilt from storage: its card's member sends the code again.
"""

from __future__ import annotations

from dataclasses import replace

from bot.commands.base import Invocation, UsageError
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from bot.core.stored_runs import stored_run

FROM = "from"
"""The option naming the stored run to run again."""


def again_of(ctx: AppContext, inv: Invocation) -> Invocation:
    """``inv`` (holding ``from=ID``) as the run command line that made run ID: ``run local_update n=20 k=3 …
    seeds=42,123,456`` or ``run matmul_16x16 generator=tiled``, its flags kept; a UsageError in one line when ID
    is not a built-in method's or generator's run, or when other arguments come with it."""
    run_id = parse_run_id(inv.options[FROM], usage="run from=ID [--force]")
    if inv.args or set(inv.options) != {FROM}:
        raise UsageError("from=ID takes no other arguments", hint="it reruns that run exactly as it was asked")
    with ctx.sessions()() as session:
        run = stored_run(session, run_id)
        kind, subject, challenge, params = run.kind, run.subject, run.challenge, dict(run.params)
    if kind == "method":
        options = {
            key: ",".join(map(str, value)) if isinstance(value, list) else str(value)
            for key, value in params.items()
            if not isinstance(value, dict)
        }
        return replace(inv, args=[subject], options=options)
    if kind == "generate" and set(params) == {"generator"} and params["generator"] == subject:  # built-in
        return replace(inv, args=[challenge], options={"generator": params["generator"]})
    raise UsageError(
        f"run #{run_id} is a submitted program ({kind}): /run reruns built-in methods and generators",
        hint="send its code again with /submit --force",
    )
