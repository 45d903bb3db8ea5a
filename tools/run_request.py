"""The normalised request behind "the same submission is not run twice": code, parameters and metric versions.

Python code is normalised by its AST (comments, blank lines and formatting do not change the key; sources over 16 KiB
are parsed in a resource-limited child, never in this process); code that is not Python (IR programs) by trimming
trailing whitespace and blank lines. A request of kind ``ir`` holds IR text by definition, so it is trimmed without
trying a Python parse (a 16x16 matmul program is over 16 KiB: the parse would cost a child process per hash). The
key is SHA-256 over canonical JSON; a submission's label is not part of it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.challenges import rules_version

IR_KIND = "ir"
"""The request kind whose code is IR text (never Python)."""


def normalise_text(code: str) -> str:
    """``code`` with trailing whitespace, Windows line ends and leading/trailing blank lines removed."""
    lines = [line.rstrip() for line in code.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


def normalise_code(code: str) -> str:
    """A canonical form of ``code``: the AST dump for Python, whitespace-trimmed text otherwise."""
    from engine.sandbox import python_normal_form  # large sources are parsed in a limited child

    dump = python_normal_form(code)
    return normalise_text(code) if dump is None else dump


def code_hash(code: str, *, python: bool = True) -> str:
    """SHA-256 hex of the normalised code; ``python=False`` for text known not to be Python (IR)."""
    normal = normalise_code(code) if python else normalise_text(code)
    return hashlib.sha256(normal.encode()).hexdigest()


RULED_KINDS = ("ir", "generate")
"""Kinds whose result is a verdict under the challenge's correctness rules (IR programs, built or submitted)."""


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

    @cached_property
    def code_hash(self) -> str | None:
        """SHA-256 of the normalised code (computed once per request: a large source is parsed in a child)."""
        return None if self.code is None else code_hash(self.code, python=self.kind != IR_KIND)

    @cached_property
    def key(self) -> str:
        """SHA-256 hex over challenge, kind, sorted params, the code hash, sorted metric versions, the challenge's
        rules version where it has one (:func:`engine.challenges.rules_version`), and the role when it is not
        ``member`` — and the subject only when there is no code (a method's name is what runs; a
        submission's label changes nothing that is computed, so identical code under two labels is one stored
        result, credited to its first submitter)."""
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
        rules = rules_version(self.challenge) if self.kind in RULED_KINDS else ""
        if rules:  # only where the rules have a version: keys of challenges that never changed stay as they were
            fields["rules"] = rules
        if with_subject:
            fields["subject"] = self.subject
        if self.role != "member":  # a baseline the system runs; members' keys are those of before roles existed
            fields["role"] = self.role
        canonical = json.dumps(fields, sort_keys=True, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()
