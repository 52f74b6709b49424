"""Refit the local server's relevance calibration (``local_memory_server/relevance.py``) on dev data.

    python bench/fit_relevance.py                 # fit on the dev data, print the constants
    python bench/fit_relevance.py --check         # exit 1 if the shipped constants differ from a refit

Each dev user's sessions are distilled into a fresh in-process store (the same ``from_conversation``
path the server runs); each question is searched in hybrid mode (top 10), and every hit becomes one
row: its features (``relevance.FEATURES``) and a label — 1 when the hit comes from one of the
question's evidence turns, 0 otherwise (every hit of an abstention question is a 0). A logistic
regression with a small L2 penalty is fitted by Newton's method (numpy only, deterministic), and
its intercept and weights are printed as the constants to paste into ``relevance.py``.

Dev data only: the dev split's haystack users (``load_cases("dev")``), or the synthetic dev set in
a checkout that has no splits. Never point this at the test split.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import memory_evaluation as evaluation
from memory_evaluation import Case
from local_memory_server import relevance

#: Ridge penalty on the weights (not the intercept): keeps the fit stable when classes separate.
L2 = 1.0
#: How far a refit may drift from the shipped constants before ``--check`` fails.
TOLERANCE = 0.05
SEARCH_DEPTH = 10


def dev_cases(users: int | None = None) -> list[Case]:
    """The dev users the constants are fitted on: the haystacks of the dev split's scorecard file
    (``data/dev_split.json``) alone. Retrieval is what is calibrated, so the update-pair files merged
    into dev for the decider (``dev_pairs.json`` …) are left out: adding pairs must not move the fit."""
    from memory_evaluation.splits import SPLIT_FILES, load_split

    return evaluation.load_cases(load_split([SPLIT_FILES["dev"][0]]), users=users)


def collect(cases: list[Case], *, depth: int = SEARCH_DEPTH) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and 0/1 labels for every hybrid hit of every question of ``cases``."""
    from local_memory_server import search as search_mod
    from local_memory_server.request_models import AddConversationRequest
    from local_memory_server.server import build_service

    service = build_service(None)
    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    try:
        for case in cases:
            for session in case.sessions:
                messages = [{"role": t.role, "content": t.content, "uuid": t.uuid} for t in session.turns if t.content.strip()]
                if messages:
                    request = AddConversationRequest(user_id=case.user_id, messages=messages, session_id=session.session_id)
                    service.from_conversation(case.user_id, request)
            for question in case.questions:
                hits = search_mod.search(service.store, service.embedder, case.user_id, question.question, top_k=depth)
                evidence = set(question.evidence)
                for hit in hits:
                    if hit.features is None:
                        raise SystemExit(f"no relevance features: is the embedder {relevance.FITTED_MODEL}?")
                    sources = set(hit.record.attributes.get("source_turn_uuids") or [])
                    rows.append(hit.features)
                    labels.append(int(bool(sources & evidence)))
    finally:
        service.store.close()
    return np.asarray(rows, dtype=float), np.asarray(labels, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, *, l2: float = L2, steps: int = 50) -> tuple[float, np.ndarray]:
    """Logistic regression by Newton's method: (intercept, weights)."""
    design = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(design.shape[1])
    penalty = np.diag([0.0] + [l2] * x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ beta))
        gradient = design.T @ (p - y) + penalty @ beta
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    return float(beta[0]), beta[1:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=None, help="fit on the first N dev users only")
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped constants differ from the refit")
    args = parser.parse_args()
    cases = dev_cases(args.users)
    x, y = collect(cases)
    intercept, weights = fit(x, y)
    print(f"dev: {len(cases)} users, {len(y)} hits, {int(y.sum())} evidence hits")
    print(f"INTERCEPT = {intercept:.3f}")
    print("COEFFICIENTS = {" + ", ".join(f'"{n}": {w:.3f}' for n, w in zip(relevance.FEATURES, weights, strict=True)) + "}")
    shipped = np.array([relevance.INTERCEPT] + [relevance.COEFFICIENTS[n] for n in relevance.FEATURES])
    drift = float(np.abs(shipped - np.array([intercept, *weights])).max())
    print(f"largest difference from the shipped constants: {drift:.3f} (tolerance {TOLERANCE})")
    return 1 if args.check and drift > TOLERANCE else 0


if __name__ == "__main__":
    raise SystemExit(main())
