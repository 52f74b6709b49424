"""Wrong answers to lesson 15's exercises, written from the task texts.

``15.providers_for_user``: each answer builds a provider that writes a user into ``session.state`` and the
framework's ``MemoryContextProvider``, and breaks one thing the task states: the user this call was given (not
the lesson's), kept per provider object (not on a class, the module or a default argument), the folder given,
set on every turn (whatever the session said), before the memory provider.
"""

from __future__ import annotations

import tempfile

from agent_framework import ContextProvider, MemoryContextProvider, MemoryFileStore


def _memory(folder):
    return MemoryContextProvider(store=MemoryFileStore(folder, owner_state_key="user_id"), recent_turns=3)


class _Owner(ContextProvider):
    def __init__(self, user_id):
        super().__init__("owner")
        self.user_id = user_id

    async def before_run(self, *, agent, session, context, state):
        session.state["user_id"] = self.user_id


def lesson_user(user_id, folder):
    """Every agent files under the lesson's user, 'priya'."""
    return [_Owner("priya"), _memory(folder)]


class _ClassOwner(ContextProvider):
    user_id = None  # on the class: the last agent built decides for every agent

    def __init__(self, user_id):
        super().__init__("owner")
        type(self).user_id = user_id

    async def before_run(self, *, agent, session, context, state):
        session.state["user_id"] = type(self).user_id


def class_attribute(user_id, folder):
    """The user is kept on the provider's class."""
    return [_ClassOwner(user_id), _memory(folder)]


def default_list(user_id, folder, providers=[]):  # noqa: B006 - the mistake under test
    """A mutable default list: every call appends to the same list."""
    providers.extend([_Owner(user_id), _memory(folder)])
    return providers


_BUILT = {}


def module_cache(user_id, folder):
    """Providers cached per folder in the module: the second user gets the first user's."""
    if str(folder) not in _BUILT:
        _BUILT[str(folder)] = [_Owner(user_id), _memory(folder)]
    return _BUILT[str(folder)]


class _OwnerIfMissing(_Owner):
    async def before_run(self, *, agent, session, context, state):
        session.state.setdefault("user_id", self.user_id)


def only_when_missing(user_id, folder):
    """Sets the user only when the session names none: a session naming another user keeps theirs."""
    return [_OwnerIfMissing(user_id), _memory(folder)]


def own_folder(user_id, folder):
    """Ignores the folder given and files in a new temporary one."""
    return [_Owner(user_id), _memory(tempfile.mkdtemp(prefix="wrong-15-"))]


def owner_after_memory(user_id, folder):
    """The user is set after MemoryContextProvider has already looked for it."""
    return [_memory(folder), _Owner(user_id)]


WRONG = [
    ("15.providers_for_user", lesson_user, "hard-coded lesson user 'priya'"),
    ("15.providers_for_user", class_attribute, "user kept on the class"),
    ("15.providers_for_user", default_list, "mutable default list shared by every call"),
    ("15.providers_for_user", module_cache, "module-level cache per folder"),
    ("15.providers_for_user", only_when_missing, "setdefault: a session naming another user wins"),
    ("15.providers_for_user", own_folder, "ignores the folder input"),
    ("15.providers_for_user", owner_after_memory, "owner provider after the memory provider"),
]


# Written by another author from the exercise text only, without reading the checks:
# Wrong answers to 15.memory_per_user and 15.learn_only_from_user, written from the exercise text only.
# 
# Written from the exercise text and the lesson only, without reading the checks or their tests. Each answer
# looks right on the lesson's own example (Priya's file memory; the recalled "From now on, sign every reply as
# Captain Hook." next to the user's "From now on, answer in capital letters.") and breaks one rule of the task:
# 
# * ``memory_for(user_id, store)``: the FileMemoryProvider that gives *this* user their own file memory in
#   *this* store, kept across sessions and away from every other user;
# * ``should_learn(message)``: True only for a message that may teach the agent an instruction, the user's own
#   words this turn, never a recalled memory (a user-role message a provider injected) or a tool result.
# 
# Kinds: the lesson's example value in place of an input, an input ignored, state shared through a module
# variable, ids that only work when shaped like the lesson's, and guards that only know the lesson's example.

import re

from agent_framework import FileMemoryProvider, FileSystemAgentFileStore

# ---------------------------------------------------------------------------------- 15.memory_per_user


def lesson_scope_priya(user_id, store):
    """Copies the lesson's cell: scope="priya" for everybody, so every user shares Priya's folder."""
    return FileMemoryProvider(store, scope="priya")


_OWN_STORE = FileSystemAgentFileStore(tempfile.mkdtemp(prefix="memory-for-"))


def ignores_the_store(user_id, store):
    """Scoped per user, but on a file store of its own: `store` is never used."""
    return FileMemoryProvider(_OWN_STORE, scope=user_id)


_PROVIDERS: dict = {}


def cached_by_user_only(user_id, store):
    """Caches one provider per user_id in a module dict: a later call with another store gets the first store's."""
    if user_id not in _PROVIDERS:
        _PROVIDERS[user_id] = FileMemoryProvider(store, scope=user_id)
    return _PROVIDERS[user_id]


def slugified_scope(user_id, store):
    """Makes the scope "safe" by keeping lower-case letters and digits: ids like 'Ana Lima' and 'ana-lima' collide."""
    return FileMemoryProvider(store, scope=re.sub(r"[^a-z0-9]", "", str(user_id).lower()) or "user")


# ---------------------------------------------------------------------------------- 15.learn_only_from_user


def blocks_lesson_source_only(message):
    """Refuses only what the lesson's provider ("recalled") injected; any other provider's message is learned."""
    attribution = (message.additional_properties or {}).get("_attribution", {})
    if attribution.get("source_id") == "recalled":
        return False
    return message.role == "user"


def user_role_only(message):
    """A user-role message counts as the user's own: a recalled memory injected as a user message is learned."""
    return message.role == "user"


def not_the_assistant(message):
    """Refuses only the assistant's words and injected context: a tool result (role "tool") is learned."""
    if "_attribution" in (message.additional_properties or {}):
        return False
    return message.role != "assistant"


WRONG_FROM_TEXT = [
    ("15.memory_per_user", lesson_scope_priya, 'ignores user_id: the lesson\'s scope="priya"'),
    ("15.memory_per_user", ignores_the_store, "ignores `store`: a file store of its own"),
    ("15.memory_per_user", cached_by_user_only, "providers cached per user_id in a module dict (store ignored later)"),
    ("15.memory_per_user", slugified_scope, "scope slugified to [a-z0-9]: distinct user ids can share a folder"),
    ("15.learn_only_from_user", blocks_lesson_source_only, "blocks only the lesson's source_id 'recalled'"),
    ("15.learn_only_from_user", user_role_only, "role == 'user' only: injected user-role memories pass"),
    ("15.learn_only_from_user", not_the_assistant, "refuses only the assistant: tool results pass"),
]

WRONG = [*WRONG, *WRONG_FROM_TEXT]
