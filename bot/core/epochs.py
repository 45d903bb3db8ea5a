"""Judge epochs: the fixed secret suite a ``solve()`` submission is judged on, so that noise holds still.

A judged ``solve()``'s cost depends on its hidden instances (a brute force over the secret's position costs up to
2.6× more on one draw than another). Fresh draws per submission gave the same code a different figure each time,
and the board kept whichever came first. Instead, like the group's fixed suite keys for mask32 adjudication, every
submission in an **epoch** is judged on the same instances: instance ``i`` of shape (n, k, n_train, n_test) is drawn
from the seed ``HMAC-SHA256(epoch key, "sparse_parity:n:k:n_train:n_test:i")`` (first 128 bits). The epoch's number
is part of the stored request (so identical code gives one stored figure per epoch), and the result records the
instances by name (``e2.0``, ``e2.1`` …), never by seed: the key stays in the database and the suite stays secret
while its epoch lasts.

An admin starts a new epoch (``/epoch rotate``, bot/core/epoch_rotation.py), which re-judges every submission board
entry on the new suite (within the admins' budget, resumable with ``/epoch resume``) and reports what moved. The
first epoch starts by itself with the first judged ``solve()``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from bot.core.services import Services
from storage.tables import SYSTEM_MEMBER, JudgeEpoch
from storage.verdicts import current_epoch, epoch_numbered, start_epoch

EPOCH_PARAM = "epoch"
"""The stored parameter of a judged solve() that names its epoch (part of its request key)."""
KEY_BITS = 128


@dataclass(frozen=True)
class Epoch:
    """A judge epoch: its number, secret key (hex; never shown), when it started and who started it."""

    number: int
    key: str
    started_at: datetime
    started_by: str


def _epoch(row: JudgeEpoch) -> Epoch:
    assert row.id is not None
    return Epoch(row.id, row.key, row.started_at, row.started_by)


def new_key() -> str:
    """A fresh secret key for an epoch (128 bits from ``secrets``, hex)."""
    return f"{secrets.randbits(KEY_BITS):032x}"


def the_current_epoch(services: Services) -> Epoch:
    """The current epoch; the first one is started (by the system) when none exists yet."""
    with services.sessions()() as session:
        row = current_epoch(session)
        if row is None:
            row = start_epoch(session, key=new_key(), started_by=SYSTEM_MEMBER)
        return _epoch(row)


def instance_seed(key: str, shape: tuple[int, int, int, int], index: int) -> int:
    """The seed of instance ``index`` of ``shape`` (n, k, n_train, n_test) in the suite of epoch key ``key``."""
    n, k, n_train, n_test = shape
    message = f"sparse_parity:{n}:{k}:{n_train}:{n_test}:{index}".encode()
    digest = hmac.new(bytes.fromhex(key), message, hashlib.sha256).digest()
    return int.from_bytes(digest[: KEY_BITS // 8], "big")


def instance_name(epoch: int, index: int) -> str:
    """``e2.0``: instance 0 of epoch 2's suite, as a result records it."""
    return f"e{epoch}.{index}"


def parse_instance_name(name: str) -> tuple[int, int] | None:
    """(epoch, index) of an instance name; None for anything else (e.g. a fresh draw's hex seed)."""
    head, dot, tail = name.partition(".")
    if not (dot and head.startswith("e") and head[1:].isdigit() and tail.isdigit()):
        return None
    return int(head[1:]), int(tail)


def suite_of(epoch: Epoch, shape: tuple[int, int, int, int], count: int) -> list[tuple[str, int]]:
    """The (name, seed) pairs of the first ``count`` instances of ``shape`` in ``epoch``'s suite."""
    return [(instance_name(epoch.number, i), instance_seed(epoch.key, shape, i)) for i in range(count)]


def seed_hex(services: Services, name: str, shape: tuple[int, int, int, int]) -> str:
    """The seed (hex, as :func:`engine.sandbox.judge.instance_data` takes it) of a recorded hidden instance: an
    epoch instance's name resolved with its epoch's key, a fresh draw's hex seed as it is. Raises LookupError for an
    epoch that is not stored."""
    parsed = parse_instance_name(name)
    if parsed is None:
        return name
    number, index = parsed
    with services.sessions()() as session:
        row = epoch_numbered(session, number=number)
    if row is None:
        raise LookupError(f"judge epoch {number} is not stored")
    return f"{instance_seed(row.key, shape, index):032x}"
