"""Job keys: the identity of a request, so the same command sent again while its job is queued or running attaches
to that job instead of starting another (on local workers by the job board, on Dask through the ledger).

The key is a SHA-256 over the normalised request: the command name, the arguments in order, the options and flags
sorted (``n=20 k=3`` and ``k=3 --n 20`` are one request), and each attachment's name and content hash. Who asked
is part of the key only where the answer is the asker's own (``Command.shared_answer`` false: ``log``, ``idea``,
and ``submit``/``score``, whose card is the submitter's own submission record and credit — docs/sandbox.md); for a
shared answer (``run``, ``records`` …) two members asking the same thing get one job and both get its answer, as they
would get the stored result once it has finished. Admins never share a job with non-admins
(a command may treat them differently).
"""

from __future__ import annotations

import hashlib
import json

from bot.command import Command
from bot.invocation import Caller, Invocation


def asker_identity(caller: Caller) -> list[object]:
    """Who asked, as the key sees it: the user id, or for an anonymous admin the chat and the signature."""
    return [caller.user_id, caller.chat_id if caller.user_id is None else None, caller.name]


def job_key(command: Command, inv: Invocation) -> str:
    """64 hex digits identifying ``inv`` of ``command`` (and its asker, unless the command's answer is shared)."""
    identity = {
        "command": command.name,
        "args": list(inv.args),
        "options": sorted(inv.options.items()),
        "flags": sorted(inv.flags),
        "attachments": [[a.name, hashlib.sha256(a.content).hexdigest()] for a in inv.attachments],
        "asker": ["admin" if inv.caller.is_admin else "member"]
        if command.shared_answer
        else asker_identity(inv.caller),
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
