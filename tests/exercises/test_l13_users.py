"""13.provider_cache: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

from collections import OrderedDict
from typing import ClassVar

import pytest

from course_kit.exercises import check


class Solution:
    def __init__(self, new_provider, max_users):
        self.new_provider, self.max_users = new_provider, max_users
        self.providers = OrderedDict()

    async def get(self, user):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            _, oldest = self.providers.popitem(last=False)
            await oldest.aclose()
        self.providers[user] = self.new_provider(user)
        return self.providers[user]

    async def aclose(self):
        while self.providers:
            await self.providers.popitem()[1].aclose()


class Stub:
    def __init__(self, new_provider, max_users):
        self.new_provider = new_provider

    async def get(self, user):
        raise NotImplementedError

    async def aclose(self):
        raise NotImplementedError


class NoEviction(Solution):
    async def get(self, user):
        if user not in self.providers:
            self.providers[user] = self.new_provider(user)
        return self.providers[user]


class EvictsWithoutClosing(Solution):
    async def get(self, user):
        if user in self.providers:
            self.providers.move_to_end(user)
            return self.providers[user]
        if len(self.providers) >= self.max_users:
            self.providers.popitem(last=False)
        self.providers[user] = self.new_provider(user)
        return self.providers[user]


class EvictsFirstArrival(Solution):
    async def get(self, user):
        if user in self.providers:
            return self.providers[user]  # use does not count
        return await super().get(user)


class EvictsNewest(Solution):
    async def get(self, user):
        if user not in self.providers and len(self.providers) >= self.max_users:
            _, newest = self.providers.popitem(last=True)
            await newest.aclose()
        return await super().get(user)


class OneProviderForAll(Solution):
    async def get(self, user):
        if not self.providers:
            self.providers["all"] = self.new_provider(user)
        return self.providers["all"]


class HardCodedThree(Solution):
    def __init__(self, new_provider, max_users):
        super().__init__(new_provider, 3)


class SharedAcrossCaches(Solution):
    shared: ClassVar[OrderedDict] = OrderedDict()  # one dict for every cache

    def __init__(self, new_provider, max_users):
        self.new_provider, self.max_users = new_provider, max_users
        self.providers = self.shared


class AcloseForgets(Solution):
    async def aclose(self):
        self.providers.clear()


def test_the_solution_passes(capsys):
    assert check("13.provider_cache", Solution) is True
    assert "\u2705 13.provider_cache" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in `get` first"),
        (NoEviction, "the least recently used) was still open"),
        (EvictsWithoutClosing, "await its aclose()"),
        (EvictsFirstArrival, "a get counts as a use"),
        (EvictsNewest, "still in use, was closed"),
        (OneProviderForAll, "another user's provider"),
        (HardCodedThree, "max_users"),
        (SharedAcrossCaches, "shares nothing"),
        (AcloseForgets, "after cache.aclose()"),
        (Solution(None, 2), "pass the class itself"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("13.provider_cache", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("13.provider_cache", Solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
