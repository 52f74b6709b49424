"""Lesson 16's exercise: choosing a memory design from measured rows, under a budget of model calls per turn.

``16.pick_a_design``: the learner writes ``pick(rows, ability, max_calls)`` returning the name of the design with
the highest evidence recall on ``ability`` among those making at most ``max_calls`` model calls per turn (ties go
to fewer tokens sent per turn), or ``None`` when no design fits. The check builds tables the lesson never showed
(design names, figures, abilities and budgets drawn per run), each made so one classic mistake picks wrongly:
ignoring the budget, taking the cheapest, reading another ability's rows, never answering ``None``, breaking a
tie the wrong way.

``16.measure_a_design``: the learner writes the measurement behind every cost column, for one design:
``measure(make_agent, client, questions)`` builds one agent with ``make_agent(client)``, asks each question in a
new session, and returns one ``(tokens, calls)`` pair per question: the model calls the client was sent while that
question ran (a provider's own calls included) and the tokens they carried, counted as
:func:`~memory_evaluation.designs.tokens_sent` counts them. The check draws three designs the lesson
never built (no memory, topic memory that extracts after every turn, file memory the model edits with tools), each
with drawn instructions, users, facts and questions, and compares the learner's figures, question by question, with
the course's own measurement of a twin of the same design (the offline model is deterministic): so a constant table,
one call per question, the reply's tokens, running totals or one shared session are each caught.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agent_framework import (Agent, ContextProvider, FileMemoryProvider, InMemoryAgentFileStore, MemoryContextProvider,
                             MemoryFileStore)

from memory_evaluation.designs import DesignRow, tokens_sent
from chat_models.request_reading import record_every_call
from chat_models.offline import OfflineChatClient
from chat_models.text import token_count
from ...exercises._cases import draw, drawn_cases, with_seed
from ...exercises._registry import Hint, call_learner, exercise

NAMES = ("topic files", "vector history", "profile store", "episodic log", "summary memory", "graph memory",
         "hybrid recall", "tool memory", "window + facts", "journal")
ABILITIES = ("information_extraction", "multi_session", "knowledge_update", "temporal_reasoning")


def _row(name: str, ability: str, recall: float, calls: float, tokens: int) -> DesignRow:
    turns = 10
    hits = round(recall * 20)
    return DesignRow(name, ability, questions=20, recalled=[True] * hits + [False] * (20 - hits), turns=turns,
                     tokens=tokens * turns, calls=round(calls * turns))


def reference(rows: list[DesignRow], ability: str, max_calls: float) -> str | None:
    """The design the check expects (the lesson's rule, written once)."""
    fitting = [r for r in rows if r.ability == ability and r.evidence_recall is not None and r.per_turn(r.calls) <= max_calls]
    if not fitting:
        return None
    best = max(fitting, key=lambda r: (r.evidence_recall or 0.0, -r.per_turn(r.tokens)))
    return best.design


LESSON_PICK = "Cortadel provider"  # the lesson's recommendation: in every "budget" table, within budget and not best


def _table(rng: random.Random, trap: str, tie_first: bool, ability: str | None = None,
           budget: float | None = None) -> tuple[list[DesignRow], str, float]:
    ability, other = (ability, rng.choice([a for a in ABILITIES if a != ability])) if ability else rng.sample(ABILITIES, 2)
    names = rng.sample(NAMES, 5)
    budget = budget if budget is not None else rng.choice((1.5, 2.0, 2.5, 3.0))
    recalls = sorted(rng.sample([0.35, 0.45, 0.55, 0.65, 0.75, 0.85], 3), reverse=True)
    # In a "budget" table the right answer makes exactly max_calls calls per turn: "at most" includes equal.
    right_calls = budget if trap == "budget" else budget - 0.5
    rows = [
        _row(names[0], ability, recalls[0] + 0.1, budget + rng.choice((0.5, 1.0, 2.0)), rng.randint(900, 2000)),  # best, over budget
        _row(names[1], ability, recalls[0], right_calls, rng.randint(400, 800)),  # the right answer
        _row(names[2], ability, recalls[2], 1.0, rng.randint(90, 200)),  # cheapest, lower recall
        _row(names[4], ability, 0.1, 1.0, rng.randint(300, 380)),  # leads on the other ability only
    ]
    if trap == "budget":  # the best strictly under the budget (what "< max_calls" picks), and the lesson's pick
        rows.append(_row(names[3], ability, recalls[1], budget - 0.5, rng.randint(400, 800)))
        rows.append(_row(LESSON_PICK, ability, recalls[2], 1.0, rng.randint(250, 380)))
    if trap == "tie":
        rows.append(_row(names[3], ability, recalls[0], budget, int(rows[1].per_turn(rows[1].tokens)) + rng.randint(50, 300)))
    if trap == "none":
        budget = 0.5
    rows += [_row(r.design, other, 1.0 if r.design == names[4] else 0.2, r.per_turn(r.calls), int(r.per_turn(r.tokens)))
             for r in rows]  # another ability, led by a design that is poor on this one
    rng.shuffle(rows)
    if trap == "tie":  # the tied design with more tokens before the right one in one table, after it in the next
        tied = next(r for r in rows if r.design == names[3] and r.ability == ability)
        right = next(r for r in rows if r.design == names[1] and r.ability == ability)
        rows.remove(tied)
        rows.insert(rows.index(right) + (0 if tie_first else 1), tied)
    return rows, ability, budget


TRAPS = ("budget", "tie", "none")


@exercise("16.pick_a_design", title="pick the design with the best recall within a budget of model calls")
async def check_pick_a_design(pick: Any) -> None:
    rng, seed = draw()
    tables = [(trap, _table(rng, trap, tie_first=round_ % 2 == 0)) for round_ in range(4) for trap in TRAPS]
    # and last, a new table with the first one's ability and budget but another answer: a pick remembered between
    # calls (cached per ability and budget, say) shows
    _first_rows, first_ability, first_budget = tables[0][1]
    first_wanted = reference(_first_rows, first_ability, first_budget)
    while True:
        again = _table(rng, tables[0][0], tie_first=False, ability=first_ability, budget=first_budget)
        if reference(*again) != first_wanted:
            break
    tables.append(("again", again))
    # and a table where the only design within budget measured no question of the ability (evidence_recall None):
    # it is no candidate, so the answer is None
    rows, ability, budget = _table(rng, "none", tie_first=False)
    unmeasured = rng.choice([n for n in NAMES if all(r.design != n for r in rows)])
    rows.insert(rng.randrange(len(rows) + 1),
                DesignRow(unmeasured, ability, questions=0, recalled=[], turns=10, tokens=30000, calls=5))
    tables.append(("unmeasured", (rows, ability, budget)))
    earlier: dict[tuple[str, float], str | None] = {}
    for _trap, (rows, ability, budget) in tables:
        try:
            chosen = await call_learner(pick, list(rows), ability, budget, what="your `pick`")
        except Hint as hint:  # the learner's function raised: the hint names the seed too
            raise Hint(with_seed(str(hint), seed)) from None
        if chosen is not None and not isinstance(chosen, str):
            raise Hint(with_seed(f"pick returned {type(chosen).__name__}; return a design's name (row.design) or None", seed))
        wanted = reference(rows, ability, budget)
        if chosen == wanted:
            earlier.setdefault((ability, budget), wanted)
            continue
        if earlier.get((ability, budget), wanted) == chosen:
            raise Hint(with_seed(f"a new table with the same ability and max_calls got {chosen!r}, the pick of an earlier "
                                 f"table, not {wanted!r}: work from the rows you are given on every call (nothing "
                                 "cached between calls)", seed))
        raise Hint(with_seed(_diagnose(rows, ability, budget, chosen, wanted), seed))


def _diagnose(rows: list[DesignRow], ability: str, budget: float, chosen: str | None, wanted: str | None) -> str:
    mine = [r for r in rows if r.ability == ability]
    picked = next((r for r in mine if r.design == chosen), None)
    if wanted is None and picked is not None and picked.evidence_recall is None:
        return (f"{chosen!r} measured no question of {ability} (evidence_recall is None): skip such rows — here no "
                "measured design fits, so the answer is None")
    if wanted is None:
        return f"no design makes at most {budget} calls per turn, so the answer is None (you picked {chosen!r})"
    if chosen is None:
        return f"{wanted!r} fits the budget of {budget} calls per turn: return None only when nothing fits"
    if picked is None and all(r.design != chosen for r in rows):
        return (f"{chosen!r} is not in this table at all: return a row's .design from the rows you are given (nothing "
                "kept from an earlier call)")
    if picked is None:
        return f"{chosen!r} is not one of the designs measured on {ability}: return a row's .design"
    if picked.per_turn(picked.calls) > budget:
        return (f"{chosen!r} makes {picked.per_turn(picked.calls):.1f} model calls per turn, over the budget of {budget}: "
                "leave out designs over budget before comparing recall")
    best = max(r.evidence_recall or 0.0 for r in mine if r.per_turn(r.calls) <= budget)
    right = next(r for r in mine if r.design == wanted)
    if chosen == LESSON_PICK and (picked.evidence_recall or 0.0) < best:
        return (f"{chosen!r} was the lesson's pick on the lesson's table; here it recalls {picked.evidence_recall:.2f} "
                f"and {wanted!r} recalls {best:.2f} within budget: compute the pick from the rows you are given")
    under = [r for r in mine if r.evidence_recall is not None and r.per_turn(r.calls) < budget]
    if right.per_turn(right.calls) == budget and under and chosen == max(
            under, key=lambda r: (r.evidence_recall or 0.0, -r.per_turn(r.tokens))).design:
        return (f"{wanted!r} makes exactly {budget} model calls per turn, which is within 'at most {budget}', and "
                f"recalls more than {chosen!r}: compare with <=, not <")
    if (picked.evidence_recall or 0.0) < best:
        other = [r for r in rows if r.ability != ability and r.design == chosen]
        if other and (other[0].evidence_recall or 0.0) > (picked.evidence_recall or 0.0):
            return f"{chosen!r} leads on another ability, not on {ability}: compare only the rows of the ability asked"
        return (f"{chosen!r} fits the budget but recalls {picked.evidence_recall:.2f} on {ability}; another design within "
                f"budget recalls {best:.2f}: among those that fit, take the best recall, not the cheapest")
    return (f"{chosen!r} and {wanted!r} recall equally; {wanted!r} sends fewer tokens per turn: break a tie on tokens "
            "(row.per_turn(row.tokens)), the lower the better")


# ------------------------------------------------------------------------------ 16.measure_a_design

USERS = ("amara", "bodhi", "chiara", "dmitri", "esme", "farid", "greta", "hiro", "ines", "jonas")
INSTRUCTIONS = ("You are a helpful assistant.", "You are a concise travel assistant.", "You help with a small bakery's orders.",
                "You are a friendly study coach. Keep answers short.", "You are a patient IT helpdesk agent.")
THINGS = (("locker number", ("114", "207", "389")), ("gate code", ("5821", "9034")), ("bike colour", ("orange", "maroon")),
          ("desk number", ("D12", "F30")), ("wifi name", ("Heron", "Quokka")))
ANIMALS = ("cat", "pirate", "robot", "penguin", "llama", "dragon")


class _UserOf(ContextProvider):
    def __init__(self, user: str) -> None:
        super().__init__("user_of")
        self.user = user

    async def before_run(self, *, agent: Any, session: Any, context: Any, state: Any) -> None:
        session.state["user_id"] = self.user


def _designs(rng: random.Random, folder: Path) -> list[tuple[str, Callable[[Any], Agent]]]:
    """Three designs; each ``make_agent(client)`` call builds a fresh one (its own folder and store)."""
    user, instructions = rng.choice(USERS), rng.choice(INSTRUCTIONS)
    built = iter(range(1_000_000))

    def no_memory(client: Any) -> Agent:
        return Agent(client=client, instructions=instructions)

    def topic_memory(client: Any) -> Agent:
        store = MemoryFileStore(folder / f"topics-{next(built)}", owner_state_key="user_id")
        return Agent(client=client, instructions=instructions,
                     context_providers=[_UserOf(user), MemoryContextProvider(store=store, recent_turns=3)])

    def file_memory(client: Any) -> Agent:
        return Agent(client=client, instructions=instructions,
                     context_providers=[FileMemoryProvider(InMemoryAgentFileStore(), scope=user)])

    return [("no memory", no_memory), ("topic memory (MemoryContextProvider)", topic_memory),
            ("file memory (FileMemoryProvider)", file_memory)]


def _questions(rng: random.Random) -> list[str]:
    thing, values = rng.choice(THINGS)
    told = [f"Please remember that my {thing} is {rng.choice(values)}.", f"Tell me a joke about a {rng.choice(ANIMALS)}."]
    rng.shuffle(told)
    return [*told, f"What is my {thing}?"]


async def reference_measure(make_agent: Callable[[Any], Agent], client: Any, questions: Sequence[str]) -> list[tuple[int, int]]:
    """The course's measurement of one design, as :func:`~memory_evaluation.designs.run_designs` takes it."""
    recorder = record_every_call(client)
    agent = make_agent(client)
    figures = []
    for question in questions:
        mark = len(recorder.requests)
        await agent.run(question, session=agent.create_session())
        sent = recorder.requests[mark:]
        figures.append((sum(tokens_sent(request) for request in sent), len(sent)))
    return figures


def _pairs(figures: Any, questions: Sequence[str]) -> list[tuple[int, int]]:
    if not isinstance(figures, (list, tuple)) or len(figures) != len(questions):
        raise Hint(f"measure should return a list with one (tokens, calls) pair per question ({len(questions)} here), "
                   f"not {figures!r}"[:200])
    pairs = []
    for pair in figures:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(n, int) for n in pair)):
            raise Hint(f"each item should be a pair of whole numbers (tokens, calls), not {pair!r}"[:200])
        pairs.append((int(pair[0]), int(pair[1])))
    return pairs


