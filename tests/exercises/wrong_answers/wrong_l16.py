"""Wrong answers to 16.pick_a_design, written from the exercise text only.

Written from the exercise text and the lesson only, without reading the checks or their tests. Each
``pick(rows, ability, max_calls)`` looks right on the lesson's table and breaks one rule of the task: among
the rows of `ability` whose design makes *at most* `max_calls` model calls per turn (``row.per_turn(row.calls)``),
the design with the highest ``evidence_recall``, a tie going to fewer tokens per turn
(``row.per_turn(row.tokens)``), and ``None`` when no design fits.

Kinds: a boundary ("at most" as "less than"), an input ignored, the lesson's recommendation typed in, the
empty case, and state shared through a mutable default.
"""

from __future__ import annotations


def _recall(row) -> float:
    return row.evidence_recall if row.evidence_recall is not None else -1.0


def _best(rows):
    return max(rows, key=lambda row: (_recall(row), -row.per_turn(row.tokens)))


def fewer_calls_than_max(rows, ability, max_calls):
    """Keeps designs with per_turn(calls) < max_calls: a design making exactly max_calls is left out."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) < max_calls]
    return _best(fitting).design if fitting else None


def every_ability_pooled(rows, ability, max_calls):
    """Ignores `ability`: picks among every row within the budget, whatever ability it measured."""
    fitting = [row for row in rows if row.per_turn(row.calls) <= max_calls]
    return _best(fitting).design if fitting else None


def lesson_recommendation_first(rows, ability, max_calls):
    """Returns the lesson's recommendation, "Cortadel provider", whenever it fits the budget; the best otherwise."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
    if any(row.design == "Cortadel provider" for row in fitting):
        return "Cortadel provider"
    return _best(fitting).design if fitting else None


def max_of_nothing(rows, ability, max_calls):
    """Forgets the empty case: max() of no fitting row raises ValueError instead of returning None."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
    return _best(fitting).design


def cached_in_default(rows, ability, max_calls, _picked={}):  # noqa: B006 - the mistake itself
    """Caches the pick per (ability, max_calls) in a mutable default dict: a new table gets the old table's pick."""
    key = (ability, max_calls)
    if key not in _picked:
        fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
        _picked[key] = _best(fitting).design if fitting else None
    return _picked[key]


WRONG = [
    ("16.pick_a_design", fewer_calls_than_max, "'at most max_calls' as < max_calls (boundary)"),
    ("16.pick_a_design", every_ability_pooled, "ignores `ability`: every row pooled"),
    ("16.pick_a_design", lesson_recommendation_first, "the lesson's 'Cortadel provider' typed in when it fits"),
    ("16.pick_a_design", max_of_nothing, "no design fits: raises ValueError instead of returning None"),
    ("16.pick_a_design", cached_in_default, "pick cached per (ability, max_calls) in a mutable default dict"),
]
