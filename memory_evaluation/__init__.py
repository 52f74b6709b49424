"""Measuring memory: a LongMemEval-shaped scorecard run through the real provider path (lesson 11).

``load_cases("dev" | "test")`` (a split assembled into users with 40+ sessions each, see
``splits.py`` and ``haystack.py``) / ``load_longmemeval(path)`` give cases; ``await run_scorecard(cases)`` ingests
them into a fresh local server (or a real Cortadel server) and scores recall, knowledge updates,
abstention, tokens and latency per ability and search mode.
"""

from .dataset import ABILITIES, Case, DatasetError, Question, Session, Tracked, Turn, load_longmemeval, load_synthetic
from .haystack import assemble, fresh_cases, load_cases, slice_cases
from .scorecard import (
    ALL_MODES,
    MODES,
    QuestionResult,
    Scorecard,
    TrackedResult,
    check_floors,
    load_floors,
    run_scorecard,
    side_by_side,
)
from .splits import Split, load_split

__all__ = [
    "ABILITIES", "ALL_MODES", "Case", "DatasetError", "MODES", "Question", "QuestionResult", "Scorecard", "Session",
    "Split", "Tracked", "TrackedResult", "Turn", "assemble", "check_floors", "fresh_cases", "load_cases",
    "load_floors", "load_longmemeval", "load_split", "load_synthetic", "run_scorecard", "side_by_side", "slice_cases",
]
