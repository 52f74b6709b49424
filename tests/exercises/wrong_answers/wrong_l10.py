"""Wrong answers to 10.supersede_and_find, written from the exercise text only (issue 21, item 1).

Each moves the user and returns "the old memory" in a way that looks right for the lesson's Lyon → Porto
move. Each breaks one rule: record that the user lives in `new_city` so the old fact is superseded, not
deleted, and return the old memory found again through the history (a list item or its id).

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

from cortadel import ListOptions


async def _history(client):
    return (await client.list(ListOptions(include_superseded=True, size=100))).items


async def finds_lyon(client, new_city):
    """Finds the old fact by the lesson's old city, "Lyon", instead of by what the write superseded."""
    await client.add(f"I live in {new_city} now.")
    return next(item for item in await _history(client) if "Lyon" in item.content)


async def moves_to_porto(client, new_city):
    """Records the lesson's new city, "Porto", whatever `new_city` is."""
    await client.add("I live in Porto now.")
    return next(item for item in await _history(client) if not item.is_current)


async def deletes_the_old_fact(client, new_city):
    """Deletes the current home fact and adds the new one: the old fact is gone, not superseded."""
    current = (await client.list()).items
    old = next(item for item in current if "live" in item.content.lower())
    await client.delete([old.id])
    await client.add(f"I live in {new_city} now.")
    return old


async def returns_item_from_before(client, new_city):
    """Returns the home fact as listed *before* the move: a stale copy that still says is_current=True."""
    old = next(item for item in (await client.list()).items if "live" in item.content.lower())
    await client.add(f"I live in {new_city} now.")
    return old


async def any_outdated_item(client, new_city):
    """Returns the first non-current item in the history, whatever fact it is about."""
    await client.add(f"I live in {new_city} now.")
    return next(item for item in await _history(client) if not item.is_current)


async def returns_the_new_fact(client, new_city):
    """Returns the memory that mentions `new_city`: the new fact, not the one it replaced."""
    await client.add(f"I live in {new_city} now.")
    return next(item for item in await _history(client) if new_city in item.content)


WRONG = [
    ("10.supersede_and_find", finds_lyon, "finds the old fact by the lesson's city Lyon"),
    ("10.supersede_and_find", moves_to_porto, "ignores new_city: moves to Porto"),
    ("10.supersede_and_find", deletes_the_old_fact, "deletes the old fact instead of superseding"),
    ("10.supersede_and_find", returns_item_from_before, "returns the item listed before the move"),
    ("10.supersede_and_find", any_outdated_item, "any non-current item, whatever its topic"),
    ("10.supersede_and_find", returns_the_new_fact, "returns the new fact"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


async def finds_by_the_lesson_wording(client, new_city):
    """Finds the old fact by the lesson's exact wording, "I live in", case-sensitively, among non-current items."""
    await client.add(f"I live in {new_city} now.")
    return next(item for item in await _history(client) if not item.is_current and "I live in" in (item.content or ""))


async def history_in_default_list(client, new_city, _seen=[]):  # noqa: B006 - the mistake itself
    """Accumulates listed items in a mutable default list and returns the first outdated home fact in it."""
    await client.add(f"I live in {new_city} now.")
    _seen.extend(await _history(client))
    return next(item for item in _seen if not item.is_current and "live" in (item.content or "").lower())


NEW_FROM_TEXT = [
    (
        "10.supersede_and_find",
        finds_by_the_lesson_wording,
        "old fact found only if worded 'I live in' (lesson's phrasing)",
    ),
    ("10.supersede_and_find", history_in_default_list, "history accumulated in a mutable default list across calls"),
]
WRONG += NEW_FROM_TEXT
