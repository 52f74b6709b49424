"""Wrong answers to 14.safe_turn, written from the exercise text only (issue 21, item 1).

Each serves one turn and returns the reply; each looks safe to a learner in a hurry. Each breaks one rule:
several turns of one conversation at once lose nothing, and the protection must hold where the lesson's
workers are separate processes, not only threads of one process.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import asyncio
import threading

from lesson_utils.persistence import StaleSessionError

_LOCK = threading.Lock()


async def thread_lock(store, agent, conversation_id, message):
    """Serialises turns with a module-level threading.Lock: safe between threads, useless between worker processes."""
    with _LOCK:
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    return response.text


async def naive(store, agent, conversation_id, message):
    """The lesson's naive turn: load, run, save with no expected_version: the last writer wins."""
    loaded = store.load_versioned(conversation_id, create=True)
    response = await agent.run(message, session=loaded.session)
    store.save(conversation_id, loaded.session)
    return response.text


async def force_save_on_conflict(store, agent, conversation_id, message):
    """On StaleSessionError, saves again with the newer version without redoing the turn: overwrites the other turn."""
    loaded = store.load_versioned(conversation_id, create=True)
    response = await agent.run(message, session=loaded.session)
    try:
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    except StaleSessionError:
        store.save(conversation_id, loaded.session, expected_version=store.load_versioned(conversation_id).version)
    return response.text


async def swallow_conflict(store, agent, conversation_id, message):
    """Catches StaleSessionError and answers anyway: the refused turn is silently dropped."""
    loaded = store.load_versioned(conversation_id, create=True)
    response = await agent.run(message, session=loaded.session)
    try:
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    except StaleSessionError:
        pass
    return response.text


async def retry_on_stale_session(store, agent, conversation_id, message):
    """Redoes a refused turn on the session it already had (no reload), then saves at the new version."""
    loaded = store.load_versioned(conversation_id, create=True)
    session, version = loaded.session, loaded.version
    while True:
        response = await agent.run(message, session=session)
        try:
            store.save(conversation_id, session, expected_version=version)
            return response.text
        except StaleSessionError:
            version = store.load_versioned(conversation_id).version


async def bounded_retries_then_plain_save(store, agent, conversation_id, message):
    """Retries a refused turn twice, then saves without a version "so the turn is not lost": it overwrites one."""
    for _ in range(2):
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        try:
            store.save(conversation_id, loaded.session, expected_version=loaded.version)
            return response.text
        except StaleSessionError:
            continue
    store.save(conversation_id, loaded.session)
    return response.text


_ASYNC_LOCK = asyncio.Lock()


async def module_asyncio_lock(store, agent, conversation_id, message):
    """Serialises turns with a module-level asyncio.Lock: one event loop's lock, not the workers'."""
    async with _ASYNC_LOCK:
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    return response.text


WRONG = [
    ("14.safe_turn", thread_lock, "threading.Lock (workers are processes)"),
    ("14.safe_turn", naive, "naive load-run-save, no version"),
    ("14.safe_turn", force_save_on_conflict, "re-saves at the new version without redoing the turn"),
    ("14.safe_turn", swallow_conflict, "swallows StaleSessionError: turn dropped"),
    ("14.safe_turn", retry_on_stale_session, "redoes the turn on the stale session (no reload)"),
    ("14.safe_turn", bounded_retries_then_plain_save, "two retries, then an unversioned save"),
    ("14.safe_turn", module_asyncio_lock, "module-level asyncio.Lock"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


async def lock_around_load_and_save_only(store, agent, conversation_id, message):
    """Holds the lock for the load and again for the save, not across the run; a refused save redoes the turn."""
    while True:
        with store.lock(conversation_id):
            loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        try:
            with store.lock(conversation_id):
                store.save(conversation_id, loaded.session, expected_version=loaded.version)
            return response.text
        except StaleSessionError:
            continue


async def lesson_serve_turn_copied(store, agent, conversation_id, message):
    """The lesson's serve_turn, copied: lock and versioned save, but a refused save raises instead of redoing the turn."""
    with store.lock(conversation_id):
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    return response.text


async def lock_without_versioned_save(store, agent, conversation_id, message):
    """Holds the lock for the turn, then saves with no expected_version: nothing guards a lock that expired."""
    with store.lock(conversation_id):
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        store.save(conversation_id, loaded.session)
    return response.text


NEW_FROM_TEXT = [
    ("14.safe_turn", lock_around_load_and_save_only, "lock held for load and save only, not across the turn (scope)"),
    ("14.safe_turn", lesson_serve_turn_copied, "the lesson's serve_turn copied: no redo on StaleSessionError"),
    ("14.safe_turn", lock_without_versioned_save, "lock, but an unversioned save (no guard for an expired lock)"),
]
WRONG += NEW_FROM_TEXT
