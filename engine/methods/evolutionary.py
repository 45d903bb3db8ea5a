"""``evolutionary``: evolutionary search over k-subsets, fitness = correlation of the subset's parity with the label.

Idea: keep a population of candidate secrets (k-subsets); each generation, pick parents by tournament (best of 3
by fitness |mean(y·χ_S)|), make each child by crossover (k bits drawn from the union of two parents) and mutation
(one bit swapped for a random outside bit, with probability 1/2), and keep the best individual (elitism). The
secret is the only subset with fitness 1, and fitness gives no gradient towards it (partial subsets score ≈ 0),
so the search is close to random sampling with memory; the group found it solves n=20, k=3 in 18 generations on
average (pop 100-200, 5/5 seeds) and n=50, k=3 in 151.

Parameters: m (training rows, 500 as in the group's experiment), pop (population size, 100), epochs (the
generation limit, 500). Each generation is scored in one batch of array operations.
Source: cybertronai/SutroYaro ``src/sparse_parity/experiments/exp_evolutionary.py`` and
``SutroYaro:docs/findings/exp_evolutionary.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.methods.method import Method, Outcome, Problem

TOURNAMENT = 3
MUTATION_RATE = 0.5


def fitness(x: Any, y: Any, population: np.ndarray) -> np.ndarray:
    """|mean(y·χ_S)| for each subset (row) of ``population``."""
    chi = np.prod(x[:, population], axis=2)
    scores: np.ndarray = np.abs(np.asarray((chi * y[:, None]).sum(axis=0), dtype=np.float64)) / y.shape[0]
    return scores


def child(a: np.ndarray, b: np.ndarray, n: int, rng: Any) -> np.ndarray:
    """k bits from the union of parents a and b, then maybe one bit swapped for an outside one."""
    k = a.shape[0]
    union = np.union1d(a, b)
    genes = np.sort(np.asarray(rng.choice(union, k, replace=False), dtype=np.int64))
    if float(rng.rand()) < MUTATION_RATE:
        outside = np.setdiff1d(np.arange(n), genes)
        genes[int(rng.randint(k))] = int(rng.choice(outside))
    return np.sort(genes)


def random_subsets(count: int, n: int, k: int, rng: Any) -> np.ndarray:
    return np.array([np.sort(np.asarray(rng.choice(n, k, replace=False))) for _ in range(count)], dtype=np.int64)


def run(problem: Problem) -> Outcome:
    n, k, rng = problem.n, problem.k, problem.rng
    pop_size, generations = int(problem.params["pop"]), int(problem.params["epochs"])
    population = random_subsets(pop_size, n, k, rng)
    for generation in range(1, generations + 1):
        fit = fitness(problem.x, problem.y, population)
        best = int(np.argmax(fit))
        if fit[best] >= 1.0 - 1e-12:
            return Outcome(secret=[int(i) for i in population[best]], note=f"found in generation {generation}")
        picks = np.asarray(rng.randint(pop_size, size=(2 * (pop_size - 1), TOURNAMENT)))
        winners = picks[np.arange(picks.shape[0]), np.argmax(fit[picks], axis=1)]
        children = [
            child(population[winners[2 * i]], population[winners[2 * i + 1]], n, rng) for i in range(pop_size - 1)
        ]
        population = np.vstack([population[best : best + 1], np.array(children, dtype=np.int64)])
    fit = fitness(problem.x, problem.y, population)
    best = int(np.argmax(fit))
    return Outcome(secret=[int(i) for i in population[best]], note=f"generation limit {generations} reached")


METHOD = Method(
    name="evolutionary",
    summary="Evolutionary search over k-subsets (tournament, crossover, mutation); fitness = label correlation",
    kind="solver",
    run=run,
    defaults={"m": 500, "pop": 100, "epochs": 500},
)
