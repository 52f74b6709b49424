"""The abstention trade-off: what a relevance floor buys in abstention and costs in recall.

A floor drops weak hits, so a question about something the user never said gets nothing injected
(the model can say "I don't know") — but set it too high and real evidence is dropped too. There is
no free setting; there is a curve. :func:`abstention_curve` ingests a split's users once, searches
each question once (hybrid, through the real provider), and replays the provider's floor at every
value of a list — so each row differs only in the floor. Two reference rows come first: no floor,
and today's ``rrf_score`` floor (:data:`~lesson_utils.cortadel.gating.BOTH_ARMS_FLOOR`).

Per row: abstention accuracy (nothing injected for an abstention question), recall@5 (every
evidence turn behind one of the first five injected memories), recall@1, update accuracy (the new
value injected and ranked above the old one — the floor cannot change which memories are current,
so this is the ranking half of the scorecard's end-to-end figure) and tokens injected per question.

Calibrate and choose a floor on the **dev** split only; the test split is for reporting.
"""

from __future__ import annotations

import statistics
import uuid as uuid_mod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agent_framework import AgentSession, Message, SessionContext
from cortadel import ChatMessage, ConversationOptions, SearchOptions, SearchResults

from lesson_utils.cortadel.client import CortadelMemoryClient
from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR
from lesson_utils.cortadel.limits import batch_messages, fit_messages
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY, CortadelContextProvider
from .dataset import Case
from .scorecard import QuestionResult

__all__ = ["DEFAULT_FLOORS", "CurvePoint", "abstention_curve", "choose_floor", "curve_row", "curve_table", "plot_curve"]

#: The relevance floors a curve is drawn at by default (probabilities, see ``attributes["relevance"]``).
DEFAULT_FLOORS = (0.05, 0.08, 0.1, 0.11, 0.12, 0.13, 0.14, 0.16, 0.18, 0.2, 0.25, 0.3, 0.4, 0.5)


@dataclass(frozen=True)
class CurvePoint:
    """One row of the curve: a floor and what it gave on the split's questions."""

    label: str                    # "no floor", "rrf floor" or "relevance ≥ 0.12"
    floor: float | None           # the min_relevance (None for the reference rows)
    abstain_acc: float | None
    recall_at_5: float | None
    recall_at_1: float | None
    update_acc: float | None
    tokens_per_question: float


