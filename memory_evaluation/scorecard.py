"""The memory scorecard: ingest histories, ask questions through the provider, score what it injected.

Everything goes through the real path. Each user's sessions go to the server with
``add_conversation`` (the same call the provider makes after a turn), then each question is one
``before_run`` of a :class:`CortadelContextProvider` — gate, search, floor, dedup, render — and
the scorecard reads what the provider injected (the ids it remembers in ``session.state``, the
block the model would see). Nothing is scored that a model would not have been sent.

Per search mode and ability it reports:

* ``recall@1`` — the first injected memory comes from an evidence turn;
* ``follow_up`` rows — a follow-up ("and when was that?") asked right after its first question,
  scored on the first question's evidence: the seed provider searches once per turn with that
  turn's words only; ``hybrid+rewrite`` builds the query from the recent turns
  (:mod:`~lesson_utils.cortadel.query_rewriting`). Every question is asked in a new session that
  remembers the user's previous question as its recent turn (not its injected ids: each question
  is scored on its own search), so rewriting is also measured where it can hurt: a new question
  after an unrelated one;
* ``recall@5`` — every evidence turn is behind one of the first five injected memories
  (LongMemEval's *recall_all@5*: a two-session question needs both);
* ``update acc`` — knowledge updates, end to end: the new value's memory is current and ranked
  first, and the old value's memory is not current (currency read back through the SDK's list
  with ``include_superseded``). A case without tracked items (a LongMemEval file) falls back to
  "the current value is injected above the value it replaced";
* ``withdrawn ok`` — withdrawals: the withdrawn fact is not current and nothing from it is injected;
* ``abstain acc`` — abstention questions: nothing at all is injected;
* ``tokens/turn`` — tokens injected per question (about 4 characters a token, the contract's rule);
* ``median ms`` — the median time ``before_run`` adds to a turn.

and, per mode, the share of turns that were searched (phatic turns included) and the tokens a
model would be sent if it got the whole history instead of memory. Across modes (the stored state
does not depend on the search mode): false supersessions among keeps (two statements that must
both stay current), withdrawals invalidated, memories stored per user and ingest seconds per user.

Every turn that an update, keep or withdrawal names is ingested in its own ``add_conversation``
call (as the provider does after each turn), so the ids that call returns are that turn's memories.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
import uuid as uuid_mod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_framework import AgentSession, Message, SessionContext
from cortadel import ChatMessage, ConversationOptions, ListOptions, SearchOptions, SearchResults

from lesson_utils.cortadel.client import CortadelMemoryClient
from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR, RELEVANCE_FLOOR, estimate_tokens
from lesson_utils.cortadel.limits import batch_messages, fit_messages
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY, CortadelContextProvider
from lesson_utils.cortadel.query_rewriting import remember_turn
from .dataset import ABILITIES, DATA_DIR, Case, Question, Tracked

#: Seconds one request of the scorecard may take. Ingesting a history is a batch job, not a turn: a cold local
#: server embeds its offline reader's examples on its first write, which took over 30 s (the provider's default
#: timeout) on the 2-core machine with both test workers busy.
BATCH_TIMEOUT = 180.0

__all__ = [
    "ALL_MODES", "ANSWERABLE", "FLOORS_PATH", "MODES", "QuestionResult", "Scorecard", "ScorecardFigures", "TrackedResult", "all_memories",
    "check_floors",
    "load_floors", "run_scorecard", "side_by_side",
]
#: The abilities whose questions have evidence and count in an ``all`` row's recall.
ANSWERABLE = ("information_extraction", "multi_session", "knowledge_update", "temporal_reasoning")
#: Rows besides LongMemEval's five: follow-ups (after their first question), and questions after a withdrawal.
EXTRA_ROWS = ("follow_up", "withdrawal")

#: Search mode → provider options. "hybrid+gating" is the gate and the both-arms floor together;
#: "hybrid+relevance" is the calibrated floor (``RELEVANCE_FLOOR`` on each hit's ``attributes["relevance"]``).
ALL_MODES: dict[str, dict[str, Any]] = {
    "text": {"search_mode": "text"},
    "vector": {"search_mode": "vector"},
    "hybrid": {"search_mode": "hybrid"},
    "hybrid+gate": {"search_mode": "hybrid", "gate": True},
    "hybrid+floor": {"search_mode": "hybrid", "min_score": BOTH_ARMS_FLOOR},
    "hybrid+gating": {"search_mode": "hybrid", "gate": True, "min_score": BOTH_ARMS_FLOOR},
    "hybrid+rewrite": {"search_mode": "hybrid", "rewrite_query": True},
    "hybrid+relevance": {"search_mode": "hybrid", "min_relevance": RELEVANCE_FLOOR},
}
MODES = ("text", "vector", "hybrid", "hybrid+gating")
FLOORS_PATH = DATA_DIR / "floors.json"


class _Recording:
    """A MemoryClient wrapper that keeps the last search's hits, so injected ids map back to hits."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.last: dict[str, Any] = {}

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        results = await self.inner.search(query, options)
        self.last = {hit.id: hit for hit in (results.results or [])}
        return results

    async def add_conversation(self, messages, options=None):
        return await self.inner.add_conversation(messages, options)

    async def add(self, text, options=None):
        return await self.inner.add(text, options)


