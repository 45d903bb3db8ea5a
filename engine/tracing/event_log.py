"""EventLog: a compact, growable record of buffer-level reads and writes (one trace, many metrics).

Each event is two machine integers appended to one ``array.array`` chunk (raw C integers, never a Python object per
event): the buffer id for a write, or its bitwise complement ``~id`` (negative) for a read, then the size in
elements. Two appends to one array cost about 60 % of three appends to three arrays, and the tracer records an event
for nearly every array operation. A full chunk is frozen into numpy arrays and a new one started, so appends stay
O(1) and memory is 16 bytes per event. Every metric (``ard@1``, ``ard_per_read@1``, ``dmc@1`` …) is computed from
:meth:`arrays`.
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

    def __init__(self, chunk_events: int = CHUNK_EVENTS) -> None:
        self._frozen: list[npt.NDArray[np.int64]] = []
        self._open = array("q")
        self.push = self._open.append
        """Append one item to the open chunk: a write is ``push(id); push(size)``, a read ``push(~id); push(size)``
        (the tracer's hot paths call it directly: a method call per event costs more than the two appends)."""
        self._chunk_items = 2 * chunk_events
        self._n_buffers = 0
        self.labels: dict[int, str] = {}

    def new_buffer(self, label: str = "") -> int:
        """A fresh buffer id (labels are kept only when given, for attribution). A full chunk is frozen here too,
        for the events recorded with :attr:`push`."""
        if len(self._open) >= self._chunk_items:
            self._freeze()
        self._n_buffers += 1
        if label:
            self.labels[self._n_buffers] = label
        return self._n_buffers

    def write(self, buffer: int, size: int) -> None:
        events = self._open
        events.append(buffer)
        events.append(size)
        if len(events) >= self._chunk_items:
            self._freeze()

    def read(self, buffer: int, size: int) -> None:
        events = self._open
        events.append(~buffer)
        events.append(size)
        if len(events) >= self._chunk_items:
            self._freeze()

    def extend(
        self, is_write: npt.NDArray[np.bool_], buffer: npt.NDArray[np.int64], size: npt.NDArray[np.int64]
    ) -> None:
        """Append many events at once (same meaning as :meth:`arrays`), in order. (No ``np.empty``/``np.zeros``
        here: inside :func:`engine.tracing.tracing` those would record events of their own.)"""
        signed = np.where(is_write, buffer, ~buffer).astype(np.int64)
        pairs = np.concatenate((signed[:, None], np.asarray(size, dtype=np.int64)[:, None]), axis=1)
        self._open.frombytes(pairs.tobytes())
        if len(self._open) >= self._chunk_items:
            self._freeze()

    def _freeze(self) -> None:
        self._frozen.append(np.frombuffer(self._open, dtype=np.int64).copy())
        del self._open[:]  # the same array object, so a bound ``push`` stays valid

    def __len__(self) -> int:
        return (sum(chunk.size for chunk in self._frozen) + len(self._open)) // 2

    def nbytes(self) -> int:
        """Bytes held by the events (frozen chunks and the open chunk's items)."""
        return sum(chunk.nbytes for chunk in self._frozen) + 8 * len(self._open)

    def arrays(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(is_write, buffer, size)`` of every event in order, as numpy arrays (the input of clock metrics)."""
        chunks = [*self._frozen, np.frombuffer(self._open, dtype=np.int64)]
        pairs = np.concatenate(chunks).reshape(-1, 2)
        signed = pairs[:, 0]
        is_write = signed >= 0
        return is_write, np.where(is_write, signed, ~signed), pairs[:, 1].copy()

    def counts(self) -> dict[str, int]:
        """Number of events, reads and writes."""
        is_write, _, _ = self.arrays()
        writes = int(is_write.sum())
        return {"events": int(is_write.size), "reads": int(is_write.size) - writes, "writes": writes}
