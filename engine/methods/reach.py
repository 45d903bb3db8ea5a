"""Defaults one size up: where a built-in method's defaults scale with the instance, and the sparse-parity
instances they are known not to solve, refused before the run (docs/challenges.md#defaults-at-other-sizes).

A member's first try at a bigger instance should either pass or be told, before anything runs, what to change.
Two rules make that so:

1. **Scaling.** Defaults that must grow with the instance do so by a stated rule, and equal the group's configured
   value at the standard n=20, k=3 (so runs there keep their parameters and their stored requests):

   - ``gf2``: ``m = max(200, 8·(n+1))`` training rows — eight blocks of n+1 rows. Each block is a random GF(2)
     system that fixes the secret with probability about 0.6 (rank n among n+1 random rows), so eight blocks miss
     with probability about 0.4⁸ < 10⁻³; at n=100 the old 200 rows made one block, which failed on seed 123.

2. **Reach.** Each method's defaults (after scaling) were run at n ∈ {20, 50, 100}, k ∈ {3, 5} on the default
   seeds 42, 123, 456 (``bench/defaults_reach.py`` reproduces the table). :data:`FAILS_AT` lists, per method, the
   smallest instances where they fell below the 95 % pass accuracy on some seed; an instance at least as large in
   both n and k as one listed is refused before the run, with one line naming ``n`` or ``k`` and a value that
   passed (:data:`PASSES_AT`). The rule holds for the plain sparse-parity task (where it was measured) and only
   while a member leaves the method's own parameters at their defaults: naming any of them (``epochs=``, ``m=`` …)
   is a deliberate experiment and runs as asked. A scan too large for an enumerating method is refused by that
   method's own limit (:func:`engine.methods.params.check_subsets`), which names the n and k that fit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from engine.challenges.sparse_tasks import SPARSE_PARITY_TASK, SparseTask
from engine.errors import BadParameter

Instance = tuple[int, int]
"""(n, k)."""


def _gf2_rows(n: int, k: int) -> dict[str, int | float]:
    return {"m": max(200, 8 * (n + 1))}


SCALED: dict[str, Callable[[int, int], dict[str, int | float]]] = {"gf2": _gf2_rows}
"""Method -> the defaults it takes at (n, k), replacing its fixed ones (rule 1 of the module docstring)."""

FAILS_AT: dict[str, tuple[Instance, ...]] = {
    "sgd": ((20, 5), (50, 3)),
    "local_update": ((20, 5), (50, 3)),
    "perlayer": ((20, 5), (50, 3)),
    "sign_sgd": ((50, 3),),
    "curriculum": ((50, 5),),
    "forward_forward": ((20, 3),),
    "evolutionary": ((50, 3),),
    "rl": ((20, 5), (50, 3)),
    "genetic_prog": ((20, 5), (50, 3)),
}
"""Method -> the smallest measured instances its defaults fail on (below 95 % on at least one default seed).
Measured 2026-11-28 (bench/defaults_reach.py; test accuracy on the first failing seed): sgd and local_update
n=20 k=5 0.910, n=50 k=3 0.545; perlayer 0.485 and 0.440; sign_sgd (2,000 rows) n=50 k=3 0.485; curriculum n=50 k=5
0.930; forward_forward n=20 k=3 0.550 (the group's published negative result); evolutionary n=50 k=3 0.520 (500
generations); rl n=20 k=5 0.545, n=50 k=3 0.495; genetic_prog n=20 k=5 0.000, n=50 k=3 0.000 on seed 123 (it
passes on 42)."""

PASSES_AT: dict[str, tuple[Instance, ...]] = {
    "sgd": ((20, 3),),
    "local_update": ((20, 3),),
    "perlayer": ((20, 3),),
    "sign_sgd": ((20, 3), (20, 5)),
    "curriculum": ((20, 3), (20, 5), (50, 3)),
    "forward_forward": ((3, 3),),
    "evolutionary": ((20, 3), (20, 5)),
    "rl": ((20, 3),),
    "genetic_prog": ((20, 3),),
}
"""Method -> the measured instances its defaults pass on every default seed (what a refusal suggests; forward_forward
solves 3-bit parity, the group's positive case)."""


def scaled_defaults(method: str, n: int, k: int) -> dict[str, int | float]:
    """The defaults of ``method`` that depend on the instance, at (n, k) (empty: none do)."""
    rule = SCALED.get(method)
    return rule(n, k) if rule is not None else {}


def check_reach(
    method: str,
    task: SparseTask,
    values: Mapping[str, int | float],
    named: Collection[str],
    own: Collection[str],
) -> None:
    """Refuse (one line, before the run) an instance the defaults of ``method`` are known not to solve.

    values: the validated parameters; named: the keys the member gave; own: the method's own parameter keys
    (naming one of them lifts the refusal).
    """
    if task.name != SPARSE_PARITY_TASK.name or any(key in named for key in own):
        return
    n, k = int(values["n"]), int(values["k"])
    failed = [(a, b) for a, b in FAILS_AT.get(method, ()) if n >= a and k >= b]
    if not failed:
        return
    a, b = failed[0]
    measured = "on a default seed" if (a, b) == (n, k) else f"already at n={a} k={b}"
    raise BadParameter(
        f"{method}'s defaults do not solve n={n} k={k} (under 95 % test accuracy {measured})",
        hint=f"{_suggestion(method, n, k)}, or name {method}'s own parameters ({', '.join(sorted(own))}) to run it",
    )


def _suggestion(method: str, n: int, k: int) -> str:
    """``set n=20`` / ``set k=3`` / ``set n=20 k=3``: the largest measured passing instance no larger than (n, k)
    (the smallest measured one when none is)."""
    passes = PASSES_AT.get(method, ())
    smaller = [(a, b) for a, b in passes if a <= n and b <= k]
    a, b = max(smaller) if smaller else min(passes, default=(20, 3))
    changes = [f"{key}={value}" for key, value, asked in (("n", a, n), ("k", b, k)) if value != asked]
    return "set " + " ".join(changes) + " (passes with the defaults)"
