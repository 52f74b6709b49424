"""Wrong answers to 11.tuned_floor, written from the exercise text only.

Each one returns a (floor, score_floor(test, floor)) pair that looks reasonable, and breaks one rule: the floor
is the one with the most dev abstention among those whose dev recall@5 >= min_recall, it is chosen on dev
alone, and it is reported on test. ``floor_signals`` is imported inside the bodies so this module imports even
where that module does not exist yet.
"""

from __future__ import annotations


def _candidates(questions):
    """0.0 and every relevance a hit has: the only floors at which the kept hits change."""
    return sorted({0.0} | {hit.relevance for q in questions for hit in q.hits})


def lesson_constant(dev, test, min_recall):
    """Reports the lesson's RELEVANCE_FLOOR (0.11) on test: dev and min_recall are never looked at."""
    from lesson_utils.evaluation.floor_signals import score_floor

    floor = 0.11
    return floor, score_floor(test, floor)


def tuned_on_test(dev, test, min_recall):
    """Picks the floor on test (most test abstention at test recall >= min_recall): the report is overfit."""
    from lesson_utils.evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(test):
        score = score_floor(test, floor)
        if score.recall_at_5 >= min_recall and score.abstention >= score_floor(test, best).abstention:
            best = floor
    return best, score_floor(test, best)


def tuned_on_dev_and_test(dev, test, min_recall):
    """Tunes on dev + test pooled for "more data": the floor depends on the test split."""
    from lesson_utils.evaluation.floor_signals import score_floor

    pooled = list(dev) + list(test)
    best = 0.0
    for floor in _candidates(pooled):
        score = score_floor(pooled, floor)
        if score.recall_at_5 >= min_recall and score.abstention >= score_floor(pooled, best).abstention:
            best = floor
    return best, score_floor(test, best)


def fixed_recall_target(dev, test, min_recall):
    """Ignores min_recall and keeps dev recall@5 >= 0.9, the example target."""
    from lesson_utils.evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(dev):
        score = score_floor(dev, floor)
        if score.recall_at_5 >= 0.9 and score.abstention >= score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


def strict_recall(dev, test, min_recall):
    """Requires dev recall@5 > min_recall: a floor whose recall equals min_recall exactly is refused."""
    from lesson_utils.evaluation.floor_signals import score_floor

    best = 0.0
    for floor in _candidates(dev):
        score = score_floor(dev, floor)
        if score.recall_at_5 > min_recall and score.abstention >= score_floor(dev, best).abstention:
            best = floor
    return best, score_floor(test, best)


def one_step_too_far(dev, test, min_recall):
    """Raises the floor until dev recall drops below min_recall and returns that floor: one step too far."""
    from lesson_utils.evaluation.floor_signals import score_floor

    floor = 0.0
    for floor in _candidates(dev):  # the loop variable is the mistake
        if score_floor(dev, floor).recall_at_5 < min_recall:
            break
    return floor, score_floor(test, floor)


def coarse_grid(dev, test, min_recall):
    """Tries floors 0.0, 0.1, ..., 1.0 only: the best floor between two grid points is missed."""
    from lesson_utils.evaluation.floor_signals import score_floor

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
    from lesson_utils.evaluation.floor_signals import score_floor

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
