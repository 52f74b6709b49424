"""What each request of Cortadel's contract may carry: one pydantic model per body or query.

The contract's rules (required fields, types, lengths, ranges, roles) are written here as types,
once, and FastAPI applies them before a route runs, so a rejected request never reaches the store.
Three choices make the models behave like the real (ASP.NET Core) server rather than like pydantic's
defaults:

* **Strict JSON types.** ``"yes"`` is not ``true`` and ``2.5`` is not an integer; a ``null`` for an
  optional setting means "use the default", as it did before.
* **Lengths in UTF-16 code units** (:func:`lesson_utils.cortadel_contract.utf16_len`): an emoji is
  two, so the local server rejects exactly what the .NET server rejects.
* **``user_id`` is required only when API keys are off.** With keys on, the key decides the user
  (``auth.py``); the route tells the model which case it is through the validation context
  (``NEEDS_USER_ID``), so a missing ``user_id`` is reported together with every other problem.

Each rule's failure phrase sits next to the rule ("must be between 1 and 50 (got 99)");
``validation.py`` turns failures into the contract's ``ValidationProblemDetails`` body.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator

from lesson_utils.cortadel_contract import (
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES_PER_CALL,
    MAX_QUERY_CHARS,
    MAX_ROLE_CHARS,
    MAX_TEXT_CHARS,
    MAX_TOKEN_BUDGET,
    MAX_TOP_K,
    ROLES,
    utf16_len,
)
from .search import MODES

NEEDS_USER_ID = "needs_user_id"
"""Validation-context key: True (the default) when the body must name its user (no API keys)."""

# The local server's own caps where the contract sets none: generous, but a request stays bounded.
MAX_APP_CHARS = 200
MAX_SCOPE_CHARS = 500  # project, session_id
MAX_PATH_CHARS = 4096  # transcript_path
MAX_TAGS = 100
MAX_DELETE_IDS = 10_000
MAX_PAGE = 1_000_000
MAX_PAGE_SIZE = 100


# -- reusable rules -------------------------------------------------------------------------------

def _chars(*, max_units: int | None = None, required: bool = True, blank_ok: bool = False) -> AfterValidator:
    """A string of at most ``max_units`` UTF-16 units; empty (or blank, unless ``blank_ok``) only if not required."""

    def check(value: str) -> str:
        if required and not value:
            raise ValueError("must not be empty" if blank_ok else "must not be empty or blank")
        if required and not blank_ok and not value.strip():
            raise ValueError("must not be empty or blank")
        if max_units is not None and (units := utf16_len(value)) > max_units:
            raise ValueError(f"must be at most {max_units} characters (UTF-16 code units; got {units})")
        return value

    return AfterValidator(check)


def _between(lo: int, hi: int) -> AfterValidator:
    def check(value: int) -> int:
        if not lo <= value <= hi:
            raise ValueError(f"must be between {lo} and {hi} (got {value})")
        return value

    return AfterValidator(check)


def _null_is(default: Any) -> BeforeValidator:
    """``null`` (or an empty query value) means the default, as it does on the real server."""
    return BeforeValidator(lambda value: default if value is None or value == "" else value)


def _string_list(*, min_items: int = 0, max_items: int) -> BeforeValidator:
    """Checks the item count before the items (a 10 000-item list of junk is one error, not 10 000),
    and that every item is a non-empty string, reported once for the whole field."""

    def check(value: Any) -> Any:
        if not isinstance(value, list):
            return value  # the list type reports "must be an array"
        if len(value) < min_items:
            raise ValueError(f"must contain at least {min_items} item(s)")
        if len(value) > max_items:
            raise ValueError(f"must contain at most {max_items} items (got {len(value)})")
        bad = [i for i, item in enumerate(value) if not isinstance(item, str) or not item.strip()]
        if bad:
            raise ValueError(f"must contain only non-empty strings (bad index {bad[0]})")
        return value

    return BeforeValidator(check)


def _one_of(allowed: tuple[str, ...], *, default: str) -> BeforeValidator:
    """A case-insensitive choice; null or blank means ``default``."""

    def check(value: Any) -> Any:
        if value is None:
            return default
        if not isinstance(value, str):
            return value  # the str type reports the wrong type
        choice = value.strip().lower()
        if not choice:
            return default
        if choice not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)} (got {value!r})")
        return choice

    return BeforeValidator(check)


def _rerank(value: Any) -> Any:
    """``cross_encoder`` reranks; null, empty or ``none`` skip it (the contract: "null/empty to skip")."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    if isinstance(value, str) and value.strip().lower() == "cross_encoder":
        return "cross_encoder"
    if isinstance(value, str):
        raise ValueError(f"must be 'cross_encoder' or empty (got {value!r})")
    return value


def _flag(value: Any) -> Any:
    """A query-string boolean: ``true``/``false`` (or 1/0), anything else is an error."""
    raw = (value or "").strip().lower() if isinstance(value, str) or value is None else value
    if raw in ("", "false", "0"):
        return False
    if raw in ("true", "1"):
        return True
    raise ValueError(f'must be "true" or "false" (got {value!r})')


