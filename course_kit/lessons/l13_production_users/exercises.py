"""Lesson 13's exercise: a per-user provider cache that keeps at most M providers and closes what it evicts.

A provider is bound to one user and holds a connection pool, so an app keeps one per user — but not one
for every user who ever came by. The learner writes ``ProviderCache(new_provider, max_users)`` whose
``await get(user)`` returns the user's provider (the same object while it is kept), evicts and closes the
least recently used one when a new user would make ``max_users + 1``, and whose ``await aclose()`` closes
what is left.

The check replays a drawn sequence of users against a reference LRU (:class:`collections.OrderedDict`) and
watches every provider the caller's ``new_provider`` made: which user it was made for and how often it was
closed. The sequence always holds a user used again just before the cache is full, so evicting the oldest
*arrival* instead of the least recently *used* one is caught. Two caches with different ``max_users`` (one
from 2–3, one from 4–5) share one ``new_provider``: a hard-coded ``M`` fits one at most, and state on the
class or the module shows as one cache handing out the other's providers. A user evicted and back asks in a
new session, on the offline lesson model and a fresh local memory server, and must still be told what they
said: memories live on the server, not in the provider.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from agent_framework import Agent

from lesson_utils.cortadel import CortadelContextProvider
from chat_models.offline import OfflineChatClient
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

USERS = ("chidi", "marta", "oskar", "priya", "tomasz", "yuki", "zara", "ines", "kofi", "lena", "rafael", "siobhan")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
QUESTION = "When do I usually ship?"
INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


class _Watched(CortadelContextProvider):
    """The check's provider: it knows the user it was made for and counts how often it was closed."""

    def __init__(self, url: str, user: str) -> None:
        super().__init__(url, user)
        self.made_for = user
        self.closes = 0
        self.open_at_birth: list[_Watched] = []

    async def aclose(self) -> None:
        self.closes += 1
        await super().aclose()


@exercise("13.provider_cache", title="a per-user provider cache: at most M kept, the least recently used closed")
async def check_provider_cache(cache_class: Any) -> None:
    from local_memory_server import start_memory_server

    if not isinstance(cache_class, type):
        raise Hint("pass the class itself: check(\"13.provider_cache\", ProviderCache)")
    made: list[_Watched] = []
    # The offline reader: a check judges your code the same whatever model .env configures.
    server = start_memory_server(understanding="offline")

    def new_provider(user: str) -> _Watched:
        open_now = [provider for provider in made if provider.closes == 0]
        made.append(_Watched(server.url, user))
        made[-1].open_at_birth = open_now  # which providers were still open when this one was made
        return made[-1]

    try:
        with drawn_cases() as rng:
            sizes = (rng.randint(2, 3), rng.randint(4, 5))
            caches = [await call_learner(cache_class, new_provider, max_users=m,
                                         what="`ProviderCache(new_provider, max_users)`") for m in sizes]
            days = dict(zip(("first", "evicted"), rng.sample(DAYS, 2), strict=True))
            first = await _replay(caches[0], sizes[0], rng.sample(USERS, sizes[0] + 2), made, rng, days)
            # The second cache starts with the users the first still keeps: it must build its own providers for them.
            others = rng.sample([user for user in USERS if user not in first], sizes[1] + 2 - len(first))
            second = await _replay(caches[1], sizes[1], [*first, *others], made, rng, None)
            for cache, kept in zip(caches, (first, second), strict=True):
                await call_learner(cache.aclose, what="`aclose`")
                still_open = [user for user, provider in kept.items() if provider.closes == 0]
                if still_open:
                    raise Hint(f"after cache.aclose() the providers of {still_open} were still open: close every "
                               "provider the cache keeps")
    finally:
        for provider in made:
            await CortadelContextProvider.aclose(provider)
        server.stop()


