"""EventLog: a compact, growable record of buffer-level reads and writes (one trace, many metrics).

Each event is three machine integers — kind (0 write, 1 read), buffer id, size in elements — appended to
``array.array`` chunks (raw C integers, never a Python object per event); a full chunk is frozen into numpy arrays
and a new one started, so appends stay O(1) and memory is 17 bytes per event (int8 + 2 × int64).
Every metric (``ard@1``, ``ard_per_read@1``, ``dmc@1`` …) is computed from :meth:`arrays`.
"""

from __future__ import annotations

from array import array

import numpy as np
import numpy.typing as npt

CHUNK_EVENTS = 1 << 20
"""Events per chunk before it is frozen into numpy arrays."""

WRITE = 0
READ = 1


class EventLog:
    """Append-only buffer events; buffers are small integers handed out by :meth:`new_buffer`."""

    def __init__(self) -> None:
        self._frozen: list[tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
        self._kind = array("b")
        self._buffer = array("q")
        self._size = array("q")
        self._n_buffers = 0
        self.labels: dict[int, str] = {}

    def new_buffer(self, label: str = "") -> int:
        """A fresh buffer id (labels are kept only when given, for attribution)."""
        self._n_buffers += 1
        if label:
            self.labels[self._n_buffers] = label
        return self._n_buffers

    def write(self, buffer: int, size: int) -> None:
        self._kind.append(WRITE)
        self._buffer.append(buffer)
        self._size.append(size)
        if len(self._kind) >= CHUNK_EVENTS:
            self._freeze()

    def read(self, buffer: int, size: int) -> None:
        self._kind.append(READ)
        self._buffer.append(buffer)
        self._size.append(size)
        if len(self._kind) >= CHUNK_EVENTS:
            self._freeze()

    def _freeze(self) -> None:
        self._frozen.append(
            (
                np.frombuffer(self._kind, dtype=np.int8).copy(),
                np.frombuffer(self._buffer, dtype=np.int64).copy(),
                np.frombuffer(self._size, dtype=np.int64).copy(),
            )
        )
        self._kind, self._buffer, self._size = array("b"), array("q"), array("q")

    def __len__(self) -> int:
        return sum(k.size for k, _, _ in self._frozen) + len(self._kind)

    def nbytes(self) -> int:
        """Bytes held by the events (frozen chunks and the open chunk's allocation)."""
        frozen = sum(k.nbytes + b.nbytes + s.nbytes for k, b, s in self._frozen)
        return frozen + 17 * len(self._kind)

    def arrays(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(is_write, buffer, size)`` of every event in order, as numpy arrays (the input of clock metrics)."""
        kinds = [k for k, _, _ in self._frozen] + [np.frombuffer(self._kind, dtype=np.int8)]
        buffers = [b for _, b, _ in self._frozen] + [np.frombuffer(self._buffer, dtype=np.int64)]
        sizes = [s for _, _, s in self._frozen] + [np.frombuffer(self._size, dtype=np.int64)]
        kind = np.concatenate(kinds) if kinds else np.zeros(0, np.int8)
        return kind == WRITE, np.concatenate(buffers), np.concatenate(sizes)

    def counts(self) -> dict[str, int]:
        """Number of events, reads and writes."""
        is_write, _, _ = self.arrays()
        writes = int(is_write.sum())
        return {"events": int(is_write.size), "reads": int(is_write.size) - writes, "writes": writes}
