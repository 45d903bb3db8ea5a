"""Run one command invocation and turn every failure into a one-line Reply: never a traceback to the user."""

from __future__ import annotations

import logging

from bot.command import Command
from bot.context import AppContext
from bot.incidents import incident_line, report_incident
from bot.invocation import Invocation, UsageError
from bot.reply import Reply
from bot.startup import StartupRefused, causes
from engine.errors import EngineError
from storage.errors import StorageError
from tools.errors import ToolError

startup_log = logging.getLogger("sutro.startup")


def execute(ctx: AppContext, command: Command, inv: Invocation) -> tuple[Reply, int]:
    """Call ``command`` and return its reply with an exit status: 0 ok, 1 not ok, 2 bad usage, 3 internal error,
    4-7 a part that kept the bot from starting (:data:`bot.startup.EXIT_STATUS`)."""
    if command.admin_only and not inv.caller.is_admin:
        return Reply(text=f"/{command.name} is for admins only", ok=False), 2
    try:
        reply = command.handler(ctx, inv)
    except UsageError as err:
        return Reply(text=err.one_line(), ok=False, data={"ok": False, "error": err.one_line()}), 2
    except StartupRefused as err:  # the bot could not start: one sentence here, the details in the log
        startup_log.info("start-up refused (%s): %s", err.part, causes(err))
        data = {"ok": False, "error": err.sentence, "part": str(err.part), "exit_status": err.exit_status}
        return Reply(text=err.sentence, ok=False, data=data), err.exit_status
    except (EngineError, StorageError, ToolError) as err:
        return Reply(text=err.one_line(), ok=False, data={"ok": False, "error": err.one_line()}), 2
    except Exception as exc:  # noqa: BLE001 - the last line of defence: log it, tell the user one line
        incident = report_incident(exc, where=f"command {command.name}")
        line = incident_line(incident)
        return Reply(text=line, ok=False, data={"ok": False, "error": line, "incident": incident}), 3
    return reply, (0 if reply.ok else 1)
