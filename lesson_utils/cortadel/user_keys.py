"""One API key per lesson user: on a server with authentication, a key *is* a user.

Cortadel binds every API key to one user and rewrites a request body's ``user_id`` to the key's
user. So a lesson that passes the one ``CORTADEL_API_KEY`` for Ana, Ben, a team and Mallory would
file all their memories under one user, and every isolation check it makes would be false without
any error to say so. Each user needs their own key:

* the local server the lessons start, or a real server with no ``CORTADEL_API_KEY`` (auth off):
  no key — the ``user_id`` selects the namespace;
* a real server with auth on: user ``<name>`` needs ``CORTADEL_API_KEY_<NAME>`` (``CORTADEL_API_KEY_BEN``),
  from the environment or ``.env``. Without it the section stops with one line that names the fix,
  rather than mixing memories.

:func:`api_key_for` answers for one *other* user beside the lesson's first (who has
``CORTADEL_API_KEY``); :func:`user_keys` answers for a whole cast of users at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import LessonError
from .server_choice import MemoryServerChoice, _setting

__all__ = ["UserKeyMissing", "api_key_for", "user_key_variable", "user_keys"]

_OPEN_OR_LOCAL = "unset CORTADEL_API_KEY for an open server, or unset CORTADEL_BASE_URL to use the local one"


class UserKeyMissing(LessonError, RuntimeError):
    """A user on an authenticated Cortadel server has no key of their own; the message names the fix."""


def user_key_variable(name: str) -> str:
    """The environment variable holding ``name``'s key: ``team-shipit`` → ``CORTADEL_API_KEY_TEAM_SHIPIT``."""
    slug = re.sub(r"[^A-Z0-9]+", "_", name.strip().upper()).strip("_")
    if not slug:
        raise ValueError(f"a user name needs at least one letter or digit, got {name!r}")
    return f"CORTADEL_API_KEY_{slug}"


def _needs_keys(server: MemoryServerChoice) -> bool:
    return not server.local and bool(server.api_key)


def api_key_for(server: MemoryServerChoice, name: str) -> str | None:
    """The API key for lesson user ``name`` (not the first user, who has ``server.api_key``).

    ``None`` where the server has auth off; the user's own key where it has auth on; otherwise
    raises :class:`UserKeyMissing` with the fix — never the first user's key.
    """
    variable = user_key_variable(name)
    if not _needs_keys(server):
        return None
    key = _setting(variable)
    if key is None:
        raise UserKeyMissing(
            f"user {name!r} needs their own Cortadel key on {server.url}: a key is bound to one user and the "
            f"server rewrites user_id to the key's user. Set {variable} in .env, or {_OPEN_OR_LOCAL}."
        )
    if key == server.api_key:
        raise UserKeyMissing(
            f"{variable} is the same key as CORTADEL_API_KEY, so {name!r} would read and write the first "
            f"user's memories. Mint a key for {name!r} and put it in {variable}."
        )
    return key


def user_keys(server: MemoryServerChoice, names: Iterable[str]) -> dict[str, str | None]:
    """``{name: api_key}`` for each lesson user of a multi-user section; ``None`` keys on an open server.

    On an authenticated server every user needs ``CORTADEL_API_KEY_<NAME>``; raises
    :class:`UserKeyMissing` naming the missing variables, or when two users share one key.
    """
    names = list(names)
    if not _needs_keys(server):
        return {name: None for name in names}
    keys = {name: _setting(user_key_variable(name)) for name in names}
    missing = [user_key_variable(name) for name, key in keys.items() if not key]
    if missing:
        raise UserKeyMissing(
            "These sections show several users kept apart, and a Cortadel key is bound to one user "
            f"(CORTADEL_API_KEY alone would put every user in its one namespace): set {', '.join(missing)}, "
            f"or {_OPEN_OR_LOCAL}."
        )
    if len(set(keys.values())) != len(keys):
        raise UserKeyMissing("Two lesson users share one API key; each user needs a key of their own.")
    return dict(keys)
