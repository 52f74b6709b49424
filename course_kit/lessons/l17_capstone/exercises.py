"""Lesson 17's exercise, the capstone: a small multi-user assistant with memory, graded end to end.

The learner writes a class ``Assistant(chat_client, memory_url, keys, store_dir)`` with
``async reply(user, conversation, text) -> str`` (and, optionally, ``async aclose()``). The check
hands it to :func:`~memory_evaluation.assistant_trial.run_trial`: users, statements and
questions drawn fresh from the scorecard's generator with this run's seed, a throwaway local memory
server with a key per user, the offline lesson model, a restart, a stopped server. The hint names
the first requirement that did not hold, with what the model was (or was not) given.
"""

from __future__ import annotations

import inspect
from typing import Any

from memory_evaluation.assistant_trial import REQUIREMENTS, TrialReport, run_trial
from ...exercises._cases import draw, with_seed
from ...exercises._registry import Hint, StubNotFilled, exercise

#: What to do about each requirement, after what was seen.
FIXES = {
    "recall": "what the user said was stored; recall it in every conversation, on every turn: search all of that "
              "user's memories (not only one conversation's), with their key",
    "update": "let the memory server decide what is current: store each turn as it is said (add_conversation, "
              "as the provider does), and recall only what search returns",
    "withdrawal": "let the memory server decide what is current: store each turn as it is said, and recall only "
                  "what search returns",
    "server down": "fail open: a memory call that fails must not fail the turn (the provider's default; no "
                   "raise_on_error=True)",
}


@exercise("17.assistant", title="a small multi-user assistant with memory")
async def check_assistant(answer: Any) -> None:
    if not inspect.isclass(answer):
        raise Hint(f"pass the class Assistant itself (not an instance or a function); got {type(answer).__name__}")
    if not callable(getattr(answer, "reply", None)):
        raise Hint("Assistant needs a method `async def reply(self, user, conversation, text) -> str`")
    _rng, seed = draw()
    try:
        report = await run_trial(answer, seed, build=_build, stop_early=True)
        _judge(report)
    except Hint as hint:
        raise Hint(with_seed(str(hint), seed)) from None


def _build(cls: Any, chat_client: Any, memory_url: str, keys: dict[str, str], store_dir: Any) -> Any:
    try:
        return cls(chat_client=chat_client, memory_url=memory_url, keys=keys, store_dir=store_dir)
    except NotImplementedError:
        raise StubNotFilled("`Assistant.__init__`") from None
    except TypeError as error:
        raise Hint(f"Assistant(chat_client=..., memory_url=..., keys=..., store_dir=...) failed: {error}") from None
    except Exception as error:
        raise Hint(f"Assistant(...) raised {type(error).__name__}: {error}") from None


def _judge(report: TrialReport) -> None:
    if any(isinstance(error, NotImplementedError) for error in report.errors):
        raise StubNotFilled("`Assistant.reply`")
    failures = report.failures()
    if failures:
        first = failures[0]
        fix = None if "recall on every turn" in first.detail else FIXES.get(first.requirement)
        if any(f"raised {name}" in first.detail for name in ("FileNotFoundError", "NotADirectoryError", "IsADirectoryError")):
            fix = ("a conversation's name is any text, \"/\" included: do not paste it into a file name; let "
                   "FileSessionStore encode the key, or encode the name yourself (and keep (user, conversation) pairs apart)")
        raise Hint(f"{first.requirement}: {first.detail}" + (f" — {fix}" if fix else ""))
    untried = [r for r in REQUIREMENTS if not any(f.requirement == r for f in report.findings)
               and r not in ("update", "withdrawal")]  # a draw may hold no update or withdrawal the server handles
    if untried:
        raise Hint(f"could not grade {', '.join(untried)}: no reply reached that step (did reply return text?)")
