"""Wrong answers to 05.resume_from_json, written from the exercise text only (issue 21, item 1).

Each pair (save, resume) continues the lesson's chat when tried in the same kernel. Each breaks one rule:
the whole session to `path` with json.dump; in a new process, the lesson's agent (get_chat_client plus
UserMemoryProvider), the session loaded from `path`, the message run, the continued session written back
to `path`, the reply's text returned. Every `resume` imports what it needs itself, as it must to run in a
fresh interpreter.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import json


def save(session, path):
    """A correct save, shared by the answers whose mistake is in `resume`."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)


async def resume_without_write_back(path, message):
    """Loads, runs and answers, but never writes the continued session back to `path`."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    return (await agent.run(message, session=session)).text


async def resume_writes_loaded_dict(path, message):
    """Writes back the dict it loaded, not the continued session: the new turn is lost."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    session = AgentSession.from_dict(data)
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return reply.text


async def resume_without_memory_provider(path, message):
    """Builds the agent without UserMemoryProvider: the history comes back, the memory is never told."""
    import json

    from agent_framework import Agent, AgentSession

    from chat_models import get_chat_client

    agent = Agent(client=get_chat_client(), instructions="You are a friendly assistant.")
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


async def resume_into_new_session(path, message):
    """Copies the loaded state into a brand-new session: the conversation gets a new session_id."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        loaded = AgentSession.from_dict(json.load(f))
    session = agent.create_session()
    session.state.update(loaded.state)
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


_SAVED: dict = {}


def save_and_keep(session, path):
    """Writes the file, and also keeps the session object in a module-level dict "to save a read"."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    _SAVED[str(path)] = session


async def resume_from_module_cache(path, message):
    """Continues the session object kept in this process's memory: a new process has none."""
    import json

    from agent_framework import Agent

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    session = _SAVED[str(path)]
    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


def save_state_only(session, path):
    """Writes only the session's state, not the whole session (no session_id)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict()["state"], f)


async def resume_state_only(path, message):
    """Rebuilds a session from the state alone, under a made-up session id."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        state = json.load(f)
    session = AgentSession.from_dict({"type": "session", "session_id": "resumed", "state": state})
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict()["state"], f)
    return reply.text


async def resume_returns_response(path, message):
    """Does everything right but returns the response object, not the reply's text."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply


WRONG = [
    ("05.resume_from_json", (save, resume_without_write_back), "never writes the continued session back"),
    ("05.resume_from_json", (save, resume_writes_loaded_dict), "writes back the loaded dict, not the new session"),
    ("05.resume_from_json", (save, resume_without_memory_provider), "agent built without UserMemoryProvider"),
    ("05.resume_from_json", (save, resume_into_new_session), "state copied into a new session (new id)"),
    (
        "05.resume_from_json",
        (save_and_keep, resume_from_module_cache),
        "session kept in a module dict, not read from the file",
    ),
    ("05.resume_from_json", (save_state_only, resume_state_only), "saves state only; session id made up"),
    ("05.resume_from_json", (save, resume_returns_response), "returns the response, not its text"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


async def resume_runs_lesson_follow_up(path, message):
    """Ignores `message`: continues the chat with the lesson's follow-up about the joke."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    follow_up = "Now add some emojis to the joke and tell it in a parrot's voice."
    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    reply = await agent.run(follow_up, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


def save_last_two_turns(session, path):
    """Writes to_dict(), but keeps only the last 4 history messages ("two turns", as the lesson's file had)."""
    data = session.to_dict()
    history = data.get("state", {}).get("in_memory", {})
    if isinstance(history.get("messages"), list):
        history["messages"] = history["messages"][-4:]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)


async def resume_transcript_slot_only(path, message):
    """Loads the session but keeps only the transcript slot ("in_memory"), where the lesson's Priya said her name."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data["state"] = {key: value for key, value in data.get("state", {}).items() if key == "in_memory"}
    session = AgentSession.from_dict(data)
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


async def resume_correct(path, message):
    """A correct resume, paired with the save whose mistake is being tried."""
    import json

    from agent_framework import Agent, AgentSession

    from lesson_utils import UserMemoryProvider
    from chat_models import get_chat_client

    agent = Agent(
        client=get_chat_client(), instructions="You are a friendly assistant.", context_providers=[UserMemoryProvider()]
    )
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    reply = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)
    return reply.text


NEW_FROM_TEXT = [
    ("05.resume_from_json", (save, resume_runs_lesson_follow_up), "ignores `message`: runs the lesson's follow-up"),
    (
        "05.resume_from_json",
        (save_last_two_turns, resume_correct),
        "save keeps only the last 4 messages (the lesson's count)",
    ),
    (
        "05.resume_from_json",
        (save, resume_transcript_slot_only),
        "resume keeps only the transcript slot (lesson: name in transcript)",
    ),
]
WRONG += NEW_FROM_TEXT
