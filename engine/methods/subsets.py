"""Candidate secrets: every k-subset of n bits as an index table, and the Walsh character of each on a batch of rows.

The Walsh character of subset S on a ±1 row x is χ_S(x) = Π_{i∈S} x_i; for the secret it equals the label.
Enumerating methods (mutual_info, mdl, lasso) score all C(n, k) characters; the tables are built in chunks so a
run never holds more than :data:`CHUNK` characters of every row at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, islice
from typing import Any

import numpy as np

from engine.methods.params import check_subsets

CHUNK = 2048
"""Subsets scored per batch of array operations."""


def subset_chunks(n: int, k: int, size: int = CHUNK) -> Iterator[np.ndarray]:
    """All k-subsets of range(n) in lexicographic order, as int arrays of shape (≤ size, k)."""
    it = combinations(range(n), k)
    while chunk := list(islice(it, size)):
        yield np.array(chunk, dtype=np.int64).reshape(len(chunk), k)


def characters(x: Any, table: np.ndarray) -> Any:
    """χ_S for each row of ``x`` and each subset (row) of ``table``: shape (rows, subsets)."""
    return np.prod(x[:, table], axis=2)


def all_characters(method: str, x: Any, n: int, k: int) -> Iterator[tuple[np.ndarray, Any]]:
    """(table, characters) per chunk over all C(n, k) subsets, refused above the scan limit before starting."""
    check_subsets(method, n, k)
    for table in subset_chunks(n, k):
        yield table, characters(x, table)
