"""Turn a split into scorecard users with histories at a realistic scale (LongMemEval_S-shaped).

With a handful of memories per user, top 5 out of a handful can hardly miss and sending the whole
history costs almost nothing, so recall and the full-history baseline say little. Here every
user gets at least 40 dated sessions and enough statements for at least 500 stored memories:

* the split's items, dealt over the users so every item is asked once: an update's old statement
  in an early session and its new one in a late session; a keep's two statements; a fact and,
  much later, its withdrawal; facts; multi-session statements (each in its own session); temporal
  events (in a session dated after the event); follow-ups; abstention near misses;
* filler from the split's own haystack: small talk (nothing to remember), assistant replies, and
  statement templates filled from its vocabulary — other people's facts (near misses of the
  user's own), everyday happenings, the same topics at other times. Filler is added until the
  local server's distiller finds ``FILLER_FACTS`` facts in it: a split's templates may be
  phrased in ways that distiller does not keep, and those stay in the history as conversation
  (they still count in the full-history baseline), so every split reaches the same scale.

Every question carries its ability and evidence turns; a follow-up comes right after its first
question and is scored on that question's evidence (the seed's named limit, one search per turn
with no query rewriting, misses it). Updates, keeps and withdrawals are :class:`~.dataset.Tracked`,
so the scorecard can check which memories stay current. Everything is drawn from ``random.Random`` seeded by the
split's name and ``seed``: the same arguments give the same users, another seed fresh ones.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from collections.abc import Sequence
from typing import Any

from lesson_utils.cortadel.gating import estimate_tokens
from offline_reader.statements import Turn as DistillTurn, distill
from .dataset import Case, Question, Session, Tracked, Turn
from .splits import Split, load_split, template_slots

__all__ = ["SEED", "USERS", "SESSIONS", "FILLER_FACTS", "MIN_HISTORY_TOKENS", "assemble", "fresh_cases", "slice_cases",
           "load_cases"]

SEED = 0                 # the scorecard's own draw; fresh_cases refuses it
USERS = 12
SESSIONS = 44
FILLER_FACTS = 560  # facts the filler must hold per user, on top of the items (some are merged or superseded)
SMALL_TALK_PER_SESSION = 4
MIN_HISTORY_TOKENS = 10_500  # small talk is added until a user's whole history is at least this long
#: Turns that need no memory at all, asked after the questions to measure the gate. A property of
#: the harness, not of a split: the same few acknowledgements for every split.
PHATIC = ("Thanks!", "ok, got it", "great, thanks a lot!", "Good morning!", "cool", "see you later",
          "perfect, thank you", "nice!", "alright", "hello again", "sounds good")
START = date(2024, 1, 6)
SESSION_DAYS = 8
MONTHS = ("january february march april may june july august september october november december").split()
_MONTH = "(" + "|".join(MONTHS) + ")"
_DATES = (  # "3 March", "3rd of March"; "March 3", "March 3rd"
    (re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?(?: of)? " + _MONTH + r"\b", re.IGNORECASE), 1, 2),
    (re.compile(r"\b" + _MONTH + r" (\d{1,2})(?:st|nd|rd|th)?\b", re.IGNORECASE), 2, 1),
)


@dataclass
class _Said:
    session: int
    text: str
    tag: str | None = None  # a key that names the turn for questions and tracking


class _User:
    def __init__(self, index: int, sessions: int, rng: random.Random, user_prefix: str) -> None:
        self.user_id = f"{user_prefix}{index:02d}"
        self.sessions = sessions
        self.rng = rng
        self.said: list[_Said] = []
        self.questions: list[dict[str, Any]] = []
        self.tracked: list[dict[str, Any]] = []
        self.attributes: set[str] = set()
        self.start = START + timedelta(days=3 * index)

    def date_of(self, session: int) -> date:
        return self.start + timedelta(days=SESSION_DAYS * session)

    def say(self, text: str, lo: float = 0.0, hi: float = 1.0, tag: str | None = None, session: int | None = None) -> int:
        if session is None:
            first, last = int(lo * self.sessions), max(int(lo * self.sessions), int(hi * self.sessions) - 1)
            session = self.rng.randint(first, last)
        self.said.append(_Said(session, text, tag))
        return session


def assemble(
    split: Split, *, users: int = USERS, seed: int = SEED, sessions: int = SESSIONS,
    filler: int = FILLER_FACTS, user_prefix: str | None = None,
) -> list[Case]:
    """The split's items dealt over ``users`` users (more when one attribute has more updates than
    there are users: two updates of one attribute never share a user), each with a full haystack."""
    if sessions < 2:
        raise ValueError("a history needs at least two sessions (old values early, new ones late).")
    rng = random.Random(f"{split.name}:{seed}")
    by_attribute = Counter(u["attribute"] for u in split["updates"])
    count = max(users, max(by_attribute.values(), default=0))
    prefix = user_prefix if user_prefix is not None else f"{split.name or 'split'}-s{seed}-u"
    people = [_User(i, sessions, random.Random(f"{split.name}:{seed}:{i}"), prefix) for i in range(count)]
    _deal_updates(split, people, rng)
    for kind, place in _PLACERS.items():
        items = list(split[kind])
        rng.shuffle(items)
        for n, item in enumerate(items):
            place(people[(n + _offset(kind)) % count], item)
    return [_case(person, split, filler) for person in people]


def load_cases(split: str | Split = "dev", *, users: int | None = None, seed: int = SEED) -> list[Case]:
    """The scorecard's users for a split (by name or loaded), or only the first ``users`` of them
    (a slice: the items are always dealt over the full set, so a slice asks a share of them)."""
    loaded = load_split(split) if isinstance(split, str) else split
    return assemble(loaded, seed=seed)[:users]


def slice_cases(split: str = "dev", *, users: int = 1, sessions: int | None = None,
                per_ability: int | None = None, abilities: Sequence[str] | None = None) -> list[Case]:
    """The scorecard's first ``users`` users of ``split`` (44 sessions each), optionally cut to run in seconds.

    ``abilities`` keeps only questions of those abilities; ``per_ability`` keeps each user's first N questions of
    each ability. ``sessions`` cuts each history to about that many sessions: every session that holds a kept
    question's evidence (or a superseded turn) stays, even when there are more of those than ``sessions``, then
    sessions spread evenly over the rest of the history fill it up to ``sessions``, in their order. Kept questions
    and their evidence are unchanged; a tracked item (update, keep, withdrawal) stays when all its turns do.
    """
    if split not in ("dev", "test"):
        raise ValueError(f"split must be 'dev' or 'test', not {split!r}: tune on dev, report on test")
    cases = load_cases(split, users=users)
    if abilities is not None:
        cases = [Case(c.user_id, c.sessions, [q for q in c.questions if q.ability in abilities], c.phatic, c.tracked)
                 for c in cases]
    if per_ability:
        cases = [Case(c.user_id, c.sessions, _first_per_ability(c.questions, per_ability), c.phatic, c.tracked)
                 for c in cases]
    return [_cut(case, sessions) for case in cases] if sessions else cases


def _first_per_ability(questions: Sequence[Question], n: int) -> list[Question]:
    seen: dict[str, int] = {}
    kept = []
    for question in questions:
        seen[question.ability] = seen.get(question.ability, 0) + 1
        if seen[question.ability] <= n:
            kept.append(question)
    return kept


def _cut(case: Case, sessions: int) -> Case:
    needed = {uuid for q in case.questions for uuid in (*q.evidence, *q.superseded)}
    keep = {n for n, s in enumerate(case.sessions) if any(t.uuid in needed for t in s.turns)}
    others = [n for n in range(len(case.sessions)) if n not in keep]
    room = max(sessions - len(keep), 0)
    if room and others:
        step = len(others) / room
        keep |= {others[int(i * step)] for i in range(min(room, len(others)))}
    kept = [s for n, s in enumerate(case.sessions) if n in keep]
    turns = {t.uuid for s in kept for t in s.turns}
    tracked = [item for item in case.tracked if {*item.current, *item.not_current} <= turns]
    return Case(case.user_id, kept, case.questions, case.phatic, tracked)


def fresh_cases(split: Split, seed: int, *, users: int = USERS) -> list[Case]:
    """New users from the same split, drawn with a seed other than the scorecard's own (a capstone
    grades on these: same items, new histories, placements and user ids)."""
    if seed == SEED:
        raise ValueError(f"seed {SEED} is the scorecard's own draw; pick any other seed for fresh cases.")
    return assemble(split, users=users, seed=seed, user_prefix=f"{split.name or 'split'}-fresh{seed}-u")


def _offset(kind: str) -> int:
    """Start each kind at another user, so the first users do not get one of everything first."""
    return list(_PLACERS).index(kind) * 5


def _deal_updates(split: Split, people: list[_User], rng: random.Random) -> None:
    items = list(split["updates"])
    rng.shuffle(items)
    for item in items:
        free = [p for p in people if item["attribute"] not in p.attributes]
        person = min(free, key=lambda p: (sum(t["kind"] == "update" for t in p.tracked), people.index(p)))
        person.attributes.add(item["attribute"])
        old, new = f"{item['id']}:old", f"{item['id']}:new"
        person.say(item["old"], 0.0, 0.34, old)
        person.say(item["new"], 0.67, 1.0, new)
        person.questions.append({"id": item["id"], "ability": "knowledge_update", "question": item["question"],
                                 "answer": item["answer"], "evidence": [new], "superseded": [old],
                                 "superseded_answer": item["old_answer"]})
        person.tracked.append({"id": item["id"], "kind": "update", "current": [new], "not_current": [old],
                               "current_text": item["answer"], "not_current_text": item["old_answer"]})


def _place_keep(person: _User, item: dict[str, Any]) -> None:
    first, second = f"{item['id']}:first", f"{item['id']}:second"
    person.say(item["first"], 0.0, 0.5, first)
    person.say(item["second"], 0.5, 1.0, second)
    person.tracked.append({"id": item["id"], "kind": "keep", "current": [first, second], "not_current": []})


def _place_withdrawal(person: _User, item: dict[str, Any]) -> None:
    fact, gone = f"{item['id']}:fact", f"{item['id']}:withdrawal"
    person.say(item["fact"], 0.0, 0.34, fact)
    person.say(item["withdrawal"], 0.67, 1.0, gone)
    person.questions.append({"id": item["id"], "ability": "withdrawal", "question": item["question"],
                             "answer": None, "evidence": [], "superseded": [fact]})
    person.tracked.append({"id": item["id"], "kind": "withdrawal", "current": [], "not_current": [fact]})


def _place_fact(person: _User, item: dict[str, Any]) -> None:
    tag = f"{item['id']}:said"
    person.say(item["statement"], tag=tag)
    person.questions.append({"id": item["id"], "ability": "information_extraction", "question": item["question"],
                             "answer": item["answer"], "evidence": [tag]})


def _place_multi(person: _User, item: dict[str, Any]) -> None:
    statements = item["statements"]
    chosen = person.rng.sample(range(person.sessions), len(statements))
    tags = [f"{item['id']}:{n}" for n in range(len(statements))]
    for session, text, tag in zip(chosen, statements, tags, strict=True):
        person.say(text, tag=tag, session=session)
    person.questions.append({"id": item["id"], "ability": "multi_session", "question": item["question"],
                             "answer": item["answer"], "evidence": tags})


def _place_temporal(person: _User, item: dict[str, Any]) -> None:
    used: set[int] = set()
    tags = []
    for n, event in enumerate(item["events"]):
        session = _session_after(person, event["statement"], used)
        used.add(session)
        tags.append(f"{item['id']}:{n}")
        person.say(event["statement"], tag=tags[-1], session=session)
    person.questions.append({"id": item["id"], "ability": "temporal_reasoning", "question": item["question"],
                             "answer": item["answer"], "evidence": tags})


def _session_after(person: _User, statement: str, used: set[int]) -> int:
    """The first free session dated on or after the date the statement names (any free one if none)."""
    free = [s for s in range(person.sessions) if s not in used]
    for pattern, day_group, month_group in _DATES:
        found = pattern.search(statement)
        if not found:
            continue
        day = int(found.group(day_group))
        month = MONTHS.index(found.group(month_group).lower()) + 1
        for year in (person.start.year, person.start.year + 1):
            try:
                when = date(year, month, day)
            except ValueError:
                break
            later = [s for s in free if person.date_of(s) >= when]
            if later and when >= person.start:
                return later[0]
    return person.rng.choice(free)


def _place_abstention(person: _User, item: dict[str, Any]) -> None:
    if item.get("near_miss"):
        person.say(item["near_miss"])
    person.questions.append({"id": item["id"], "ability": "abstention", "question": item["question"],
                             "answer": None, "evidence": []})


def _place_follow_up(person: _User, item: dict[str, Any]) -> None:
    tag = f"{item['id']}:said"
    person.say(item["statement"], tag=tag)
    person.questions.append({"id": f"{item['id']}-first", "ability": "information_extraction",
                             "question": item["first_question"], "answer": item.get("first_answer"),
                             "evidence": [tag]})
    person.questions.append({"id": f"{item['id']}-follow", "ability": "follow_up", "question": item["follow_up"],
                             "answer": item["answer"], "evidence": [tag]})


_PLACERS = {
    "keeps": _place_keep, "withdrawals": _place_withdrawal, "facts": _place_fact, "multi_session": _place_multi,
    "temporal": _place_temporal, "abstention": _place_abstention, "follow_ups": _place_follow_up,
}


@lru_cache(maxsize=65_536)
def _facts_in(text: str) -> int:
    """How many facts the local server's distiller takes from ``text`` said by the user."""
    return len(distill([DistillTurn("user", text)]))


