"""Run a trusted callable (e.g. the IR scorer) in a resource-limited child: rlimits, empty environment, new
session, the same watchdog — no seccomp or Landlock (the code is ours; only its input is large or hostile).
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.errors import EngineError
from engine.result import FailureKind
from engine.sandbox.limits import DEFAULT_LIMITS, MIB, Limits
from engine.sandbox.npy_pipe import write_array
from engine.sandbox.watchdog import run_child

FORK = hasattr(os, "fork") and os.path.exists("/proc/self/statm")
"""Trusted children are forked from this process (engine/forked_child.py: about 0.01 CPU s to start, against 0.13 s
for a fresh interpreter), where the platform can fork and shows a process's size in /proc (the fork's address-space
limit counts from it); a fresh interpreter elsewhere."""


class LimitExceeded(EngineError):
    """A trusted computation that ended without a result; the message is the one-line reason and ``kind`` says
    whether a resource limit stopped it (:attr:`FailureKind.LIMIT`) or it failed otherwise."""

    def __init__(self, message: str, *, kind: FailureKind = FailureKind.LIMIT) -> None:
        super().__init__(message)
        self.kind = kind


def run_trusted_limited(
    fn_qualified_name: str,
    args: list[Any],
    limits: Limits = DEFAULT_LIMITS,
    *,
    arrays: Sequence[np.ndarray] = (),
    result_cap: int = 16 * MIB,
) -> Any:
    """``module.path:function`` called with JSON-able ``args`` in a limited child; returns its JSON result
    (an object with ``to_dict()`` is sent as that dict). ``arrays`` follow ``args`` as extra positional
    arguments, streamed in .npy frames after the config line. Raises LimitExceeded with a one-line reason."""
    if ":" not in fn_qualified_name:
        raise ValueError("fn_qualified_name must look like 'package.module:function'")
    frames = io.BytesIO()
    for array in arrays:
        write_array(frames, array)
    cfg = {"mode": "trusted", "fn": fn_qualified_name, "args": args, "n_arrays": len(arrays), "layers": {}}
    out = run_child(
        cfg, limits, [], scratch_owner=None, result_cap=result_cap, stdin_tail=frames.getvalue(), forked=FORK
    )
    if out.failure is not None or out.final is None:
        raise LimitExceeded(
            out.failure or "the limited process ended without a result", kind=out.failure_kind or FailureKind.ERROR
        )
    return out.final.get("value")