async def _replay(cache: Any, m: int, users: list[str], made: list[_Watched], rng: Any,
                  days: dict[str, str] | None) -> OrderedDict[str, _Watched]:
    """Get providers for a drawn sequence of users; after each get, compare with a reference LRU of size ``m``."""
    # m users, the first used again (so the least recently used is the second, not the first to arrive), one more
    # (evicting the second), the second back (evicted and returning), then a drawn tail.
    sequence = [*users[:m], users[0], users[m], users[1], *(rng.choice(users) for _ in range(2 * m))]
    model: OrderedDict[str, _Watched] = OrderedDict()
    evicted: list[_Watched] = []
    for step, user in enumerate(sequence):
        before = len(made)
        provider = await call_learner(cache.get, user, what="`get`")
        new = made[before:]
        _same_user(provider, user, made)
        if user in model:
            if provider is not model[user]:
                raise Hint(f"get({user!r}) gave a new provider though {user!r} was still kept (max_users={m}): "
                           "return the kept one — and evict the least recently used, not another")
            model.move_to_end(user)
        else:
            if len(new) != 1 or provider is not new[0]:
                raise Hint(f"get({user!r}) for a user this cache does not keep should call new_provider({user!r}) "
                           f"once and return what it made (it made {len(new)}) — a second cache shares nothing "
                           "with the first: keep the providers on the instance")
            if len(model) == m:
                lru = next(iter(model.values()))
                if lru.closes and any(lru is other for other in provider.open_at_birth):  # right one, too late
                    raise Hint(f"get({user!r}) (max_users={m}) called new_provider while the least recently used "
                               f"provider ({lru.made_for!r}) was still open: max_users + 1 providers were open at "
                               "once — evict and await its aclose() first, then make the new one")
            model[user] = provider
        evicting = len(model) > m
        if evicting:
            evicted.append(model.popitem(last=False)[1])
        _closed_as_expected(model, evicted, m, user, evicting)
        if days is not None:
            await _remember(provider, user, step, users, days)
    return model


def _same_user(provider: Any, user: str, made: list[_Watched]) -> None:
    if not any(provider is mine for mine in made):
        raise Hint(f"get({user!r}) returned {type(provider).__name__}, not the provider new_provider({user!r}) made")
    if provider.made_for != user:
        raise Hint(f"get({user!r}) returned the provider made for {provider.made_for!r}: a user must never get "
                   "another user's provider — key the cache by user")
    if provider.closes:
        raise Hint(f"get({user!r}) returned a provider that was already closed: a user who was evicted gets a fresh "
                   "one from new_provider")


def _closed_as_expected(model: OrderedDict[str, _Watched], evicted: list[_Watched], m: int, user: str,
                        evicting: bool) -> None:
    wrongly_closed = [name for name, provider in model.items() if provider.closes]
    if wrongly_closed and not evicting:
        raise Hint(f"after get({user!r}) the provider of {wrongly_closed[0]!r} was closed though the cache held "
                   f"only {len(model)} user(s) and max_users={m}: evict only when one more user would make "
                   "max_users + 1 — read max_users, don't hard-code it")
    if wrongly_closed:
        raise Hint(f"after get({user!r}) (max_users={m}) the provider of {wrongly_closed[0]!r}, still in use, was "
                   f"closed; the least recently used was {evicted[-1].made_for!r}: evict the user whose provider "
                   "get returned longest ago (a get counts as a use)")
    for provider in evicted:
        if provider.closes == 0:
            raise Hint(f"after get({user!r}) with max_users={m}, the provider of {provider.made_for!r} (the least "
                       "recently used) was still open: evict it and await its aclose() — read max_users, don't "
                       "hard-code it")


async def _remember(provider: _Watched, user: str, step: int, users: list[str], days: dict[str, str]) -> None:
    """The first user and the second (evicted, then back) each say their day once; the second asks on return."""
    first, second = users[0], users[1]
    agent = Agent(client=OfflineChatClient(), instructions=INSTRUCTIONS, context_providers=[provider])
    if step in (0, 1):
        said = days["first"] if user == first else days["evicted"]
        await agent.run(f"I ship on {said}s.", session=agent.create_session())
    elif user == second and step == len(users):  # the evicted user's return: sequence index m + 2 = len(users)
        reply = await agent.run(QUESTION, session=agent.create_session())
        if days["first"] in reply.text:
            raise Hint(f"{second!r} was told {first!r}'s day: their memories are mixed — one provider per user")
        if days["evicted"] not in reply.text:
            raise Hint(f"{second!r} came back after eviction, asked {QUESTION!r} in a new session and was not told "
                       f"{days['evicted']!r}: the fresh provider should come from new_provider({second!r})")