@dataclass
class TrackedResult:
    """What the server kept of one tracked item: which of its memories are current after ingest."""

    user_id: str
    item: Tracked
    current: dict[str, list[bool]]      # turn uuid -> is_current of each memory that turn stored
    contents: dict[str, list[str]]      # turn uuid -> those memories' text

    def _picked(self, turn: str, text: str | None) -> list[bool]:
        """The currency of the turn's memories that carry ``text`` (all of them when none does)."""
        flags, contents = self.current.get(turn, []), self.contents.get(turn, [])
        if text:
            chosen = [f for f, c in zip(flags, contents, strict=True) if str(text).lower() in c.lower()]
            if chosen:
                return chosen
        return flags

    @property
    def ok(self) -> bool:
        """Every ``current`` turn has a current memory and no ``not_current`` turn has one."""
        keep = all(any(self._picked(t, self.item.current_text)) for t in self.item.current)
        gone = not any(any(self._picked(t, self.item.not_current_text)) for t in self.item.not_current)
        return keep and gone


@dataclass
class QuestionResult:
    mode: str
    user_id: str
    question: Question
    injected: list[Any]          # the SearchHits the provider injected, in order
    block: str                   # the text the model would have been sent
    ms: float
    searched: bool
    state: TrackedResult | None = None  # for an update or a withdrawal: what the server kept

    def _sources(self, hit: Any) -> set[str]:
        return set((hit.attributes or {}).get("source_turn_uuids") or [])

    def is_evidence(self, hit: Any, turns: Sequence[str] | None = None) -> bool:
        turns = self.question.evidence if turns is None else turns
        sources = self._sources(hit)
        if sources:
            return bool(sources & set(turns))
        # A server that does not return source turns: fall back to the answer's words.
        answer = self.question.answer if turns is self.question.evidence else self.question.superseded_answer
        return bool(answer) and str(answer).lower() in (hit.content or "").lower()

    @property
    def recall_at_1(self) -> bool:
        return bool(self.injected) and self.is_evidence(self.injected[0])

    @property
    def recall_at_5(self) -> bool:
        top = self.injected[:5]
        if not any(self._sources(h) for h in top):
            return any(self.is_evidence(h) for h in top)
        covered = set().union(*(self._sources(h) for h in top))
        return bool(self.question.evidence) and set(self.question.evidence) <= covered

    @property
    def update_correct(self) -> bool:
        """End to end with a tracked state: new value current and ranked first, old not current."""
        if self.state is not None:
            return self.state.ok and self.recall_at_1
        ranks = list(range(len(self.injected)))
        new = [i for i in ranks if self.is_evidence(self.injected[i])]
        old = [i for i in ranks if self.is_evidence(self.injected[i], self.question.superseded)]
        return bool(new) and (not old or new[0] < old[0])

    @property
    def abstained(self) -> bool:
        return not self.injected

    @property
    def withdrawal_honoured(self) -> bool:
        """The withdrawn fact is not current (when tracked) and nothing it said was injected."""
        injected = any(self.is_evidence(h, self.question.superseded) for h in self.injected)
        return not injected and (self.state is None or self.state.ok)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.block)


