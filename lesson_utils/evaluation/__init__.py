"""Measuring memory: a LongMemEval-shaped scorecard run through the real provider path (lesson 11).

``load_synthetic()`` / ``load_longmemeval(path)`` give cases; ``await run_scorecard(cases)`` ingests
them into a fresh local server (or a real Cortadel server) and scores recall, knowledge updates,
abstention, tokens and latency per ability and search mode.
"""

from .dataset import ABILITIES, Case, DatasetError, Question, Session, Turn, load_longmemeval, load_synthetic
from .scorecard import ALL_MODES, MODES, QuestionResult, Scorecard, check_floors, load_floors, run_scorecard

__all__ = [
    "ABILITIES", "ALL_MODES", "Case", "DatasetError", "MODES", "Question", "QuestionResult", "Scorecard", "Session",
    "Turn", "check_floors", "load_floors", "load_longmemeval", "load_synthetic", "run_scorecard",
]
