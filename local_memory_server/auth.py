"""Optional per-user API keys, resolved the way Cortadel resolves them, as FastAPI dependencies.

Off by default, like a self-hosted Cortadel: the ``user_id`` in each request picks the
namespace. With keys configured, every memory route needs one (``Authorization: Bearer <key>``
or an ``API_KEY`` header) and the key decides the user: a ``user_id`` in a body is overwritten
with the key's user (so it can never reach another user's memories) and one in a query string
that names a different user is refused with 403. ``/api/health`` stays open.

The routes declare what they need (``CallerKey``, ``ListUser``, ``DetailUser``) and FastAPI runs
the check before the route, so the service below only ever sees a plain user id. The key table
lives on the app (``app.state.api_keys``), set by ``create_app``.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Annotated

from fastapi import Depends, Request

from .problems import BadRequest, HttpProblem
from .validation import field_error


class AuthError(HttpProblem):
    """401 (missing/unknown key) or 403 (a query names another user)."""

    status = 401
    code = "unauthorized"


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

    def user_for(self, *, authorization: str | None, api_key: str | None) -> str | None:
        """The key's user; None when auth is off. Raises AuthError(401) for a bad/missing key.

        ``authorization`` is the ``Authorization`` header (``Bearer <key>``), ``api_key`` the
        ``API_KEY`` header; the first one that carries a key is used.
        """
        if not self.enabled:
            return None
        presented = None
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() == "bearer" and value.strip():
                presented = value.strip()
        if presented is None and api_key and api_key.strip():
            presented = api_key.strip()
        if not presented:
            raise AuthError("An API key is required: send 'Authorization: Bearer <key>' or an 'API_KEY' header.")
        candidate = presented.encode("utf-8")
        found = None
        for key, user in self._pairs:  # compare against every key: timing does not leak which one
            if hmac.compare_digest(key, candidate):
                found = user
        if found is None:
            raise AuthError("The API key is not valid.")
        return found


# -- the dependencies the routes declare -------------------------------------------------------

async def caller_key(request: Request) -> str | None:
    """The user whose API key came with the request; None when keys are off (401 if bad/missing).

    Reads the two headers straight from the request rather than as declared ``Header`` parameters:
    the result is the same, and it skips per-request parameter validation on every call.
    """
    keys: ApiKeys = request.app.state.api_keys
    if not keys.enabled:
        return None
    headers = request.headers
    return keys.user_for(authorization=headers.get("authorization"), api_key=headers.get("api_key"))


CallerKey = Annotated[str | None, Depends(caller_key)]
"""The key's user, or None when keys are off."""


def body_user(key_user: str | None, claimed: str | None) -> str:
    """The user a body acts for: the key's, whatever the body claims; else the body's own ``user_id``.

    The body's model has already required ``user_id`` when keys are off (``NEEDS_USER_ID``).
    """
    user = key_user if key_user is not None else claimed
    if user is None:  # pragma: no cover - the request model rejects this first
        raise BadRequest("The user_id field is required.")
    return user


def _query_user(key_user: str | None, claimed: str | None) -> str | None:
    claimed = claimed if claimed and claimed.strip() else None
    if key_user is None:
        return claimed
    if claimed is not None and claimed != key_user:
        raise AuthError("The user_id in the query does not match the API key's user.", status=403, code="forbidden")
    return key_user


async def list_user(request: Request, key_user: CallerKey) -> str:
    """``GET /memories``: the user to list; a missing ``user_id`` is a field error (ValidationProblemDetails)."""
    user = _query_user(key_user, request.query_params.get("user_id"))
    if user is None:
        raise field_error("query", ("user_id",), "is required", "missing")
    return user


async def detail_user(request: Request, key_user: CallerKey) -> str:
    """``GET /memories/{id}``: as ``list_user``, but the contract answers this 400 with an ErrorResponse."""
    user = _query_user(key_user, request.query_params.get("user_id"))
    if user is None:
        raise BadRequest("The user_id query parameter is required.")
    return user


ListUser = Annotated[str, Depends(list_user)]
DetailUser = Annotated[str, Depends(detail_user)]
