"""A local TCP port that refuses connections for as long as a test needs it.

Binding a port and closing the socket at once ("a port nothing listens on") races with the other test workers:
the kernel hands the freed port to the next ephemeral bind, and a fake server started meanwhile by another worker
then answers where the test expected a refusal (seen: ``sutro serve`` told "token refused" instead of
"unreachable"). A socket that stays bound and never listens makes Linux refuse every connection to it, and no
other socket can take the port until the block ends.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def refusing_port() -> Iterator[int]:
    """A 127.0.0.1 port number that refuses connections until the block ends."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])
