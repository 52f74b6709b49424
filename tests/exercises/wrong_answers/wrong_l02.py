"""Wrong answers to 02.conversations, written from the exercise text only (issue 21, item 1).

Each one looks right when one conversation chats for two turns, and breaks one rule: conversations
never see each other's messages, each remembers its own earlier turns, one agent serves them all.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations


class OneSharedSession:
    """One session for the whole app: every conversation sees every other conversation's messages."""

    def __init__(self, agent):
        self.agent = agent
        self.session = agent.create_session()

    async def send(self, conversation_id, text):
        return (await self.agent.run(text, session=self.session)).text


class NewSessionEveryMessage:
    """A fresh session on every send: conversations are apart, but none remembers its earlier turns."""

    def __init__(self, agent):
        self.agent = agent

    async def send(self, conversation_id, text):
        return (await self.agent.run(text, session=self.agent.create_session())).text


class ClassLevelSessions:
    """The sessions dict is a class attribute: two Conversations objects (two apps, two agents) share it."""

    sessions: dict = {}  # noqa: RUF012 - the mistake this wrong answer makes

    def __init__(self, agent):
        self.agent = agent

    async def send(self, conversation_id, text):
        if conversation_id not in self.sessions:
            self.sessions[conversation_id] = self.agent.create_session()
        return (await self.agent.run(text, session=self.sessions[conversation_id])).text


_SESSIONS: dict = {}


class ModuleLevelSessions:
    """Sessions kept in a module-level dict: a second Conversations object picks up the first one's chats."""

    def __init__(self, agent):
        self.agent = agent

    async def send(self, conversation_id, text):
        session = _SESSIONS.setdefault(conversation_id, self.agent.create_session())
        return (await self.agent.run(text, session=session)).text


class FirstTurnOutsideSession:
    """Runs a conversation's first message without a session and only then creates one: turn 1 is never kept."""

    def __init__(self, agent):
        self.agent = agent
        self.sessions = {}

    async def send(self, conversation_id, text):
        if conversation_id not in self.sessions:
            reply = await self.agent.run(text)
            self.sessions[conversation_id] = self.agent.create_session()
            return reply.text
        return (await self.agent.run(text, session=self.sessions[conversation_id])).text


class LastTurnOnly:
    """Keeps each conversation's last exchange only and sends it by hand: the turn before that is forgotten."""

    def __init__(self, agent):
        self.agent = agent
        self.last = {}

    async def send(self, conversation_id, text):
        from agent_framework import Message

        previous = self.last.get(conversation_id, [])
        question = Message(role="user", contents=[text])
        reply = await self.agent.run([*previous, question])
        self.last[conversation_id] = [question, *reply.messages]
        return reply.text


WRONG = [
    ("02.conversations", OneSharedSession, "one session shared by every conversation"),
    ("02.conversations", NewSessionEveryMessage, "a new session on every message"),
    ("02.conversations", ClassLevelSessions, "sessions dict on the class"),
    ("02.conversations", ModuleLevelSessions, "sessions dict on the module"),
    ("02.conversations", FirstTurnOutsideSession, "first turn run outside the session"),
    ("02.conversations", LastTurnOnly, "keeps only the last exchange"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class SessionsInDefaultArgument:
    """Keeps the sessions in a mutable default argument: every Conversations object shares one dict."""

    def __init__(self, agent, sessions={}):  # noqa: B006 - the mistake itself
        self.agent = agent
        self.sessions = sessions

    async def send(self, conversation_id, text):
        if conversation_id not in self.sessions:
            self.sessions[conversation_id] = self.agent.create_session()
        return (await self.agent.run(text, session=self.sessions[conversation_id])).text


class CaseFoldedIds:
    """Normalises ids the lesson's way ("chat-1"): strips and lower-cases them, so "Chat-1" and "chat-1" are one."""

    def __init__(self, agent):
        self.agent = agent
        self.sessions = {}

    async def send(self, conversation_id, text):
        key = str(conversation_id).strip().lower()
        if key not in self.sessions:
            self.sessions[key] = self.agent.create_session()
        return (await self.agent.run(text, session=self.sessions[key])).text


class LessonAgentPerConversation:
    """Ignores the agent it is given beyond its client: builds the lesson's joke agent per conversation."""

    def __init__(self, agent):
        self.agent = agent
        self.chats = {}

    async def send(self, conversation_id, text):
        from agent_framework import Agent

        if conversation_id not in self.chats:
            own = Agent(
                client=self.agent.client,
                name="joker",
                instructions="You are a cheerful assistant who tells short, family-friendly jokes.",
            )
            self.chats[conversation_id] = (own, own.create_session())
        own, session = self.chats[conversation_id]
        return (await own.run(text, session=session)).text


NEW_FROM_TEXT = [
    ("02.conversations", SessionsInDefaultArgument, "sessions dict as a mutable default argument (shared)"),
    ("02.conversations", CaseFoldedIds, "ids lower-cased/stripped: distinct ids merged (lesson-shaped ids only)"),
    ("02.conversations", LessonAgentPerConversation, "ignores the given agent: the lesson's joke agent on its client"),
]
WRONG += NEW_FROM_TEXT