def _iso_datetime(value: Any) -> Any:
    """An ISO 8601 date or time; one without a zone is UTC."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        return value
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"must be an ISO 8601 date or time (got {value!r})") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


Text = Annotated[str, _chars()]
"""A required, non-blank string with no length cap (``user_id``)."""


# -- the request bodies --------------------------------------------------------------------------

class _Body(BaseModel):
    """Every request body: strict JSON types; members the contract does not name are ignored."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class _UserBody(_Body):
    """A body that names the user it acts for (unless an API key does, see ``NEEDS_USER_ID``)."""

    user_id: Text | None = Field(default=None, validate_default=True)

    @field_validator("user_id")
    @classmethod
    def _required_without_keys(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and (info.context or {}).get(NEEDS_USER_ID, True):
            raise ValueError("is required")
        return value


class CreateMemoryRequest(_UserBody):
    """``POST /api/v1/memories``: one memory, stored as given (``infer`` adds categories and update checks)."""

    text: Annotated[str, _chars(max_units=MAX_TEXT_CHARS)]
    infer: Annotated[bool, _null_is(True)] = True
    memory_type: str | None = None
    metadata: dict[str, Any] | None = None
    app: Annotated[str, _chars(max_units=MAX_APP_CHARS, required=False)] | None = None


class SearchMemoriesRequest(_UserBody):
    """``POST /api/v1/memories/search``."""

    query: Annotated[str, _chars(max_units=MAX_QUERY_CHARS)]
    top_k: Annotated[int, _null_is(10), _between(1, MAX_TOP_K)] = 10
    mode: Annotated[str, _one_of(MODES, default="hybrid")] = "hybrid"
    rerank: Annotated[Literal["cross_encoder"] | None, BeforeValidator(_rerank)] = None
    session_id: str | None = None
    memory_type: str | None = None
    token_budget: Annotated[int, _null_is(0), _between(0, MAX_TOKEN_BUDGET)] = 0
    app_name: str | None = None
    # Accepted and type-checked; the local server has nothing for them to change.
    expand_query: Annotated[bool, _null_is(False)] = False
    include_faded: Annotated[bool, _null_is(False)] = False
    include_session_arm: Annotated[bool, _null_is(False)] = False


class ConversationMessageItem(_Body):
    """One turn of ``from-conversation``: a role, its text, and the producer's turn uuid."""

    role: Annotated[str, _chars(max_units=MAX_ROLE_CHARS), AfterValidator(_role)]
    content: Annotated[str, _chars(max_units=MAX_MESSAGE_CHARS, blank_ok=True)]
    uuid: str | None = None


def _role(value: str) -> str:
    role = value.strip().lower()
    if role not in ROLES:
        raise ValueError(f"must be one of {', '.join(ROLES)} (got {value!r})")
    return role


def _message_count(value: Any) -> Any:
    if isinstance(value, list) and not 1 <= len(value) <= MAX_MESSAGES_PER_CALL:
        raise ValueError(f"must contain between 1 and {MAX_MESSAGES_PER_CALL} items (got {len(value)})")
    return value


class AddConversationRequest(_UserBody):
    """``POST /api/v1/memories/from-conversation``: turns to distil into facts."""

    messages: Annotated[list[ConversationMessageItem], BeforeValidator(_message_count)]
    is_agent_memory: Annotated[bool, _null_is(False)] = False
    tags: Annotated[list[str], _string_list(max_items=MAX_TAGS)] | None = None
    project: Annotated[str, _chars(max_units=MAX_SCOPE_CHARS, required=False)] | None = None
    session_id: Annotated[str, _chars(max_units=MAX_SCOPE_CHARS, required=False)] | None = None
    transcript_path: Annotated[str, _chars(max_units=MAX_PATH_CHARS, required=False)] | None = None


class DeleteMemoriesRequest(_UserBody):
    """``DELETE /api/v1/memories``."""

    memory_ids: Annotated[list[str], _string_list(min_items=1, max_items=MAX_DELETE_IDS)]


# -- the list query ------------------------------------------------------------------------------

class ListMemoriesQuery(BaseModel):
    """``GET /api/v1/memories``'s query string (``user_id`` is the caller's identity: ``auth.py``).

    Query values arrive as strings, so this model converts ("2" is a page number); an empty value
    means the default, as it does on the real server.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    page: Annotated[int, _null_is(1), _between(1, MAX_PAGE)] = 1
    size: Annotated[int, _null_is(10), _between(1, MAX_PAGE_SIZE)] = 10
    search_query: Annotated[str, _chars(max_units=MAX_QUERY_CHARS, required=False)] | None = None
    include_superseded: Annotated[bool, BeforeValidator(_flag)] = False
    as_of: Annotated[datetime | None, BeforeValidator(_iso_datetime)] = None
    memory_type: str | None = None
    app_id: Annotated[str | None, _null_is(None)] = None
    categories: str | None = None

    @property
    def category_list(self) -> list[str]:
        """``categories`` is one comma-separated string on the wire."""
        return [c.strip() for c in (self.categories or "").split(",") if c.strip()]

