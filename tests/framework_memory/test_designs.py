"""The design runner measures every design the same way, on a user and questions made up here."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from memory_evaluation.dataset import Case, Question, Session, Turn
from memory_evaluation.designs import (
    DESIGNS,
    Design,
    DesignRow,
    cortadel_designs,
    design_cases,
    design_summary,
    design_table,
    evidence_in,
    framework_designs,
    run_designs,
)
from local_memory_server import start_memory_server
from chat_models import OfflineChatClient

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

CASE = Case(
    "tove",
    [Session("s1", None, [Turn("t1", "user", "I keep bees on my roof."), Turn("t2", "assistant", "Nice.")]),
     Session("s2", None, [Turn("t3", "user", "Tell me a joke about a heron."), Turn("t4", "assistant", "Ha.")])],
    [Question("q1", "information_extraction", "What do I keep on my roof?", "bees", ["t1"]),
     Question("q2", "abstention", "What is my cousin called?", None, [])],
)


def no_memory(client, user, folder) -> Agent:
    return Agent(client=client, instructions="You are a helpful assistant.")  # every session starts empty


async def _rows(designs, tmp_path):
    rows = await run_designs([CASE], designs, client_factory=OfflineChatClient, folder=tmp_path)
    return {(r.design, r.ability): r for r in rows}


async def test_full_history_recalls_and_no_memory_does_not(tmp_path) -> None:
    full = framework_designs()[0]
    rows = await _rows([full, Design("no memory", no_memory)], tmp_path)
    assert rows[("full history", "information_extraction")].evidence_recall == 1.0
    assert rows[("no memory", "information_extraction")].evidence_recall == 0.0
    assert rows[("no memory", "abstention")].abstention == 1.0 and rows[("no memory", "abstention")].evidence_recall is None


async def test_costs_count_every_call_including_background_extraction(tmp_path) -> None:
    topic = next(d for d in framework_designs() if d.name == "MemoryContextProvider")
    rows = await _rows([topic, Design("no memory", no_memory)], tmp_path)
    plain, extracting = rows[("no memory", "information_extraction")], rows[("MemoryContextProvider", "information_extraction")]
    assert plain.per_turn(plain.calls) == 1.0 and plain.per_turn(plain.writes) == 0.0
    assert extracting.per_turn(extracting.calls) == 2.0 and extracting.per_turn(extracting.writes) == 1.0
    assert extracting.evidence_recall == 1.0 and extracting.median_ms is not None and extracting.tokens > plain.tokens


def test_evidence_counts_when_restated_but_not_when_absent() -> None:
    assert evidence_in("- The user keeps bees on their roof.", "I keep bees on my roof.")
    assert not evidence_in("The user keeps a cat.", "I keep bees on my roof.")
    assert not evidence_in("anything", "I am.")  # no content words: nothing to find
    assert DESIGNS == ["full history", "MemoryContextProvider", "VectorStoreHistoryProvider", "memory tools only"]


async def test_cortadel_designs_count_the_services_extraction_and_never_share_a_user(tmp_path) -> None:
    async with start_memory_server() as server:
        rows = await _rows(cortadel_designs(server.url), tmp_path)  # the provider runs first, on the same server
    provider, tools = rows[("Cortadel provider", "information_extraction")], rows[("Cortadel memory tools only", "information_extraction")]
    assert provider.evidence_recall == 1.0 and provider.per_turn(provider.calls) == 2.0 and provider.per_turn(provider.writes) == 1.0
    assert tools.evidence_recall == 0.0 and tools.per_turn(tools.writes) == 0.0  # nobody said "remember"; no leak from the provider's user
    assert rows[("Cortadel memory tools only", "abstention")].abstention == 1.0


def test_a_cut_history_keeps_every_evidence_session_and_the_questions() -> None:
    whole = design_cases("dev", users=3)
    cut = design_cases("dev", users=3, sessions=1)
    for full, short in zip(whole, cut, strict=True):
        needed = {u for q in full.questions for u in (*q.evidence, *q.superseded)}
        kept = {t.uuid for s in short.sessions for t in s.turns}
        assert needed <= kept and short.questions == full.questions and len(short.sessions) <= len(full.sessions)
    assert sum(len(c.sessions) for c in cut) < sum(len(c.sessions) for c in whole)
    with pytest.raises(ValueError, match="tune on dev"):
        design_cases("train")


def test_the_table_has_one_line_per_row_and_a_dash_where_a_figure_does_not_apply() -> None:
    row = DesignRow("d", "abstention", questions=2, abstained=[True, False], question_ms=[3.0, 5.0], turns=4, tokens=40, calls=6)
    lines = design_table([row]).splitlines()
    assert len(lines) == 3 and lines[2].split() == ["d", "abstention", "2", "-", "0.50", "(n=2)", "10", "1.50", "0.00", "4"]


def test_each_share_in_the_table_says_how_many_questions_it_is_over() -> None:
    row = DesignRow("d", "all", questions=4, recalled=[True], abstained=[False, False, True])
    assert "1.00 (n=1)" in design_table([row]) and "0.33 (n=3)" in design_table([row])


def test_per_ability_keeps_the_first_questions_of_each_ability_and_their_evidence() -> None:
    full = design_cases("dev", users=2)
    few = design_cases("dev", users=2, sessions=1, per_ability=1)
    for whole, cut in zip(full, few, strict=True):
        abilities = [q.ability for q in cut.questions]
        assert len(abilities) == len(set(abilities)) == len({q.ability for q in whole.questions})
        assert cut.questions == [next(q for q in whole.questions if q.ability == a) for a in abilities]


def test_the_summary_pools_every_ability_of_a_design() -> None:
    rows = [DesignRow("d", "a", 1, [True], [], [2.0], 2, 10, 2, 1), DesignRow("d", "b", 2, [False], [True], [4.0, 6.0], 2, 30, 4, 0),
            DesignRow("e", "a", 1, [False], [], [1.0], 1, 5, 1, 0)]
    summary = design_summary(rows)
    d = summary["d"]
    assert list(summary) == ["d", "e"] and d.questions == 3 and d.evidence_recall == 0.5 and d.abstention == 1.0
    assert (d.per_turn(d.tokens), d.per_turn(d.calls), d.per_turn(d.writes), d.median_ms) == (10.0, 1.5, 0.25, 4.0)
