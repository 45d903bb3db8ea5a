"""Job keys: the identity of a submission, so sending the same command twice attaches to the job already running.

The key is a SHA-256 over the command name, arguments, options, flags, the attachments' contents and the member
(two members asking the same thing get two jobs: each is charged and answered separately).
"""

from __future__ import annotations

import hashlib
import json

from bot.command import Command
from bot.invocation import Invocation


def job_key(command: Command, inv: Invocation) -> str:
    """64 hex digits identifying ``inv`` of ``command`` by ``inv.caller``."""
    caller = inv.caller
    identity = {
        "command": command.name,
        "args": list(inv.args),
        "options": sorted(inv.options.items()),
        "flags": sorted(inv.flags),
        "attachments": [[a.name, hashlib.sha256(a.content).hexdigest()] for a in inv.attachments],
        "member": [caller.user_id, caller.chat_id if caller.user_id is None else None, caller.name],
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
