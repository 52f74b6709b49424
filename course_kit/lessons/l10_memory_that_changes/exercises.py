"""Lesson 10's exercise: make a new fact supersede an old one, and find the old one again.

The learner writes ``async def move(client, new_city)`` with the official ``cortadel`` SDK. The
check starts a throwaway local memory server, tells it (as the user, through a conversation)
where the user lives now, hands the learner an SDK client for that user, and then asks the
server — not the learner's code — what happened:

* search must find only the new city (the new fact superseded the old one);
* the old fact must still be stored, with ``is_current=False`` and ``superseded_by`` pointing
  at the new one (superseded, not deleted);
* the learner's return value must be that old memory (found again through the history), not
  the current one.

The cities are drawn per run (:mod:`._cases`), so an answer that hard-codes Lyon and Porto does not
pass. Other facts of the user are superseded too, one before and one after the home fact was stored
(a job, a favourite colour), so "any item that is not current" is not the answer; an item listed
before the move still says ``is_current=True`` and is not accepted either. The function is called twice, for
two users, so items kept between calls (a mutable default, the module) come back as the wrong user's memory.
"""

from __future__ import annotations

from typing import Any

from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

CITIES = ("Tallinn", "Quito", "Gdansk", "Valencia", "Leipzig", "Bergen", "Kyoto", "Tucson")
JOBS = ("a baker", "a nurse", "a carpenter", "a teacher", "a pilot", "an architect")
COLOURS = ("green", "blue", "orange", "purple", "yellow", "red")


def _id_of(answer: Any) -> str | None:
    """The memory id in what the learner returned: an SDK item, a detail, a dict or the id itself."""
    if isinstance(answer, str):
        return answer
    if isinstance(answer, dict):
        return answer.get("id")
    return getattr(answer, "id", None)


@exercise("10.supersede_and_find", title="Supersede a fact, then find the old one again")
async def check_supersede_and_find(move: Any) -> None:


    if not callable(move):
        raise Hint("pass your function itself: check('10.supersede_and_find', move)")
    with drawn_cases() as rng:
        # twice in this process, for two users: what one call found must not be what the next one returns
        for _user in range(2):
            await _move_and_find(move, rng)


async def _move_and_find(move: Any, rng: Any) -> None:
    from cortadel import ChatMessage, CortadelClient, ListOptions, SearchOptions

    from local_memory_server import start_memory_server

    old_city, new_city = rng.sample(CITIES, 2)
    old_job, new_job = rng.sample(JOBS, 2)
    old_colour, new_colour = rng.sample(COLOURS, 2)
    user = f"learner-{rng.randrange(10_000)}"
    # The offline reader: a check judges your code the same whatever model .env configures.
    with start_memory_server(understanding="offline") as server:
        async with CortadelClient(server.url, user) as client:
            await client.add_conversation([ChatMessage("user", f"I work as {old_job}.")])
            seeded = await client.add_conversation([ChatMessage("user", f"I live in {old_city}. I like tea.")])
            old_id = next((r.id for r in seeded.results or [] if r.id and old_city in (r.memory or "")), None)
            if old_id is None:  # the check's own set-up: the server must have stored the seeded fact
                raise RuntimeError(f"the server stored no fact for 'I live in {old_city}'")
            await client.add_conversation([ChatMessage("user", f"I work as {new_job} now.")])
            await client.add_conversation([ChatMessage("user", f"My favourite colour is {old_colour}.")])
            await client.add_conversation([ChatMessage("user", f"My favourite colour is {new_colour} now.")])
            answer = await call_learner(move, client, new_city, what="`move(client, new_city)`")

            hits = (await client.search("Where does the user live?", SearchOptions(top_k=5))).results
            history = (await client.list(ListOptions(include_superseded=True, size=100))).items
            old = await client.get(old_id)

        if old is None or all(old_city not in item.content for item in history):
            raise Hint(f"the fact that the user lived in {old_city} is gone: deleting it loses the history. "
                       "Just store the new fact; the server supersedes the old one and keeps it")
        if not any(new_city in hit.content for hit in hits):
            raise Hint(f"search does not find {new_city}: store the move as a fact about the user, "
                       f"e.g. client.add('I live in {new_city} now')")
        if any(old_city in hit.content for hit in hits) or old.is_current is not False:
            raise Hint(f"search still finds {old_city}: the new fact did not supersede the old one. "
                       "Store it with inference on (no infer=False) so the server checks it against current facts")
        returned = _id_of(answer)
        if returned is None:
            raise Hint("you returned nothing: return the old memory (an item from client.list, or its id). The old "
                       "city is drawn per run, so do not look for a name: list with "
                       "ListOptions(include_superseded=True) (a plain list shows current memories only) and pick the "
                       "item about where the user lives whose is_current is False")
        if getattr(answer, "is_current", None) is True and returned == old_id:
            raise Hint(f"you returned the fact about {old_city} as it was listed before the move (it still says "
                       "is_current=True): find it again after the move, in the history, where it is superseded")
        if returned != old_id and returned not in {item.id for item in history}:
            raise Hint("you returned a memory that is not this user's at all (this call is for another user, on "
                       "another server): it was kept from an earlier call — list the history inside the function, "
                       "in local variables, not in a default argument, the module or the class")
        if returned != old_id:
            mentioned = next((item for item in history if item.id == returned), None)
            if mentioned is not None and mentioned.is_current:
                raise Hint("that is the current memory. In the history the old one has is_current=False: "
                           "check that field instead of relying on the order of the list")
            raise Hint(f"that is not the superseded memory about {old_city} (other facts of the user were "
                       "superseded too): list with "
                       "ListOptions(include_superseded=True) and pick the item about where the user lives whose "
                       "is_current is False")
        if old.superseded_by is None or all(new_city not in item.content for item in history
                                            if item.id == old.superseded_by):
            raise Hint(f"the old memory is no longer current, but not superseded by the fact about {new_city}")
