"""Knowledge-update pairs scored end to end on the local memory server: updates, keeps, withdrawals.

A split file (``data/dev_pairs.json`` and the held-out test split; format: ``split_format.md``) holds
three lists of pairs of first-person chat messages. Each item gets a fresh user; its first message
goes in one session and its second in a later one, through ``MemoryService.from_conversation`` —
what the SDK's ``add_conversation`` (and the lesson's provider after a turn) sends. Then:

* **update** — right when the new value is current *and* ranked first by a hybrid search of the
  item's question, and every memory the old message produced is no longer current (end to end:
  distilling, the update decision and search all have to work);
* **keep** — a *false supersession* when either message's memory was made not current;
* **withdrawal** — honoured when every memory of the fact is no longer current.

It also counts, message by message, whether the update's attribute was read at all: an update message is *read*
when a memory it produced that holds its value got the item's attribute as its slot (the decider's label at write
time). An update needs both its messages read, so this share bounds update accuracy from above: it says how much
of a miss is the labeller's and how much is the decision's or the distiller's.

The misses are listed with their ``kind`` (the phrasing family), so a report says which kinds of
sentence the server does not understand yet, not just how many.

    python -m memory_evaluation.pairs memory_evaluation/data/dev_pairs.json [--understanding model]
        [--every K]

``--understanding model`` has the model in ``.env`` read every message (``memory_server/understanding.py``); the
summary then adds the model's median seconds per message and how many turns fell back to the offline reader.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DEV_PAIRS", "PairsReport", "Trial", "evaluate_pairs", "try_update"]

DEV_PAIRS = Path(__file__).with_name("data") / "dev_pairs.json"


@dataclass
class PairsReport:
    """What :func:`evaluate_pairs` found; ``misses`` holds one dict per wrong item."""

    updates: int = 0
    updates_right: int = 0
    keeps: int = 0
    false_supersessions: int = 0
    withdrawals: int = 0
    withdrawals_honoured: int = 0
    messages: int = 0          # update messages, old and new
    messages_read: int = 0     # … whose value was stored under the item's attribute
    misses: list[dict[str, Any]] = field(default_factory=list)
    #: With a model reading: its seconds for each message it read (one or two calls), and the turns it could
    #: not read (the offline reader read them instead).
    model_seconds: list[float] = field(default_factory=list)
    model_calls: list[int] = field(default_factory=list)
    fallbacks: int = 0

    @property
    def update_accuracy(self) -> float:
        return self.updates_right / self.updates if self.updates else 0.0

    @property
    def withdrawal_rate(self) -> float:
        return self.withdrawals_honoured / self.withdrawals if self.withdrawals else 0.0

    @property
    def reading_rate(self) -> float:
        return self.messages_read / self.messages if self.messages else 0.0

    def summary(self) -> str:
        return (f"updates {self.updates_right}/{self.updates} ({self.update_accuracy:.0%}) · "
                f"false supersessions {self.false_supersessions}/{self.keeps} · "
                f"withdrawals {self.withdrawals_honoured}/{self.withdrawals} · "
                f"attribute read in {self.messages_read}/{self.messages} update messages"
                + (f" · model {statistics.median(self.model_seconds):.1f} s per message (median of "
                   f"{len(self.model_seconds)}), {self.fallbacks} read offline after a model failure"
                   if self.model_seconds else ""))


def _family(attribute: str) -> str:
    """An attribute's family, as the decider's slots name it: "favourite:film" → favourite, "phone number" → phone."""
    words = attribute.split(":")[0].split()
    return words[0].casefold() if words else ""


def _load(split: dict[str, Any] | str | Path) -> dict[str, Any]:
    if isinstance(split, dict):
        return split
    with open(split, encoding="utf-8") as handle:
        return json.load(handle)


class _User:
    """One fresh user of ``service``: say things in sessions, then look at what is current."""

    def __init__(self, service: Any, user: str, report: PairsReport | None = None) -> None:
        self.service, self.user, self.sessions, self.report = service, user, 0, report

    def say(self, text: str) -> list[str]:
        """Send ``text`` as a one-turn conversation in a new session; the ids it stored or touched."""
        from local_memory_server.request_models import AddConversationRequest

        self.sessions += 1
        request = AddConversationRequest.model_validate({
            "user_id": self.user, "session_id": f"{self.user}-s{self.sessions}",
            "messages": [{"role": "user", "content": text, "uuid": f"{self.user}-t{self.sessions}"}]})
        reader = getattr(self.service, "reader", None)
        calls, fallbacks = (len(reader.endpoint.seconds), self.service.fallbacks) if reader else (0, 0)
        body = self.service.from_conversation(self.user, request)
        if reader is not None and self.report is not None:
            self.report.model_seconds.append(sum(reader.endpoint.seconds[calls:]))
            self.report.model_calls.append(len(reader.endpoint.seconds) - calls)
            self.report.fallbacks += self.service.fallbacks - fallbacks
        return [r["id"] for r in body.get("results", []) if r.get("id")]

    def _get(self, ids: list[str]) -> list[Any]:
        return [self.service.store.get(self.user, i) for i in ids]

    def records(self, ids: list[str]) -> list[Any]:
        return [record for record in self._get(ids) if record is not None]

    def current(self, ids: list[str]) -> list[bool]:
        return [bool(record is not None and record.is_current) for record in self._get(ids)]

    def top_hit(self, question: str) -> str:
        from local_memory_server.request_models import SearchMemoriesRequest

        request = SearchMemoriesRequest.model_validate({"user_id": self.user, "query": question, "top_k": 5})
        results = self.service.search(self.user, request)["results"]
        return results[0]["content"] if results else ""


def _service_or_throwaway(service: Any) -> Any:
    """``service``, or a throwaway in-memory local server's, with its default decider."""
    if service is not None:
        return service
    from local_memory_server.server import build_service

    return build_service(None)


