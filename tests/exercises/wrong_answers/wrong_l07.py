"""Wrong answers to 07.fix_failure_mode, written from the exercise text only (issue 21, item 1).

Each is the lesson's provider written as one class, right in all but one fix: recall with
`extend_messages(self, ...)`, store only the turn's own words, never inject a memory twice in one session
with at most `max_remembered` ids in `state`, fail open in both hooks yet let `CancelledError` through.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

from agent_framework import ContextProvider, Message
from cortadel import ChatMessage, ConversationOptions, SearchOptions


def _injected(message) -> bool:
    return bool((message.additional_properties or {}).get("_attribution", {}).get("source_id"))


def _query(context) -> str:
    return " ".join(m.text for m in context.input_messages if m.role == "user" and m.text)


def _block(hits) -> Message:
    return Message(role="user", contents=["## Memories\n" + "\n".join(f"- {hit.content}" for hit in hits)])


class _Store:
    """The after_run every answer below shares unless its mistake is there: own words only, fail open."""

    async def after_run(self, *, agent, session, context, state):
        # (added when the exercise gained the failed-turn case, so each answer keeps only its own mistake)
        if context.response is None or any(c.type == "error" for m in context.response.messages for c in m.contents):
            return
        try:
            seen = context.get_messages(include_input=True, include_response=True)
            turn = [ChatMessage(role=m.role, content=m.text) for m in seen if m.text and not _injected(m)]
            if turn:
                await self.client.add_conversation(turn, ConversationOptions(session_id=session.session_id))
        except Exception:
            pass


class IdsOnInstance(_Store, ContextProvider):
    """Remembers injected ids on the provider instance: a new session never gets what an old one was shown."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered
        self.injected_ids: list[str] = []

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            fresh = [hit for hit in found.results if hit.id not in self.injected_ids]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                self.injected_ids = (self.injected_ids + [hit.id for hit in fresh])[-self.max_remembered :]
                state["injected_ids"] = list(self.injected_ids)
        except Exception:
            pass


_INJECTED: set[str] = set()


class IdsInModuleSet(_Store, ContextProvider):
    """De-duplicates with a module-level set: it leaks across sessions, instances and users, and is never capped."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            fresh = [hit for hit in found.results if hit.id not in _INJECTED]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                _INJECTED.update(hit.id for hit in fresh)
                state["injected_ids"] = [hit.id for hit in fresh][-self.max_remembered :]
        except Exception:
            pass


class SwallowsCancellation(_Store, ContextProvider):
    """Fails open with `except BaseException`: a cancelled turn is swallowed as "memory unavailable"."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            seen = state.get("injected_ids", [])
            fresh = [hit for hit in found.results if hit.id not in seen]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                state["injected_ids"] = (seen + [hit.id for hit in fresh])[-self.max_remembered :]
        except BaseException:
            pass

    async def after_run(self, *, agent, session, context, state):
        try:
            seen = context.get_messages(include_input=True, include_response=True)
            turn = [ChatMessage(role=m.role, content=m.text) for m in seen if m.text and not _injected(m)]
            await self.client.add_conversation(turn, ConversationOptions(session_id=session.session_id))
        except BaseException:
            pass


class LessonCapHardcoded(_Store, ContextProvider):
    """Ignores `max_remembered`: caps the ids at the lesson's 64."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            seen = state.get("injected_ids", [])
            fresh = [hit for hit in found.results if hit.id not in seen]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                state["injected_ids"] = (seen + [hit.id for hit in fresh])[-64:]
        except Exception:
            pass


class KeepsOldestIds(_Store, ContextProvider):
    """Caps with `[: max_remembered]`: keeps the oldest ids, so newer memories are injected again and again."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            seen = state.get("injected_ids", [])
            fresh = [hit for hit in found.results if hit.id not in seen]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                state["injected_ids"] = (seen + [hit.id for hit in fresh])[: self.max_remembered]
        except Exception:
            pass


class StoresInjected(ContextProvider):
    """Stores everything the model saw: the injected memories and the replayed history go back as user turns."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            seen = state.get("injected_ids", [])
            fresh = [hit for hit in found.results if hit.id not in seen]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                state["injected_ids"] = (seen + [hit.id for hit in fresh])[-self.max_remembered :]
        except Exception:
            pass

    async def after_run(self, *, agent, session, context, state):
        try:
            seen = context.get_messages(include_input=True, include_response=True)
            turn = [ChatMessage(role=m.role, content=m.text) for m in seen if m.text]
            await self.client.add_conversation(turn, ConversationOptions(session_id=session.session_id))
        except Exception:
            pass


class RecallNotFailOpen(_Store, ContextProvider):
    """Fails open when storing only: a down server still breaks the turn in before_run."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        found = await self.client.search(_query(context), SearchOptions(top_k=5))
        seen = state.get("injected_ids", [])
        fresh = [hit for hit in found.results if hit.id not in seen]
        if fresh:
            context.extend_messages(self, [_block(fresh)])
            state["injected_ids"] = (seen + [hit.id for hit in fresh])[-self.max_remembered :]


