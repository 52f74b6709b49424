"""Lesson 17's check helpers: what one request showed the model, and what a trial found.

The capstone grader judges an assistant by what its model was given (``assistant_trial``); the
lesson's own checks read the same two things, with the same matching rules, so a cell and the
grader never disagree about what "shown" means.
"""

from __future__ import annotations

from typing import Any

from memory_evaluation.assistant_trial import TrialReport, model_view, shows


def shown_to_model(request: Any, text: str) -> bool:
    """Whether ``request`` (a recorded model request) showed the model ``text``, however it was rendered."""
    return shows(model_view(list(request.messages), getattr(request, "instructions", "") or ""), text)


def failed_requirements(report: TrialReport) -> set[str]:
    """The requirements of a trial that did not hold for at least one user."""
    return {finding.requirement for finding in report.failures()}
