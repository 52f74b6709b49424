"""Every timestamp the server sends, written one way.

A stored memory has one creation instant (float seconds since the epoch, in SQLite). Cortadel's
contract sends it in two encodings, and the official SDK parses each as declared, so the local
server must too:

* ``created_at`` on **create** and **search** responses, and every ``valid_at`` / ``invalid_at`` /
  ``checked_at``, is an ISO 8601 string: UTC, milliseconds, ``Z`` (``2025-05-01T09:30:00.123Z``);
* ``created_at`` on **list** and **get** responses is an integer of Unix seconds (the contract's
  ``int64``; the SDK reads it with ``get_int_value`` and would turn a string into ``0``).

Both come from the functions below, so they always describe the same instant: a list item's
``valid_at`` is exactly its ``created_at`` on create and search, and its integer ``created_at`` is
that instant truncated to the second.
"""

from __future__ import annotations

from datetime import datetime, timezone


def _instant(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, timezone.utc)  # rounds to the microsecond, once, for both forms


def iso(ts: float) -> str:
    """The ISO 8601 form: UTC, millisecond precision, ``Z``."""
    return _instant(ts).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def unix_seconds(ts: float) -> int:
    """The contract's integer form for list and get: the same instant's whole seconds."""
    return int(_instant(ts).timestamp())
