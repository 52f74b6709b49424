"""11.tuned_floor: the solution passes on every draw; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import itertools

import pytest

from lesson_utils.cortadel.gating import RELEVANCE_FLOOR
from memory_evaluation.floor_signals import load_floor_questions, score_floor
from course_kit.exercises import EXERCISES, check
from course_kit.exercises._cases import SEED_VARIABLE
from course_kit.lessons.l11_measuring_memory.exercises import best_abstention, candidate_floors

ID = "11.tuned_floor"


def _floors(questions):
    return sorted({0.0} | {hit.relevance for q in questions for hit in q.hits})


def solution(dev, test, min_recall):
    allowed = [s for s in (score_floor(dev, f) for f in _floors(dev)) if s.recall_at_5 >= min_recall]
    best = max(allowed, key=lambda s: s.abstention)
    return best.floor, score_floor(test, best.floor)


def stub(dev, test, min_recall):
    raise NotImplementedError


def chosen_on_test(dev, test, min_recall):
    """Plausible: keep dev's recall bar, but pick among those floors the one that abstains most on test."""
    allowed = [f for f in _floors(dev) if score_floor(dev, f).recall_at_5 >= min_recall]
    best = max(allowed, key=lambda f: score_floor(test, f).abstention)
    return best, score_floor(test, best)


def chosen_on_both(dev, test, min_recall):
    """Plausible: 'more data is better' — tune on dev and test pooled (no floor when the pool misses the bar)."""
    pooled = list(dev) + list(test)
    allowed = [s for s in (score_floor(pooled, f) for f in _floors(pooled)) if s.recall_at_5 >= min_recall]
    floor = max(allowed, key=lambda s: s.abstention).floor if allowed else 0.0
    return floor, score_floor(test, floor)


def lesson_floor(dev, test, min_recall):
    """Plausible: the lesson's RELEVANCE_FLOOR, reported on test."""
    return RELEVANCE_FLOOR, score_floor(test, RELEVANCE_FLOOR)


def bar_ignored(dev, test, min_recall):
    """Plausible: the most abstention, whatever recall it costs."""
    best = max((score_floor(dev, f) for f in _floors(dev)), key=lambda s: (s.abstention, -s.floor))
    return best.floor, score_floor(test, best.floor)


def strictly_above_the_bar(dev, test, min_recall):
    """Plausible: recall '> min_recall' where the task says 'at least'."""
    allowed = [s for s in (score_floor(dev, f) for f in _floors(dev)) if s.recall_at_5 > min_recall]
    best = max(allowed, key=lambda s: s.abstention)
    return best.floor, score_floor(test, best.floor)


def coarse_grid(dev, test, min_recall):
    """Plausible: only floors on a grid of 0.05, so the best floor between two of them is missed."""
    grid = [n / 20 for n in range(21)]
    allowed = [s for s in (score_floor(dev, f) for f in grid) if s.recall_at_5 >= min_recall]
    best = max(allowed, key=lambda s: s.abstention)
    return best.floor, score_floor(test, best.floor)


def dev_report(dev, test, min_recall):
    """Plausible: the right floor, reported with its dev figures."""
    floor, _ = solution(dev, test, min_recall)
    return floor, score_floor(dev, floor)


def test_registered_with_its_lesson():
    assert EXERCISES[ID].lesson == "11"


def test_solution_passes(capsys):
    assert check(ID, solution) is True
    assert capsys.readouterr().out.startswith("✅")


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed(ID, solution)


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in"),
        (chosen_on_test, "choose the floor on dev alone"),
        # Pooled with test, the floor usually moves with test; when it does not, it is not dev's best.
        (chosen_on_both, ("choose the floor on dev alone", "keep the one that abstains most")),
        (bar_ignored, "under min_recall"),
        (strictly_above_the_bar, "compare with >=, not >"),
        (dev_report, "report it on test"),
        ("floor", "pass your function itself"),
    ],
    ids=lambda v: getattr(v, "__name__", "hint"),
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with(ID, answer, *(hint if isinstance(hint, tuple) else (hint,)))


@pytest.mark.parametrize("answer", [chosen_on_test, chosen_on_both, lesson_floor, bar_ignored, strictly_above_the_bar,
                                    coarse_grid, dev_report], ids=lambda f: f.__name__)
def test_plausible_wrong_answers_are_rejected_on_every_draw(answer, rejected_on_every_seed):
    rejected_on_every_seed(ID, answer)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)


# --- the pieces the check is built on -----------------------------------------------------------------

def test_every_floor_between_two_candidates_scores_like_the_higher_one():
    dev = load_floor_questions("dev", users=2)
    for low, high in itertools.islice(itertools.pairwise(candidate_floors(dev)), 0, None, 25):
        between, at_high = score_floor(dev, (low + high) / 2), score_floor(dev, high)
        assert (between.abstention, between.recall_at_5) == (at_high.abstention, at_high.recall_at_5)


def test_best_abstention_keeps_the_bar_and_abstains_most():
    dev = load_floor_questions("dev")
    bar = score_floor(dev, 0.0).recall_at_5 * 0.8
    best = best_abstention(dev, bar)
    assert best.recall_at_5 >= bar
    assert all(s.abstention <= best.abstention for s in (score_floor(dev, f) for f in candidate_floors(dev))
               if s.recall_at_5 >= bar)


@pytest.mark.parametrize("seed", [46, 94, 156])
def test_ignoring_the_bar_is_rejected_where_it_once_passed(seed, monkeypatch, fails_with):
    """These seeds once drew bars the bar-ignoring floor happened to keep; every bar drawn now costs it abstention."""
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    fails_with(ID, bar_ignored, "under min_recall")
