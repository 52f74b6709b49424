"""Wrong answers to 17.assistant, written from the exercise text only.

Each assistant answers every turn, keeps each conversation's turns and recalls memories through a
CortadelContextProvider while things go well, and breaks one rule: each (user, conversation) its own session
that survives a restart on store_dir (even with the memory server down), what a user said in one conversation
recalled in their other conversations through a provider bound to that user and keys[user], one user never
seeing another's facts, and a turn that still gets a reply while the memory server is down.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _slug(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]


class _Base:
    """The shared skeleton each wrong answer below changes in one place.

    Design: one Agent per user, with an in-memory history provider (the conversation's turns, in the session)
    and a CortadelContextProvider bound to that user and their key (long-term memory); one AgentSession per
    (user, conversation), saved to store_dir as JSON after every turn so a restart continues it.
    """

    def __init__(self, chat_client, memory_url: str, keys: dict[str, str], store_dir: Path) -> None:
        self.chat_client = chat_client
        self.memory_url = memory_url
        self.keys = keys
        self.store_dir = Path(store_dir)
        self.store_dir.mkdir(parents=True, exist_ok=True)
        self.agents = {}
        self.providers = {}
        self.sessions = {}

    # --- long-term memory -------------------------------------------------------------
    def _new_provider(self, user: str):
        from lesson_utils import CortadelContextProvider

        return CortadelContextProvider(self.memory_url, user, api_key=self.keys[user])

    def _provider_key(self, user: str):
        return user

    def _agent(self, user: str):
        from agent_framework import Agent, InMemoryHistoryProvider

        key = self._provider_key(user)
        if key not in self.agents:
            provider = self._new_provider(user)
            self.providers[key] = provider
            self.agents[key] = Agent(
                client=self.chat_client,
                instructions="You are a helpful assistant. Use what you remember about the user.",
                context_providers=[InMemoryHistoryProvider(), provider],
            )
        return self.agents[key]

    # --- a conversation's turns -------------------------------------------------------
    def _session_key(self, user: str, conversation: str):
        return (user, conversation)

    def _path(self, user: str, conversation: str) -> Path:
        return self.store_dir / f"{_slug(user, conversation)}.json"

    def _session(self, agent, user: str, conversation: str):
        from lesson_utils import load_session

        key = self._session_key(user, conversation)
        if key not in self.sessions:
            path = self._path(user, conversation)
            self.sessions[key] = load_session(path) if path.exists() else agent.create_session()
        return self.sessions[key]

    def _save(self, session, user: str, conversation: str) -> None:
        from lesson_utils import save_session

        save_session(session, self._path(user, conversation))

    async def reply(self, user: str, conversation: str, text: str) -> str:
        agent = self._agent(user)
        session = self._session(agent, user, conversation)
        response = await agent.run(text, session=session)
        self._save(session, user, conversation)
        return response.text

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()
        self.agents.clear()


class FirstTurnRecallOnly(_Base):
    """Recalls memories on a conversation's first turn only: a fact told elsewhere later is never recalled here."""

    def _new_provider(self, user: str):
        from lesson_utils import CortadelContextProvider

        class FirstTurnProvider(CortadelContextProvider):
            async def before_run(self, *, agent, session, context, state):
                if state.get("recalled"):
                    return
                state["recalled"] = True
                await super().before_run(agent=agent, session=session, context=context, state=state)

        return FirstTurnProvider(self.memory_url, user, api_key=self.keys[user])


class SameConversationRecall(_Base):
    """scope_recall_to_session=True: a user's memories are recalled only in the conversation they were said in."""

    def _new_provider(self, user: str):
        from lesson_utils import CortadelContextProvider

        return CortadelContextProvider(
            self.memory_url, user, api_key=self.keys[user], scope_recall_to_session=True
        )


class OneProviderForEveryone(_Base):
    """One agent and provider, built with the first user's key, serve every user: users see each other's facts."""

    def _provider_key(self, user: str):
        return "shared"


class NoApiKey(_Base):
    """Binds the provider to the user_id but not to keys[user]: the server refuses it and nothing is recalled."""

    def _new_provider(self, user: str):
        from lesson_utils import CortadelContextProvider

        return CortadelContextProvider(self.memory_url, user)


class RaisesWhenServerDown(_Base):
    """raise_on_error=True on the provider: a turn while the memory server is down raises instead of replying."""

    def _new_provider(self, user: str):
        from lesson_utils import CortadelContextProvider

        return CortadelContextProvider(self.memory_url, user, api_key=self.keys[user], raise_on_error=True)


class SessionsInMemoryOnly(_Base):
    """Keeps the sessions in a dict only, never in store_dir: a restart starts every conversation over."""

    def _session(self, agent, user: str, conversation: str):
        key = self._session_key(user, conversation)
        if key not in self.sessions:
            self.sessions[key] = agent.create_session()
        return self.sessions[key]

    def _save(self, session, user: str, conversation: str) -> None:
        pass


class SavesBeforeTheTurn(_Base):
    """Saves the session before running the turn: after a restart the conversation's last turn is missing."""

    async def reply(self, user: str, conversation: str, text: str) -> str:
        agent = self._agent(user)
        session = self._session(agent, user, conversation)
        self._save(session, user, conversation)
        response = await agent.run(text, session=session)
        return response.text


class KeyedByConversationOnly(_Base):
    """Sessions and files keyed by the conversation name alone: two users' "kitchen-chat" are one conversation."""

    def _session_key(self, user: str, conversation: str):
        return conversation

    def _path(self, user: str, conversation: str) -> Path:
        return self.store_dir / f"{_slug(conversation)}.json"


WRONG = [
    ("17.assistant", FirstTurnRecallOnly, "recall only on a conversation's first turn"),
    ("17.assistant", SameConversationRecall, "recall scoped to the same conversation"),
    ("17.assistant", OneProviderForEveryone, "one provider shared by all users"),
    ("17.assistant", NoApiKey, "provider not bound to keys[user]"),
    ("17.assistant", RaisesWhenServerDown, "turn raises when the memory server is down"),
    ("17.assistant", SessionsInMemoryOnly, "restart loses the conversation"),
    ("17.assistant", SavesBeforeTheTurn, "session saved before the turn"),
    ("17.assistant", KeyedByConversationOnly, "sessions keyed by conversation, not (user, conversation)"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class ClassLevelSessions(_Base):
    """Keeps the open sessions in a dict on the class: a new instance (another store_dir too) finds them there."""

    open_sessions: dict = {}  # noqa: RUF012 - the mistake: a class attribute, shared by every Assistant

    def _session(self, agent, user: str, conversation: str):
        from lesson_utils import load_session

        key = self._session_key(user, conversation)
        if key not in self.open_sessions:
            path = self._path(user, conversation)
            self.open_sessions[key] = load_session(path) if path.exists() else agent.create_session()
        return self.open_sessions[key]


class IgnoresStoreDir(_Base):
    """Saves the sessions under a fixed folder of its own (like the lesson's workdir), not under store_dir."""

    def __init__(self, chat_client, memory_url: str, keys: dict[str, str], store_dir: Path) -> None:
        import tempfile

        super().__init__(chat_client, memory_url, keys, store_dir)
        self.sessions_dir = Path(tempfile.gettempdir()) / "lesson17-assistant-sessions"
        self.sessions_dir.mkdir(parents=True, exist_ok=True)

    def _path(self, user: str, conversation: str) -> Path:
        return self.sessions_dir / f"{_slug(user, conversation)}.json"


class CannedReplyWhenDown(_Base):
    """Checks the memory server first; when it is down, returns a typed-in apology instead of running the turn."""

    DOWN = "Sorry, my memory is unavailable right now. Please try again in a moment."

    async def reply(self, user: str, conversation: str, text: str) -> str:
        import httpx

        try:
            async with httpx.AsyncClient(timeout=2.0) as http:
                await http.get(self.memory_url)
        except httpx.HTTPError:
            return self.DOWN
        return await super().reply(user, conversation, text)


class NamesJoinedWithDash(_Base):
    """Names each file "<user>-<conversation>.json", fine for names like the lesson's "ana" and "kitchen-chat";
    ("ana", "b-c") and ("ana-b", "c") share a file, and a name with "/" is a path."""

    def _path(self, user: str, conversation: str) -> Path:
        return self.store_dir / f"{user}-{conversation}.json"

    def _session_key(self, user: str, conversation: str):
        return f"{user}-{conversation}"


NEW_FROM_TEXT = [
    ("17.assistant", ClassLevelSessions, "open sessions in a dict on the class (shared by instances)"),
    ("17.assistant", IgnoresStoreDir, "ignores store_dir: sessions saved under a fixed folder"),
    ("17.assistant", CannedReplyWhenDown, "typed-in apology when the memory server is down, turn not run"),
    ("17.assistant", NamesJoinedWithDash, "'user-conversation' file names: lesson-shaped names only, collisions"),
]
WRONG += NEW_FROM_TEXT


class KeepsItsOwnNotes(_Base):
    """Keeps the Cortadel provider, and adds a provider of its own that writes every "I …"/"My …" sentence a user
    says to a notes file in store_dir and gives the model all of that user's notes on every turn: an old value and
    a withdrawn fact go on being presented as true (written by a learner in a trial of lesson 17)."""

    def _agent(self, user: str):
        from agent_framework import Agent, ContextProvider, InMemoryHistoryProvider

        notes = self.store_dir / f"notes-{_slug(user)}.txt"

        class OwnNotes(ContextProvider):
            def __init__(self) -> None:
                super().__init__("own_notes")

            async def before_run(self, *, agent, session, context, state) -> None:
                if notes.exists():
                    context.extend_instructions(self.source_id, "What the user told you:\n" +
                                                notes.read_text(encoding="utf-8"))

            async def after_run(self, *, agent, session, context, state) -> None:
                said = [m.text for m in context.input_messages if m.role == "user" and m.text]
                mine = [t for t in said if t.split(" ", 1)[0].rstrip("',") in ("I", "I'm", "My", "I've")]
                if mine:
                    with open(notes, "a", encoding="utf-8") as handle:
                        handle.write("".join(f"{t}\n" for t in mine))

        key = self._provider_key(user)
        if key not in self.agents:
            provider = self._new_provider(user)
            self.providers[key] = provider
            self.agents[key] = Agent(client=self.chat_client, instructions="You are a helpful assistant.",
                                     context_providers=[InMemoryHistoryProvider(), provider, OwnNotes()])
        return self.agents[key]


WRONG += [("17.assistant", KeepsItsOwnNotes, "its own notes of what users said, withdrawn facts and old values included")]
