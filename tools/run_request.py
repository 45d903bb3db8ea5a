"""The normalised request behind "the same submission is not run twice": code, parameters and metric versions.

Python code is normalised by its AST (comments, blank lines and formatting do not change the key; sources over 16 KiB
are parsed in a resource-limited child, never in this process); code that is not Python (IR programs) by trimming
trailing whitespace and blank lines. The key is SHA-256 over canonical JSON.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any


def normalise_code(code: str) -> str:
    """A canonical form of ``code``: the AST dump for Python, whitespace-trimmed text otherwise."""
    from engine.sandbox.lint import python_normal_form  # large sources are parsed in a limited child

    dump = python_normal_form(code)
    if dump is None:
        lines = [line.rstrip() for line in code.replace("\r\n", "\n").split("\n")]
        return "\n".join(lines).strip("\n")
    return dump


def code_hash(code: str) -> str:
    """SHA-256 hex of the normalised code."""
    return hashlib.sha256(normalise_code(code).encode()).hexdigest()


@dataclass(frozen=True)
class NormalisedRequest:
    """What was asked: challenge, kind (method/ir/solve/generate), subject, parameters, code, metric versions, and
    who asks — a member, or the system for a baseline (``role``: a baseline is answered and stored apart from a
    member's run of the same method, so it never becomes the member's entry)."""

    challenge: str
    kind: str
    subject: str
    params: dict[str, Any] = field(default_factory=dict)
    code: str | None = None
    metric_versions: tuple[str, ...] = ()
    role: str = "member"

    @property
    def code_hash(self) -> str | None:
        return None if self.code is None else code_hash(self.code)

    @property
    def key(self) -> str:
        """SHA-256 hex over challenge, kind, subject, sorted params, the code hash and sorted metric versions (and the
        role when it is not ``member``, so members' keys are those of before roles existed)."""
        role = {} if self.role == "member" else {"role": self.role}
        canonical = json.dumps(
            {
                "challenge": self.challenge,
                "kind": self.kind,
                "subject": self.subject,
                "params": self.params,
                "code": self.code_hash,
                "metrics": sorted(self.metric_versions),
                **role,
            },
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(canonical.encode()).hexdigest()