class _OneSearch:
    """A MemoryClient that searches the server once per query and replays the answer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.cache: dict[tuple[str, str | None, int | None], SearchResults] = {}

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        key = (query, getattr(options, "mode", None), getattr(options, "top_k", None))
        if key not in self.cache:
            self.cache[key] = await self.inner.search(query, options)
        return self.cache[key]

    async def add_conversation(self, messages: Any, options: Any = None) -> Any:
        return await self.inner.add_conversation(messages, options)

    async def add(self, text: Any, options: Any = None) -> Any:
        return await self.inner.add(text, options)


async def _ingest(client: Any, case: Case) -> None:
    for session in case.sessions:
        messages = [ChatMessage(role=t.role, content=t.content, uuid=t.uuid)
                    for t in session.turns if t.role in ("user", "assistant", "system") and t.content.strip()]
        for batch in batch_messages(fit_messages(messages)):
            await client.add_conversation(batch, ConversationOptions(session_id=session.session_id))


async def _injected(provider: CortadelContextProvider, client: _OneSearch, text: str) -> tuple[list[Any], str]:
    """One ``before_run``: the hits the provider injected, in order, and the block it injected."""
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[text])])
    state: dict[str, Any] = {}
    await provider.before_run(agent=None, session=session, context=context, state=state)
    hits = {hit.id: hit for results in client.cache.values() for hit in (results.results or [])}
    injected = [hits[i] for i in state.get(INJECTED_IDS_KEY, []) if i in hits]
    block = "\n".join(m.text for m in context.context_messages.get(provider.source_id, []))
    return injected, block


def _mean(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def _point(label: str, floor: float | None, results: list[QuestionResult]) -> CurvePoint:
    answerable = [r for r in results if r.question.ability != "abstention"]
    return CurvePoint(
        label=label,
        floor=floor,
        abstain_acc=_mean([r.abstained for r in results if r.question.ability == "abstention"]),
        recall_at_5=_mean([r.recall_at_5 for r in answerable]),
        recall_at_1=_mean([r.recall_at_1 for r in answerable]),
        update_acc=_mean([r.update_correct for r in results if r.question.ability == "knowledge_update"]),
        tokens_per_question=statistics.fmean(r.tokens for r in results) if results else 0.0,
    )


async def abstention_curve(
    cases: Sequence[Case],
    floors: Sequence[float] = DEFAULT_FLOORS,
    *,
    url: str | None = None,
    api_key: str | None = None,
    user_prefix: str | None = None,
    top_k: int = 5,
    progress: Callable[[str], None] | None = None,
) -> list[CurvePoint]:
    """Abstention, recall and update accuracy at each relevance floor (hybrid mode), plus two reference rows.

    With ``url=None`` a fresh local server is started and stopped; give a real server's ``url``
    (and ``api_key``) to draw its curve — user ids then get a fresh random ``user_prefix``. A server
    that sends no ``attributes["relevance"]`` gets the provider's fallback (the rrf floor) in every
    relevance row, so its curve is flat: that is the point of the fallback's log line.
    """
    policies: list[tuple[str, float | None, dict[str, Any]]] = [
        ("no floor", None, {}),
        ("rrf floor", None, {"min_score": BOTH_ARMS_FLOOR}),
        *((f"relevance ≥ {f:g}", float(f), {"min_relevance": f}) for f in floors),
    ]
    server = None
    if url is None:
        from local_memory_server import start_memory_server

        server = start_memory_server(understanding="offline")  # as run_scorecard's: the rules, not a model
        url, prefix = server.url, user_prefix or ""
    else:
        prefix = user_prefix if user_prefix is not None else f"curve-{uuid_mod.uuid4().hex[:8]}-"
    per_policy: list[list[QuestionResult]] = [[] for _ in policies]
    try:
        for n, case in enumerate(cases):
            async with CortadelMemoryClient(url, prefix + case.user_id, api_key=api_key) as raw:
                client = _OneSearch(raw)
                await _ingest(client, case)
                providers = [CortadelContextProvider(client=client, store_turns=False, top_k=top_k,
                                                     search_mode="hybrid", **options) for _, _, options in policies]
                for question in case.questions:
                    for provider, results in zip(providers, per_policy, strict=True):
                        injected, block = await _injected(provider, client, question.question)
                        results.append(QuestionResult("hybrid", case.user_id, question, injected, block, 0.0, True))
                    client.cache.clear()
            if progress is not None:
                progress(f"user {n + 1}/{len(cases)} scored")
    finally:
        if server is not None:
            server.stop()
    return [_point(label, floor, results) for (label, floor, _), results in zip(policies, per_policy, strict=True)]


def curve_row(points: Sequence[CurvePoint], label: str) -> CurvePoint:
    """The row called ``label`` ("no floor", "rrf floor", or "relevance ≥ 0.12")."""
    for point in points:
        if point.label == label:
            return point
    raise KeyError(f"no row {label!r}; the rows are: {', '.join(p.label for p in points)}.")


def choose_floor(points: Sequence[CurvePoint], *, min_recall: float = 0.95, relative: bool = False) -> CurvePoint:
    """The relevance row with the most abstention whose recall@5 is at least ``min_recall``.

    With ``relative=True`` the bar is ``min_recall`` times the no-floor row's recall@5: what the floor
    may cost, when retrieval itself misses (a floor only drops hits; it cannot add recall)."""
    bar = min_recall
    if relative:
        unfloored = next((p for p in points if p.label == "no floor" and p.recall_at_5 is not None), None)
        if unfloored is None:
            raise ValueError("relative=True needs the curve's 'no floor' row: pass the points abstention_curve returned.")
        bar = min_recall * (unfloored.recall_at_5 or 0.0)
    ok = [p for p in points if p.floor is not None and p.recall_at_5 is not None and p.recall_at_5 >= bar - 1e-12]
    if not ok:
        raise ValueError(f"no floor keeps recall@5 >= {bar:.0%}: lower min_recall or try lower floors.")
    return max(ok, key=lambda p: (p.abstain_acc or 0.0, -(p.floor or 0.0)))


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def curve_table(points: Sequence[CurvePoint]) -> str:
    """The curve as a Markdown table, one row per floor."""
    lines = ["| floor | abstain acc | recall@5 | recall@1 | update acc | tokens/question |",
             "|---|---:|---:|---:|---:|---:|"]
    for p in points:
        lines.append(f"| {p.label} | {_pct(p.abstain_acc)} | {_pct(p.recall_at_5)} | {_pct(p.recall_at_1)} "
                     f"| {_pct(p.update_acc)} | {p.tokens_per_question:.1f} |")
    return "\n".join(lines)


def plot_curve(points: Sequence[CurvePoint], *, ax: Any = None, target: tuple[float, float] | None = (0.8, 0.95)) -> Any:
    """Abstention (x) against recall@5 (y), one marker per floor, the reference rows labelled.

    Needs matplotlib; ``target`` (abstention, recall) is drawn as the corner to reach. Returns the Axes."""
    try:
        import matplotlib.pyplot as plt
    except ModuleNotFoundError:
        raise ModuleNotFoundError("plot_curve needs matplotlib: pip install matplotlib (or print curve_table(points)).") from None
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    curve = [p for p in points if p.floor is not None and p.abstain_acc is not None and p.recall_at_5 is not None]
    ax.plot([p.abstain_acc for p in curve], [p.recall_at_5 for p in curve], "o-", label="relevance floor")
    for p in curve:
        ax.annotate(f"{p.floor:g}", (p.abstain_acc, p.recall_at_5), textcoords="offset points", xytext=(4, 4), fontsize=8)
    for p, marker in zip([p for p in points if p.floor is None], ("s", "^"), strict=False):
        ax.plot([p.abstain_acc], [p.recall_at_5], marker, label=p.label)
    if target is not None:
        ax.axvline(target[0], color="grey", linestyle=":")
        ax.axhline(target[1], color="grey", linestyle=":", label=f"target ({target[0]:.0%} / {target[1]:.0%})")
    ax.set_xlabel("abstention accuracy")
    ax.set_ylabel("recall@5")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.legend(loc="lower left", fontsize=8)
    return ax