@dataclass
class Trial:
    """What the server made of two messages told one after the other: each memory, the attribute it was filed
    under (``None``: none of the single-valued ones, so nothing for it to replace), and whether it is current."""

    old: list[tuple[str, str | None, bool]]
    new: list[tuple[str, str | None, bool]]
    #: When a model read the messages: its exchanges for the second one (extract, then decide), as sent and received.
    exchange: list[dict[str, Any]] = field(default_factory=list)

    @property
    def replaced(self) -> bool:
        """The first message's memories are all no longer current, and the second's are."""
        return bool(self.old and self.new) and not any(c for *_, c in self.old) and all(c for *_, c in self.new)

    def __str__(self) -> str:
        rows = [f"{'current ' if current else 'outdated'}  {attribute or '—':<18} {text}"
                for said in (self.old, self.new) for text, attribute, current in said]
        return "\n".join([*rows, f"replaced: {self.replaced}"])


def try_update(old: str, new: str, *, service: Any = None) -> Trial:
    """Tell ``old``, then ``new`` in a later session, as a fresh user of ``service`` (a ``MemoryService``; default:
    a throwaway in-memory local server's): lesson 10's "try your own sentences"."""
    from uuid import uuid4

    user = _User(_service_or_throwaway(service), f"try-{uuid4().hex[:8]}")
    told = [user.say(text) for text in (old, new)]
    first, second = ([(r.content, r.slot, bool(r.is_current)) for r in user.records(ids)] for ids in told)
    readings = getattr(user.service, "readings", None)
    return Trial(first, second, list(readings[-1].exchange) if getattr(user.service, "reader", None) and readings
                 else [])


