"""Wrong answers to 01.send_history, written from the exercise text only (issue 21, item 1).

Each one sends the lesson's joke and its follow-up well enough to look right on the lesson's own
example, and each breaks one rule of the task: turn 1's question, turn 1's reply and the new
message, each once, in order, with no session, and turn 2's response returned.

The answers after ``WRONG`` (``NEW_FROM_TEXT``) were added later by another writer, again from the
exercise text and the lesson only, without reading the checks or their tests: a boundary, an input
ignored in favour of the lesson's example, the lesson's own phrasing only, a literal typed in from the
lesson, state shared through a mutable default.
"""

from __future__ import annotations

from agent_framework import Message

LESSON_QUESTION = "Tell me a joke about a pirate."


async def hardcoded_first_question(agent, first, second):
    """Hard-codes the lesson's turn-1 question in the history instead of sending `first`."""
    turn1 = await agent.run(first)
    history = [
        Message(role="user", contents=[LESSON_QUESTION]),
        *turn1.messages,
        Message(role="user", contents=[second]),
    ]
    return await agent.run(history)


async def omits_first_question(agent, first, second):
    """Sends turn 1's reply and the new message, but not turn 1's question."""
    turn1 = await agent.run(first)
    return await agent.run([*turn1.messages, Message(role="user", contents=[second])])


async def one_big_string(agent, first, second):
    """Pastes question, reply and follow-up into one user message instead of a list of messages."""
    turn1 = await agent.run(first)
    return await agent.run(f"{first}\n{turn1.text}\n{second}")


async def reply_sent_as_user(agent, first, second):
    """Sends turn 1's reply back as a *user* message (the only constructor the task showed)."""
    turn1 = await agent.run(first)
    return await agent.run(
        [
            Message(role="user", contents=[first]),
            Message(role="user", contents=[turn1.text]),
            Message(role="user", contents=[second]),
        ]
    )


async def uses_a_session(agent, first, second):
    """Uses a session after all: the framework sends the history, not the learner (the task says no session)."""
    session = agent.create_session()
    await agent.run(first, session=session)
    return await agent.run(second, session=session)


_HISTORY: list[Message] = []


async def module_level_history(agent, first, second):
    """Keeps the history in a module-level list, so every call also sends the earlier calls' turns."""
    _HISTORY.append(Message(role="user", contents=[first]))
    turn1 = await agent.run(list(_HISTORY))
    _HISTORY.extend(turn1.messages)
    _HISTORY.append(Message(role="user", contents=[second]))
    turn2 = await agent.run(list(_HISTORY))
    _HISTORY.extend(turn2.messages)
    return turn2


async def returns_text(agent, first, second):
    """Does the history right but returns turn 2's text, not its response."""
    turn1 = await agent.run(first)
    history = [Message(role="user", contents=[first]), *turn1.messages, Message(role="user", contents=[second])]
    return (await agent.run(history)).text


async def question_sent_twice(agent, first, second):
    """Sends turn 1's question twice: once by itself and once again inside the history list."""
    turn1 = await agent.run(first)
    history = [Message(role="user", contents=[first]), Message(role="user", contents=[first]), *turn1.messages]
    return await agent.run([*history, Message(role="user", contents=[second])])


# Not a mistake after all: the check deliberately accepts turn 2's text as well as its response
# (tests/exercises/test_l01_stateless.py::test_returning_the_text_instead_of_the_response_also_passes).
NOT_WRONG = [("01.send_history", returns_text, "returns text, not the response")]

WRONG = [
    ("01.send_history", hardcoded_first_question, "hard-codes the lesson's pirate question"),
    ("01.send_history", omits_first_question, "omits turn 1's question"),
    ("01.send_history", one_big_string, "history pasted into one user string"),
    ("01.send_history", reply_sent_as_user, "turn 1's reply sent with role user"),
    ("01.send_history", uses_a_session, "uses a session instead of sending the history"),
    ("01.send_history", module_level_history, "history kept in a module-level list"),
    ("01.send_history", question_sent_twice, "turn 1's question sent twice"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read): one per kind of mistake.

LESSON_FOLLOW_UP = "Now add some emojis to the joke and tell it in a parrot's voice."
LESSON_JOKE = "Why couldn't the pirate play cards? Because he was sitting on the deck!"  # a pirate joke, typed in


async def lesson_follow_up_hardcoded(agent, first, second):
    """Ignores `second`: turn 2 always sends the lesson's emoji/parrot follow-up."""
    turn1 = await agent.run(first)
    history = [
        Message(role="user", contents=[first]),
        *turn1.messages,
        Message(role="user", contents=[LESSON_FOLLOW_UP]),
    ]
    return await agent.run(history)


async def history_only_when_it_says_the_joke(agent, first, second):
    """Sends the history only when the follow-up refers back the lesson's way ("the joke", "it"); else `second` alone."""
    turn1 = await agent.run(first)
    lowered = f" {second.lower()} "
    if "the joke" in lowered or " it " in lowered:
        history = [Message(role="user", contents=[first]), *turn1.messages, Message(role="user", contents=[second])]
        return await agent.run(history)
    return await agent.run(second)


async def typed_in_reply(agent, first, second):
    """Runs turn 1, but sends the lesson's joke (typed in) as turn 1's reply instead of what turn 1 returned."""
    await agent.run(first)
    history = [
        Message(role="user", contents=[first]),
        Message(role="assistant", contents=[LESSON_JOKE]),
        Message(role="user", contents=[second]),
    ]
    return await agent.run(history)


async def history_default_list(agent, first, second, history=[]):  # noqa: B006 - the mistake itself
    """Builds the history in a mutable default argument: every call also sends all earlier calls' turns."""
    history.append(Message(role="user", contents=[first]))
    turn1 = await agent.run(list(history))
    history.extend(turn1.messages)
    history.append(Message(role="user", contents=[second]))
    turn2 = await agent.run(list(history))
    history.extend(turn2.messages)
    return turn2


NEW_FROM_TEXT = [
    ("01.send_history", lesson_follow_up_hardcoded, "ignores `second`: the lesson's follow-up hard-coded"),
    (
        "01.send_history",
        history_only_when_it_says_the_joke,
        "history sent only for the lesson's phrasing ('the joke', 'it')",
    ),
    ("01.send_history", typed_in_reply, "turn 1's reply typed in from the lesson, not what turn 1 returned"),
    ("01.send_history", history_default_list, "history in a mutable default argument (shared between calls)"),
]
WRONG += NEW_FROM_TEXT
