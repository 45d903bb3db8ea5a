"""Instance suites of mask sparse parity (docs/challenges.md#mask-sparse-parity), drawn bit for bit as the group's
evaluator draws them.

Source: cybertronai/sutro-problems ``sparse-parity/mask_sparse_parity.py`` (the tier since 2026-08-26). One
instance is 18 training strings of 32 bits and their parities over a hidden set of 5 positions; the answer is the
32-cell 0/1 mask of those positions.

How a suite is drawn (every step is the group's; a test checks the whole dev suite against their output):

- A *stream* named by parts ``p1 … pn`` is ``random.Random(int.from_bytes(sha256("p1|…|pn"), "big"))``, each part
  written with ``str`` (a secret as the tuple's text, e.g. ``(3, 7, 12, 20, 31)``).
- Secrets: from the stream ``(SUITE_VERSION, key, "secrets", count)`` draw ``sorted(rng.sample(range(32), 5))``
  until ``count`` distinct ones are found, kept in draw order.
- For each secret and each repetition ``r`` (secret-major): from the stream ``(SUITE_VERSION, key, "train", secret,
  r)`` draw the 18 × 32 training bits row-major, one ``getrandbits(1)`` each; the labels are the XOR of the secret
  columns; the whole matrix is drawn again until exactly one 5-subset of columns explains every label (*unique
  identifiability*: the secret is then the only weight-5 answer, so 100 % recovery is attainable).
- The dev suite is key ``mask-dev``, 128 secrets × 8 repetitions = 1,024 instances. Adjudication draws a fresh key
  ``fresh-`` + 32 hex digits from :mod:`secrets`, 256 × 8 = 2,048 instances.

Speed without changing a bit: ``getrandbits(1)`` is the top bit of one 32-bit Mersenne Twister word, and
``getrandbits(32·w)`` returns the next ``w`` words least significant first, so one call yields a whole attempt's
576 bits. The identifiability check packs each column's 18 bits into one integer and counts the 5-subsets whose
signatures XOR to the labels' as matching (triple, pair) splits (:func:`explaining_subsets`), never listing all
C(32, 5) = 201,376 of them.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from random import Random

import numpy as np

SUITE_VERSION = "mask-sparse-parity-v1"
DEV_SUITE_KEY = "mask-dev"
N_BITS, K_SECRET, M_TRAIN = 32, 5, 18
N_INPUTS = N_BITS * M_TRAIN + M_TRAIN
"""594 inputs: the 18 × 32 training bits row-major, then the 18 parities."""
DEV_SECRETS, DEV_REPS = 128, 8
FRESH_SECRETS, FRESH_REPS = 256, 8


@dataclass(frozen=True)
class MaskSuite:
    """One suite: ``inputs`` (instances × 594, int8 0/1), ``masks`` (instances × 32, int8 0/1), the secret of each
    instance, and the key that drew it (``fresh-…`` keys are kept secret until the result is stored)."""

    key: str
    inputs: np.ndarray
    masks: np.ndarray
    secrets: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return int(self.inputs.shape[0])

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of the inputs then the masks as 0/1 bytes: names the suite's content, whatever its key."""
        h = hashlib.sha256(self.inputs.astype(np.uint8).tobytes())
        h.update(self.masks.astype(np.uint8).tobytes())
        return h.hexdigest()


def stream(*parts: object) -> Random:
    """The group's named random stream: SHA-256 of the parts joined by ``|``, read as one big-endian integer seed."""
    text = "|".join(str(p) for p in parts)
    return Random(int.from_bytes(hashlib.sha256(text.encode()).digest(), "big"))


def draw_secrets(key: str, count: int) -> list[tuple[int, ...]]:
    """``count`` distinct secrets of the suite ``key``, in draw order."""
    if count > math.comb(N_BITS, K_SECRET):
        raise ValueError(f"cannot draw {count} distinct secrets of {K_SECRET} in {N_BITS}")
    rng = stream(SUITE_VERSION, key, "secrets", count)
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < count:
        secret = tuple(sorted(rng.sample(range(N_BITS), K_SECRET)))
        if secret not in seen:
            seen.add(secret)
            out.append(secret)
    return out


