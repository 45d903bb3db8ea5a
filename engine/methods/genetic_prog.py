"""``genetic_prog``: genetic programming of a symbolic program for the label — expression trees over the bits.

Idea: the group evolved expression trees with primitives {mul, neg, sign} and terminals {x[i], 1, −1}, hoping for
``mul(x[a], mul(x[b], x[c]))``: a program with no parameters. A population of trees (ramped half-and-half, depth
2–6) evolves by tournament selection (4) and one operator per child: subtree crossover (0.7), subtree mutation (0.2)
or point mutation (0.1; each node changed with probability 0.1); the best two trees are kept each generation;
fitness is training accuracy minus 0.002 per node (parsimony).
Training stops when the best tree fits every training row; its secret is the set of bits it multiplies.

On ±1 inputs every such tree computes ±Π_{i∈S} x_i, where S is the set of bits that occur an odd number of times
(x·x = 1, sign is the identity, neg flips the sign). Each tree is therefore reduced to that canonical form before it
is scored, and a form is scored once (one product of its |S| columns against the labels); the data movement is that
of the distinct forms scored. As the group found, the fitness landscape is a needle in a haystack: every wrong set
scores ≈ 50 %, so the search is close to random sampling of the sets the population happens to assemble.

The group reports n=20, k=3 solved on 3 of 3 seeds (pop 200, 1,000 rows, 75 generations on average, at most 200),
and n=50, k=3 and n=20, k=5 failed on 3 of 3 (≈ 50 % accuracy). Here n=20, k=3 is solved on 4 of seeds 0–7 within
200 generations (in 118, 57, 41 and 152), which fits a random search over the sets the trees assemble better than
the group's 3 of 3.

Parameters: m (training rows, 1,000), pop (population, 200), epochs (the generation limit, 200).
Source: cybertronai/SutroYaro ``SutroYaro:docs/findings/exp_genetic_prog.md`` (experiment ``exp_genetic_prog``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.methods.method import Method, Outcome, Problem

TOURNAMENT, CROSSOVER, MUTATION, POINT_MUTATION, PARSIMONY = 4, 0.7, 0.2, 0.1, 0.002
"""The group's operator rates (tournament size, then per-child and per-node probabilities, fitness per node)."""
MIN_DEPTH, MAX_DEPTH = 2, 6
"""Depths of the initial trees (ramped half-and-half) and the largest depth a tree may reach."""
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


def random_tree(n: int, max_depth: int, full: bool, rng: np.random.RandomState) -> Tree:
    """A tree of depth ≤ ``max_depth`` (exactly, along every branch, when ``full``)."""
    if max_depth <= 1 or (not full and rng.rand() >= GROW_FUNCTION):
        return ("x", int(rng.randint(n))) if rng.rand() < 0.9 else ("c", float(rng.choice([-1.0, 1.0])))
    op = str(rng.choice(("mul", "neg", "sign"), p=FUNCTIONS))
    if op == "mul":
        return ("mul", random_tree(n, max_depth - 1, full, rng), random_tree(n, max_depth - 1, full, rng))
    return (op, random_tree(n, max_depth - 1, full, rng))


def point_mutated(tree: Tree, n: int, rng: np.random.RandomState) -> Tree:
    """Each node changed with probability POINT_MUTATION: a bit for another bit, neg ↔ sign, a constant's sign."""
    op = tree[0]
    change = rng.rand() < POINT_MUTATION
    if op == "x":
        return ("x", int(rng.randint(n))) if change else tree
    if op == "c":
        return ("c", -tree[1]) if change else tree
    children = tuple(point_mutated(t, n, rng) for t in tree[1:])
    if change and op in ("neg", "sign"):
        op = "sign" if op == "neg" else "neg"
    return (op, *children)


def offspring(a: Tree, b: Tree, n: int, rng: np.random.RandomState) -> Tree:
    """One child by one operator: crossover of a and b (0.7), subtree mutation of a (0.2), point mutation of a
    (0.1); an over-deep result falls back to a."""
    draw = rng.rand()
    if draw < CROSSOVER:
        donor = at(b, paths(b)[rng.randint(len(paths(b)))])
        candidate = replaced(a, paths(a)[rng.randint(len(paths(a)))], donor)
    elif draw < CROSSOVER + MUTATION:
        where = paths(a)[rng.randint(len(paths(a)))]
        candidate = replaced(a, where, random_tree(n, max(1, MAX_DEPTH - len(where)), False, rng))
    else:
        candidate = point_mutated(a, n, rng)
    return candidate if depth(candidate) <= MAX_DEPTH else a


def run(problem: Problem) -> Outcome:
    n, x, y = problem.n, problem.x, problem.y
    pop, generations = int(problem.params["pop"]), int(problem.params["epochs"])
    rng = np.random.RandomState(int(problem.rng.randint(2**31 - 1)))  # the trees' shapes: one traced draw
    depths = range(MIN_DEPTH, MAX_DEPTH + 1)
    population = [random_tree(n, depths[i % len(depths)], bool(i % 2), rng) for i in range(pop)]
    scored: dict[Form, float] = {}

    def accuracy(form: Form) -> float:
        if form not in scored:  # a form is scored once: the product of its columns against the labels
            program = np.prod(x[:, sorted(form.bits)], axis=1) if form.bits else np.ones(x.shape[0])
            scored[form] = float(np.mean(form.sign * program == y))
        return scored[form]

    best: Tree = population[0]
    for generation in range(1, generations + 1):
        fitness = np.array([accuracy(canonical(t)) - PARSIMONY * size(t) for t in population])
        best = population[int(np.argmax(fitness))]
        if accuracy(canonical(best)) == 1.0:
            form = canonical(best)
            return Outcome(
                secret=sorted(form.bits), note=f"fits every training row in generation {generation}: {show(best)}"
            )
        children = [population[int(i)] for i in np.argsort(-fitness, kind="stable")[:ELITE]]
        while len(children) < pop:
            parents = []
            for _ in range(2):
                entrants = rng.randint(pop, size=TOURNAMENT)
                parents.append(population[int(entrants[np.argmax(fitness[entrants])])])
            children.append(offspring(parents[0], parents[1], n, rng))
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
    defaults={"m": 1000, "pop": 200, "epochs": 200},
    max_n=64,
)
