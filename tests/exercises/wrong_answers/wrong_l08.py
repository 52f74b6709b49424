"""Wrong answers to 08.text_vs_hybrid, written from the exercise text only (issue 21, item 1).

Each returns {"text": [...], "hybrid": [...]} that looks right for the lesson's example (Sam ships on
Fridays; "Which day of the week do I release my code?"). Each breaks one rule: a provider per mode for
`server_url` and `user_id` with that `search_mode`, the question run in a new session, and the memory
lines ("- ...") *that provider injected* collected.
"""

from __future__ import annotations

from agent_framework import Agent
from cortadel import SearchOptions

from lesson_utils import CortadelContextProvider
from lesson_utils.models import RequestRecorder

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
