"""Which API key a lesson's *other* users talk to Cortadel with — never the first user's.

A Cortadel API key is bound to one user: on a server with auth on, the key decides the namespace
and a ``user_id`` in a request body is silently rewritten to the key's user. So a lesson that
passes the one ``CORTADEL_API_KEY`` for Ana, Ben and the team would file all their memories under
one user, and every isolation check it makes would be false. Each user needs their own key:

* the local server the lessons start (auth off): no key — the ``user_id`` selects the namespace;
* a real server with no ``CORTADEL_API_KEY`` (a self-hosted one with auth off): no key either;
* a real server with auth on: ``CORTADEL_API_KEY`` belongs to the lesson's first user, and every
  other user ``<name>`` needs ``CORTADEL_API_KEY_<NAME>`` (e.g. ``CORTADEL_API_KEY_BEN``). Without
  it :func:`api_key_for` stops with one line that names the fix, rather than mixing memories.
"""

from __future__ import annotations

import re

from .server_choice import MemoryServerChoice, _setting

__all__ = ["UserKeyMissing", "api_key_for", "user_key_variable"]


class UserKeyMissing(RuntimeError):
    """A second user on an authenticated Cortadel server has no key of their own."""


def user_key_variable(name: str) -> str:
    """The environment variable holding ``name``'s key: ``CORTADEL_API_KEY_<NAME>``."""
    slug = re.sub(r"[^A-Z0-9]+", "_", name.strip().upper()).strip("_")
    if not slug:
        raise ValueError(f"a user name needs at least one letter or digit, got {name!r}")
    return f"CORTADEL_API_KEY_{slug}"


def api_key_for(server: MemoryServerChoice, name: str) -> str | None:
    """The API key for lesson user ``name`` (not the first user, who has ``server.api_key``).

    ``None`` where the server has auth off; the user's own key where it has auth on; otherwise
    raises :class:`UserKeyMissing` with the fix — never the first user's key.
    """
    variable = user_key_variable(name)
    if server.local or server.api_key is None:
        return None
    key = _setting(variable)
    if key is None:
        raise UserKeyMissing(
            f"user {name!r} needs their own Cortadel key on {server.url}: a key is bound to one user and the "
            f"server rewrites user_id to the key's user. Set {variable} in .env, or unset CORTADEL_BASE_URL "
            "to run this section on the local server."
        )
    if key == server.api_key:
        raise UserKeyMissing(
            f"{variable} is the same key as CORTADEL_API_KEY, so {name!r} would read and write the first "
            f"user's memories. Mint a key for {name!r} and put it in {variable}."
        )
    return key
