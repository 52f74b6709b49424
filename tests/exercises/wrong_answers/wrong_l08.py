"""Wrong answers to 08.text_vs_hybrid, written from the exercise text only (issue 21, item 1).

Each returns {"text": [...], "hybrid": [...]} that looks right for the lesson's example (Sam ships on
Fridays; "Which day of the week do I release my code?"). Each breaks one rule: a provider per mode for
`server_url` and `user_id` with that `search_mode`, the question run in a new session, and the memory
lines ("- ...") *that provider injected* collected.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

from agent_framework import Agent
from cortadel import SearchOptions

from lesson_utils import CortadelContextProvider
from chat_models import RequestRecorder

MODES = ("text", "hybrid")


def _lines(request, provider) -> list[str]:
    texts = [
        m.text
        for m in request.messages
        if (m.additional_properties or {}).get("_attribution", {}).get("source_id") == provider.source_id
    ]
    return [line for text in texts for line in text.splitlines() if line.startswith("- ")]


async def typed_in_example(server_url, user_id, question, chat_client):
    """Types in the example's outcome: keywords miss, hybrid finds "Sam ships on Fridays"."""
    return {"text": [], "hybrid": ["- Sam ships on Fridays"]}


async def example_user_hardcoded(server_url, user_id, question, chat_client):
    """Builds the providers for the example's user "sam", ignoring `user_id`."""
    found = {}
    for mode in MODES:
        recorder = RequestRecorder()
        async with CortadelContextProvider(server_url, "sam", search_mode=mode) as provider:
            agent = Agent(
                client=chat_client,
                instructions="You are a helpful assistant.",
                context_providers=[provider],
                middleware=[recorder],
            )
            await agent.run(question, session=agent.create_session())
            found[mode] = _lines(recorder.last_request, provider)
    return found


async def one_provider_for_both(server_url, user_id, question, chat_client):
    """Builds one provider (default mode) and uses it for both keys: the search_mode is never set."""
    found = {}
    async with CortadelContextProvider(server_url, user_id) as provider:
        for mode in MODES:
            recorder = RequestRecorder()
            agent = Agent(
                client=chat_client,
                instructions="You are a helpful assistant.",
                context_providers=[provider],
                middleware=[recorder],
            )
            await agent.run(question, session=agent.create_session())
            found[mode] = _lines(recorder.last_request, provider)
    return found


async def one_session_for_both(server_url, user_id, question, chat_client):
    """Runs both modes in one session: the second provider shares the first's slot and skips its ids."""
    found = {}
    session = None
    for mode in MODES:
        recorder = RequestRecorder()
        async with CortadelContextProvider(server_url, user_id, search_mode=mode) as provider:
            agent = Agent(
                client=chat_client,
                instructions="You are a helpful assistant.",
                context_providers=[provider],
                middleware=[recorder],
            )
            session = session or agent.create_session()
            await agent.run(question, session=session)
            found[mode] = _lines(recorder.last_request, provider)
    return found


async def raw_search_results(server_url, user_id, question, chat_client):
    """Searches each mode with the provider's client instead of running the agent: found, not injected."""
    found = {}
    for mode in MODES:
        async with CortadelContextProvider(server_url, user_id, search_mode=mode) as provider:
            hits = await provider.client.search(question, SearchOptions(top_k=5))
            found[mode] = [f"- {hit.content}" for hit in hits.results]
    return found


async def whole_message(server_url, user_id, question, chat_client):
    """Collects the injected messages whole (header and all) instead of their "- " lines."""
    found = {}
    for mode in MODES:
        recorder = RequestRecorder()
        async with CortadelContextProvider(server_url, user_id, search_mode=mode) as provider:
            agent = Agent(
                client=chat_client,
                instructions="You are a helpful assistant.",
                context_providers=[provider],
                middleware=[recorder],
            )
            await agent.run(question, session=agent.create_session())
            found[mode] = [
                m.text for m in recorder.last_request.messages if (m.additional_properties or {}).get("_attribution")
            ]
    return found