@cache
def _triples_and_pairs() -> tuple[np.ndarray, np.ndarray]:
    """Every 3-subset (4,960) and every 2-subset (496) of the 32 columns, lexicographic."""
    triples = np.array(list(combinations(range(N_BITS), 3)), dtype=np.int64)
    pairs = np.array(list(combinations(range(N_BITS), 2)), dtype=np.int64)
    return triples, pairs


_ROW_WEIGHTS = np.left_shift(1, np.arange(M_TRAIN, dtype=np.int64))


def explaining_subsets(x: np.ndarray, y: np.ndarray) -> int:
    """How many 5-subsets of the columns of ``x`` (18 × 32, 0/1) have ``y`` (18, 0/1) as their parity.

    Each column's 18 bits are packed into one integer (its signature). A 5-subset a < b < c < d < e is the triple
    (a, b, c) and the pair (d, e) with c < d, and it explains ``y`` when the pair's signature equals the triple's
    XOR ``y``'s. So the count is the number of (triple, pair) with equal keys and c < d: the triples' keys are
    sorted with c as the low digits, and each pair counts the triples of its key whose c is below its d — two
    binary searches over 4,960 keys for each of the 496 pairs, instead of XORing all 201,376 subsets.
    """
    triples, pairs = _triples_and_pairs()
    columns = _ROW_WEIGHTS @ x.astype(np.int64)
    target = int(_ROW_WEIGHTS @ y.astype(np.int64))
    first = columns[triples[:, 0]] ^ columns[triples[:, 1]] ^ columns[triples[:, 2]] ^ target
    keyed = np.sort(first * 64 + triples[:, 2] * 2 + 1)
    pair_signatures = (columns[pairs[:, 0]] ^ columns[pairs[:, 1]]) * 64
    below = np.searchsorted(keyed, pair_signatures + pairs[:, 0] * 2)
    return int((below - np.searchsorted(keyed, pair_signatures)).sum())


def draw_instance(key: str, secret: tuple[int, ...], rep: int) -> np.ndarray:
    """The 594 inputs of repetition ``rep`` of ``secret`` in the suite ``key`` (uniquely identifiable)."""
    rng = stream(SUITE_VERSION, key, "train", secret, rep)
    cols = list(secret)
    n_words = M_TRAIN * N_BITS
    while True:
        words = np.frombuffer(rng.getrandbits(32 * n_words).to_bytes(4 * n_words, "little"), dtype="<u4")
        x = (words >> 31).astype(np.int8).reshape(M_TRAIN, N_BITS)
        y = np.bitwise_xor.reduce(x[:, cols], axis=1)
        if explaining_subsets(x, y) == 1:
            return np.concatenate((x.ravel(), y))


def build_suite(key: str, n_secrets: int, reps: int) -> MaskSuite:
    """The suite ``key`` with ``n_secrets`` × ``reps`` instances, secret-major."""
    drawn = draw_secrets(key, n_secrets)
    rows: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    per_instance: list[tuple[int, ...]] = []
    for secret in drawn:
        mask = np.zeros(N_BITS, dtype=np.int8)
        mask[list(secret)] = 1
        for rep in range(reps):
            rows.append(draw_instance(key, secret, rep))
            masks.append(mask)
            per_instance.append(secret)
    inputs = np.stack(rows)
    answer = np.stack(masks)
    inputs.flags.writeable = False
    answer.flags.writeable = False
    return MaskSuite(key=key, inputs=inputs, masks=answer, secrets=tuple(per_instance))


@lru_cache(maxsize=1)
def dev_suite() -> MaskSuite:
    """The deterministic 1,024-instance dev suite ``mask-dev`` (built once per process, about 0.6 s of CPU)."""
    return build_suite(DEV_SUITE_KEY, DEV_SECRETS, DEV_REPS)


def fresh_key() -> str:
    """A new adjudication key, as the group draws it: ``fresh-`` and 16 random bytes in hex."""
    return "fresh-" + secrets.token_hex(16)


def fresh_suite(key: str | None = None) -> MaskSuite:
    """A 2,048-instance adjudication suite: a fresh secret key (or ``key``, to re-draw a stored one)."""
    return build_suite(key if key is not None else fresh_key(), FRESH_SECRETS, FRESH_REPS)
