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