@dataclass
class Scorecard:
    results: list[QuestionResult]
    phatic: list[QuestionResult]
    baseline_tokens: float
    modes: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    tracked: list[TrackedResult] = field(default_factory=list)

    def _of(self, mode: str, ability: str | None = None) -> list[QuestionResult]:
        return [r for r in self.results if r.mode == mode and (ability is None or r.question.ability == ability)]

    def rows(self) -> list[dict[str, Any]]:
        """One row per (mode, ability), plus an ``all`` row per mode; metrics are fractions or None."""
        out = []
        for mode in self.modes:
            for ability in (*ABILITIES, *EXTRA_ROWS, "all"):
                rs = self._of(mode, None if ability == "all" else ability)
                if not rs:
                    continue
                answerable = [r for r in rs if r.question.ability in (*ANSWERABLE, "follow_up")
                              and (ability != "all" or r.question.ability in ANSWERABLE)]
                updates = [r for r in rs if r.question.ability == "knowledge_update"]
                absent = [r for r in rs if r.question.ability == "abstention"]
                withdrawn = [r for r in rs if r.question.ability == "withdrawal"]
                out.append({
                    "mode": mode, "ability": ability, "n": len(rs),
                    "recall@1": _mean(r.recall_at_1 for r in answerable),
                    "recall@5": _mean(r.recall_at_5 for r in answerable),
                    "update_acc": _mean(r.update_correct for r in updates),
                    "abstain_acc": _mean(r.abstained for r in absent),
                    "withdrawal_ok": _mean(r.withdrawal_honoured for r in withdrawn),
                    "tokens_per_turn": statistics.fmean(r.tokens for r in rs),
                    "median_ms": statistics.median(r.ms for r in rs),
                })
        return out

    def items(self) -> dict[str, Any]:
        """What the server kept, across modes: updates whose new value is current and old one not,
        false supersessions among keeps, withdrawals invalidated; memories and ingest per user, and
        *stray* supersessions: memories made not current that no update or withdrawal asked for (the
        haystack's own facts, wrongly read as replacing one another)."""
        def of(kind: str) -> list[TrackedResult]:
            return [t for t in self.tracked if t.item.kind == kind]

        stored = self.meta.get("stored_per_user") or {}
        return {
            "updates": len(of("update")), "updates_current": sum(t.ok for t in of("update")),
            "keeps": len(of("keep")), "false_supersessions": sum(not t.ok for t in of("keep")),
            "withdrawals": len(of("withdrawal")), "withdrawals_invalidated": sum(t.ok for t in of("withdrawal")),
            "min_memories_per_user": min((v["stored"] for v in stored.values()), default=None),
            "min_current_per_user": min((v["current"] for v in stored.values()), default=None),
            "stray_per_user": (sum(v.get("stray", 0) for v in stored.values()) / len(stored)) if stored else None,
            "baseline_tokens": self.baseline_tokens,
            "ingest_seconds_per_user": (self.meta["ingest_seconds"] / self.meta["users"]) if self.meta.get("users") else None,
        }

    def mode_summary(self) -> list[dict[str, Any]]:
        """Per mode: turns searched (questions and phatic turns), phatic turns with nothing injected."""
        out = []
        for mode in self.modes:
            turns = self._of(mode) + [p for p in self.phatic if p.mode == mode]
            phatic = [p for p in self.phatic if p.mode == mode]
            out.append({
                "mode": mode, "turns": len(turns), "searched": _mean(t.searched for t in turns),
                "phatic_clean": _mean(p.abstained for p in phatic),
                "median_ms_all_turns": statistics.median(t.ms for t in turns) if turns else None,
            })
        return out

    def table(self) -> str:
        """The scorecard as a Markdown table (plus the per-mode summary and the full-history baseline)."""
        lines = [
            ("| mode | ability | n | recall@1 | recall@5 | update acc | abstain acc | withdrawn ok | tokens/turn "
             "| median ms |"),
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in self.rows():
            lines.append(
                f"| {row['mode']} | {row['ability']} | {row['n']} | {_pct(row['recall@1'])} | {_pct(row['recall@5'])} "
                f"| {_pct(row['update_acc'])} | {_pct(row['abstain_acc'])} | {_pct(row['withdrawal_ok'])} "
                f"| {row['tokens_per_turn']:.1f} | {row['median_ms']:.2f} |"
            )
        lines += ["", "| mode | turns | searched | phatic turns with nothing injected | median ms (all turns) |",
                  "|---|---:|---:|---:|---:|"]
        for m in self.mode_summary():
            lines.append(f"| {m['mode']} | {m['turns']} | {_pct(m['searched'])} | {_pct(m['phatic_clean'])} "
                         f"| {m['median_ms_all_turns']:.2f} |")
        lines += ["", (f"Full-history baseline: {self.baseline_tokens:,.0f} tokens per question "
                       "(every session of the user's history sent with the question, no memory).")]
        items = self.items()
        if self.tracked:
            lines += [(f"What the server kept (any mode): updates with the new value current and the old one not "
                       f"{items['updates_current']}/{items['updates']}; false supersessions among keeps "
                       f"{items['false_supersessions']}/{items['keeps']}; withdrawals invalidated "
                       f"{items['withdrawals_invalidated']}/{items['withdrawals']}.")]
        if items["min_memories_per_user"] is not None:
            lines += [(f"History per user: {self.meta.get('sessions_per_user')} sessions, at least "
                       f"{items['min_memories_per_user']} memories stored ({items['min_current_per_user']} current; "
                       f"{items['stray_per_user']:.1f} made not current that nothing asked to change); "
                       f"ingest {items['ingest_seconds_per_user']:.1f} s per user.")]
        return "\n".join(lines)

    def metric(self, mode: str, ability: str, name: str) -> float | None:
        for row in self.rows():
            if row["mode"] == mode and row["ability"] == ability:
                return row[name]
        raise KeyError(f"no row for mode {mode!r}, ability {ability!r}")

    def figures(self) -> dict[str, Any]:
        """The card's figures without its timings or its question-by-question results: what a stored run keeps.

        Median milliseconds and ingest seconds are left out: they measure the machine, not the memory, so
        they differ on every run (everything kept is the same on every run of the same code and data)."""
        return {
            "rows": [{k: v for k, v in row.items() if k != "median_ms"} for row in self.rows()],
            "items": {k: v for k, v in self.items().items() if k != "ingest_seconds_per_user"},
            "mode_summary": [{k: v for k, v in m.items() if k != "median_ms_all_turns"} for m in self.mode_summary()],
            "meta": {k: v for k, v in self.meta.items() if k != "ingest_seconds"},
        }

    def failures(self, mode: str, kind: str) -> list[QuestionResult]:
        """Questions that failed one way: ``recall`` (evidence not in the top 5), ``update`` (old value
        ranked first or new one missing), or ``abstention`` (something was injected)."""
        rs = self._of(mode)
        if kind == "recall":
            return [r for r in rs if r.question.ability in ANSWERABLE and not r.recall_at_5]
        if kind == "update":
            return [r for r in rs if r.question.ability == "knowledge_update" and not r.update_correct]
        if kind == "abstention":
            return [r for r in rs if r.question.ability == "abstention" and not r.abstained]
        raise ValueError("kind must be 'recall', 'update' or 'abstention'")


class ScorecardFigures:
    """A stored scorecard's figures (:meth:`Scorecard.figures`): the same ``metric``, ``rows`` and ``items``, no timings.

    ``source`` says where the figures come from (a stored run, and which command writes it)."""

    def __init__(self, figures: dict[str, Any], source: str = "") -> None:
        self.figures, self.source = figures, source

    @property
    def baseline_tokens(self) -> float:
        return float(self.figures["items"]["baseline_tokens"])

    def rows(self) -> list[dict[str, Any]]:
        return list(self.figures["rows"])

    def items(self) -> dict[str, Any]:
        return dict(self.figures["items"])

    def metric(self, mode: str, ability: str, name: str) -> float | None:
        for row in self.figures["rows"]:
            if row["mode"] == mode and row["ability"] == ability:
                return row[name]
        raise KeyError(f"no row for mode {mode!r}, ability {ability!r}")


#: The figures :func:`side_by_side` compares: (label, where it is read, how it is shown).
SIDE_BY_SIDE = (
    ("recall@1", "row:recall@1", "pct"), ("recall@5", "row:recall@5", "pct"),
    ("update acc (end to end)", "ability:knowledge_update:update_acc", "pct"),
    ("abstain acc", "ability:abstention:abstain_acc", "pct"),
    ("follow-up recall@5", "ability:follow_up:recall@5", "pct"),
    ("withdrawals honoured", "ability:withdrawal:withdrawal_ok", "pct"),
    ("false supersessions (keeps)", "items:false_supersessions", "count"),
    ("tokens injected per question", "row:tokens_per_turn", "num"),
    ("full-history tokens per question", "items:baseline_tokens", "num"),
)


def side_by_side(cards: dict[str, Scorecard] | dict[str, ScorecardFigures] | dict[str, Scorecard | ScorecardFigures],
                 mode: str = "hybrid") -> str:
    """A Markdown table of the headline figures of several scorecards (e.g. dev and test) in one mode.

    A card may be a :class:`Scorecard` just run or the :class:`ScorecardFigures` of a stored run."""
    names = list(cards)
    lines = ["| " + " | ".join([f"{mode}", *names]) + " |", "|---|" + "---:|" * len(names)]
    for label, where, shown in SIDE_BY_SIDE:
        cells = []
        for card in cards.values():
            kind, *path = where.split(":")
            if kind == "items":
                value = card.items()[path[0]]
                if path[0] == "false_supersessions":
                    cells.append(f"{value} of {card.items()['keeps']}")
                    continue
            else:
                ability, name = ("all", path[0]) if kind == "row" else (path[0], path[1])
                try:
                    value = card.metric(mode, ability, name)
                except KeyError:
                    value = None
            cells.append(_pct(value) if shown == "pct" else "—" if value is None else f"{value:,.0f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _mean(values: Iterable[bool]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


async def _ingest(client: Any, case: Case) -> dict[str, list[str]]:
    """Send the case's sessions with ``add_conversation``; a tracked turn (and the reply after it)
    goes in a call of its own. Returns the memory ids each tracked turn's call answered with."""
    tracked = {uuid for item in case.tracked for uuid in (*item.current, *item.not_current)}
    ids: dict[str, list[str]] = {}
    for session in case.sessions:
        messages = [ChatMessage(role=t.role, content=t.content, uuid=t.uuid)
                    for t in session.turns if t.role in ("user", "assistant", "system") and t.content.strip()]
        for chunk, turn in _chunks(messages, tracked):
            for batch in batch_messages(fit_messages(chunk)):
                result = await client.add_conversation(batch, ConversationOptions(session_id=session.session_id))
                if turn is not None:
                    ids.setdefault(turn, []).extend(r.id for r in (result.results or []) if r.id)
    return ids


def _chunks(messages: list[ChatMessage], tracked: set[str]) -> list[tuple[list[ChatMessage], str | None]]:
    """The session's messages in runs; each tracked user turn starts a run of its own with its reply."""
    out: list[tuple[list[ChatMessage], str | None]] = []
    for message in messages:
        if message.uuid in tracked:
            out.append(([message], message.uuid))
        elif out and out[-1][1] is not None and len(out[-1][0]) == 1 and message.role != "user":
            out[-1][0].append(message)  # the reply to a tracked turn travels with it
        elif out and out[-1][1] is None:
            out[-1][0].append(message)
        else:
            out.append(([message], None))
    return out


async def all_memories(client: Any) -> dict[str, Any]:
    """Every memory of the user, superseded ones too, read through the SDK's list: id -> item."""
    items: dict[str, Any] = {}
    page = 1
    while True:
        listed = await client.sdk_client.list(ListOptions(page=page, size=100, include_superseded=True))
        items.update((item.id, item) for item in listed.items)
        if page >= (listed.pages or 0):
            return items
        page += 1


def _tracked_results(case: Case, ids: dict[str, list[str]], stored: dict[str, Any]) -> list[TrackedResult]:
    out = []
    for item in case.tracked:
        turns = (*item.current, *item.not_current)
        present = {t: [i for i in ids.get(t, []) if i in stored] for t in turns}
        out.append(TrackedResult(
            case.user_id, item,
            {t: [bool(stored[i].is_current) for i in present[t]] for t in turns},
            {t: [stored[i].content or "" for i in present[t]] for t in turns},
        ))
    return out


async def _ask(
    provider: CortadelContextProvider, recording: _Recording, text: str, previous: str | None = None,
) -> tuple[list[Any], str, float, bool]:
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[text])])
    state: dict[str, Any] = {}
    if previous:  # the user's previous question, as the session's recent turn (read only when rewriting)
        remember_turn(state, previous)
    recording.last = {}
    searched_before = provider.recall_policy.searched
    started = time.perf_counter()
    await provider.before_run(agent=None, session=session, context=context, state=state)
    ms = (time.perf_counter() - started) * 1000
    injected = [recording.last[i] for i in state.get(INJECTED_IDS_KEY, []) if i in recording.last]
    block = "\n".join(m.text for m in context.context_messages.get(provider.source_id, []))
    block += "\n".join(context.instructions)
    return injected, block, ms, provider.recall_policy.searched > searched_before


