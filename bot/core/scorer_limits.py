"""The trusted scorer's resource limits per IR challenge: the defaults were sized for programs of up to 100,000 lines;
a challenge with a far higher line cap (mask sparse parity, 2,000,000) gets limits that fit its largest program."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import EngineError
from engine.sandbox import DEFAULT_LIMITS, GIB, Limits
from engine.scoring import ir_challenge

CLASSIC_LINE_CAP = 100_000
"""The line cap the default scorer limits were sized for (the v3 tiers, matmul)."""
LONG_PROGRAM_LIMITS = replace(DEFAULT_LIMITS, cpu_s=60.0, wall_s=240.0, memory_bytes=3 * GIB)
"""The scorer's limits on a challenge whose cap is far above 100,000 lines (mask sparse parity, 2,000,000): a
2,000,000-line program takes 4.5 s CPU and 680 MiB resident to score on the 1,024-instance dev suite, the suite's
build about 2 s more (bench/bench_mask_score.py); 60 s and 3 GiB of address space leave room on a loaded machine and
for the 2,048-instance adjudication."""


def scorer_limits(challenge: str) -> Limits:
    """The trusted scorer's limits for ``challenge``: the defaults, or :data:`LONG_PROGRAM_LIMITS` when its line cap
    is above :data:`CLASSIC_LINE_CAP`."""
    try:
        cap = ir_challenge(challenge).dialect.max_lines
    except EngineError:
        return DEFAULT_LIMITS
    return LONG_PROGRAM_LIMITS if cap is not None and cap > CLASSIC_LINE_CAP else DEFAULT_LIMITS