def _fill(template: str, vocab: dict[str, list[str]], rng: random.Random) -> str:
    return template.format(**{slot: rng.choice(vocab[slot]) for slot in template_slots(template)})


def _case(person: _User, split: Split, filler: int) -> Case:
    hay, rng = split.haystack, person.rng
    seen = {s.text for s in person.said}
    facts = tries = 0
    while facts < filler and tries < 50 * filler:  # distinct statements only (a repeat is a duplicate)
        tries += 1
        text = _fill(rng.choice(hay["templates"]), hay["vocab"], rng)
        if text not in seen:
            seen.add(text)
            person.say(text)
            facts += _facts_in(text)
    small = [t for t in hay["small_talk"] if t not in seen]
    for session in range(person.sessions):
        for text in rng.sample(small, min(SMALL_TALK_PER_SESSION, len(small))):
            person.say(text, session=session)
    sessions, tags = _sessions(person, hay["assistant_replies"])
    while sum(estimate_tokens(t.content) for s in sessions for t in s.turns) < MIN_HISTORY_TOKENS:
        person.say(rng.choice(small), session=rng.randrange(person.sessions))
        sessions, tags = _sessions(person, hay["assistant_replies"])

    def turns(keys: list[str]) -> list[str]:
        return [tags[k] for k in keys]

    questions = [
        Question(f"{person.user_id}-{q['id']}", q["ability"], q["question"], q.get("answer"), turns(q["evidence"]),
                 turns(q.get("superseded", [])), q.get("superseded_answer"))
        for q in person.questions
    ]
    tracked = [Tracked(t["id"], t["kind"], turns(t["current"]), turns(t["not_current"]), t.get("current_text"),
                       t.get("not_current_text")) for t in person.tracked]
    return Case(person.user_id, sessions, questions, rng.sample(PHATIC, 2), tracked)


def _sessions(person: _User, replies: list[str]) -> tuple[list[Session], dict[str, str]]:
    """Dated sessions of user turns (in a seeded order), each followed by an assistant reply; and
    the uuid of each tagged turn."""
    order = random.Random(f"{person.user_id}:{len(person.said)}")
    per: list[list[_Said]] = [[] for _ in range(person.sessions)]
    for said in person.said:
        per[said.session].append(said)
    tags: dict[str, str] = {}
    out = []
    for n, said_here in enumerate(per):
        order.shuffle(said_here)
        session_id = f"{person.user_id}-s{n:02d}"
        rows: list[Turn] = []
        for said in said_here:
            uuid = f"{session_id}-t{len(rows)}"
            rows.append(Turn(uuid, "user", said.text))
            if said.tag:
                tags[said.tag] = uuid
            reply = " ".join(order.sample(replies, order.randint(1, 3)))
            rows.append(Turn(f"{session_id}-t{len(rows)}", "assistant", reply))
        out.append(Session(session_id, person.date_of(n).isoformat(), rows))
    return out, tags
