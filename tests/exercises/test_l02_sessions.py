"""02.conversations: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest

from course_kit.exercises import check


class Solution:
    def __init__(self, agent):
        self.agent = agent
        self.sessions = {}

    async def send(self, conversation_id, text):
        if conversation_id not in self.sessions:
            self.sessions[conversation_id] = self.agent.create_session()
        response = await self.agent.run(text, session=self.sessions[conversation_id])
        return response.text


class Stub:
    def __init__(self, agent):
        self.agent = agent

    async def send(self, conversation_id, text):
        raise NotImplementedError


class NewSessionEveryTurn(Solution):
    async def send(self, conversation_id, text):
        session = self.sessions.get(conversation_id) or self.agent.create_session()  # never kept
        return (await self.agent.run(text, session=session)).text


class OneSharedSession(Solution):
    async def send(self, conversation_id, text):
        if "shared" not in self.sessions:
            self.sessions["shared"] = self.agent.create_session()
        return (await self.agent.run(text, session=self.sessions["shared"])).text


class ReturnsTheResponse(Solution):
    async def send(self, conversation_id, text):
        self.sessions.setdefault(conversation_id, self.agent.create_session())
        return await self.agent.run(text, session=self.sessions[conversation_id])


class OwnAgent(Solution):
    def __init__(self, agent):
        from agent_framework import Agent

        from chat_models import OfflineChatClient

        super().__init__(Agent(client=OfflineChatClient()))


def test_the_solution_passes(capsys):
    assert check("02.conversations", Solution) is True
    assert "\u2705 02.conversations" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in `send` first"),
        (NewSessionEveryTurn, "was sent without its first turn"),
        (OneSharedSession, "was sent another conversation's message"),
        (ReturnsTheResponse, "should return the reply's text"),
        (OwnAgent, "run the agent you were given"),
    ],
    ids=lambda v: getattr(v, "__name__", "hint"),
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("02.conversations", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("02.conversations", Solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
