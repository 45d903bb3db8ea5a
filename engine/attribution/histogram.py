"""Reuse-distance histogram: floats read, binned by log₂ of their reuse distance, per named buffer.

The group called the reuse-distance distribution "the ultimate metric"; a mean hides whether a run reads a little
from very far or a lot from near. Distances are the clock distances of ``ard@1``
(docs/metrics.md#reuse-distance-and-dmc).

Bin ``b`` holds the floats of reads with ``2^b ≤ d < 2^(b+1)`` (a distance of 0, possible only after an empty write,
is counted in bin 0). Each row is one buffer name; rows stack to the run's whole histogram. Only the
:data:`MAX_ROWS` names with the most floats read keep a row of their own, the rest are summed into ``(other)``, so the
serialised form stays a few KB whatever the run (:meth:`ReuseHistogram.to_json`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

MAX_ROWS = 24
OTHER = "(other)"
FORMAT = 1


@dataclass(frozen=True)
class ReuseHistogram:
    """names[i]'s floats read per bin: ``rows[i]`` maps bin exponent b → floats with 2^b ≤ d < 2^(b+1)."""

    names: tuple[str, ...]
    rows: tuple[dict[int, int], ...]

    def bins(self) -> list[int]:
        """Every non-empty bin exponent, ascending."""
        return sorted({b for row in self.rows for b in row})

    def total(self) -> dict[int, int]:
        """The run's histogram: all rows stacked."""
        out: dict[int, int] = {}
        for row in self.rows:
            for b, floats in row.items():
                out[b] = out.get(b, 0) + floats
        return dict(sorted(out.items()))

    def floats_read(self) -> int:
        return sum(sum(row.values()) for row in self.rows)

    def to_json(self) -> str:
        """Compact JSON: ``{"format": 1, "base": 2, "rows": {name: {bin: floats}}}``."""
        rows = {
            name: {str(b): v for b, v in sorted(row.items())} for name, row in zip(self.names, self.rows, strict=True)
        }
        return json.dumps({"format": FORMAT, "base": 2, "rows": rows}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ReuseHistogram:
        data = json.loads(text)
        if data.get("format") != FORMAT or data.get("base") != 2:
            raise ValueError(f"unknown reuse histogram format {data.get('format')!r}")
        rows = data["rows"]
        return cls(names=tuple(rows), rows=tuple({int(b): int(v) for b, v in row.items()} for row in rows.values()))


def bin_label(exponent: int) -> str:
    """The distances bin ``exponent`` holds, as text: ``4–7`` for 2² ≤ d < 2³ (``0–1`` for bin 0)."""
    low = 0 if exponent == 0 else 2**exponent
    return f"{low:,}–{2 ** (exponent + 1) - 1:,}"


def distance_bins(distance: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``floor(log2(d))`` per distance (0 for d ≤ 1), exact below 2**53."""
    _, exponent = np.frexp(np.maximum(distance, 1).astype(np.float64))
    return exponent.astype(np.int64) - 1


def reuse_histogram(
    name_index: npt.NDArray[np.int64],
    names: list[str],
    size: npt.NDArray[np.int64],
    distance: npt.NDArray[np.int64],
    per_name: Sequence[int] | None = None,
) -> ReuseHistogram:
    """Histogram of counted reads: ``name_index[i]`` names read i (an index into ``names``), ``size[i]`` its floats.
    ``per_name``: the floats read per name when the caller has summed them already."""
    if distance.size == 0:
        return ReuseHistogram(names=(), rows=())
    bins = distance_bins(distance)
    lowest = int(bins.min())
    width = int(bins.max()) - lowest + 1
    cells = np.bincount(name_index * width + (bins - lowest), weights=size, minlength=len(names) * width)
    table = cells.reshape(len(names), width)  # float sums of integers: exact while a run reads < 2^53 floats
    totals = table.sum(axis=1).tolist() if per_name is None else list(per_name)
    order = sorted((i for i, floats in enumerate(totals) if floats > 0), key=lambda i: -totals[i])
    kept, rest = order[:MAX_ROWS], order[MAX_ROWS:]
    out_names = [names[i] for i in kept]
    # the kept rows (at most MAX_ROWS of ``width`` cells) are read in Python: cheaper than the half-dozen numpy
    # calls that would pick out their non-empty cells, which cost most of this function on a small run
    kept_rows = table[kept].tolist()
    if rest:
        out_names.append(OTHER)
        kept_rows.append(table[rest].sum(axis=0).tolist())
    rows = tuple({b: round(floats) for b, floats in enumerate(row, lowest) if floats} for row in kept_rows)
    return ReuseHistogram(names=tuple(out_names), rows=rows)
