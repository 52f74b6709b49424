"""Lesson 11's exercise: choose a relevance floor on dev, report it on test.

A floor trades recall for abstention, and the learner decides where to stand: the most abstention on
dev that keeps dev recall@5 at a bar they are given. What the check guards is the discipline the
lesson teaches — the choice is made on dev alone and reported on test — on cases the learner has not
seen: each run draws which users make up dev and two test slices, bends the relevances by a monotone
power (so no fixed number, the lesson's ``RELEVANCE_FLOOR`` included, stays right) and puts the recall
bar exactly on a point of the dev curve (so a strict ``>`` where ``>=`` is asked misses it). The answer
is called three times with the same dev and different test slices: a floor that moves is one chosen by
looking at test. A last round gives a new dev with the first round's bar, on which the first round's floor is
wrong: a floor remembered between calls shows. Everything runs on saved per-hit signals (``evaluation/floor_signals.py``), so a
check takes well under a second.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from lesson_utils.cortadel.gating import RELEVANCE_FLOOR
from memory_evaluation.floor_signals import FloorHit, FloorQuestion, FloorScore, load_floor_questions, score_floor
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

_WHAT = "`tune_and_report(dev, test, min_recall)`"
_EPS = 1e-9


def _slice(questions: list[FloorQuestion], rng: random.Random, users: int, power: float) -> list[FloorQuestion]:
    """``users`` users drawn from ``questions``, every relevance bent to ``r ** power`` (ranks kept) plus a jitter."""
    everyone = sorted({q.user_id for q in questions})
    chosen = set(rng.sample(everyone, users))
    out = []
    for q in questions:
        if q.user_id in chosen:
            hits = tuple(
                FloorHit(round(min(1.0, max(0.0, h.relevance ** power + rng.uniform(-0.004, 0.004))), 4), h.is_evidence)
                for h in q.hits
            )
            out.append(FloorQuestion(q.question_id, q.user_id, q.ability, hits))
    rng.shuffle(out)
    return out


def candidate_floors(questions: Sequence[FloorQuestion]) -> list[float]:
    """Every floor that makes a difference: no floor, and each relevance a hit has (a floor between two
    of them keeps what the higher one keeps)."""
    return sorted({0.0, *(h.relevance for q in questions for h in q.hits)})


def best_abstention(questions: Sequence[FloorQuestion], min_recall: float) -> FloorScore:
    """The score of the floor with the most abstention whose recall@5 is at least ``min_recall``."""
    scores = [score_floor(questions, f) for f in candidate_floors(questions)]
    return max((s for s in scores if s.recall_at_5 >= min_recall - _EPS), key=lambda s: (s.abstention, -s.floor))


def best_over(questions: Sequence[FloorQuestion], bar: float) -> float:
    """The most abstention a floor reaches while keeping recall@5 strictly *above* ``bar``."""
    scores = (score_floor(questions, f) for f in candidate_floors(questions))
    return max((s.abstention for s in scores if s.recall_at_5 > bar + _EPS), default=-1.0)


def _draw_bar(dev: list[FloorQuestion], rng: random.Random) -> float:
    """A recall bar between half and 95% of dev's no-floor recall@5, put exactly on a point of dev's curve
    where it matters: the floor that abstains most of all breaks it (so an answer that ignores the bar shows),
    asking a little more recall would cost abstention (so ``>`` for ``>=`` shows), and the floors that reach
    the most abstention under the bar lie in a narrow window (so a coarse grid of floors misses it)."""
    floors = candidate_floors(dev)
    curve = [score_floor(dev, f) for f in floors]
    unfloored = curve[0].recall_at_5
    bars = sorted({s.recall_at_5 for s in curve if 0.5 * unfloored <= s.recall_at_5 <= 0.95 * unfloored})

    def best(bar: float, strict: bool) -> float:
        return max((s.abstention for s in curve if s.recall_at_5 > bar or (not strict and s.recall_at_5 >= bar)),
                   default=-1.0)

    def window(bar: float) -> float:
        top = best(bar, strict=False)
        ok = [n for n, s in enumerate(curve) if s.recall_at_5 >= bar and s.abstention == top]
        return floors[ok[-1]] - floors[max(ok[0] - 1, 0)]

    # Ignoring the bar must change the answer: the bar costs abstention against the most any floor reaches.
    most = max(s.abstention for s in curve)
    ignored = max(s.recall_at_5 for s in curve if s.abstention == most)  # the recall of the bar-ignoring floor
    binding = [bar for bar in bars if best(bar, strict=False) < most] or [
        min((s.recall_at_5 for s in curve if s.recall_at_5 > ignored), default=unfloored)]
    sharp = [bar for bar in binding if best(bar, strict=False) > best(bar, strict=True)]
    narrow = [bar for bar in sharp if window(bar) < 0.02]
    return rng.choice(narrow or sharp or binding)


def _as_answer(got: Any) -> tuple[float, FloorScore]:
    if not isinstance(got, tuple) or len(got) != 2:
        raise Hint(f"return a tuple (floor, report), got {type(got).__name__}")
    floor, report = got
    if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0.0 <= floor <= 1.0:
        raise Hint(f"the floor is a probability from 0.0 (no floor) to 1.0; you returned {floor!r}")
    if not isinstance(report, FloorScore):
        raise Hint(f"the report is the FloorScore that score_floor(test, floor) returns, not {type(report).__name__}")
    return float(floor), report


async def _one_round(answer: Any, dev: list[FloorQuestion], tests: list[list[FloorQuestion]], bar: float,
                     earlier: float | None = None) -> float:
    answers = [_as_answer(await call_learner(answer, dev, test, bar, what=_WHAT)) for test in tests]
    floors = [floor for floor, _ in answers]
    if earlier is not None and floors[0] == earlier and earlier not in _right_floors(dev, bar):
        raise Hint(
            f"on a new dev with the same min_recall ({bar:.1%}) you returned {earlier:g} again, the floor of an earlier "
            "call, which is not right on this dev: choose the floor from the dev you are given on every call "
            "(nothing cached between calls)"
        )
    if len(set(floors)) > 1:
        other = next(f for f in floors if f != floors[0])
        raise Hint(
            f"with the same dev and min_recall you chose {floors[0]:g}, then {other:g} when only the test split "
            "changed: choose the floor on dev alone; test is only for the report"
        )
    best = best_abstention(dev, bar)
    for test, (floor, report) in zip(tests, answers, strict=True):
        on_dev = score_floor(dev, floor)
        if on_dev.recall_at_5 < bar - _EPS:
            raise Hint(
                f"floor {floor:g} keeps dev recall@5 at {on_dev.recall_at_5:.1%}, under min_recall {bar:.1%}: "
                "a floor that breaks the recall bar is not a choice you may make, however much it abstains"
            )
        if on_dev.abstention < best.abstention - _EPS and abs(on_dev.abstention - best_over(dev, bar)) < _EPS:
            raise Hint(
                f"floor {best.floor:g} keeps dev recall@5 at exactly min_recall ({bar:.1%}) and abstains more than "
                f"your {floor:g}: 'at least min_recall' includes equal — compare with >=, not >"
            )
        if on_dev.abstention < best.abstention - _EPS:
            lesson = (f" ({RELEVANCE_FLOOR:g} is the lesson's floor, chosen on the lesson's dev, not on the dev you "
                      "are given)") if abs(floor - RELEVANCE_FLOOR) < 1e-6 else ""
            raise Hint(
                f"floor {floor:g} abstains on {on_dev.abstention:.1%} of dev's abstention questions{lesson}, but floor "
                f"{best.floor:g} abstains on {best.abstention:.1%} and still keeps recall@5 >= {bar:.1%}: try every "
                "floor that makes a difference (each relevance in dev) and keep the one that abstains most"
            )
        if report != score_floor(test, floor):
            if report == on_dev:
                raise Hint("your report holds the floor's dev figures: report it on test, score_floor(test, floor)")
            raise Hint(f"the report must be score_floor(test, {floor:g}) — the chosen floor, scored on the test split")
    return floors[0]


@exercise("11.tuned_floor", title="choose a relevance floor on dev, report it on test")
async def check_tuned_floor(answer: Any) -> None:
    if not callable(answer):
        raise Hint("pass your function itself: check('11.tuned_floor', tune_and_report)")
    dev_all, test_all = load_floor_questions("dev"), load_floor_questions("test")
    with drawn_cases() as rng:
        rounds = []
        for _ in range(2):  # two rounds: another dev slice, another bend, another bar
            dev = _slice(dev_all, rng, 8, rng.uniform(0.6, 1.6))
            rounds.append((dev, _draw_bar(dev, rng)))
        # and a third: a new dev with round 1's min_recall, on which none of round 1's right floors is right,
        # so a floor kept from an earlier call (cached per min_recall, say) shows
        rounds.append((_other_dev(dev_all, rng, *rounds[0]), rounds[0][1]))
        first: float | None = None
        for n, (dev, bar) in enumerate(rounds):
            # Three test slices, two of them bent hard one way and the other: a floor chosen on dev alone cannot move.
            tests = [_slice(test_all, rng, 8, power) for power in
                     (rng.uniform(0.6, 1.6), rng.uniform(0.2, 0.4), rng.uniform(2.5, 4.0))]
            chosen = await _one_round(answer, dev, tests, bar, earlier=first if n == 2 else None)
            first = chosen if n == 0 else first


def _right_floors(dev: list[FloorQuestion], bar: float) -> list[float]:
    """Every floor that is a right answer on ``dev`` for ``bar`` (ties on abstention included), and the
    floors between them."""
    best = best_abstention(dev, bar)
    floors = candidate_floors(dev)
    right = [n for n, f in enumerate(floors) if (s := score_floor(dev, f)).recall_at_5 >= bar - _EPS
             and s.abstention >= best.abstention - _EPS]
    return [floors[max(right[0] - 1, 0)], *(floors[n] for n in right)]


def _other_dev(dev_all: list[FloorQuestion], rng: random.Random, first: list[FloorQuestion], bar: float) -> list[FloorQuestion]:
    """A dev slice on which no right floor of ``first`` (for ``bar``) is right: the same bar, another answer."""
    carried = _right_floors(first, bar)
    candidate = first
    for _ in range(60):
        candidate = _slice(dev_all, rng, 8, rng.uniform(0.6, 1.6))
        if best_abstention(candidate, bar).recall_at_5 < bar - _EPS:
            continue
        best = best_abstention(candidate, bar)
        if all((s := score_floor(candidate, f)).recall_at_5 < bar - _EPS or s.abstention < best.abstention - _EPS
               for f in carried):
            return candidate
    return candidate
