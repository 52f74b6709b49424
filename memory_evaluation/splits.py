"""The scorecard's two splits: DEV to tune on, TEST to report on (and nothing else).

A memory system whose rules were written against the questions it is scored on looks better
than it is. So the scorecard's data comes in two *splits* of the same format: ``dev``
(``data/dev_split.json``, written by :mod:`.make_dataset`) is what you read and tune on, with the
update-decider's pair files beside it (:data:`DEV_PAIR_FILES`: ``dev_pairs.json`` and a second
author's ``dev2_pairs.json``); ``test`` (``data/test_split.json``) was written apart, is
committed once with its sha256 recorded beside the CI floors (``data/floors.json`` →
``"splits"``), and is never edited or tuned on. :func:`load_split` reads one or more files,
merges them, checks the format whole, and checks each file's hash where one is recorded: a
test file that changed after its floors were set is refused, in one line.

The format (one JSON object per file): ``split``, ``version``, ``about``, and lists of items —
``updates``, ``keeps``, ``withdrawals``, ``facts``, ``multi_session``, ``temporal``,
``abstention``, ``follow_ups`` — plus a ``haystack`` of filler (``small_talk``,
``assistant_replies``, ``templates`` with ``{slot}`` names from ``vocab``).
"""

from __future__ import annotations

import hashlib
import json
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .dataset import DATA_DIR, DatasetError

__all__ = ["DEV_PAIR_FILES", "ITEM_KINDS", "MINIMUMS", "SPLIT_FILES", "Split", "file_sha256", "load_split", "recorded_hashes",
           "with_haystack"]

#: Which files make each named split (files after the first are merged in when they exist). The
#: scorecard's dev split is its own file, shaped like the test split, so the two columns compare; the
#: update-pair files the decider was tuned on are dev data too, scored on their own by ``pairs.py``.
SPLIT_FILES: dict[str, tuple[Path, ...]] = {
    "dev": (DATA_DIR / "dev_split.json",),
    "test": (DATA_DIR / "test_split.json",),
}
#: The update/keep/withdrawal pairs of the two dev authors (``python -m memory_evaluation.pairs FILE``).
DEV_PAIR_FILES: tuple[Path, ...] = (DATA_DIR / "dev_pairs.json", DATA_DIR / "dev2_pairs.json")
FLOORS_PATH = DATA_DIR / "floors.json"

#: Each item list: the fields every item must have (strings unless said otherwise).
ITEM_KINDS: dict[str, tuple[str, ...]] = {
    "updates": ("id", "attribute", "kind", "old", "new", "question", "answer", "old_answer"),
    "keeps": ("id", "why", "first", "second"),
    "withdrawals": ("id", "fact", "withdrawal", "question"),
    "facts": ("id", "statement", "question", "answer"),
    "multi_session": ("id", "statements", "question", "answer"),
    "temporal": ("id", "events", "question", "answer"),
    "abstention": ("id", "question"),
    "follow_ups": ("id", "statement", "first_question", "follow_up", "answer"),
}
#: The least a (merged) split must hold, so that every ability is measured on enough questions.
MINIMUMS = {"updates": 60, "keeps": 50, "withdrawals": 10, "facts": 30, "multi_session": 15, "temporal": 15,
            "abstention": 30, "follow_ups": 15, "small_talk": 150, "assistant_replies": 20, "templates": 120,
            "vocab values": 15, "update attributes": 8}


@dataclass
class Split:
    """A loaded split: its name, the merged items per kind, the haystack, and the files it came from."""

    name: str
    items: dict[str, list[dict[str, Any]]]
    haystack: dict[str, Any]
    files: list[Path]

    def __getitem__(self, kind: str) -> list[dict[str, Any]]:
        return self.items[kind]

    def counts(self) -> dict[str, int]:
        return {kind: len(items) for kind, items in self.items.items()}


