"""A failed turn is not stored: how a failure reaches after_run in this framework, and what the provider does.

The framework does not call ``after_run`` when the model call raises; the only way a failed turn
reaches ``after_run`` is as a response that carries the framework's error content — a chat
middleware that answered for a model that could not.
"""

from __future__ import annotations

import pytest
from agent_framework import Agent, AgentResponse, ChatMiddlewareLayer, ChatResponse, Content, Message, chat_middleware

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.guards import turn_failed


@pytest.fixture
def chat(fakes):
    """The stub model, with the framework's chat-middleware layer so a fallback can wrap it."""
    return type("ChatWithMiddleware", (ChatMiddlewareLayer, fakes.Chat), {})()


def agent_with(chat, provider, **kwargs) -> Agent:
    return Agent(client=chat, instructions="You are helpful.", context_providers=[provider], **kwargs)


@chat_middleware
async def answer_for_a_failed_model(context, call_next):
    """A fallback: turn a model error into an apology plus the framework's error content."""
    try:
        await call_next()
    except Exception as error:  # the point of a fallback
        context.result = ChatResponse(
            messages=[Message("assistant", ["Sorry, I can't answer right now.", Content.from_error(message=str(error))])]
        )


async def test_a_model_call_that_raises_never_reaches_after_run(memory, chat):
    chat.fail = RuntimeError("model down")
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    with pytest.raises(RuntimeError, match="model down"):
        await agent.run("I moved to Oslo.", session=agent.create_session())
    assert memory.conversations == []


async def test_a_fallback_answer_with_error_content_is_not_stored(memory, chat):
    chat.fail = RuntimeError("model down")
    agent = agent_with(chat, CortadelContextProvider(client=memory), middleware=[answer_for_a_failed_model])
    reply = await agent.run("I moved to Oslo.", session=agent.create_session())
    assert reply.text == "Sorry, I can't answer right now."  # the user was answered ...
    assert memory.conversations == []  # ... and the failed turn was not filed away


async def test_the_same_agent_stores_the_turn_once_the_model_answers(memory, chat):
    agent = agent_with(chat, CortadelContextProvider(client=memory), middleware=[answer_for_a_failed_model])
    await agent.run("I moved to Oslo.", session=agent.create_session())
    [(messages, _)] = memory.conversations
    assert [m.content for m in messages] == ["I moved to Oslo.", "echo: I moved to Oslo."]


def test_turn_failed_reads_only_error_content():
    assert turn_failed(None) is True
    assert turn_failed(AgentResponse(messages=[Message("assistant", ["fine"])])) is False
    assert turn_failed(AgentResponse(messages=[Message("assistant", [Content.from_error(message="x")])])) is True
    assert turn_failed(AgentResponse(messages=[])) is False  # an empty answer is not an error
