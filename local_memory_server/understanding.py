"""A model reads a turn: the facts in it, and what each does to the user's stored memories (mem0-style).

Why: the server's offline reader is a small set of rules that reads only the phrasings it knows. With a model
configured, the write path asks it instead, in at most two calls per turn (``prompts.py``): extract labelled
facts, then decide ``ADD`` / ``UPDATE`` / ``DELETE`` / ``NONE`` for every fact at once, against the user's stored
memories most like it. The code finds those candidates (by similarity, ``MemoryStore.similar``) and applies the
decisions; it never reads English.

A small model retires memories that are still true far more often than rules do, and a lost memory is the
worse error: the user never sees what went. So a replacement must pass guard-rails in code, built from the
model's own labels, not from phrases:

* an ``UPDATE`` or ``DELETE`` names one of *that* fact's candidates (a number it was shown);
* the model answered ``both_true: false`` for it (asked before the event);
* the fact holds ``now`` and is something a person has ``single`` (one at a time); a past event, a plan or one
  more pet is added, never a replacement;
* the fact and the memory are about the same person (the ``whose`` each was labelled with when stored), and about
  the same thing: their ``topic`` labels are close in embedding space (:data:`SAME_TOPIC`), so "home city" may
  replace "home" but "holiday" may not;
* an ``UPDATE`` is one the offline reader agrees is a new value of the same single-valued attribute (home, job,
  employer …): it reads the model's clean third-person sentences far better than a user's chat, and it files
  another person's fact, a second language or a trip under none. On a dev sample this cut Qwen2.5-Coder 1.5B's
  false supersessions from 7 of 20 to 1 of 20, for 17 → 14 of 23 updates (``bench/README.md``).

A replacement that fails a guard is stored as an ``ADD``: nothing the user said is lost. Two more guards work on
extraction, because a small model writes down what the user never said: a fact that is one of the prompt's own
examples, in words the conversation never used, is not stored (``prompts.copies_an_example``), nor one mostly in
words only the assistant used (``prompts.said_by_the_assistant``). A fact written twice is stored once. Any
failure of the model (:class:`~.model_endpoint.ModelAnswerError`, or an answer of the wrong shape) raises, and the
service reads that turn with the offline reader instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .model_endpoint import ModelAnswerError, ModelEndpoint
from .prompts import (EVENTS, EXTRACT_SCHEMA, WHEN, copies_an_example, decide_messages, decide_schema, extract_messages,
                      said_by_the_assistant)

__all__ = ["GUARDS", "SAME_TOPIC", "Decision", "ModelFact", "ModelReader", "Reading", "transcript"]

logger = logging.getLogger(__name__)

#: Stored memories shown with each new fact (mem0 shows five too).
CANDIDATES = 5
#: The guard-rails a replacement must pass besides naming a memory it was shown: the model's ``both_true`` answer,
#: and the labels (``single``, ``when``, ``whose``) of the new fact and of the memory; and the two on extraction,
#: which store no fact copied from the prompt's examples or written in the assistant's words.
GUARDS = ("both_true", "labels", "offline", "examples", "assistant")
#: Cosine similarity of two topic labels' embeddings at and above which they name the same thing.
SAME_TOPIC = 0.5
#: Output caps: a few facts, or a few decisions, fit well inside; a runaway model is cut and falls back.
EXTRACT_MAX_TOKENS = 512
DECIDE_MAX_TOKENS = 256


@dataclass(frozen=True)
class ModelFact:
    """A fact as the model extracted and labelled it."""

    text: str
    whose: str = "user"
    topic: str = ""
    single: bool = False
    when: str = "now"

    @property
    def labels(self) -> dict[str, Any]:
        """What is stored beside the memory, so later decisions can check whose it is."""
        return {"whose": self.whose, "topic": self.topic, "single": self.single, "when": self.when}

    @property
    def may_replace(self) -> bool:
        return self.single and self.when == "now"


@dataclass(frozen=True)
class Decision:
    """What to do with one new fact: ``event``, and the stored memory (``target``) it replaces or repeats."""

    event: str
    target: Any = None
    #: Why a replacement the model asked for was stored as an ADD instead ("" when it was not).
    vetoed: str = ""


@dataclass
class Reading:
    """One turn read by the model: its facts, a decision for each, and the exchange as sent and received."""

    facts: list[ModelFact]
    decisions: list[Decision]
    exchange: list[dict[str, Any]] = field(default_factory=list)


def transcript(turns: Sequence[Any], *, limit: int = 6000) -> str:
    """The turns as ``role: text`` lines, the newest kept whole when the whole is longer than ``limit``."""
    lines = [f"{t.role}: {' '.join(str(t.content).split())}" for t in turns if str(t.content).strip()]
    text = "\n".join(lines)
    return text[-limit:]


def _same_person(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


class ModelReader:
    """Reads turns with a model; see the module docstring for the guard-rails."""

    def __init__(self, endpoint: ModelEndpoint, *, guards: Sequence[str] = GUARDS) -> None:
        unknown = set(guards) - set(GUARDS)
        if unknown:
            raise ValueError(f"guards={sorted(unknown)}: use any of {', '.join(GUARDS)}")
        self.endpoint = endpoint
        #: Which guard-rails apply (all, unless a benchmark compares designs): see the module docstring.
        self.guards = frozenset(guards)

    @property
    def model(self) -> str:
        return self.endpoint.model

    def extract(self, turns: Sequence[Any]) -> tuple[list[ModelFact], dict[str, Any]]:
        """The labelled facts of ``turns`` (one model call), and the exchange."""
        said = transcript(turns)
        messages = extract_messages(said)
        answer = self.endpoint.complete_json(messages, EXTRACT_SCHEMA, name="facts", max_tokens=EXTRACT_MAX_TOKENS)
        items = answer.get("facts")
        if not isinstance(items, list):
            raise ModelAnswerError(f"no facts list in {str(answer)[:100]!r}")
        facts: list[ModelFact] = []
        for item in items:
            if not isinstance(item, dict) or not str(item.get("fact", "")).strip():
                raise ModelAnswerError(f"a fact without text: {str(item)[:100]!r}")
            facts.append(ModelFact(
                text=" ".join(str(item["fact"]).split()), whose=str(item.get("whose") or "user").strip() or "user",
                topic=str(item.get("topic") or "").strip(), single=item.get("single") is True,
                when=str(item.get("when")) if item.get("when") in WHEN else "now"))
        unique: dict[str, ModelFact] = {}
        for fact in facts:  # a small model can write one fact many times over
            unique.setdefault(fact.text.casefold(), fact)
        facts = list(unique.values())
        user_said = " ".join(str(t.content) for t in turns if t.role == "user")
        assistant_said = " ".join(str(t.content) for t in turns if t.role == "assistant")
        refused = {
            "examples": ("one of the prompt's examples the turn never told", lambda f: copies_an_example(f.text, said)),
            "assistant": ("in the assistant's words, not the user's",
                          lambda f: said_by_the_assistant(f.text, user_said, assistant_said)),
        }
        for guard, (why, refuses) in refused.items():
            if guard in self.guards:
                for fact in [f for f in facts if refuses(f)]:
                    logger.info("Not stored, %s: %r", why, fact.text)
                    facts.remove(fact)
        return facts, {"call": "extract", "sent": messages, "received": answer}

    def decide(self, facts: Sequence[ModelFact], candidates: Sequence[Sequence[Any]],
               *, labels_of: Callable[[Any], dict[str, Any]], text_of: Callable[[Any], str],
               same_topic: Callable[[str, str], bool] = lambda a, b: True,
               same_attribute: Callable[[str, Any], bool] = lambda text, record: True,
               ) -> tuple[list[Decision], dict[str, Any] | None]:
        """One decision per fact against its ``candidates`` (stored records; one model call, none when no fact
        has a candidate), after the guard-rails; and the exchange. ``same_topic(a, b)`` says whether two topic
        labels name the same thing (the service compares their embeddings); ``same_attribute(text, record)``
        whether the offline reader files a fact's text and a record under the same single-valued attribute."""
        if not any(candidates):
            return [Decision("ADD") for _ in facts], None
        numbers: dict[str, int] = {}  # one number per stored memory, however many facts it is shown with
        numbered = [[(numbers.setdefault(record.id, len(numbers) + 1), record) for record in found]
                    for found in candidates]
        messages = decide_messages([f.text for f in facts],
                                   [[(n, text_of(r)) for n, r in rows] for rows in numbered])
        schema = decide_schema(len(facts), list(numbers.values()))
        answer = self.endpoint.complete_json(messages, schema, name="decisions", max_tokens=DECIDE_MAX_TOKENS)
        items = answer.get("decisions")
        if not isinstance(items, list) or len(items) != len(facts):
            raise ModelAnswerError(f"{len(facts)} decisions expected: {str(answer)[:100]!r}")
        decisions = [self._guarded(fact, item, dict(rows), labels_of, same_topic, same_attribute)
                     for fact, item, rows in zip(facts, items, numbered, strict=True)]
        return decisions, {"call": "decide", "sent": messages, "received": answer}

    def _guarded(self, fact: ModelFact, item: Any, shown: dict[int, Any],
                 labels_of: Callable[[Any], dict[str, Any]], same_topic: Callable[[str, str], bool],
                 same_attribute: Callable[[str, Any], bool]) -> Decision:
        if not isinstance(item, dict) or item.get("event") not in EVENTS:
            raise ModelAnswerError(f"not a decision: {str(item)[:100]!r}")
        event, target = item["event"], shown.get(item.get("id"))  # type: ignore[arg-type]
        if event == "ADD":  # its id names the closest memory, which stays
            return Decision("ADD")
        if target is None:  # a number it was not shown for this fact
            return Decision("ADD", vetoed=f"{event} named memory {item.get('id')!r}, not one shown for this fact")
        if event == "NONE":
            return Decision("NONE", target)
        stored, labels = labels_of(target), "labels" in self.guards
        if "both_true" in self.guards and item.get("both_true") is not False:
            why = "the model said both can be true"
        elif labels and event == "UPDATE" and not fact.may_replace:
            why = f"a {'many-valued' if not fact.single else fact.when} fact replaces nothing"
        elif labels and not _same_person(stored.get("whose", "user"), fact.whose):
            why = f"about {fact.whose!r}, the memory about {stored.get('whose', 'user')!r}"
        elif labels and stored.get("topic") and not same_topic(fact.topic, stored["topic"]):
            why = f"about {fact.topic!r}, the memory about {stored['topic']!r}"
        elif "offline" in self.guards and event == "UPDATE" and not same_attribute(fact.text, target):
            why = "the offline reader files them under different attributes, or none"
        else:
            return Decision(event, target)
        return Decision("ADD", vetoed=why)
