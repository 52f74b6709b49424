"""Lesson 08's check helpers: each fails where the claim it names is false."""

from __future__ import annotations

from lesson_utils.checks.l08_cortadel_provider import block_lines, error_message
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


def test_block_lines_counts_what_the_model_reads() -> None:
    assert block_lines("## Memories\n- one\n- two") == ["## Memories", "- one", "- two"]
    assert block_lines("## Memories\n- one\n## Instructions") != ["## Memories", "- one"]
    assert block_lines(None) == [] and block_lines("") == []
