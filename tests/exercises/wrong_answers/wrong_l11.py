"""Wrong answers to 11.tuned_floor, written from the exercise text only.

Each one returns a (floor, score_floor(test, floor)) pair that looks reasonable, and breaks one rule: the floor
is the one with the most dev abstention among those whose dev recall@5 >= min_recall, it is chosen on dev
alone, and it is reported on test. ``floor_signals`` is imported inside the bodies so this module imports even
where that module does not exist yet.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations


def _candidates(questions):
    """0.0 and every relevance a hit has: the only floors at which the kept hits change."""
    return sorted({0.0} | {hit.relevance for q in questions for hit in q.hits})


def lesson_constant(dev, test, min_recall):
    """Reports the lesson's RELEVANCE_FLOOR (0.11) on test: dev and min_recall are never looked at."""
    from memory_evaluation.floor_signals import score_floor

    floor = 0.11
    return floor, score_floor(test, floor)


def tuned_on_test(dev, test, min_recall):
    """Picks the floor on test (most test abstention at test recall >= min_recall): the report is overfit."""
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(test):
        score = score_floor(test, floor)
        if score.recall_at_5 >= min_recall and score.abstention >= score_floor(test, best).abstention:
            best = floor
    return best, score_floor(test, best)


def tuned_on_dev_and_test(dev, test, min_recall):
    """Tunes on dev + test pooled for "more data": the floor depends on the test split."""
    from memory_evaluation.floor_signals import score_floor

    pooled = list(dev) + list(test)
    best = 0.0
    for floor in _candidates(pooled):
        score = score_floor(pooled, floor)
        if score.recall_at_5 >= min_recall and score.abstention >= score_floor(pooled, best).abstention:
            best = floor
    return best, score_floor(test, best)


def fixed_recall_target(dev, test, min_recall):
    """Ignores min_recall and keeps dev recall@5 >= 0.9, the example target."""
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(dev):
        score = score_floor(dev, floor)
        if score.recall_at_5 >= 0.9 and score.abstention >= score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


def strict_recall(dev, test, min_recall):
    """Requires dev recall@5 > min_recall: a floor whose recall equals min_recall exactly is refused."""
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(dev):
        score = score_floor(dev, floor)
        if score.recall_at_5 > min_recall and score.abstention >= score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


def one_step_too_far(dev, test, min_recall):
    """Raises the floor until dev recall drops below min_recall and returns that floor: one step too far."""
    from memory_evaluation.floor_signals import score_floor

    floor = 0.0
    for floor in _candidates(dev):  # the loop variable is the mistake
        if score_floor(dev, floor).recall_at_5 < min_recall:
            break
    return floor, score_floor(test, floor)


def coarse_grid(dev, test, min_recall):
    """Tries floors 0.0, 0.1, ..., 1.0 only: the best floor between two grid points is missed."""
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for step in range(11):
        floor = step / 10
        score = score_floor(dev, floor)
        if score.recall_at_5 >= min_recall and score.abstention >= score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


_CHOSEN: list = []


def floor_cached_once(dev, test, min_recall):
    """Tunes on the first call and caches the floor in the module: later calls ignore their dev and min_recall."""
    from memory_evaluation.floor_signals import score_floor

    if not _CHOSEN:
        best = 0.0
        for floor in _candidates(dev):
            score = score_floor(dev, floor)
            if score.recall_at_5 >= min_recall and score.abstention >= score_floor(dev, best).abstention:
                best = floor
        _CHOSEN.append(best)
    return _CHOSEN[0], score_floor(test, _CHOSEN[0])


WRONG = [
    ("11.tuned_floor", lesson_constant, "hard-coded RELEVANCE_FLOOR"),
    ("11.tuned_floor", tuned_on_test, "floor chosen on test"),
    ("11.tuned_floor", tuned_on_dev_and_test, "floor chosen on dev + test"),
    ("11.tuned_floor", fixed_recall_target, "min_recall ignored (0.9)"),
    ("11.tuned_floor", strict_recall, "recall > min_recall instead of >="),
    ("11.tuned_floor", one_step_too_far, "returns the first floor that breaks recall"),
    ("11.tuned_floor", coarse_grid, "floors only on a 0.1 grid"),
    ("11.tuned_floor", floor_cached_once, "floor cached on the module across calls"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


def _own_score(questions, floor):
    """Abstention and recall@5 computed by hand, keeping hits with relevance > floor (strictly above)."""
    abstained, recalled = [], []
    for question in questions:
        kept = [hit for hit in question.hits[:5] if hit.relevance > floor]
        if question.ability == "abstention":
            abstained.append(not kept)
        else:
            recalled.append(any(hit.is_evidence for hit in kept))
    return sum(abstained) / max(len(abstained), 1), sum(recalled) / max(len(recalled), 1)


def strict_keep_rule(dev, test, min_recall):
    """Scores dev with its own rule, keep a hit when relevance > floor, where the provider keeps it at >= floor."""
    from memory_evaluation.floor_signals import score_floor

    best, best_abstention = 0.0, -1.0
    for floor in _candidates(dev):
        abstention, recall = _own_score(dev, floor)
        if recall >= min_recall and abstention > best_abstention:
            best, best_abstention = floor, abstention
    return best, score_floor(test, best)


def reports_on_dev(dev, test, min_recall):
    """Chooses the floor on dev correctly, then reports it on dev too: `test` is never used."""
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(dev):
        score = score_floor(dev, floor)
        if score.recall_at_5 >= min_recall and score.abstention > score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(dev, best)


def lesson_curve_floors(dev, test, min_recall):
    """Tries only the floors of the lesson's curve (0, 0.05, RELEVANCE_FLOOR, 0.2, 0.3), the best of those on dev."""
    from lesson_utils.cortadel.gating import RELEVANCE_FLOOR
    from memory_evaluation.floor_signals import score_floor

    best = 0.0
    for floor in (0.0, 0.05, RELEVANCE_FLOOR, 0.2, 0.3):
        score = score_floor(dev, floor)
        if score.recall_at_5 >= min_recall and score.abstention > score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


def cached_by_min_recall(dev, test, min_recall, _chosen={}):  # noqa: B006 - the mistake itself
    """Caches the chosen floor per min_recall in a mutable default dict: a new dev with the same min_recall reuses it."""
    from memory_evaluation.floor_signals import score_floor

    if min_recall not in _chosen:
        best = 0.0
        for floor in _candidates(dev):
            score = score_floor(dev, floor)
            if score.recall_at_5 >= min_recall and score.abstention > score_floor(dev, best).abstention:
                best = floor
        _chosen[min_recall] = best
    return _chosen[min_recall], score_floor(test, _chosen[min_recall])


NEW_FROM_TEXT = [
    ("11.tuned_floor", strict_keep_rule, "own scoring keeps relevance > floor, not >= (boundary)"),
    ("11.tuned_floor", reports_on_dev, "ignores `test`: the report is score_floor(dev, floor)"),
    ("11.tuned_floor", lesson_curve_floors, "only the lesson's curve floors tried (0.05, 0.11, 0.2, 0.3)"),
    ("11.tuned_floor", cached_by_min_recall, "floor cached per min_recall in a mutable default dict"),
]
WRONG += NEW_FROM_TEXT
