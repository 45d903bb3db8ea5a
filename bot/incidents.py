"""Incident ids: the operator log gets the traceback, the member gets one line with the same short id."""

from __future__ import annotations

import logging
import secrets

log = logging.getLogger("sutro.incidents")


def report_incident(exc: BaseException, *, where: str) -> str:
    """Log ``exc`` with its traceback under a fresh 8-hex-digit incident id, and return that id."""
    incident = secrets.token_hex(4)
    log.error("incident %s in %s: %s", incident, where, type(exc).__name__, exc_info=exc)
    return incident


def incident_line(incident: str) -> str:
    """What the member sees when something broke on our side."""
    return f"internal error (incident {incident}); the operators have the details in the log"
