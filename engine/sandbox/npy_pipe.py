"""Arrays over a pipe in .npy framing (docs/sandbox.md#arrays-over-a-pipe).

``numpy.save``/``numpy.load`` want seekable files; on a pipe we write the .npy magic + v1.0 header with
numpy's header helpers and the raw bytes, and read them back with ``readinto``. The header is validated before
any data is read: numeric dtypes only (bool, int, uint, float — never object, so nothing is ever unpickled),
non-negative integer shape, and a byte cap.
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np
from numpy.lib import format as npy_format

NUMERIC_KINDS = "biuf"


class BadArray(ValueError):
    """A frame whose header is not an allowed numeric array, or a stream that ends early."""


def write_array(stream: BinaryIO, array: np.ndarray) -> None:
    """Write one .npy frame (C order) to ``stream``."""
    arr = np.ascontiguousarray(array)
    if arr.dtype.kind not in NUMERIC_KINDS:
        raise BadArray(f"only numeric arrays can be sent, not {arr.dtype}")
    npy_format.write_array_header_1_0(stream, npy_format.header_data_from_array_1_0(arr))
    if arr.size:
        stream.write(arr.data.cast("B"))


def read_array(stream: BinaryIO, max_bytes: int) -> np.ndarray:
    """Read one .npy frame from ``stream``; BadArray when the header or the length is not acceptable."""
    try:
        version = npy_format.read_magic(stream)
        if version != (1, 0):
            raise BadArray(f"unsupported .npy version {version}")
        shape, fortran, dtype = npy_format.read_array_header_1_0(stream, max_header_size=1024)
    except BadArray:
        raise
    except (ValueError, SyntaxError, TypeError) as exc:
        raise BadArray(f"bad .npy header: {exc}") from exc
    if dtype.kind not in NUMERIC_KINDS or dtype.hasobject:
        raise BadArray(f"only numeric arrays are accepted, not {dtype}")
    if fortran or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise BadArray("only C-ordered arrays with a non-negative shape are accepted")
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if nbytes > max_bytes:
        raise BadArray(f"array of {nbytes:,} bytes is over the {max_bytes:,}-byte limit")
    out = np.empty(shape, dtype=dtype)
    view = out.data.cast("B") if out.size else memoryview(bytearray())
    got = 0
    while got < nbytes:
        n = stream.readinto(view[got:])  # type: ignore[attr-defined]
        if not n:
            raise BadArray("the stream ended inside an array")
        got += n
    return out
