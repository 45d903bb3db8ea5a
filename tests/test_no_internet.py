"""The suite's network guard works: a connection to a public address fails the test run."""

import socket

import pytest

from tests.conftest import InternetAccessInTest


def test_connecting_to_a_public_address_is_refused() -> None:
    with socket.socket() as s, pytest.raises(InternetAccessInTest):
        s.connect(("93.184.216.34", 80))


def test_loopback_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.socket() as client:
            client.connect(server.getsockname())
