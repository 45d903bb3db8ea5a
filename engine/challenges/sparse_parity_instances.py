"""Sparse-parity IR instances (docs/challenges.md#hidden-instances), drawn exactly as cybertronai/sutro-problems
``sparse-parity`` does.

For a seed: ``rng = random.Random(seed)``; secret = sorted(rng.sample(range(n), k)); X_train rows of bits from
``rng.choice((0, 1))``, redrawn until exactly one k-subset of columns explains every parity label; then X_test the
same way. Labels are the XOR of the secret columns.

Speed without changing a single bit: ``rng.choice((0, 1))`` is ``getrandbits(2)`` retried while ≥ 2, and
``getrandbits(2)`` is the top two bits of one 32-bit Mersenne Twister word. So a block of words from
``getrandbits(32·w)`` (least significant word first) yields the same bit sequence with numpy: keep the words whose
top two bits are 00 or 01, the bit is the 30th. A test checks this against plain ``rng.choice`` calls.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from itertools import combinations
from random import Random

import numpy as np


@dataclass(frozen=True)
class Spec:
    """Sizes of one sparse-parity configuration."""

    n_bits: int
    k_secret: int
    m_train: int
    m_test: int

    @property
    def n_inputs(self) -> int:
        """X_train row-major, then y_train, then X_test row-major."""
        return self.n_bits * self.m_train + self.m_train + self.n_bits * self.m_test


SMALL = Spec(n_bits=3, k_secret=2, m_train=4, m_test=32)
MEDIUM = Spec(n_bits=8, k_secret=3, m_train=8, m_test=64)


def choice_bits(rng: Random, count: int) -> np.ndarray:
    """The next ``count`` values of ``rng.choice((0, 1))`` as uint8 (``rng``'s own state is left untouched)."""
    probe = Random()
    probe.setstate(rng.getstate())
    words = max(64, 2 * count + 64)
    while True:
        block = probe.getrandbits(32 * words).to_bytes(4 * words, "little")
        top = np.frombuffer(block, dtype="<u4") >> 30
        bits = top[top < 2]
        if bits.size >= count:
            return bits[:count].astype(np.uint8)
        probe.setstate(rng.getstate())
        words *= 2


def _secret(seed: int, spec: Spec) -> tuple[int, ...]:
    return tuple(sorted(Random(seed).sample(range(spec.n_bits), spec.k_secret)))


def instance(seed: int, spec: Spec) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """(inputs, expected test labels, secret) of the instance drawn from ``seed``."""
    rng = Random(seed)
    secret = tuple(sorted(rng.sample(range(spec.n_bits), spec.k_secret)))
    subsets = np.array(list(combinations(range(spec.n_bits), spec.k_secret)))
    train_bits = spec.m_train * spec.n_bits
    test_bits = spec.m_test * spec.n_bits
    attempts = 8
    while True:
        bits = choice_bits(rng, attempts * train_bits + test_bits)
        tries = bits[: attempts * train_bits].reshape(attempts, spec.m_train, spec.n_bits)
        labels = np.bitwise_xor.reduce(tries[:, :, list(secret)], axis=2)
        parities = np.bitwise_xor.reduce(tries[:, :, subsets], axis=3)  # attempts × rows × subsets
        explains = (parities == labels[:, :, None]).all(axis=1).sum(axis=1)
        found = np.flatnonzero(explains == 1)
        if found.size:
            j = int(found[0])
            break
        attempts *= 2
    x_train, y_train = tries[j], labels[j]
    start = (j + 1) * train_bits
    x_test = bits[start : start + test_bits].reshape(spec.m_test, spec.n_bits)
    y_test = np.bitwise_xor.reduce(x_test[:, list(secret)], axis=1)
    inputs = np.concatenate((x_train.ravel(), y_train, x_test.ravel()))
    return inputs, y_test, secret


def hidden_seeds(spec: Spec, count: int) -> list[int]:
    """``count`` fresh 256-bit seeds from :mod:`secrets` whose instances cover min(count, C(n,k)) distinct secrets.

    A seed repeating a secret already seen is skipped only when the remaining places are all needed for new secrets.
    """
    target = min(count, math.comb(spec.n_bits, spec.k_secret))
    seeds: list[int] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(500 * max(count, target)):
        if len(seeds) >= count and len(seen) >= target:
            return seeds
        seed = secrets.randbits(256)
        secret = _secret(seed, spec)
        if count - len(seeds) <= target - len(seen) and secret in seen:
            continue
        seeds.append(seed)
        seen.add(secret)
    raise RuntimeError(f"could not draw {count} instances covering {target} secrets")  # pragma: no cover
