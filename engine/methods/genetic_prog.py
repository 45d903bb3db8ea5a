"""``genetic_prog``: genetic programming of a symbolic program for the label — expression trees over the bits.

Idea: the group evolved expression trees with primitives {mul, neg, sign} and terminals {x[i], 1, −1}, hoping for
``mul(x[a], mul(x[b], x[c]))``: a program with no parameters. A population of trees (ramped half-and-half: a depth
drawn from 2–6, full and grown trees alternating) evolves generation by generation: the best two trees are kept, and
every other child comes from one operator applied to parents chosen by tournament (the fittest of 4 distinct trees):
subtree crossover (0.7: a random subtree of the second parent replaces a random subtree of the first), subtree
mutation (0.2: a random subtree is replaced by a grown tree of depth ≤ 3) or point mutation (0.1: one random node
changes — a bit, a constant's sign, neg ↔ sign); a child deeper than 6 is its parent again. Fitness is training
accuracy minus 0.002 per node (parsimony). Training stops when the best tree fits every training row; its secret
is the set of bits it multiplies.

On ±1 inputs every such tree computes ±Π_{i∈S} x_i, where S is the set of bits that occur an odd number of times
(x·x = 1, sign is the identity, neg flips the sign). Each tree is therefore reduced to that canonical form before it
is scored, and a form is scored once (one product of its |S| columns against the labels); the data movement is that
of the distinct forms scored. As the group found, the fitness landscape is a needle in a haystack: every wrong set
scores ≈ 50 %, so the search is close to random sampling of the sets the population assembles.

The group reports n=20, k=3 solved on 3 of 3 seeds (42, 43, 44; population 200, 1,000 rows, at most 200
generations, 75 on average) and n=50, k=3 and n=20, k=5 failed on 3 of 3 (≈ 50 % accuracy). Their own program run
side by side on more seeds solves n=20, k=3 on 7 of 13 (42, 43, 44, 1, 3, 4, 7; not 123, 456, 0, 2, 5, 6): the
3 of 3 was the luck of the seeds. With those operators and a population of 200 this module solves 7 of 16 (seeds
42, 123, 456, 0–12), also about half. The default population here is therefore 1,000 (the group's other settings
unchanged): it solves n=20, k=3 on 32 of 33 seeds (42, 123, 456, 0–29; not 18) within 200 generations, at about
five times the work per generation. The harder settings stay mostly out of reach: n=50, k=3 is solved on 1 of
seeds 42, 123, 456 (42, in generation 199) and n=20, k=5 (2,000 rows) not on seed 42.

Parameters: m (training rows, 1,000), pop (population, 1,000; the group's 200 with ``pop=200``), epochs (the
generation limit, 200).
Source: cybertronai/SutroYaro ``SutroYaro:docs/findings/exp_genetic_prog.md`` and
``src/sparse_parity/experiments/exp_genetic_prog.py`` (experiment ``exp_genetic_prog``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.methods.method import Method, Outcome, Problem

if TYPE_CHECKING:
    from typing import TypeAlias

    from engine.methods.block_draws import BlockDraws

    # Where the search's numbers come from: the run's own BlockDraws (RandomState's stream drawn in blocks: the
    # same trees; randint, the most called, 0.37 against 1.5 us a call, rand a little dearer at 0.35 against
    # 0.22 us; loaded by this method's runs only), or a RandomState (the tests' trees).
    Draws: TypeAlias = BlockDraws | np.random.RandomState

TOURNAMENT, CROSSOVER, MUTATION, POINT_MUTATION, PARSIMONY = 4, 0.7, 0.2, 0.1, 0.002
"""The group's operator rates (tournament size, then per-child and per-node probabilities, fitness per node)."""
MIN_DEPTH, MAX_DEPTH, NEW_SUBTREE_DEPTH = 2, 6, 3
"""Depths of the initial trees (ramped half-and-half), the largest depth a tree may reach, and the largest depth
of a subtree grown by subtree mutation."""
FUNCTIONS, GROW_FUNCTION, ELITE = (0.7, 0.1, 0.2), 0.65, 2
"""Odds of mul, neg, sign at a function node; odds of a function node when growing a tree; trees kept as they are."""

Tree = tuple[Any, ...]
"""``("x", i)``, ``("c", ±1.0)``, ``("mul", a, b)``, ``("neg", a)`` or ``("sign", a)``."""


