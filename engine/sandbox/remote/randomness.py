"""``np.random`` for solve(): random numbers drawn in the parent from a generator seeded by ``secrets``.

Randomised methods (e.g. KM's random samples) keep working, but any seed the child passes is ignored, so
``RandomState(42)`` cannot regenerate the public instances. Each draw writes a fresh buffer (a creation, as
zeros/ones do in docs/metrics.md#trackedarray-convention).
"""

from __future__ import annotations

import math
import secrets
from typing import Any

import numpy as np

from engine.sandbox.remote.budget import Refused, check_size, draw_size

DRAWS = (
    "integers",
    "random",
    "choice",
    "permutation",
    "normal",
    "standard_normal",
    "randint",
    "rand",
    "randn",
)


def new_generator() -> np.random.Generator:
    return np.random.default_rng(secrets.randbits(128))


def _size(value: Any) -> int:
    if value is None:
        return 1
    dims = (value,) if isinstance(value, int) else tuple(value)
    if not all(isinstance(d, int) and d >= 0 for d in dims):
        raise Refused("random draws need a non-negative integer size")
    return math.prod(dims)


DRAW_KEYWORDS = ("size", "replace", "endpoint", "loc", "scale", "dtype", "p")
"""The keywords a draw passes on to numpy; any other (``axis``, ``shuffle`` …) is dropped, in the judge and in the
in-process tracer alike."""


def accepted_keywords(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The part of ``kwargs`` a draw passes to numpy (:data:`DRAW_KEYWORDS`): what any replay of the draw must pass
    too, or it would not be the same call."""
    return {k: v for k, v in kwargs.items() if k in DRAW_KEYWORDS}


def draw(rng: np.random.Generator, name: str, args: list[Any], kwargs: dict[str, Any], max_elements: int) -> Any:
    """One allow-listed draw; legacy names (randint/rand/randn) map onto the Generator API. The result size is
    bounded before drawing, whether ``size`` comes by keyword or by position."""
    if name not in DRAWS:
        raise Refused(f"np.random.{name} is not supported in solve()")
    if name in ("rand", "randn"):
        check_size(_size(tuple(args)), max_elements)
        return rng.random(tuple(args)) if name == "rand" else rng.standard_normal(tuple(args))
    name = "integers" if name == "randint" else name
    allowed = accepted_keywords(kwargs)
    method = getattr(rng, name)
    check_size(draw_size(method, name, args, allowed), max_elements)
    return method(*args, **allowed)
