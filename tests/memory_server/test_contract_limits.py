"""The server counts the contract's limits in UTF-16 code units, as the real (.NET) server does.

An emoji is one Python character but two UTF-16 units. Texts made of emoji sit exactly on a limit
in UTF-16 while being far under it by ``len()``: a server counting ``len()`` would accept the
one-unit-over request that the real server rejects.
"""

from __future__ import annotations

import httpx
import pytest
from cortadel import ChatMessage

from lesson_utils.cortadel.limits import fit_messages, split_text
from lesson_utils.cortadel_contract import MAX_MESSAGE_CHARS, MAX_QUERY_CHARS, MAX_TEXT_CHARS, utf16_len
from local_memory_server import start_memory_server

EMOJI = "\N{GRINNING FACE}"  # outside the BMP: 2 UTF-16 code units


def exactly(units: int) -> str:
    """A text of exactly ``units`` UTF-16 code units, almost all emoji (``len`` is about half)."""
    text = EMOJI * (units // 2) + "a" * (units % 2)
    assert utf16_len(text) == units and len(text) < units
    return text


@pytest.fixture(scope="module")
def http(embedder):
    with start_memory_server(embedder=embedder) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def assert_rejected(response: httpx.Response, field: str, limit: int) -> None:
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["status"] == 400 and problem["title"] and list(problem["errors"]) == [field]
    assert f"at most {limit} characters" in problem["errors"][field][0], problem
    assert f"got {limit + 1}" in problem["errors"][field][0], problem


def test_utf16_len_counts_astral_characters_twice():
    assert (utf16_len("abc"), utf16_len(EMOJI), utf16_len("é" + EMOJI), utf16_len("\ud83d")) == (3, 2, 3, 1)


def test_a_message_of_exactly_the_limit_in_emoji_is_accepted_and_one_unit_more_is_rejected(http):
    at_limit = {"user_id": "limits", "messages": [{"role": "user", "content": exactly(MAX_MESSAGE_CHARS)}]}
    assert http.post("/api/v1/memories/from-conversation", json=at_limit).status_code == 200
    over = {"user_id": "limits", "messages": [{"role": "user", "content": exactly(MAX_MESSAGE_CHARS + 1)}]}
    assert_rejected(http.post("/api/v1/memories/from-conversation", json=over), "messages[0].content", MAX_MESSAGE_CHARS)


def test_a_memory_text_of_exactly_the_limit_in_emoji_is_accepted_and_one_unit_more_is_rejected(http):
    accepted = http.post("/api/v1/memories", json={"user_id": "limits", "text": exactly(MAX_TEXT_CHARS), "infer": False})
    assert accepted.status_code == 200, accepted.text
    over = http.post("/api/v1/memories", json={"user_id": "limits", "text": exactly(MAX_TEXT_CHARS + 1)})
    assert_rejected(over, "text", MAX_TEXT_CHARS)


def test_a_query_of_exactly_the_limit_in_emoji_is_accepted_and_one_unit_more_is_rejected(http):
    at_limit = http.post("/api/v1/memories/search", json={"user_id": "limits", "query": exactly(MAX_QUERY_CHARS)})
    assert at_limit.status_code == 200, at_limit.text
    over = http.post("/api/v1/memories/search", json={"user_id": "limits", "query": exactly(MAX_QUERY_CHARS + 1)})
    assert_rejected(over, "query", MAX_QUERY_CHARS)
    listed = http.get("/api/v1/memories", params={"user_id": "limits", "search_query": exactly(MAX_QUERY_CHARS + 1)})
    assert_rejected(listed, "search_query", MAX_QUERY_CHARS)


def test_the_client_splitters_pieces_are_accepted_by_the_server(http):
    """Round trip: what ``fit_messages`` sends for an over-long emoji turn, the server takes whole."""
    turn = ("I keep bees \N{HONEYBEE} and notes " + EMOJI * 40) * 1500  # ~ 2.5x the limit in UTF-16
    assert utf16_len(turn) > 2 * MAX_MESSAGE_CHARS
    pieces = fit_messages([ChatMessage(role="user", content=turn, uuid="turn-1")])
    assert len(pieces) >= 3 and "".join(p.content for p in pieces) == turn
    assert max(utf16_len(p.content) for p in pieces) <= MAX_MESSAGE_CHARS
    body = {"user_id": "splitter", "messages": [{"role": p.role, "content": p.content, "uuid": p.uuid} for p in pieces]}
    response = http.post("/api/v1/memories/from-conversation", json=body)
    assert response.status_code == 200, response.text[:500]
    # The limit is tight: the splitter's biggest possible piece sits exactly on it.
    tight = split_text(EMOJI * MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS)[0]
    assert utf16_len(tight) == MAX_MESSAGE_CHARS
    one = {"user_id": "splitter", "messages": [{"role": "user", "content": tight}]}
    assert http.post("/api/v1/memories/from-conversation", json=one).status_code == 200
