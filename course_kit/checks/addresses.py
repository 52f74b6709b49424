"""Addresses for failure drills: a memory server that is down, without stopping a real one."""

from __future__ import annotations

import socket


def nobody_listening() -> str:
    """A loopback URL with no server behind it: connecting to it is refused at once, as a down server's is."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"
