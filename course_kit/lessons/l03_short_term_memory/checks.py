"""Lesson 03's checks: what each compaction strategy let through, read from the recorded requests.

A strategy decides what the model is *sent*; the session still stores everything. So every check
here compares a request with the stored history: which of the user's turns it carried, whether the
history it carried fits the budget (counted as compaction counts, :mod:`lesson_utils.context_budget`),
whether it was cut only once the stored history was over the budget, and what a summary stands for
(the framework records the ids of the messages a summary replaced in its group annotation).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from agent_framework import EXCLUDED_KEY, GROUP_ANNOTATION_KEY, SUMMARY_OF_MESSAGE_IDS_KEY

from lesson_utils.context_budget import message_tokens, within_budget


def turns_sent(request: Any, turns: Sequence[str]) -> list[int]:
    """Which of the user's ``turns`` (numbered from 1) ``request`` carried word for word."""
    texts = {message.text for message in request.messages}
    return [number for number, turn in enumerate(turns, start=1) if turn in texts]


def _stored(session: Any, source_id: str) -> list[Any]:
    return list((session.state.get(source_id) or {}).get("messages", []))


def sent_whole_history(requests: Sequence[Any], turns: Sequence[str]) -> bool:
    """True when turn n's request carried every earlier question and answer, then turn n: 2n-1 messages."""
    return all(
        len(request.messages) == 2 * index + 1 and turns_sent(request, turns) == list(range(1, index + 2))
        for index, request in enumerate(requests)
    )


def grew_every_turn(sizes: Sequence[int]) -> bool:
    """True when each size is larger than the one before it."""
    return all(later > earlier for earlier, later in pairwise(sizes))


def histories_within(requests: Sequence[Any], budget: int, *, kept: int = 1) -> bool:
    """True when the history each request carried (all but the new message) fits ``budget`` tokens,
    or is only the ``kept`` messages a truncating strategy never drops (:func:`within_budget`)."""
    return all(within_budget(request.messages[:-1], budget, kept=kept) for request in requests)


def cut_only_when_over(requests: Sequence[Any], session: Any, budget: int, source_id: str = "in_memory") -> bool:
    """True when each request carried the whole stored history before it while that fit ``budget`` tokens,
    and left out the first turn once it did not: the strategy compacted exactly when it was over."""
    stored = _stored(session, source_id)
    for index, request in enumerate(requests):
        before, carried = stored[: 2 * index], [message.text for message in request.messages[:-1]]
        if message_tokens(before) > budget:
            if stored[0].text in carried:
                return False
        elif carried != [message.text for message in before]:
            return False
    return True


def summarised_ids(message: Any) -> list[str]:
    """The ids of the messages ``message`` summarises (``[]`` when it is not a summary)."""
    annotation = (getattr(message, "additional_properties", None) or {}).get(GROUP_ANNOTATION_KEY) or {}
    return list(annotation.get(SUMMARY_OF_MESSAGE_IDS_KEY) or []) if isinstance(annotation, dict) else []


def is_summary(message: Any) -> bool:
    """True when ``message`` is a compaction summary (it records which messages it stands for)."""
    return bool(summarised_ids(message))


def summary_replaced_older_turns(request: Any, session: Any, *, most_verbatim: int | None = None,
                                 source_id: str = "in_memory") -> bool:
    """True when ``request`` opened with an assistant summary that is not in the stored history, and the
    messages it replaced plus those sent verbatim are the whole earlier history (nothing lost, turn 1 not sent).

    How many older messages the summary replaced depends on how long the replies were (the summariser's input
    budget takes whole turns, oldest first, until it is full), so ``most_verbatim`` — at most that many sent
    verbatim — is a claim about the model's replies; a lesson checks it with :func:`sent_verbatim` instead.
    """
    stored = _stored(session, source_id)
    summary, verbatim = request.messages[0], request.messages[1:-1]
    return (
        is_summary(summary)
        and summary.role == "assistant"
        and summary.text not in [message.text for message in stored]
        and len(summarised_ids(summary)) + len(verbatim) == len(stored) - 2
        and stored[0].text not in [message.text for message in request.messages]
        and (most_verbatim is None or len(verbatim) <= most_verbatim)
    )


def sent_verbatim(request: Any) -> int:
    """How many earlier messages ``request`` sent verbatim after its opening summary (not the new turn)."""
    return len(request.messages[1:-1]) if request.messages and is_summary(request.messages[0]) else len(request.messages) - 1


def stored_but_excluded(session: Any, text: str, source_id: str = "in_memory") -> bool:
    """True when the stored history still holds a message with ``text``, marked excluded from requests."""
    found = [message for message in _stored(session, source_id) if message.text == text]
    return bool(found) and all(message.additional_properties.get(EXCLUDED_KEY) is True for message in found)


def sent_stored_summary_instead(request: Any, session: Any, source_id: str = "in_memory") -> bool:
    """True when ``request`` opened with a summary from the stored history and carried none of the
    messages that summary stands for."""
    stored = {message.message_id: message for message in _stored(session, source_id) if is_summary(message)}
    first = request.messages[0]
    if first.message_id not in stored:
        return False
    replaced = set(summarised_ids(stored[first.message_id]))
    return not replaced & {message.message_id for message in request.messages}
