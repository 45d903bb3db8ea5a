"""``rl``: reinforcement learning of which bits to look at — tabular Q-learning over value-blind query states.

Idea: the group recast sparse parity as "learning what to look at". An episode takes one training row; the agent
queries k bits one at a time, then predicts the label as the product of the k values it saw, and is rewarded +1 when
right and −1 when wrong. The state is the *set* of bits queried so far, never their values (the group found the
value-aware state space, O(n^k·2^k), never converges: ~50 % accuracy), so there are Σ_{j<k} C(n, j) states (211 at
n=20, k=3). Only the secret subset is always right; any other subset is right half the time (expected reward 0), so
the greedy policy learns to query the secret and then reads exactly k bits per prediction. Updates run backwards
over the episode: the last query's value moves toward the reward, each earlier one toward the best value of the
state it led to (no discount). Exploration is ε-greedy with ε decaying from 1.0 by ×0.9995 per episode to 0.02.
Every ``CHECK`` episodes the greedy subset is checked on all training rows; training stops when it fits them all.
The group reports 6/6 runs correct (n=10 and 20, k=3, 500 rows, α=0.2), converging in 3,656–4,377 episodes at
n=10 and 5,122–11,907 at n=20; their other formulation, a UCB1 bandit over k-subsets, finds the secret after
exactly C(n, k) pulls.

Parameters: m (training rows, 500), lr (α, the step toward the target, 0.2), episodes (the limit, 50,000).
The Q-table is one tracked array (a row per state, −∞ at the bits a state has already queried), so its reads and
writes are priced with the data's.
Source: cybertronai/SutroYaro ``SutroYaro:docs/findings/exp_rl.md`` (experiment ``exp_rl``, sequential Q-learning).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from engine.methods.method import Method, Outcome, Problem
from engine.tracing import track

EPSILON_START, EPSILON_DECAY, EPSILON_MIN = 1.0, 0.9995, 0.02
"""ε-greedy exploration: the group's schedule (per episode)."""
CHECK = 200
"""Episodes between checks of the greedy subset on every training row (also the size of a block of random draws)."""
MAX_N = 64
"""Largest n: the table has Σ_{j<k} C(n, j) rows of n values, and the episodes needed grow with C(n, k)."""


def states(n: int, k: int) -> dict[tuple[int, ...], int]:
    """Row index of every value-blind state: each sorted set of fewer than k queried bits."""
    index: dict[tuple[int, ...], int] = {}
    for size in range(k):
        for subset in combinations(range(n), size):
            index[subset] = len(index)
    return index


def greedy_subset(q: Any, index: dict[tuple[int, ...], int], k: int) -> list[int]:
    """The k bits the greedy policy queries from the empty state."""
    state: tuple[int, ...] = ()
    for _ in range(k):
        state = tuple(sorted((*state, int(np.argmax(q[index[state]])))))
    return list(state)


def run(problem: Problem) -> Outcome:
    n, k = problem.n, problem.k
    x, y, rng = problem.x, problem.y, problem.rng
    alpha, limit = float(problem.params["lr"]), int(problem.params["episodes"])
    m = x.shape[0]
    index = states(n, k)
    table = np.zeros((len(index), n))
    for queried, row in index.items():
        table[row, list(queried)] = -np.inf  # a bit already queried is never chosen again
    q = track(table, problem.log, "q")
    epsilon, episode = EPSILON_START, 0
    while episode < limit:
        block = min(CHECK, limit - episode)
        rows = np.asarray(rng.randint(m, size=block))
        explore = np.asarray(rng.rand(block, k))
        picks = np.asarray(rng.rand(block, k))
        for e in range(block):
            state: tuple[int, ...] = ()
            path: list[tuple[int, int]] = []
            for step in range(k):
                if explore[e, step] < epsilon:
                    free = [b for b in range(n) if b not in state]
                    action = free[int(picks[e, step] * len(free))]
                else:
                    action = int(np.argmax(q[index[state]]))
                path.append((index[state], action))
                state = tuple(sorted((*state, action)))
            right = float(np.prod(x[rows[e], list(state)])) == float(y[rows[e]])
            target: Any = 1.0 if right else -1.0
            for row, action in reversed(path):
                q[row, action] += alpha * (target - q[row, action])
                target = np.max(q[row])
            epsilon = max(EPSILON_MIN, epsilon * EPSILON_DECAY)
        episode += block
        subset = greedy_subset(q, index, k)
        if np.all(np.prod(x[:, subset], axis=1) == y):
            return Outcome(secret=subset, note=f"the greedy subset fits every training row after {episode:,} episodes")
    return Outcome(
        secret=greedy_subset(q, index, k),
        note=f"the greedy subset did not fit every training row after {episode:,} episodes",
    )


METHOD = Method(
    name="rl",
    summary="Q-learning of which k bits to query (value-blind states, ε-greedy), predicting their product",
    kind="solver",
    run=run,
    defaults={"m": 500, "lr": 0.2, "episodes": 50_000},
    max_n=MAX_N,
)