def file_sha256(path: str | Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def recorded_hashes(floors_path: str | Path = FLOORS_PATH) -> dict[str, str]:
    """File name → sha256, from ``floors.json``'s ``"splits"`` entry (a split with no hash yet is left out)."""
    try:
        with open(floors_path, encoding="utf-8") as handle:
            floors = json.load(handle)
    except FileNotFoundError:
        return {}
    return {entry["file"]: entry["sha256"] for entry in floors.get("splits", {}).values() if entry.get("sha256")}


def load_split(
    name_or_paths: str | Path | list[str | Path] = "dev", *, floors_path: str | Path = FLOORS_PATH,
    minimums: dict[str, int] | None = None,
) -> Split:
    """Load a split by name (``"dev"``, ``"test"``) or from files, merged and validated.

    Raises :class:`DatasetError` with one line naming what is wrong: a missing file, bad JSON, a
    missing field, a duplicated id, an answer not in its statement, too few items, an unknown
    template slot, or a file whose sha256 differs from the one recorded in ``floors.json``.
    """
    if isinstance(name_or_paths, str) and name_or_paths in SPLIT_FILES:
        name = name_or_paths
        first, *optional = SPLIT_FILES[name]
        paths = [first, *(p for p in optional if p.exists())]
    else:
        given = name_or_paths if isinstance(name_or_paths, list) else [name_or_paths]
        paths = [Path(p) for p in given]
        name = ""
    hashes = recorded_hashes(floors_path)
    items: dict[str, list[dict[str, Any]]] = {kind: [] for kind in ITEM_KINDS}
    haystack = _haystack()
    for n, path in enumerate(paths):
        data = _read(path, hashes)
        name = name or str(data.get("split", ""))
        for kind in ITEM_KINDS:
            value = data.get(kind, [])
            if not isinstance(value, list):
                raise DatasetError(f"{path.name}: {kind!r} must be a list of items, got {type(value).__name__}.")
            # Files merged into the first keep their own id space: "dev_pairs:u01" beside dev_split's "u01".
            items[kind].extend(value if n == 0 else [_namespaced(item, path.stem) for item in value])
        _haystack(data.get("haystack", {}), into=haystack)
    split = Split(name, items, haystack, paths)
    _validate(split, {**MINIMUMS, **(minimums or {})})
    return split


def with_haystack(split: Split, path: str | Path) -> Split:
    """``split``'s items among another file's haystack (its ``"haystack"`` object, validated the same way).

    A history's filler is what the update decider must leave alone; scoring the same items among
    filler written by another author shows what the decider does to a history it was not tuned on.
    """
    path = Path(path)
    hay = _read(path, recorded_hashes()).get("haystack")
    if not isinstance(hay, dict):
        raise DatasetError(f"{path.name}: a haystack file holds one \"haystack\" object; none found.")
    haystack = _haystack(hay)
    _validate_haystack(haystack, path.stem, MINIMUMS)
    return Split(split.name, split.items, haystack, [*split.files, path])


def _haystack(hay: dict[str, Any] | None = None, *, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """``into`` (or an empty haystack) with a file's ``"haystack"`` object added: its lists extended, its vocab merged by slot."""
    into = into if into is not None else {"small_talk": [], "assistant_replies": [], "templates": [], "vocab": {}}
    for key in ("small_talk", "assistant_replies", "templates"):
        into[key].extend((hay or {}).get(key, []))
    for slot, values in (hay or {}).get("vocab", {}).items():
        into["vocab"].setdefault(slot, []).extend(values)
    return into


def _namespaced(item: Any, stem: str) -> Any:
    """``item`` with its id prefixed by the file it came from (a non-dict is left for validation to name)."""
    return {**item, "id": f"{stem}:{item['id']}"} if isinstance(item, dict) and "id" in item else item


def _read(path: Path, hashes: dict[str, str]) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        hint = " (run: python -m memory_evaluation.make_dataset)" if path.name == "dev_split.json" else ""
        raise DatasetError(f"No split file at {path}{hint}.") from None
    expected = hashes.get(path.name)
    if expected is not None:
        actual = hashlib.sha256(raw).hexdigest()
        if actual != expected:
            raise DatasetError(
                f"{path.name} has sha256 {actual[:12]}… but floors.json records {expected[:12]}…: the split "
                "changed after its floors were set; restore it (git checkout) instead of editing it."
            )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path.name} is not valid JSON ({exc}).") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{path.name}: a split file is one JSON object, got {type(data).__name__}.")
    return data


def _validate(split: Split, minimums: dict[str, int]) -> None:
    where = split.name or "split"
    for kind, fields in ITEM_KINDS.items():
        seen: set[str] = set()
        for n, item in enumerate(split.items[kind]):
            label = f"{where} {kind}[{n}]" + (f" ({item.get('id')})" if isinstance(item, dict) and "id" in item else "")
            if not isinstance(item, dict):
                raise DatasetError(f"{label}: an item is a JSON object, got {type(item).__name__}.")
            missing = [f for f in fields if f not in item or item[f] in (None, "", [])]
            if missing:
                raise DatasetError(f"{label} has no {', '.join(missing)}.")
            if item["id"] in seen:
                raise DatasetError(f"{label}: id {item['id']!r} is used twice in {kind}; ids must be unique.")
            seen.add(item["id"])
            _check_item(kind, item, label)
    for kind in ITEM_KINDS:
        if len(split.items[kind]) < minimums[kind]:
            raise DatasetError(f"{where} has {len(split.items[kind])} {kind}; it needs at least {minimums[kind]}.")
    attributes = {u["attribute"] for u in split.items["updates"]}
    if len(attributes) < minimums["update attributes"]:
        raise DatasetError(f"{where} updates cover {len(attributes)} attributes; they need at least "
                           f"{minimums['update attributes']}.")
    _validate_haystack(split.haystack, where, minimums)


def _validate_haystack(hay: dict[str, Any], where: str, minimums: dict[str, int]) -> None:
    for key in ("small_talk", "assistant_replies", "templates"):
        if len(hay[key]) < minimums[key]:
            raise DatasetError(f"{where} haystack has {len(hay[key])} {key}; it needs at least {minimums[key]}.")
    for slot, values in hay["vocab"].items():
        if len(set(values)) < minimums["vocab values"]:
            raise DatasetError(f"{where} haystack vocab {slot!r} has {len(set(values))} distinct values; it needs at "
                               f"least {minimums['vocab values']}.")
    for template in hay["templates"]:
        unknown = [f for f in template_slots(template) if f not in hay["vocab"]]
        if unknown:
            raise DatasetError(f"{where} haystack template {template!r} names {', '.join(unknown)}, not in vocab.")


def _check_item(kind: str, item: dict[str, Any], label: str) -> None:
    if kind == "updates":
        for answer, said in (("answer", "new"), ("old_answer", "old")):
            if str(item[answer]).lower() not in str(item[said]).lower():
                raise DatasetError(f"{label}: {answer} {item[answer]!r} does not appear in {said!r}.")
    elif kind == "multi_session" and (not isinstance(item["statements"], list) or len(item["statements"]) < 2):
        raise DatasetError(f"{label}: 'statements' must list at least two statements (one per session).")
    elif kind == "temporal":
        events = item["events"]
        if not isinstance(events, list) or len(events) != 2 or not all(isinstance(e, dict) and e.get("statement")
                                                                         for e in events):
            raise DatasetError(f"{label}: 'events' must be two objects, each with a 'statement'.")


def template_slots(template: str) -> list[str]:
    """The ``{slot}`` names a haystack template uses."""
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]