def evaluate_pairs(split: dict[str, Any] | str | Path, *, service: Any = None, every: int = 1) -> PairsReport:
    """Score a split's ``updates``, ``keeps`` and ``withdrawals`` on ``service`` (a ``MemoryService``;
    default: a throwaway in-memory local server's, with its default decider); ``every=3`` scores every third
    item of each list (a sample, for trying a slow reader on dev)."""
    data = _load(split)
    data = {**data, **{name: data.get(name, [])[::every] for name in ("updates", "keeps", "withdrawals")}}
    service = _service_or_throwaway(service)
    report = PairsReport()
    prefix = f"pairs-{data.get('split', 'split')}"
    for item in data.get("updates", []):
        user = _User(service, f"{prefix}-{item['id']}", report)
        old_ids = user.say(item["old"])
        new_ids = user.say(item["new"])
        family = _family(item.get("attribute", ""))
        for ids, value in ((old_ids, item["old_answer"]), (new_ids, item["answer"])):
            report.messages += 1
            report.messages_read += any(_family(record.slot or "") == family for record in user.records(ids)
                                        if value.casefold() in record.content.casefold())
        top = user.top_hit(item["question"])
        first = item["answer"].casefold() in top.casefold()
        replaced = bool(old_ids) and not any(user.current(old_ids))
        report.updates += 1
        if first and replaced:
            report.updates_right += 1
        else:
            why = ("old value still current" if not replaced else "") + (
                ("; " if not replaced else "") + f"top hit is {top!r}" if not first else "")
            report.misses.append({"list": "updates", "id": item["id"], "kind": item.get("kind", ""),
                                  "attribute": item.get("attribute", ""), "why": why})
    for item in data.get("keeps", []):
        user = _User(service, f"{prefix}-{item['id']}", report)
        ids = user.say(item["first"]) + user.say(item["second"])
        report.keeps += 1
        if not all(user.current(ids)):
            report.false_supersessions += 1
            report.misses.append({"list": "keeps", "id": item["id"], "kind": item.get("why", ""),
                                  "why": "a memory was made not current"})
    for item in data.get("withdrawals", []):
        user = _User(service, f"{prefix}-{item['id']}", report)
        ids = user.say(item["fact"])
        user.say(item["withdrawal"])
        report.withdrawals += 1
        if ids and not any(user.current(ids)):
            report.withdrawals_honoured += 1
        else:
            report.misses.append({"list": "withdrawals", "id": item["id"], "kind": "withdrawal",
                                  "why": "the fact is still current" if ids else "the fact was never stored"})
    return report


def main(argv: list[str] | None = None) -> int:
    from local_memory_server.server import UNDERSTANDING, build_service
    from local_memory_server.understanding import GUARDS, ModelReader
    from local_memory_server.deciders import DECIDERS
    from .replay import ReplayEndpoint

    parser = argparse.ArgumentParser(description="Score knowledge-update pairs on the local memory server.")
    parser.add_argument("path", nargs="?", default=str(DEV_PAIRS))
    parser.add_argument("--update-decider", default="meaning", choices=DECIDERS,
                        help="meaning (offline, default) or model")
    parser.add_argument("--understanding", default="offline", choices=UNDERSTANDING,
                        help="who reads each message: offline (default), model (the model in .env: "
                             "LOCAL_MODEL_BASE_URL ...), or auto")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="score every K-th item of each list (a sample; default 1: all)")
    parser.add_argument("--guards", nargs="*", default=None, choices=GUARDS,
                        help="with a model: the guard-rails to apply (default all; none given: none), to compare designs")
    parser.add_argument("--replay", metavar="PATH", help="with a model: answer each request already in this JSON file "
                        "from it and add the new ones, so designs that differ only after the model are compared on "
                        "the same answers")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error(f"--every takes a whole number from 1, not {args.every}")
    from model_config import ModelConfigurationError

    try:
        service = build_service(None, update_decider=args.update_decider, understanding=args.understanding)
    except ModelConfigurationError as exc:  # a model asked for and none configured
        parser.error(str(exc))
    replay = None
    if service.reader is not None:
        replay = ReplayEndpoint.around(service.reader.endpoint, args.replay) if args.replay else None
        service.reader = ModelReader(replay or service.reader.endpoint,
                                     guards=GUARDS if args.guards is None else args.guards)
    try:
        report = evaluate_pairs(args.path, service=service, every=args.every)
    finally:
        if replay is not None:
            replay.save()
    print(report.summary())
    for miss in report.misses:
        print(f"  {miss['list']:<11} {miss['id']:<4} {miss['kind']:<28} {miss['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