@dataclass(frozen=True)
class Form:
    """The canonical form ±Π_{i∈bits} x_i of a tree on ±1 inputs."""

    sign: float
    bits: frozenset[int]


def canonical(tree: Tree) -> Form:
    """The tree's canonical form (see the module docstring)."""
    op = tree[0]
    if op == "x":
        return Form(1.0, frozenset({tree[1]}))
    if op == "c":
        return Form(float(tree[1]), frozenset())
    if op == "mul":
        a, b = canonical(tree[1]), canonical(tree[2])
        return Form(a.sign * b.sign, a.bits ^ b.bits)
    inner = canonical(tree[1])
    return Form(-inner.sign, inner.bits) if op == "neg" else inner


def size(tree: Tree) -> int:
    return 1 if tree[0] in ("x", "c") else 1 + sum(size(t) for t in tree[1:])


def depth(tree: Tree) -> int:
    return 1 if tree[0] in ("x", "c") else 1 + max(depth(t) for t in tree[1:])


def paths(tree: Tree, here: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every node's path (child positions from the root), root first."""
    found = [here]
    if tree[0] not in ("x", "c"):
        for i, child in enumerate(tree[1:], start=1):
            found += paths(child, (*here, i))
    return found


def at(tree: Tree, path: tuple[int, ...]) -> Tree:
    for i in path:
        tree = tree[i]
    return tree


def replaced(tree: Tree, path: tuple[int, ...], new: Tree) -> Tree:
    if not path:
        return new
    parts = list(tree)
    parts[path[0]] = replaced(tree[path[0]], path[1:], new)
    return tuple(parts)


def random_tree(n: int, max_depth: int, full: bool, rng: Draws) -> Tree:
    """A tree of depth ≤ ``max_depth`` (exactly, along every branch, when ``full``)."""
    if max_depth <= 1 or (not full and rng.rand() >= GROW_FUNCTION):
        return ("x", int(rng.randint(n))) if rng.rand() < 0.9 else ("c", random_sign(rng))
    draw = rng.rand()  # mul, neg or sign with the odds FUNCTIONS
    op = "mul" if draw < FUNCTIONS[0] else "neg" if draw < FUNCTIONS[0] + FUNCTIONS[1] else "sign"
    if op == "mul":
        return ("mul", random_tree(n, max_depth - 1, full, rng), random_tree(n, max_depth - 1, full, rng))
    return (op, random_tree(n, max_depth - 1, full, rng))


def point_mutated(tree: Tree, n: int, rng: Draws, paths_of: Callable[[Tree], list[tuple[int, ...]]] = paths) -> Tree:
    """One node, drawn uniformly, changed: a bit for a random bit, a constant for a random constant, neg ↔ sign;
    a drawn ``mul`` leaves the tree as it is (the group's point mutation)."""
    where = paths_of(tree)
    path = where[rng.randint(len(where))]
    node = at(tree, path)
    if node[0] == "x":
        return replaced(tree, path, ("x", int(rng.randint(n))))
    if node[0] == "c":
        return replaced(tree, path, ("c", random_sign(rng)))
    if node[0] in ("neg", "sign"):
        return replaced(tree, path, ("sign" if node[0] == "neg" else "neg", node[1]))
    return tree


def random_sign(rng: Draws) -> float:
    """−1.0 or 1.0 with even odds."""
    return 1.0 if rng.randint(2) else -1.0


def tournament(population: list[Tree], fitness: list[float], rng: Draws) -> Tree:
    """The fittest of TOURNAMENT distinct trees drawn at random (the first drawn wins a tie)."""
    entrants: list[int] = []
    while len(entrants) < min(TOURNAMENT, len(population)):  # redraw a repeat: drawn without replacement
        i = int(rng.randint(len(population)))
        if i not in entrants:
            entrants.append(i)
    return population[max(entrants, key=lambda i: (fitness[i], -entrants.index(i)))]


def offspring(
    population: list[Tree],
    fitness: list[float],
    n: int,
    rng: Draws,
    paths_of: Callable[[Tree], list[tuple[int, ...]]] = paths,
) -> Tree:
    """One child by one operator, its parents chosen by tournament: subtree crossover (0.7: a random subtree of the
    second parent replaces a random subtree of the first), subtree mutation (0.2: a random subtree is replaced by a
    grown tree of depth ≤ NEW_SUBTREE_DEPTH) or point mutation (0.1). A result deeper than MAX_DEPTH falls back to
    the (first) parent. ``paths_of``: :func:`paths`, or a memory of it for the population's trees (the parents are
    drawn from it about twice each per generation)."""
    draw = rng.rand()
    a = tournament(population, fitness, rng)
    if draw < CROSSOVER:
        b = tournament(population, fitness, rng)
        in_a = paths_of(a)
        where = in_a[rng.randint(len(in_a))]  # a's subtree is drawn before b's
        in_b = paths_of(b)
        candidate = replaced(a, where, at(b, in_b[rng.randint(len(in_b))]))
    elif draw < CROSSOVER + MUTATION:
        in_a = paths_of(a)
        where = in_a[rng.randint(len(in_a))]
        budget = max(1, MAX_DEPTH - len(where)) if where else MAX_DEPTH
        candidate = replaced(a, where, random_tree(n, min(budget, NEW_SUBTREE_DEPTH), False, rng))
    else:
        candidate = point_mutated(a, n, rng, paths_of)
    return candidate if depth(candidate) <= MAX_DEPTH else a


def run(problem: Problem) -> Outcome:
    n, x, y = problem.n, problem.x, problem.y
    pop, generations = int(problem.params["pop"]), int(problem.params["epochs"])
    from engine.methods.block_draws import BlockDraws  # loaded by the runs of this method only

    rng = BlockDraws(int(problem.rng.randint(2**31 - 1)))  # the trees' shapes: one traced draw seeds them
    population = [random_tree(n, int(rng.randint(MIN_DEPTH, MAX_DEPTH + 1)), i % 2 == 0, rng) for i in range(pop)]
    scored: dict[Form, float] = {}
    judged: dict[Tree, tuple[Form, float]] = {}  # a tree's form and fitness, for trees carried or met again

    def accuracy(form: Form) -> float:
        if form not in scored:  # a form is scored once: the product of its columns against the labels
            program = np.prod(x[:, sorted(form.bits)], axis=1) if form.bits else np.ones(x.shape[0])
            scored[form] = float(np.mean(form.sign * program == y))
        return scored[form]

    def judge(tree: Tree) -> float:
        if tree not in judged:
            form = canonical(tree)
            judged[tree] = (form, accuracy(form) - PARSIMONY * size(tree))
        return judged[tree][1]

    known: dict[int, list[tuple[int, ...]]] = {}

    def paths_of(tree: Tree) -> list[tuple[int, ...]]:
        """:func:`paths` of a tree of this generation's population, computed once per tree."""
        found = known.get(id(tree))
        if found is None:
            found = known[id(tree)] = paths(tree)
        return found

    best: Tree = population[0]
    for generation in range(1, generations + 1):
        fitness = [judge(t) for t in population]
        kept = {t: judged[t] for t in population}  # forget trees that left the population (memory stays O(pop))
        judged.clear()
        judged.update(kept)
        ranked = sorted(range(pop), key=lambda i: -fitness[i])  # stable: the first of equals ranks first
        best = population[ranked[0]]
        if accuracy(canonical(best)) == 1.0:
            form = canonical(best)
            return Outcome(
                secret=sorted(form.bits), note=f"fits every training row in generation {generation}: {show(best)}"
            )
        children = [population[i] for i in ranked[:ELITE]]
        known.clear()  # by id: every parent is in `population`, alive until the next generation replaces it
        while len(children) < pop:
            children.append(offspring(population, fitness, n, rng, paths_of))
        population = children
    form = canonical(best)
    return Outcome(
        secret=sorted(form.bits),
        note=f"no tree fits every training row after {generations} generations (best {show(best)})",
    )


def show(tree: Tree) -> str:
    """The tree as the group writes programs: ``mul(x[0], mul(x[15], x[17]))``."""
    if tree[0] == "x":
        return f"x[{tree[1]}]"
    if tree[0] == "c":
        return f"{tree[1]:g}"
    return f"{tree[0]}({', '.join(show(t) for t in tree[1:])})"


METHOD = Method(
    name="genetic_prog",
    summary="Genetic programming of expression trees over the bits (mul, neg, sign), scored in canonical form",
    kind="solver",
    run=run,
    defaults={"m": 1000, "pop": 1000, "epochs": 200},
    max_n=64,
)
