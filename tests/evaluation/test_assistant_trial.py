"""The capstone's grader (``assistant_trial``): every requirement its task states is tried, and a hint names its cause."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from memory_evaluation import assistant_trial as trial
from memory_evaluation.dataset import Case
from memory_evaluation.splits import load_split
from course_kit.exercises._registry import Hint
from course_kit.lessons.l17_capstone.exercises import _judge

SEEDS = tuple(range(1, 18))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_drawn_withdrawal_is_told_after_its_fact(seed):
    """A withdrawal's statement is in no question, only the fact it retires: it must still be said, after the fact."""
    items = {item["question"]: item for item in load_split(trial.SPLIT)["withdrawals"]}
    draw = trial.draw_cases(seed)
    asked = 0
    for user in draw.users:
        said = [turn.text for _, turns in draw.conversations[user] for turn in turns]
        for question in draw.cases[user].questions:
            if question.ability == "withdrawal":
                item = items[question.question]
                assert item["fact"] in said and item["withdrawal"] in said, (user, item["id"])
                assert said.index(item["fact"]) < said.index(item["withdrawal"])
                asked += 1
    assert asked


@pytest.mark.full  # slow: a memory server and the yardstick's provider per seed
@pytest.mark.parametrize("seed", [5, 7])
def test_the_yardstick_grades_withdrawals(seed):
    """Seed 5 once graded no withdrawal (its statements were never said); 7 grades the fewest of seeds 1-14."""
    from local_memory_server import start_memory_server

    async def graded_kinds():
        draw = trial.draw_cases(seed)
        keys = {trial._calibration_user(u): secrets.token_urlsafe(8) for u in draw.users}
        with start_memory_server(api_keys=keys) as server:
            yardstick = await trial._yardstick(server.url, draw, keys)
        return [q.kind for q in yardstick.questions]

    kinds = asyncio.run(graded_kinds())
    assert kinds.count("withdrawal") >= 1 and kinds.count("update") >= 1 and kinds.count("recall") >= 1, kinds


class _SharedByName:
    """Keys sessions by the conversation's name alone, and recalls only on a session's first turn."""

    def __init__(self):
        self.memory = {"ana": "The user lives in Lisbon.", "ben": "The user has a dog called Rex."}
        self.history: dict[str, list[str]] = {}

    async def reply(self, user, conversation, text):
        history = self.history.setdefault(conversation, [])
        recalled = [] if history else [self.memory[user]]
        history.append(text)
        trial._VIEWS.get().append(trial._joined(recalled + history))
        return "ok"


def test_a_session_shared_by_name_is_named_as_the_cause_not_recall_on_every_turn():
    questions = [trial._Question("ana", "recall", "Which city do I live in now?", ["The user lives in Lisbon."]),
                 trial._Question("ana", "recall", "Where is my home these days?", ["The user lives in Lisbon."]),
                 trial._Question("ben", "recall", "What is my dog called again?", ["The user has a dog called Rex."]),
                 trial._Question("ben", "recall", "Tell me my dog's name please.", ["The user has a dog called Rex."])]
    cases = {"ana": Case("ana", [], [], phatic=["hello there"]), "ben": Case("ben", [], [], phatic=["good morning"])}
    draw = trial._Draw(3, ["ana", "ben"], {}, {"ana": [], "ben": []}, cases)
    yardstick = trial._Yardstick(questions, {"ana": [], "ben": []}, {"ana": [], "ben": []}, {"ana": [], "ben": []})
    report = trial.TrialReport(3)
    runner, assistant = trial._Runner(report), _SharedByName()

    async def ask_everyone():
        for user in draw.users:
            await trial._ask(runner, assistant, draw, yardstick, user)

    asyncio.run(ask_everyone())
    with pytest.raises(Hint) as hint:
        _judge(report)
    assert "key each session by (user, conversation)" in str(hint.value)
    assert not any("recall on every turn" in f.detail for f in report.findings)
