"""The normalised request behind "the same submission is not run twice": code, parameters and metric versions.

Python code is normalised by its AST (comments, blank lines and formatting do not change the key; sources over 16 KiB
are parsed in a resource-limited child, never in this process); code that is not Python (IR programs) by trimming
trailing whitespace and blank lines. The key is SHA-256 over canonical JSON; a submission's label is not part of it.
"""

from __future__ import annotations

import functools
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
    """What was asked: challenge, kind (method/ir/solve/generate), subject, parameters, code, metric versions."""

    challenge: str
    kind: str
    subject: str
    params: dict[str, Any] = field(default_factory=dict)
    code: str | None = None
    metric_versions: tuple[str, ...] = ()

    @functools.cached_property
    def code_hash(self) -> str | None:
        """SHA-256 hex of the normalised code (computed once: large sources are parsed in a child)."""
        return None if self.code is None else code_hash(self.code)

    @property
    def key(self) -> str:
        """SHA-256 hex over challenge, kind, sorted params, the code hash and sorted metric versions — and the
        subject only when there is no code (a method's name is what runs; a submission's label changes nothing that
        is computed, so identical code under two labels is one stored result, credited to its first submitter)."""
        return self._digest(with_subject=self.code is None)

    @property
    def former_keys(self) -> tuple[str, ...]:
        """Keys an earlier version stored this request under (the subject was always part of it), for rows stored
        before; empty when that key is :attr:`key`."""
        old = self._digest(with_subject=True)
        return () if old == self.key else (old,)

    def _digest(self, *, with_subject: bool) -> str:
        fields: dict[str, Any] = {
            "challenge": self.challenge,
            "kind": self.kind,
            "params": self.params,
            "code": self.code_hash,
            "metrics": sorted(self.metric_versions),
        }
        if with_subject:
            fields["subject"] = self.subject
        canonical = json.dumps(fields, sort_keys=True, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()