async def run_scorecard(
    cases: Sequence[Case],
    *,
    url: str | None = None,
    api_key: str | None = None,
    modes: Sequence[str] = MODES,
    user_prefix: str | None = None,
    top_k: int = 5,
    settle_seconds: float = 0.0,
    progress: bool | Callable[[str], None] = False,
) -> Scorecard:
    """Score ``cases`` on a memory server, in each of ``modes``.

    With ``url=None`` a fresh throwaway local server is started (and stopped), reading with its offline reader
    whatever model ``.env`` configures: the scorecard measures retrieval and the rules tuned on dev, the same on
    every machine, and a model reading every turn of the haystack would take hours (to score a model reading,
    start a server with ``understanding="model"`` and pass its ``url``). To score a real
    Cortadel server pass its ``url`` (and ``api_key``); every user id is prefixed with
    ``user_prefix`` (default: a fresh random one for a real server) so a run never mixes with
    memories already there. A real Cortadel distils off the request path: give it
    ``settle_seconds`` between ingesting and asking (the local server is synchronous).
    ``progress``: ``True`` for a bar (tqdm when installed, else a counter line), or a callable
    given one message per user ingested and per user asked.
    """
    unknown = [m for m in modes if m not in ALL_MODES]
    if unknown:
        raise ValueError(f"unknown mode(s) {unknown}; choose from {', '.join(ALL_MODES)}.")
    server = None
    if url is None:
        from local_memory_server import start_memory_server

        server = start_memory_server(understanding="offline")  # the rules, not a model: see the docstring
        url = server.url
        prefix = user_prefix or ""
    else:
        prefix = user_prefix if user_prefix is not None else f"eval-{uuid_mod.uuid4().hex[:8]}-"
    results: list[QuestionResult] = []
    phatic: list[QuestionResult] = []
    baseline: list[int] = []
    tracked: list[TrackedResult] = []
    stored_per_user: dict[str, dict[str, int]] = {}
    tick = _progress(progress, 2 * len(cases))
    ingest_s = 0.0
    try:
        clients = {case.user_id: CortadelMemoryClient(url, prefix + case.user_id, api_key=api_key, timeout=BATCH_TIMEOUT)
                   for case in cases}
        try:
            turn_ids: dict[str, dict[str, list[str]]] = {}
            for case in cases:
                started = time.perf_counter()
                turn_ids[case.user_id] = await _ingest(clients[case.user_id], case)
                ingest_s += time.perf_counter() - started
                history = sum(estimate_tokens(t.content) for s in case.sessions for t in s.turns)
                baseline.extend(history + estimate_tokens(q.question) for q in case.questions)
                tick(f"ingested {case.user_id}")
            if settle_seconds > 0:
                await asyncio.sleep(settle_seconds)
            states: dict[str, TrackedResult] = {}
            for case in cases:
                stored = await all_memories(clients[case.user_id])
                asked = {i for item in case.tracked for t in item.not_current for i in turn_ids[case.user_id].get(t, [])}
                stored_per_user[case.user_id] = {
                    "stored": len(stored), "current": sum(bool(i.is_current) for i in stored.values()),
                    # made not current though no update or withdrawal of the case asked for it
                    "stray": sum(not i.is_current and key not in asked for key, i in stored.items())}
                for state in _tracked_results(case, turn_ids[case.user_id], stored):
                    tracked.append(state)
                    states[f"{case.user_id}-{state.item.item_id}"] = state
            # Modes take turns question by question (in a rotating order), so machine noise lands
            # on every mode alike and the latency columns can be compared.
            turn = 0
            for case in cases:
                recording = _Recording(clients[case.user_id])
                providers = {
                    mode: CortadelContextProvider(client=recording, store_turns=False, top_k=top_k, **ALL_MODES[mode])
                    for mode in modes
                }
                asks = [(q, False) for q in case.questions] + [
                    (Question(f"{case.user_id}-phatic", "phatic", text, None), True) for text in case.phatic
                ]
                previous: str | None = None
                for q, is_phatic in asks:
                    turn += 1
                    order = list(modes[turn % len(modes):]) + list(modes[: turn % len(modes)])
                    for mode in order:
                        injected, block, ms, searched = await _ask(providers[mode], recording, q.question, previous)
                        (phatic if is_phatic else results).append(
                            QuestionResult(mode, case.user_id, q, injected, block, ms, searched,
                                           states.get(q.question_id))
                        )
                    previous = q.question
                tick(f"asked {case.user_id}")
        finally:
            for client in clients.values():
                await client.aclose()
    finally:
        tick(None)
        if server is not None:
            server.stop()
    sessions = sorted({len(c.sessions) for c in cases})
    return Scorecard(
        results, phatic, statistics.fmean(baseline) if baseline else 0.0, tuple(modes),
        meta={"users": len(cases), "questions": sum(len(c.questions) for c in cases), "ingest_seconds": ingest_s,
              "stored_per_user": stored_per_user,
              "sessions_per_user": sessions[0] if len(sessions) == 1 else f"{sessions[0]}–{sessions[-1]}"},
        tracked=tracked,
    )


