"""``RandomState``'s own stream for ``rand()`` and ``randint()``, its 32-bit words drawn in blocks.

A method whose search draws one number at a time (genetic_prog: ~7,000 ``randint`` calls a generation at
population 1,000) pays numpy's per-call overhead (~1.5 µs a ``randint``) more than for the numbers themselves. This
class takes the legacy Mersenne Twister's raw 32-bit words from a ``RandomState`` a block at a time and turns them
into the same values, in the same order, that the ``RandomState``'s own calls would give:

- ``rand()``: two words a, b → ``((a >> 5) · 2**26 + (b >> 6)) / 2**53`` (numpy's 53-bit double);
- ``randint(low, high)``: masked rejection — the range's span s = high − 1 − low, the mask the smallest
  2**k − 1 ≥ s, words ``& mask`` drawn until one is ≤ s; a span of 0 draws no word (numpy's legacy bounded
  integers, ``random_bounded_uint64`` with ``use_masked``).

The owner's ``RandomState`` ends up ahead by the unused rest of a block, so it must not be drawn from afterwards
(genetic_prog's is local to its run). Under tracing a block is drawn with tracing paused: the scalar draws it
replaces record no events, and a block array would (numpy allocates it through the traced ``np.empty``), so the
traced metrics of a run are what they were with one call a number. tests/engine/test_block_draws.py checks the
values against a ``RandomState`` over random sequences of calls, and the events of a traced run with and without.
"""

from __future__ import annotations

import numpy as np

from engine.tracing.tracked_array import paused

BLOCK = 4096
"""Words drawn at a time (32 KiB as uint64)."""


class BlockDraws:
    """Drop-in for ``np.random.RandomState(seed)``'s ``rand()`` and ``randint(low[, high])`` (Python scalars)."""

    def __init__(self, seed: int) -> None:
        self._state = np.random.RandomState(seed)
        self._words: list[int] = []
        self._next = 0

    def _word(self) -> int:
        if self._next == len(self._words):
            # a full 32-bit range is never rejected: each value is the generator's next word
            with paused():
                self._words = self._state.randint(0, 1 << 32, size=BLOCK, dtype=np.uint64).tolist()
            self._next = 0
        word = self._words[self._next]
        self._next += 1
        return word

    def rand(self) -> float:
        """A float in [0, 1), as ``RandomState.rand()``."""
        a = self._word() >> 5
        b = self._word() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0

    def randint(self, low: int, high: int | None = None) -> int:
        """An int in [low, high) (``randint(n)``: [0, n)), as ``RandomState.randint``; spans up to 2**32."""
        if high is None:
            low, high = 0, low
        span = high - 1 - low
        if span < 0:
            raise ValueError(f"low >= high ({low} >= {high})")
        if span > 0xFFFFFFFF:
            raise ValueError("BlockDraws draws spans of at most 2**32 values")
        if span == 0:
            return low
        mask = (1 << span.bit_length()) - 1
        while True:
            value = self._word() & mask
            if value <= span:
                return low + value