class RecallOnFirstTurnOnly(_Store, ContextProvider):
    """ "Dedups" by recalling only on a session's first turn: later questions about new topics get nothing."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        if state.get("recalled"):
            return
        try:
            found = await self.client.search(_query(context), SearchOptions(top_k=5))
            if found.results:
                context.extend_messages(self, [_block(found.results)])
                state["injected_ids"] = [hit.id for hit in found.results][-self.max_remembered :]
            state["recalled"] = True
        except Exception:
            pass


WRONG = [
    ("07.fix_failure_mode", IdsOnInstance, "injected ids kept on the provider instance"),
    ("07.fix_failure_mode", IdsInModuleSet, "dedup in a module-level set (leaks across sessions)"),
    ("07.fix_failure_mode", SwallowsCancellation, "except BaseException swallows CancelledError"),
    ("07.fix_failure_mode", LessonCapHardcoded, "ignores max_remembered: lesson's 64"),
    ("07.fix_failure_mode", KeepsOldestIds, "cap keeps the oldest ids ([:n])"),
    ("07.fix_failure_mode", StoresInjected, "stores injected memories (feedback loop)"),
    ("07.fix_failure_mode", RecallNotFailOpen, "recall does not fail open"),
    ("07.fix_failure_mode", RecallOnFirstTurnOnly, "recall only on a session's first turn"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class _Safe(ContextProvider):
    """Every fix, in one class; each answer below changes one method."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    def _failed(self, response) -> bool:
        return response is None or any(c.type == "error" for m in response.messages for c in m.contents)

    def _seen(self, state) -> list:
        return list(state.get("injected_ids", []))

    def _remember(self, state, seen, fresh_ids) -> None:
        ids = seen + fresh_ids
        state["injected_ids"] = ids[-self.max_remembered :] if self.max_remembered > 0 else []

    async def before_run(self, *, agent, session, context, state):
        try:
            query = _query(context)
            if not query:
                return
            found = await self.client.search(query, SearchOptions(top_k=5))
            seen = self._seen(state)
            fresh = [hit for hit in found.results if hit.id not in seen]
            if fresh:
                context.extend_messages(self, [_block(fresh)])
                self._remember(state, seen, [hit.id for hit in fresh])
        except Exception:  # not CancelledError
            pass

    async def after_run(self, *, agent, session, context, state):
        if self._failed(context.response):
            return
        try:
            own = [*context.input_messages, *context.response.messages]
            turn = [ChatMessage(role=m.role, content=m.text) for m in own if m.text and not _injected(m)]
            if turn:
                await self.client.add_conversation(turn, ConversationOptions(session_id=session.session_id))
        except Exception:
            pass


class PopsOneIdPerTurn(_Safe):
    """Caps the ids with one pop(0) per turn: when several fresh hits come at once, state holds more than the cap."""

    def _remember(self, state, seen, fresh_ids) -> None:
        ids = seen + fresh_ids
        if len(ids) > self.max_remembered:
            ids.pop(0)
        state["injected_ids"] = ids


class ApologyTextMeansFailed(_Safe):
    """Recognises a failed turn by the lesson's apology text, not by error content."""

    def _failed(self, response) -> bool:
        return response is None or response.text.strip() == "Sorry, I can't answer right now."


_NO_IDS: list = []


class SharedDefaultIdList(_Safe):
    """state.setdefault("injected_ids", _NO_IDS) and then extends it: every new session shares one module-level list."""

    def _seen(self, state) -> list:
        return state.setdefault("injected_ids", _NO_IDS)

    def _remember(self, state, seen, fresh_ids) -> None:
        seen.extend(fresh_ids)
        if len(seen) > self.max_remembered:
            del seen[: len(seen) - self.max_remembered]


NEW_FROM_TEXT = [
    ("07.fix_failure_mode", PopsOneIdPerTurn, "cap enforced with one pop per turn: more than max_remembered ids kept"),
    ("07.fix_failure_mode", ApologyTextMeansFailed, "failed turn recognised by the lesson's apology text only"),
    ("07.fix_failure_mode", SharedDefaultIdList, "injected ids in a module-level default list shared by sessions"),
]
WRONG += NEW_FROM_TEXT
