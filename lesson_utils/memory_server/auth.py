"""Optional per-user API keys, resolved the way Cortadel resolves them.

Off by default, like a self-hosted Cortadel: the ``user_id`` in each request picks the
namespace. With keys configured, every memory route needs one (``Authorization: Bearer <key>``
or an ``API_KEY`` header) and the key decides the user: a ``user_id`` in a body is overwritten
with the key's user (so it can never reach another user's memories) and one in a query string
that names a different user is refused with 403. ``/api/health`` stays open.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping


class AuthError(Exception):
    """401 (missing/unknown key) or 403 (a query names another user)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class ApiKeys:
    """The configured ``user_id -> key`` table, looked up in constant time per key."""

    def __init__(self, keys: Mapping[str, str] | None = None) -> None:
        keys = dict(keys or {})
        for user, key in keys.items():
            if not isinstance(user, str) or not user.strip() or not isinstance(key, str) or not key.strip():
                raise ValueError("api_keys must map non-empty user ids to non-empty keys")
        if len(set(keys.values())) != len(keys):
            raise ValueError("api_keys: two users share one key; every user needs their own")
        self._pairs = [(key.encode("utf-8"), user) for user, key in keys.items()]

    @property
    def enabled(self) -> bool:
        return bool(self._pairs)

    def user_for(self, headers: Mapping[str, str]) -> str | None:
        """The key's user; None when auth is off. Raises AuthError(401) for a bad/missing key."""
        if not self.enabled:
            return None
        presented = None
        authorization = headers.get("authorization")
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() == "bearer" and value.strip():
                presented = value.strip()
        if presented is None and headers.get("api_key"):
            presented = headers["api_key"].strip()
        if not presented:
            raise AuthError(
                401, "unauthorized",
                "An API key is required: send 'Authorization: Bearer <key>' or an 'API_KEY' header.",
            )
        candidate = presented.encode("utf-8")
        found = None
        for key, user in self._pairs:  # compare against every key: timing does not leak which one
            if hmac.compare_digest(key, candidate):
                found = user
        if found is None:
            raise AuthError(401, "unauthorized", "The API key is not valid.")
        return found


def resolve_user(keys: ApiKeys, headers: Mapping[str, str], claimed: str | None, *, from_query: bool) -> str | None:
    """The user a request acts for. ``claimed`` is the request's own ``user_id`` (body or query).

    Returns None only when auth is off and nothing was claimed (the caller reports it missing).
    """
    key_user = keys.user_for(headers)
    if key_user is None:
        return claimed
    if from_query and claimed is not None and claimed != key_user:
        raise AuthError(403, "forbidden", "The user_id in the query does not match the API key's user.")
    return key_user
