"""The shared check helpers: each one fails where the claim it names is false."""

from __future__ import annotations

import socket
from urllib.parse import urlparse

from agent_framework import Message

from course_kit.checks.addresses import nobody_listening
from course_kit.checks.requests import injected_lines, injected_texts


class _Request:
    def __init__(self, *messages: Message) -> None:
        self.messages = list(messages)


def _stamped(text: str, source_id: str) -> Message:
    return Message(role="user", contents=[text], additional_properties={"_attribution": {"source_id": source_id}})


def test_injected_texts_are_only_the_stamped_messages_of_the_named_source() -> None:
    request = _Request(
        Message(role="user", contents=["- typed by the user, not injected"]),
        _stamped("Memories:\n- Alex ships on Fridays.", "cortadel"),
        _stamped("- a note", "notes"),
    )
    assert injected_texts(request) == ["Memories:\n- Alex ships on Fridays.", "- a note"]
    assert injected_texts(request, "cortadel") == ["Memories:\n- Alex ships on Fridays."]
    assert injected_lines(request, "cortadel") == ["Alex ships on Fridays."]
    assert injected_texts(_Request(Message(role="user", contents=["hi"]))) == []


def test_nobody_listening_refuses_connections() -> None:
    url = urlparse(nobody_listening())
    with socket.socket() as sock:
        sock.settimeout(2)
        assert sock.connect_ex((url.hostname, url.port)) != 0
