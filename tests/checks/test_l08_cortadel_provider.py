"""Lesson 08's check helpers: each fails where the claim it names is false."""

from __future__ import annotations

from cortadel import SearchHit

from course_kit.lessons.l08_cortadel_provider.checks import error_message, first_hit
from lesson_utils.cortadel import CortadelContextProvider


def test_error_message_is_the_refusal_or_none() -> None:
    def refuse() -> None:
        raise ValueError("needs a user")

    assert error_message(refuse) == "needs a user"
    assert error_message(lambda: 42) is None


def test_the_provider_built_with_neither_server_nor_client_refuses_in_one_line_naming_the_fix() -> None:
    message = error_message(CortadelContextProvider)
    assert message is not None and "\n" not in message
    assert "base_url and user_id" in message and "client=" in message


def test_first_hit_is_the_first_that_mentions_the_word() -> None:
    hits = [SearchHit(id="m1", content="Alex lives in Oslo."), SearchHit(id="m2", content="Alex ships on Fridays."),
            SearchHit(id="m3", content="Friday is release day.")]
    assert first_hit(hits, "friday").id == "m2"
    assert first_hit(hits, "Monday") is None
    assert first_hit([], "Friday") is None
