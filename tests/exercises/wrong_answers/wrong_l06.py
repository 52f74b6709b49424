"""Wrong answers to 06.start_over, written from the exercise text only.

Each one returns a session that looks right after one start-over of one user (the name is still known, the
old messages are gone), and breaks one rule: carry every provider's slot except the history provider's, a
new session_id, new and old sessions independent down to nested lists, the old session unchanged, and no
user's state showing up in another user's session.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import copy


def _history_ids(agent):
    from agent_framework import HistoryProvider

    return {p.source_id for p in agent.context_providers if isinstance(p, HistoryProvider)}


def shallow_copy_slots(agent, session):
    """Copies the state dict one level deep: each slot is the same object in both sessions."""
    new = agent.create_session()
    history = _history_ids(agent)
    new.state = {key: value for key, value in session.state.items() if key not in history}
    return new


def one_level_slot_copy(agent, session):
    """Copies each slot with dict(slot): the growing likes list inside a slot is still shared."""
    new = agent.create_session()
    history = _history_ids(agent)
    for key, value in session.state.items():
        if key in history:
            continue
        new.state[key] = dict(value) if isinstance(value, dict) else value
    return new


def hard_coded_history_slot(agent, session):
    """Drops the slot named "in_memory" (the default): the history provider's drawn source_id is carried over."""
    new = agent.create_session()
    new.state = {key: copy.deepcopy(value) for key, value in session.state.items() if key != "in_memory"}
    return new


def only_user_memory_slot(agent, session):
    """Keeps only the "user_memory" slot by its default name: the drawn source_ids and the likes are lost."""
    new = agent.create_session()
    if "user_memory" in session.state:
        new.state["user_memory"] = copy.deepcopy(session.state["user_memory"])
    else:
        # fall back to the first provider that is not a history provider
        history = _history_ids(agent)
        for key, value in session.state.items():
            if key not in history:
                new.state[key] = copy.deepcopy(value)
                break
    return new


def same_session_id(agent, session):
    """Round-trips through to_dict/from_dict without the history slot: the new session keeps the old session_id."""
    from agent_framework import AgentSession

    history = _history_ids(agent)
    data = session.to_dict()
    data["state"] = {key: value for key, value in data["state"].items() if key not in history}
    return AgentSession.from_dict(copy.deepcopy(data))


def clears_old_session(agent, session):
    """Pops the history slot out of the old session before copying: the old conversation loses its messages."""
    for key in _history_ids(agent):
        session.state.pop(key, None)
    new = agent.create_session()
    new.state = copy.deepcopy(session.state)
    return new


_LEARNED: dict = {}


def module_level_learned(agent, session):
    """Merges what was learned into a module-level dict: a user who never gave their age gets the previous user's."""
    history = _history_ids(agent)
    for key, value in session.state.items():
        if key in history:
            continue
        if isinstance(value, dict):
            _LEARNED.setdefault(key, {}).update(copy.deepcopy(value))
        else:
            _LEARNED[key] = copy.deepcopy(value)
    new = agent.create_session()
    new.state = copy.deepcopy(_LEARNED)
    return new


WRONG = [
    ("06.start_over", shallow_copy_slots, "slots aliased between old and new session"),
    ("06.start_over", one_level_slot_copy, "nested list inside a slot aliased"),
    ("06.start_over", hard_coded_history_slot, "history slot dropped by hard-coded name"),
    ("06.start_over", only_user_memory_slot, "keeps only a hard-coded user_memory slot"),
    ("06.start_over", same_session_id, "new session reuses the old session_id"),
    ("06.start_over", clears_old_session, "old session's history popped"),
    ("06.start_over", module_level_learned, "learned state merged across users in a module dict"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


def keeps_last_exchange(agent, session):
    """Carries the history slot too, cut to the last exchange (2 messages) "for continuity": old messages come along."""
    new = agent.create_session()
    history = _history_ids(agent)
    for key, value in session.state.items():
        if key in history and isinstance(value, dict) and isinstance(value.get("messages"), list):
            new.state[key] = {**copy.deepcopy(value), "messages": copy.deepcopy(value["messages"][-2:])}
        else:
            new.state[key] = copy.deepcopy(value)
    return new


def learned_in_default_argument(agent, session, _learned={}):  # noqa: B006 - the mistake itself
    """Collects what the providers learned in a mutable default dict and seeds the new session from it."""
    history = _history_ids(agent)
    for key, value in session.state.items():
        if key in history:
            continue
        if isinstance(value, dict):
            _learned.setdefault(key, {}).update(copy.deepcopy(value))
        else:
            _learned[key] = copy.deepcopy(value)
    new = agent.create_session()
    new.state.update(copy.deepcopy(_learned))
    return new


def lesson_history_class_only(agent, session):
    """Recognises the history provider as the lesson's InMemoryHistoryProvider only, not any HistoryProvider."""
    from agent_framework import InMemoryHistoryProvider

    lesson_history = {p.source_id for p in agent.context_providers if isinstance(p, InMemoryHistoryProvider)}
    new = agent.create_session()
    new.state = {key: copy.deepcopy(value) for key, value in session.state.items() if key not in lesson_history}
    return new


NEW_FROM_TEXT = [
    ("06.start_over", keeps_last_exchange, "history slot kept, cut to the last exchange (off by one exchange)"),
    ("06.start_over", learned_in_default_argument, "learned state merged in a mutable default argument"),
    (
        "06.start_over",
        lesson_history_class_only,
        "history provider recognised as the lesson's InMemoryHistoryProvider only",
    ),
]
WRONG += NEW_FROM_TEXT
