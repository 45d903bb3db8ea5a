"""Arrays over a real pipe in .npy framing: round trips, header validation before any data, early EOF."""

from __future__ import annotations

import io
import os
import threading

import numpy as np
import pytest

from engine.sandbox.npy_pipe import BadArray, read_array, write_array
from engine.sandbox.trusted import run_trusted_limited


def test_round_trip_through_an_os_pipe() -> None:
    arrays = [np.arange(12, dtype=np.int64).reshape(3, 4), np.array([True, False]), np.zeros((0, 5)),
              np.asfortranarray(np.eye(3, dtype=np.float32))]  # fmt: skip
    r, w = os.pipe()

    def writer() -> None:
        with os.fdopen(w, "wb") as out:
            for a in arrays:
                write_array(out, a)

    thread = threading.Thread(target=writer)
    thread.start()
    with os.fdopen(r, "rb") as inp:
        got = [read_array(inp, 1 << 20) for _ in arrays]
    thread.join()
    for a, b in zip(arrays, got, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _frame(header: str) -> io.BytesIO:
    text = header.encode("latin1")
    pad = 64 - (10 + len(text) + 1) % 64
    return io.BytesIO(b"\x93NUMPY\x01\x00" + (len(text) + pad + 1).to_bytes(2, "little") + text + b" " * pad + b"\n")


def test_object_dtype_header_is_rejected_before_reading_data() -> None:
    with pytest.raises(BadArray, match="numeric"):
        read_array(_frame("{'descr': '|O', 'fortran_order': False, 'shape': (3,), }"), 1 << 20)


def test_size_cap_is_checked_from_the_header() -> None:
    with pytest.raises(BadArray, match="over the"):
        read_array(_frame("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }"), 1 << 20)


def test_truncated_stream_is_an_error() -> None:
    buf = io.BytesIO()
    write_array(buf, np.arange(100))
    with pytest.raises(BadArray, match="ended inside"):
        read_array(io.BytesIO(buf.getvalue()[:-8]), 1 << 20)


def test_object_arrays_cannot_be_sent() -> None:
    with pytest.raises(BadArray):
        write_array(io.BytesIO(), np.array([object()]))


def test_trusted_call_receives_arrays() -> None:
    assert run_trusted_limited("math:fsum", [], arrays=[np.full(10, 0.1)]) == 1.0  # fsum is exact: 10 × 0.1