@exercise("16.measure_a_design", title="measure one design: tokens sent and model calls, per question")
async def check_measure_a_design(measure: Any) -> None:
    with drawn_cases() as rng, tempfile.TemporaryDirectory(prefix="exercise-16-") as where:
        folder = Path(where)
        for name, make_agent in _designs(rng, folder):
            questions = _questions(rng)
            client = OfflineChatClient()
            made: list[Agent] = []

            def counted(client_: Any, make: Callable[[Any], Agent] = make_agent, made: list[Agent] = made) -> Agent:
                agent = make(client_)
                made.append(agent)
                return agent

            figures = _pairs(await call_learner(measure, counted, client, list(questions), what="your `measure`"), questions)
            wanted = await reference_measure(make_agent, OfflineChatClient(), questions)
            if figures != wanted:
                raise Hint(_diagnose_measure(name, questions, figures, wanted, len(made)))


def _diagnose_measure(name: str, questions: Sequence[str], got: list[tuple[int, int]], wanted: list[tuple[int, int]],
                      agents_made: int) -> str:
    if agents_made == 0:
        return (f"on the {name} design, measure never called make_agent: build the design's agent with "
                "make_agent(client) and measure what it sends (figures typed in from a table fit no drawn design)")
    if agents_made != 1:
        return (f"on the {name} design, measure called make_agent {agents_made} times: build one agent and ask every "
                "question in a new session of it (memory written by one question must be there for the next)")
    n, question = next((i, q) for i, q in enumerate(questions) if got[i] != wanted[i])
    (tokens, calls), (want_tokens, want_calls) = got[n], wanted[n]
    said = (f"on the {name} design, question {n + 1} ({question!r}): you counted {tokens} tokens and {calls} calls, "
            f"the course's measurement {want_tokens} and {want_calls}")
    if n > 0 and got[n] == (sum(t for t, _ in wanted[: n + 1]), sum(c for _, c in wanted[: n + 1])):
        return f"{said}: those are running totals; count only the calls made while this question ran"
    if calls != want_calls:
        if calls < want_calls:
            return (f"{said}: a question can make several calls (a tool call, then the answer; a provider's own "
                    "extraction): count every request record_every_call(client) recorded while it ran")
        return f"{said}: too many calls: count only those made while this question ran, in a new session"
    if tokens > want_tokens and n > 0:
        return (f"{said}: more than a new session sends: ask each question in its own agent.create_session(), or the "
                "earlier questions ride along")
    if tokens < want_tokens and tokens <= token_count(question) + 40:
        return f"{said}: count what the model was sent (tokens_sent of every request), not the question or the reply alone"
    return f"{said}: a question's tokens are tokens_sent(request) summed over every request recorded while it ran"