async def lines_from_every_message(server_url, user_id, question, chat_client):
    """Takes every "- " line of every message sent, not only the lines that provider injected."""
    found = {}
    for mode in MODES:
        recorder = RequestRecorder()
        async with CortadelContextProvider(server_url, user_id, search_mode=mode) as provider:
            agent = Agent(
                client=chat_client,
                instructions="You are a helpful assistant.",
                context_providers=[provider],
                middleware=[recorder],
            )
            await agent.run(question, session=agent.create_session())
            found[mode] = [
                line
                for m in recorder.last_request.messages
                for line in (m.text or "").splitlines()
                if line.startswith("- ")
            ]
    return found


WRONG = [
    ("08.text_vs_hybrid", typed_in_example, "types in the example's outcome"),
    ("08.text_vs_hybrid", example_user_hardcoded, 'ignores user_id: example user "sam"'),
    ("08.text_vs_hybrid", one_provider_for_both, "one provider for both modes (mode never set)"),
    ("08.text_vs_hybrid", one_session_for_both, "one session for both modes"),
    ("08.text_vs_hybrid", raw_search_results, "raw search results, not what was injected"),
    ("08.text_vs_hybrid", whole_message, "whole injected message, not its lines"),
    ("08.text_vs_hybrid", lines_from_every_message, '"- " lines of every message, any source'),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).

LESSON_QUESTION = "When do I usually ship?"


async def _recall(server_url, user_id, question, chat_client, mode, pick_lines):
    recorder = RequestRecorder()
    async with CortadelContextProvider(server_url, user_id, search_mode=mode) as provider:
        agent = Agent(
            client=chat_client,
            instructions="You are a helpful assistant.",
            context_providers=[provider],
            middleware=[recorder],
        )
        await agent.run(question, session=agent.create_session())
        return pick_lines(recorder.last_request, provider)


async def asks_the_lesson_question(server_url, user_id, question, chat_client):
    """Ignores `question`: asks the lesson's "When do I usually ship?" in both modes."""
    return {mode: await _recall(server_url, user_id, LESSON_QUESTION, chat_client, mode, _lines) for mode in MODES}


def _lines_under_lesson_header(request, provider) -> list[str]:
    """The lines of the message that starts with the lesson's header "## Memories" and a line break."""
    texts = [m.text or "" for m in request.messages]
    block = next((text for text in texts if text.startswith("## Memories\n")), "")
    return [line for line in block.splitlines() if line.startswith("- ")]


async def lesson_header_only(server_url, user_id, question, chat_client):
    """Finds the injected block by lesson 08's render() header, "## Memories" alone on its line."""
    return {
        mode: await _recall(server_url, user_id, question, chat_client, mode, _lines_under_lesson_header)
        for mode in MODES
    }


def _top_line(request, provider) -> list[str]:
    return _lines(request, provider)[:1]


async def top_hit_only(server_url, user_id, question, chat_client):
    """Collects only the first memory line of each mode (the top hit), not every line the provider injected."""
    return {mode: await _recall(server_url, user_id, question, chat_client, mode, _top_line) for mode in MODES}


async def accumulates_in_default(server_url, user_id, question, chat_client, found={"text": [], "hybrid": []}):  # noqa: B006
    """Collects the lines into a mutable default dict: each call returns every earlier call's lines as well."""
    for mode in MODES:
        found[mode].extend(await _recall(server_url, user_id, question, chat_client, mode, _lines))
    return found


NEW_FROM_TEXT = [
    ("08.text_vs_hybrid", asks_the_lesson_question, "ignores `question`: asks the lesson's shipping question"),
    ("08.text_vs_hybrid", lesson_header_only, 'injected block found by the lesson header "## Memories\\n" only'),
    ("08.text_vs_hybrid", top_hit_only, "only the first memory line per mode (count boundary)"),
    ("08.text_vs_hybrid", accumulates_in_default, "lines accumulated in a mutable default dict across calls"),
]
WRONG += NEW_FROM_TEXT
