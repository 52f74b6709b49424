"""The package's own errors: one base, one rendering rule, and the builtin kind each one keeps."""

from __future__ import annotations

import pytest

from lesson_utils import LessonError
from lesson_utils.cortadel import create_search_memory_tool
from lesson_utils.cortadel.server_choice import MemoryServerUnreachable
from lesson_utils.cortadel.user_keys import UserKeyMissing
from chat_models import ModelConfigurationError
from lesson_utils.persistence import (
    ConversationBusyError,
    SessionFormatError,
    SessionNotFoundError,
    StaleSessionError,
    session_to_json,
)
from lesson_utils.scaling.redis_server import RedisUnavailableError

# Each error, built as the package builds it, and the builtin kind callers may still catch.
ERRORS = [
    (ModelConfigurationError("set OPENAI_API_KEY", variable="OPENAI_API_KEY"), RuntimeError),
    (MemoryServerUnreachable("start that server"), RuntimeError),
    (UserKeyMissing("set CORTADEL_API_KEY_ALEX"), RuntimeError),
    (SessionFormatError("notes.json", "it is empty"), ValueError),
    (SessionNotFoundError("no session stored for 'c1'"), LookupError),
    (StaleSessionError("c1", 1, 2, "the store"), RuntimeError),
    (ConversationBusyError("another worker holds 'c1'"), TimeoutError),
    (RedisUnavailableError("no Redis server answers"), ConnectionError),
]


@pytest.mark.parametrize(("error", "kind"), ERRORS, ids=lambda e: type(e).__name__)
def test_every_lesson_error_is_one_line_in_a_notebook(error: LessonError, kind: type[Exception]) -> None:
    assert isinstance(error, LessonError) and isinstance(error, kind)
    assert error._render_traceback_() == [f"{type(error).__name__}: {error}"]


def test_the_rendering_rule_lives_in_one_place() -> None:
    """No subclass re-implements it: changing the base changes every error."""
    def subclasses(cls: type) -> list[type]:
        return [cls, *(s for sub in cls.__subclasses__() for s in subclasses(sub))]

    overriding = [c.__name__ for c in subclasses(LessonError)[1:] if "_render_traceback_" in vars(c)]
    assert overriding == []


def test_a_wrong_kind_of_object_is_a_type_error_and_a_bad_value_is_a_value_error() -> None:
    with pytest.raises(TypeError, match="AgentSession"):
        session_to_json({"not": "a session"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="MemoryClient"):
        create_search_memory_tool(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="top_k"):
        create_search_memory_tool(_AnyMemoryClient(), top_k="5")  # type: ignore[arg-type]


class _AnyMemoryClient:
    async def search(self, *args: object, **kwargs: object) -> None: ...
    async def add(self, *args: object, **kwargs: object) -> None: ...
    async def add_conversation(self, *args: object, **kwargs: object) -> None: ...
