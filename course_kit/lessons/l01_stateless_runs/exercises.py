"""Lesson 01's exercise: make turn 2 work without a session, by sending the history yourself.

An agent without a session sends the model only what ``agent.run`` is given. So the learner's
function must hand turn 2 the whole conversation: turn 1's question, turn 1's reply, then the new
message — each exactly once, in that order. The checker runs it through a real ``Agent`` on the
offline lesson model and compares what the model was sent on each call with what it should be.

The questions are drawn per run (:mod:`._cases`), never the lesson's pirate joke, and the answer is
called twice on two fresh agents: history kept outside the call (a module-level list) shows up in the
second call's turn 2.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent, InMemoryHistoryProvider, Message

from chat_models import OfflineChatClient, RequestRecorder
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

SUBJECTS = ("a lighthouse keeper", "two penguins", "a sleepy dragon", "a tax inspector", "a robot chef",
            "an old tram driver", "a lost umbrella", "three snails in a hurry", "a jazz trumpet", "a moon rover")
FIRST_FORMS = ("Tell me a joke about {}.", "Write a two-line poem about {}.", "Give me a riddle about {}.",
               "Describe {} in one sentence.")
SECOND_FORMS = ("Now tell it again, but in the voice of {}.", "Make it shorter and end it with a question about {}.",
                "Repeat it and add a twist involving {}.", "Say it again as if {} were listening.")
# Follow-ups that never say "it" or "the joke": one of the two calls always draws one, so an answer that
# sends the history only when the follow-up refers back the lesson's way ("tell it again") is caught.
PLAIN_SECOND_FORMS = ("Once more, in the voice of {}.", "Shorter please, ending with a question about {}.",
                      "Again, with a twist involving {}.", "Same again, as if {} were listening.")
_INSTRUCTIONS = "You are a cheerful assistant who tells short, family-friendly jokes."


def _sent(request: Any) -> list[tuple[str, str]]:
    return [(str(m.role), m.text or "") for m in request.messages if m.role != "system"]


def _questions(rng: Any, second_forms: tuple[str, ...] = SECOND_FORMS) -> tuple[str, str]:
    first_subject, second_subject = rng.sample(SUBJECTS, 2)
    return (rng.choice(FIRST_FORMS).format(first_subject),
            rng.choice(second_forms).format(second_subject) + f" ({rng.randrange(2, 99)} words at most.)")


@exercise("01.send_history", title="make turn 2 work by sending the history yourself")
async def check_send_history(answer: Any) -> None:
    with drawn_cases() as rng:
        # twice, on two fresh agents: nothing may carry over from one call to the next; the second follow-up
        # never says "it" or "the joke", so the history must be sent whatever words the follow-up uses
        for forms in (SECOND_FORMS, PLAIN_SECOND_FORMS):
            await _one_call(answer, *await _told_apart(rng, forms))


async def _replies(question1: str, question2: str) -> tuple[str, str]:
    """What each turn should answer: the offline model is deterministic, so a fresh agent tells us."""
    reference = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS)
    first = await reference.run(question1)
    second = await reference.run([Message(role="user", contents=[question1]), *first.messages,
                                  Message(role="user", contents=[question2])])
    return first.text, second.text


async def _told_apart(rng: Any, second_forms: tuple[str, ...]) -> tuple[str, str, str, str]:
    """Two questions whose replies differ, so returning turn 1's response cannot pass for turn 2's."""
    while True:
        question1, question2 = _questions(rng, second_forms)
        reply1, reply2 = await _replies(question1, question2)
        if reply1 != reply2:
            return question1, question2, reply1, reply2


async def _one_call(answer: Any, question1: str, question2: str, reply1: str, reply2: str) -> None:
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, middleware=[recorder])

    result = await call_learner(answer, agent, question1, question2)

    if any(isinstance(p, InMemoryHistoryProvider) for p in agent.context_providers):
        raise Hint("you used a session, which keeps the history for you; here, pass no session and give "
                   "agent.run the list of messages yourself")
    if len(recorder.requests) != 2:
        raise Hint(f"expected two runs of the agent (turn 1, then turn 2); the model was called {len(recorder.requests)} time(s)")
    turn1, turn2 = (_sent(r) for r in recorder.requests)
    if len(turn1) > 1 and turn1[-1] == ("user", question1):
        raise Hint("turn 1 was also sent messages from an earlier call: keep the history in a local list inside "
                   "your function, not at module level, or every conversation sends every other one's turns")
    if turn1 != [("user", question1)]:
        raise Hint(f"turn 1 should send just `first`; it sent {turn1!r}")
    expected = [("user", question1), ("assistant", reply1), ("user", question2)]
    if ("user", question1) not in turn2 and ("assistant", reply1) in turn2 and turn2[-1] == ("user", question2):
        raise Hint(f"turn 2 was not sent turn 1's question ({question1!r}): start the list with `first` itself "
                   "(not a question of your own), then turn 1's reply, then the new message")
    if len(turn2) == 1 and question1 in turn2[0][1] and turn2[0][1] != question1:
        raise Hint("the history was pasted into one user message: send a list of messages (the question, "
                   "turn 1's `response.messages`, the new message), so the model sees who said what")
    if ("user", reply1) in turn2:
        raise Hint("turn 1's reply was sent with role user, as if the user had said it: add turn 1's "
                   "`response.messages` (role assistant) instead of a new user message with its text")
    if turn2 == expected:
        text = result if isinstance(result, str) else getattr(result, "text", None)
        if text != reply2:
            raise Hint("the turns were right, but return turn 2's response (what the second agent.run returned); "
                       f"got {text if isinstance(text, str) else type(result).__name__!r:.80}")
        return
    if turn2 == [("user", question2)]:
        raise Hint(f"turn 2 was sent only its new message ({question2!r}): every follow-up needs the history, "
                   "whatever its words — put turn 1's question and its reply (`response.messages`) before it in "
                   "the list you pass to agent.run")
    if turn2.count(("user", question1)) > 1 or turn2.count(("assistant", reply1)) > 1 or turn2.count(("user", question2)) > 1:
        raise Hint("part of the history was sent twice: each earlier message goes into turn 2's list exactly once "
                   f"(the model saw {len(turn2)} messages, it should see 3)")
    if ("assistant", reply1) not in turn2:
        raise Hint("turn 2 was sent turn 1's question but not the model's answer: add turn 1's "
                   "`response.messages` after the question")
    raise Hint(f"turn 2 should send [turn 1's question, turn 1's reply, the new message] in that order; it sent "
               f"{[role for role, _ in turn2]}")
