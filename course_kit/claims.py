"""Honest checks about what a *model* did, for lessons that run on any model.

A lesson proves two kinds of claim. Claims about what the framework did (what was sent, stored,
injected) hold on every model and are plain ``assert`` cells. Claims about what the model did with
it (it used the name, it called the tool) hold for certain only on the deterministic offline model.
:func:`expect_model` is the one place that decides what happens to those:

- on the offline model it asserts, so the test suite fails if the lesson stops showing its point;
- on a real model it prints one line, ``✓ …`` or ``✗ … — <what to try>``, and never passes silently.

A claim that a *failure* shows (a limit the lesson puts on screen on purpose: "the weather question loaded the
coffee topic") is made with ``failure=True``: its line reads ``shown: …``, never ``✓``, so a ✓ always marks
something that went right.

A claim is judged by what the reply *contains*, never by the offline model's wording: "did not know the
name" fails on an invented name as much as on the right one (:func:`knows_nothing_about`, read with the
one language module), and "built on turn 1's joke" means the reply reuses that joke's words
(:func:`builds_on`). A claim made on a reply the output cap cut says "cut by the cap" (``models/cap.py``),
not that the model did not show it.

When ``LESSON_CLAIMS_LOG`` names a file, every claim is appended to it as one JSON line; that is how
``python course.py test --live`` builds its per-lesson table of what a real model demonstrated.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from offline_reader.speaker import PERSONAL_FACTS, content_words
from chat_models import describe_chat_client
from chat_models.cap import RECORD as CAP_RECORD
from chat_models.cap import cuts_so_far
from model_config.policy import MAX_TOKENS_VARIABLE

CLAIMS_LOG_VARIABLE = "LESSON_CLAIMS_LOG"
_cuts_seen = 0  # cuts_so_far() when the previous claim was made


class Shown:
    """Evidence that carries what happened when it is false: ``Shown(False, why="it wrote the call as text")``.

    A lesson's *On a real model* note says once what a model may not show; this is not that hedge but a
    diagnosis computed from the run (the model *wrote* its tool call instead of making it), so the ``✗`` line
    can say what this model did. It is truthy exactly when ``shown`` is, so ``a and b`` keeps the reason of
    whichever part failed first.
    """

    def __init__(self, shown: bool, why: str = "") -> None:
        self.shown, self.why = bool(shown), why

    def __bool__(self) -> bool:
        return self.shown

    def __repr__(self) -> str:
        return f"Shown({self.shown!r}, why={self.why!r})"


def expect_model(claim: str, shown: bool | Shown, *, hint: str = "", failure: bool = False) -> bool:
    """Report whether the model showed ``claim``; assert it on the offline lesson model.

    ``hint`` says what a learner on a real model can do when it did not (shown after ``✗``); evidence
    given as :class:`Shown` brings its own ``why``. ``failure=True`` marks a claim that shows something going
    wrong: it prints ``shown: …`` where a claim that went right prints ``✓ …``. Returns ``shown`` so a cell
    can branch on it.
    """
    mark = "shown:" if failure else "\u2713"
    global _cuts_seen
    hint = hint or getattr(shown, "why", "")
    shown = bool(shown)
    cut = cuts_so_far() > _cuts_seen  # a reply since the previous claim stopped at the output cap
    _cuts_seen = cuts_so_far()
    model = describe_chat_client()
    _log(claim, shown, model.kind, model.model, cut=cut)
    if model.kind == "offline":
        assert shown, f"the offline lesson model should show: {claim}"
        print(f"{mark} {claim}")
        return shown
    if shown:
        print(f"{mark} {claim} (this model showed it)")
    elif cut:
        print(f"\u2717 {claim}: not shown, the reply was cut by the cap ({MAX_TOKENS_VARIABLE}={CAP_RECORD.cap}) "
              f"\u2014 raise {MAX_TOKENS_VARIABLE} in .env and run the cell again")
    else:
        extra = f" \u2014 {hint}" if hint else ""
        print(f"\u2717 {claim}: this model did not show it{extra}")
    return shown


def knows_nothing_about(reply: str, *kinds: str, allowed: Iterable[object] = ()) -> bool:
    """True when ``reply`` states no ``kinds`` of personal fact ("name", "city", "age") except ``allowed`` ones.

    A model that was sent no name and answers "My name is Sarah." did not show that it did not know the
    name: it invented one. So a "did not know" claim holds only when the reply names none at all (or only
    a value in ``allowed``, one the model was in fact sent).
    """
    unknown = [kind for kind in kinds if kind not in PERSONAL_FACTS]
    if unknown or not kinds:
        raise ValueError(f"kinds must be among {sorted(PERSONAL_FACTS)}; got {list(kinds) or 'none'}")
    permitted = {str(value).lower() for value in allowed}
    return not any(str(value).lower() not in permitted for kind in kinds for value in PERSONAL_FACTS[kind](reply))


def builds_on(reply: str, earlier: str, *, besides: Iterable[str] = ()) -> bool:
    """True when ``reply`` reuses at least two of ``earlier``'s words that the ``besides`` texts (the request) lack.

    "Turn 2 built on turn 1's joke" is judged by what turn 2 contains: the joke's own words, not the words
    of the question that asked for it ("pirate", "emojis" and "parrot" were in the requests).
    """
    asked: set[str] = set().union(*(content_words(text) for text in besides))
    own = content_words(earlier) - asked
    return len(own & content_words(reply)) >= 2


def _log(claim: str, shown: bool, kind: str, model: str | None, *, cut: bool = False) -> None:
    path = os.environ.get(CLAIMS_LOG_VARIABLE)
    if not path:
        return
    record = {"claim": claim, "shown": shown, "kind": kind, "model": model, "cut": cut}
    with open(Path(path), "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
