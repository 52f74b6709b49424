"""Wrong answers to 13.provider_cache, written from the exercise text only.

Each cache hands out one provider per user and reuses it while few users come by, and breaks one rule: the
same object while kept, at most max_users kept, the least recently used (by get) evicted first and closed,
a returning user given a fresh provider, aclose() closing every kept provider, and two caches sharing nothing.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

from collections import OrderedDict


class EvictsMostRecent:
    """Evicts the most recently used provider instead of the least recently used one."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            _, evicted = self.providers.popitem(last=True)
            await evicted.aclose()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        while self.providers:
            _, provider = self.providers.popitem(last=False)
            await provider.aclose()


class FirstInFirstOut:
    """A get of a kept user does not refresh it: the oldest added is evicted, even when it was just used."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = {}

    async def get(self, user: str):
        if user in self.providers:
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            oldest = next(iter(self.providers))
            await self.providers.pop(oldest).aclose()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()


class EvictedNotClosed:
    """Drops the least recently used provider from the dict without awaiting its aclose()."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            self.providers.popitem(last=False)
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()


class KeepsOneTooMany:
    """Evicts only when more than max_users are already kept: max_users + 1 providers stay open."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) > self.max_users:
            _, evicted = self.providers.popitem(last=False)
            await evicted.aclose()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()


class KeepsOneTooFew:
    """Adds the new provider first, then evicts while len >= max_users: only max_users - 1 are kept."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        provider = self.providers[user] = self.new_provider(user)
        while len(self.providers) >= self.max_users:
            _, evicted = self.providers.popitem(last=False)
            await evicted.aclose()
            if evicted is provider:
                break
        return provider

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()


class ClassLevelProviders:
    """The providers dict is a class attribute: two caches share (and evict) each other's providers."""

    providers: OrderedDict = OrderedDict()  # noqa: RUF012 - the mistake this wrong answer makes

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            _, evicted = self.providers.popitem(last=False)
            await evicted.aclose()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        while self.providers:
            _, provider = self.providers.popitem(last=False)
            await provider.aclose()


class AcloseForgets:
    """aclose() empties the cache without closing the providers still kept."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            _, evicted = self.providers.popitem(last=False)
            await evicted.aclose()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        self.providers.clear()


class ReturnsClosedProvider:
    """Remembers evicted providers and hands the closed one back to a returning user instead of a fresh one."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()
        self.evicted = {}

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            old_user, old = self.providers.popitem(last=False)
            await old.aclose()
            self.evicted[old_user] = old
        provider = self.evicted.pop(user, None) or self.new_provider(user)
        self.providers[user] = provider
        return provider

    async def aclose(self) -> None:
        for provider in self.providers.values():
            await provider.aclose()
        self.providers.clear()


WRONG = [
    ("13.provider_cache", EvictsMostRecent, "evicts the most recently used"),
    ("13.provider_cache", FirstInFirstOut, "FIFO: a get does not refresh recency"),
    ("13.provider_cache", EvictedNotClosed, "evicted provider not closed"),
    ("13.provider_cache", KeepsOneTooMany, "keeps max_users + 1"),
    ("13.provider_cache", KeepsOneTooFew, "keeps max_users - 1"),
    ("13.provider_cache", ClassLevelProviders, "providers dict on the class"),
    ("13.provider_cache", AcloseForgets, "aclose does not close kept providers"),
    ("13.provider_cache", ReturnsClosedProvider, "returning user gets the closed provider"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class _Lru:
    """A correct LRU cache of providers; each answer below changes one step."""

    def __init__(self, new_provider, max_users: int) -> None:
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = OrderedDict()

    async def _evict_one(self) -> None:
        _, evicted = self.providers.popitem(last=False)
        await evicted.aclose()

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        while len(self.providers) >= self.max_users and self.providers:
            await self._evict_one()
        provider = self.providers[user] = self.new_provider(user)
        return provider

    async def aclose(self) -> None:
        while self.providers:
            _, provider = self.providers.popitem(last=False)
            await provider.aclose()


class EvictsOnEveryGetWhenFull(_Lru):
    """Checks "full?" before "kept?": when full, even a get for a kept user first evicts the least recently used."""

    async def get(self, user: str):
        if len(self.providers) >= self.max_users and self.providers:
            oldest = next(iter(self.providers))
            if oldest != user:
                await self._evict_one()
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        provider = self.providers[user] = self.new_provider(user)
        return provider


class BuildsBeforeEvicting(_Lru):
    """Builds the new user's provider first and evicts afterwards: max_users + 1 providers are open for a moment."""

    async def get(self, user: str):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        provider = self.providers[user] = self.new_provider(user)
        while len(self.providers) > self.max_users:
            await self._evict_one()
        return provider


class ProvidersInDefaultArgument(_Lru):
    """Keeps the providers in a mutable default argument: two caches share one dict."""

    def __init__(self, new_provider, max_users: int, providers=OrderedDict()) -> None:  # noqa: B006 - the mistake
        self.new_provider = new_provider
        self.max_users = max_users
        self.providers = providers


NEW_FROM_TEXT = [
    (
        "13.provider_cache",
        EvictsOnEveryGetWhenFull,
        "when full, a get for a kept user still evicts (boundary check first)",
    ),
    ("13.provider_cache", BuildsBeforeEvicting, "new provider built before the eviction: M + 1 open at once"),
    (
        "13.provider_cache",
        ProvidersInDefaultArgument,
        "providers dict as a mutable default argument (shared by caches)",
    ),
]
WRONG += NEW_FROM_TEXT
