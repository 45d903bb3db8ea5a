"""Parameters of a sparse-parity run: parsing ``key=value`` strings and checking ranges (docs/challenges.md#parameters).

Unknown keys are refused with "did you mean" and the list of valid keys; bad values get one line with the valid
range. Nothing is silently ignored.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.challenges.sparse_parity import STANDARD_INSTANCE
from engine.errors import BadParameter, UnknownName


@dataclass(frozen=True)
class Spec:
    """One parameter: type (int or float), inclusive range, meaning."""

    kind: type
    low: float
    high: float
    meaning: str

    def describe(self) -> str:
        low = int(self.low) if self.kind is int else self.low
        high = int(self.high) if self.kind is int else self.high
        return f"{self.kind.__name__} in [{low}, {high}]"


SPECS: dict[str, Spec] = {
    "n": Spec(int, 2, 256, "number of input bits"),
    "k": Spec(int, 1, 8, "number of secret bits (k ≤ n)"),
    "seed": Spec(int, 0, 2**32 - 1, "instance seed: RandomState(seed)"),
    "hidden": Spec(int, 1, 4096, "hidden units of the MLP"),
    "lr": Spec(float, 1e-6, 10.0, "learning rate"),
    "wd": Spec(float, 0.0, 1.0, "weight decay"),
    "batch": Spec(int, 1, 4096, "mini-batch size"),
    "epochs": Spec(int, 1, 1000, "maximum epochs"),
    "m": Spec(int, 1, 100_000, "training samples"),
    "n0": Spec(int, 2, 256, "bits of the curriculum's first stage (the secret lies among them)"),
    "grow": Spec(int, 1, 256, "bits added per curriculum stage"),
    "pop": Spec(int, 2, 10_000, "population size of a search method"),
    "episodes": Spec(int, 1, 1_000_000, "episode limit of a reinforcement-learning agent"),
    "t": Spec(int, -8, 8, "threshold task: y = +1 iff the sum of the secret bits is >= t"),
    "noise_rate": Spec(float, 0.0, 0.49, "noisy_parity: fraction of training labels flipped"),
}

COMMON_DEFAULTS: dict[str, int | float] = {**STANDARD_INSTANCE, "seed": 0}


def _convert(key: str, raw: str | int | float, spec: Spec) -> int | float:
    try:
        if spec.kind is int:
            if isinstance(raw, float) and not raw.is_integer():
                raise ValueError
            value: int | float = int(raw) if not isinstance(raw, str) else int(raw.strip(), 10)
        else:
            value = float(raw)
            if not math.isfinite(value):
                raise ValueError
    except (TypeError, ValueError):
        raise BadParameter(
            f"{key}={raw!r} is not a valid {spec.kind.__name__}", hint=f"{key}: {spec.describe()}"
        ) from None
    if not spec.low <= value <= spec.high:
        raise BadParameter(f"{key}={raw} is out of range", hint=f"{key}: {spec.describe()} ({spec.meaning})")
    return value


def parse_params(
    raw: Mapping[str, str | int | float],
    defaults: Mapping[str, int | float],
    *,
    max_n: int | None = None,
    method: str = "",
) -> dict[str, int | float]:
    """Validated parameters: ``defaults`` (the method's own keys, plus n, k, seed) overridden by ``raw``.

    ``max_n``: the method's own cap on n (below the range's upper end), refused in one line naming ``method``.
    """
    valid = {**COMMON_DEFAULTS, **defaults}
    for key in raw:
        if key not in valid:
            close = difflib.get_close_matches(key, list(valid), n=3, cutoff=0.5)
            err = UnknownName("parameter", key, close, sorted(valid))
            keys = "valid keys: " + ", ".join(sorted(valid))
            err.hint = f"{err.hint}; {keys}" if close else keys
            raise err
    values: dict[str, int | float] = dict(valid)
    for key, raw_value in raw.items():
        values[key] = _convert(key, raw_value, SPECS[key])
    if max_n is not None:
        check_n_limit(values, max_n, method)
    if values["k"] > values["n"]:
        raise BadParameter(
            f"k={values['k']} is larger than n={values['n']}",
            hint=f"k must lie in [1, min(8, n={values['n']})]",
        )
    return values


def check_n_limit(values: Mapping[str, int | float], max_n: int, method: str = "") -> None:
    """Refuse n above a method's own cap ``max_n`` in one line naming ``method``."""
    if values["n"] > max_n:
        who = method or "this method"
        raise BadParameter(
            f"n={values['n']} is above {who}'s limit of n ≤ {max_n}",
            hint=f"use n ≤ {max_n}; the solvers (gf2, km, km_min) go to n = {int(SPECS['n'].high)}",
        )


MAX_SUBSETS = 100_000
"""Largest number of candidate subsets an enumerating method (fourier, smt) may scan in one run."""


def check_subsets(method: str, n: int, r: int, *, k_minus_r: int = 0, limit: int = MAX_SUBSETS) -> None:
    """Refuse a scan of C(n, r) subsets above ``limit`` before it starts (one line, with the limit and the n and k
    that fit it; ``k_minus_r``: how much larger k is than r, e.g. 1 for a method that scans (k−1)-subsets)."""
    count = math.comb(n, r)
    if count > limit:
        raise BadParameter(
            f"{method} would scan C({n},{r}) = {count:,} subsets",
            hint=f"the limit is {limit:,}: {fitting_sizes(n, r, limit, k_minus_r)}",
        )


def fitting_sizes(n: int, r: int, limit: int, k_minus_r: int = 0) -> str:
    """``set n=85 (at k=3) or k=2 (at n=100)``: the largest n, and the largest k, whose C(n, r) fits ``limit``
    with the other one kept (a choice that does not exist is left out)."""
    largest_n = max((m for m in range(r, n) if math.comb(m, r) <= limit), default=0)
    largest_r = max((q for q in range(1, r) if math.comb(n, q) <= limit), default=0)
    k = r + k_minus_r
    choices = []
    if largest_n >= max(2, k):
        choices.append(f"n={largest_n} (at k={k})")
    if largest_r >= 1:
        choices.append(f"k={largest_r + k_minus_r} (at n={n})")
    return "set " + " or ".join(choices) if choices else "use a smaller n or k"