def _progress(progress: bool | Callable[[str], None], total: int) -> Callable[[str | None], None]:
    """A step function for ``run_scorecard``: a message per step, ``None`` when done."""
    if callable(progress):
        report = progress
        return lambda message: None if message is None else report(message)
    if not progress:
        return lambda message: None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:  # a counter line instead of a bar
        done = [0]

        def count(message: str | None) -> None:
            if message is None:
                print()
                return
            done[0] += 1
            print(f"\r{done[0]}/{total} {message}", end="", flush=True)
        return count
    bar = tqdm(total=total, unit="step", leave=True)

    def step(message: str | None) -> None:
        if message is None:
            bar.close()
            return
        bar.set_description(message)
        bar.update()
    return step


def load_floors(path: str | Path = FLOORS_PATH) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def check_floors(card: Scorecard, floors: dict[str, Any]) -> list[str]:
    """Every metric past its floor (or ceiling), as one line each (empty when all hold).

    ``floors["metrics"]`` maps ``"mode/ability/metric"`` to the lowest acceptable value;
    ``floors["items_min"]`` / ``floors["items_max"]`` bound the across-mode figures of
    :meth:`Scorecard.items` (memories per user, baseline tokens, false supersessions...).
    """
    problems = []
    for key, floor in floors.get("metrics", {}).items():
        mode, ability, name = key.split("/")
        value = card.metric(mode, ability, name)
        if value is None or value < floor:
            problems.append(f"{key} = {value if value is None else round(value, 3)} is below its floor {floor}")
    items = card.items()
    for name, floor in floors.get("items_min", {}).items():
        if items[name] is None or items[name] < floor:
            problems.append(f"{name} = {items[name]} is below its floor {floor}")
    for name, ceiling in floors.get("items_max", {}).items():
        if items[name] is None or items[name] > ceiling:
            problems.append(f"{name} = {items[name]} is above its ceiling {ceiling}")
    return problems
