"""Lesson 12's check helpers: each one fails where the claim it names is false."""

from __future__ import annotations

import socket
from urllib.parse import urlparse

from cortadel import CortadelError

from course_kit.lessons.l12_production_failures.checks import failed_with, port_of, server_that_hangs

DOWN = CortadelError(0, "transport_error", "connection refused")


def test_failed_with_counts_only_cortadel_failures_of_that_code() -> None:
    assert failed_with([DOWN, DOWN], "transport_error", count=2)
    assert not failed_with([DOWN], "transport_error", count=2)
    assert not failed_with([DOWN, CortadelError(500, "internal", "boom")], "transport_error", count=2)
    assert not failed_with([DOWN, RuntimeError("transport_error")], "transport_error", count=2)


def test_port_of_reads_the_port() -> None:
    assert port_of("http://127.0.0.1:8765") == 8765 and port_of("http://127.0.0.1:80/api") == 80
    assert port_of("http://127.0.0.1:8765") != 8766


def test_a_server_that_hangs_accepts_and_never_answers() -> None:
    with server_that_hangs() as url:
        address = urlparse(url)
        with socket.create_connection((address.hostname, address.port), timeout=2) as sock:
            sock.settimeout(0.3)
            sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
            try:
                answered = bool(sock.recv(1))
            except TimeoutError:
                answered = False
        assert not answered
    with socket.socket() as sock:  # and once closed, nothing listens there
        assert sock.connect_ex((address.hostname, address.port)) != 0
