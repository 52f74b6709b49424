"""One API key per lesson user: on a server with authentication, a key *is* a user.

Cortadel binds every API key to one user and rewrites a request's body ``user_id`` to the key's
user. So a lesson that shows several users (ana, ben, a team, mallory) kept apart must give each of
them their own key. With one ``CORTADEL_API_KEY`` for everybody, all their memories would land in
the key's one namespace and every isolation claim would be false without any error to say so.

:func:`user_keys` decides, once, before any multi-user section runs:

* an open server (the local one, or a real one with no ``CORTADEL_API_KEY``): no keys, the
  ``user_id`` picks the namespace;
* an authenticated server: ``CORTADEL_API_KEY_<NAME>`` for each user (``CORTADEL_API_KEY_ANA``, …),
  from the environment or ``.env``; if any is missing it stops with one line naming the variables.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from .server_choice import MemoryServerChoice

__all__ = ["MultiUserNeedsKeys", "key_variable", "user_keys"]


class MultiUserNeedsKeys(RuntimeError):
    """A multi-user section was asked to run on an authenticated server without a key per user."""


def key_variable(name: str) -> str:
    """The environment variable holding ``name``'s key: ``ana`` → ``CORTADEL_API_KEY_ANA``."""
    return "CORTADEL_API_KEY_" + re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()


def _setting(variable: str) -> str | None:
    value = os.environ.get(variable)
    if value is None:
        from dotenv import dotenv_values, find_dotenv

        path = find_dotenv(usecwd=True)
        value = dotenv_values(path).get(variable) if path else None
    return (value or "").strip() or None


def user_keys(server: MemoryServerChoice, names: Iterable[str]) -> dict[str, str | None]:
    """``{name: api_key}`` for each lesson user; ``None`` keys on an open server.

    Raises :class:`MultiUserNeedsKeys` when the server uses a key (``server.api_key``) and some
    user has no ``CORTADEL_API_KEY_<NAME>`` of their own.
    """
    names = list(names)
    if not server.api_key:
        return {name: None for name in names}
    keys = {name: _setting(key_variable(name)) for name in names}
    missing = [key_variable(name) for name, key in keys.items() if not key]
    if missing:
        raise MultiUserNeedsKeys(
            "These sections show several users kept apart, and a Cortadel key is bound to one user "
            "(CORTADEL_API_KEY alone would put every user in its one namespace): run them on an open "
            f"server (unset CORTADEL_API_KEY, or unset CORTADEL_BASE_URL for the local one) or set {', '.join(missing)}."
        )
    if len(set(keys.values())) != len(keys):
        raise MultiUserNeedsKeys("Two lesson users share one API key; each user needs a key of their own.")
    return keys  # type: ignore[return-value]
