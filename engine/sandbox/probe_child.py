"""What a child observes about its own confinement, run once by the tier probe with every layer applied.

Each check tries something a submission must not be able to do and records whether it was stopped.
"""

from __future__ import annotations

import os
import socket
from typing import Any


def _blocked(action: Any) -> bool:
    try:
        action()
    except OSError:
        return True
    return False


def observe(cfg: dict[str, Any]) -> dict[str, Any]:
    """uid, and whether a socket, a fork and a read of the planted file outside scratch were refused."""
    planted = cfg.get("planted", "")

    def read_planted() -> None:
        with open(planted, "rb") as fh:
            fh.read()

    def fork() -> None:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)

    return {
        "uid": os.getuid(),
        "socket_blocked": _blocked(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()),
        "fork_blocked": _blocked(fork),
        "read_blocked": _blocked(read_planted) if planted else False,
    }
