"""Patterns fitted to a split's update phrasings recognise its own updates and not other phrasings."""

from __future__ import annotations

import pytest

from memory_evaluation.overfit import fit_phrasings, recognised

DEV = [
    {"new": "I live in Lisbon now.", "answer": "Lisbon", "old_answer": "Oslo"},
    {"new": "I sold my Fiat and now drive a Kia.", "answer": "Kia", "old_answer": "Fiat"},
]


def test_fitted_patterns_recognise_their_own_phrasings_with_other_values():
    patterns = fit_phrasings(DEV)
    assert recognised(patterns, DEV) == 1.0
    other_values = [{"new": "I live in Riga now.", "answer": "Riga", "old_answer": "Lima"}]
    assert recognised(patterns, other_values) == 1.0


def test_fitted_patterns_miss_a_phrasing_written_apart():
    patterns = fit_phrasings(DEV)
    apart = [{"new": "Since the spring, my home has been in Graz.", "answer": "Graz", "old_answer": "Leeds"},
             {"new": "I live in Riga now.", "answer": "Riga", "old_answer": "Lima"}]
    assert recognised(patterns, apart) == 0.5
    with pytest.raises(ValueError, match="no updates"):
        recognised(patterns, [])
