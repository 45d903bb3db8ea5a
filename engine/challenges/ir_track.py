"""What an IR-track challenge is: a scorer dialect, input/output counts, test instances and built-in generators.

A challenge supplies a :class:`TestSet` (one row per instance: its inputs and expected outputs) and the pass rule
(every output of every instance, or at least ``threshold`` of each instance's outputs). Scoring itself lives in
:mod:`engine.scoring.ir`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.ir.instruction_set import Dialect
from engine.metrics.registry import DALLY


@dataclass(frozen=True)
class TestSet:
    """Test instances: ``inputs`` (instances × inputs), ``expected`` (instances × outputs), the seeds that drew them
    (empty for fixed data) and whether they are hidden (drawn fresh, never shown)."""

    inputs: np.ndarray
    expected: np.ndarray
    seeds: list[int] = field(default_factory=list)
    hidden: bool = False


@dataclass(frozen=True)
class IRChallenge:
    """A Dally-scored IR challenge (track ``ir``, primary metric ``dally@1``).

    test_set(seeds): the instances to check; ``seeds`` fixes hidden instances (tests), None draws fresh ones.
    threshold: fraction of an instance's outputs that must match (1.0 = all of them).
    generators: built-in IR generators by name, each returning program text.
    """

    name: str
    summary: str
    dialect: Dialect
    n_inputs: int
    n_outputs: int
    inputs_what: str
    outputs_what: str
    test_set: Callable[[Sequence[int] | None], TestSet]
    generators: Mapping[str, Callable[[], str]]
    threshold: float = 1.0
    track: str = "ir"
    primary_metric: str = DALLY

    @property
    def instance_params(self) -> dict[str, int | float]:
        """None: an IR challenge's name is its instance (``matmul_16x16``, ``symmetry_six``)."""
        return {}
