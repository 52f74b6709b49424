"""How the stand-in model answers a JSON-schema request: valid JSON of the schema asked for, read its own way.

Why: the local memory server asks the configured model to read each stored turn (``TASK extract``, then
``TASK decide``; ``local_memory_server/prompts.py``), with ``response_format`` of type ``json_schema``. An
echo is not that JSON, so the server fell back to its offline reader and the live run never had a model read a
turn. This answers like a plausible model that reads differently from the offline reader: each user message
becomes one or two standalone third-person sentences ("The user's name is Ada.", "The user lives in Lisbon.")
with plausible labels, and every fact is decided ``ADD`` — except a fact a shown memory already says (``NONE``)
and a "no longer" fact that names a shown memory (``DELETE``). It never supersedes: a lesson whose ``assert``
needs a replacement to have been read fails here, as it would on many real models. Deterministic: the same
request always gets the same answer. Any other JSON-schema request gets the smallest instance of its schema.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["answer_json_schema", "extract", "decide"]

#: User messages that are asks, not facts about the user.
_ASKS = re.compile(r"^(can|could|would|will|please|what|whats|what's|where|when|who|how|why|which|tell|remind|"
                   r"remember|forget|do|does|did|is|are|should|help|give|suggest|recommend|show|list|hi|hello|hey|"
                   r"thanks|thank|ok|okay|sure|yes|no|good|great)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(i|i'm|im|i've|i'll|i'd|my|me|we|our)\b", re.IGNORECASE)
_RELATIVES = ("sister", "brother", "wife", "husband", "partner", "daughter", "son", "mother", "mum", "mom",
              "father", "dad", "friend", "boss", "manager", "colleague", "neighbour", "neighbor", "cousin", "aunt",
              "uncle", "grandmother", "grandfather", "girlfriend", "boyfriend", "flatmate", "roommate")
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "was": "was", "can": "can", "will": "will",
              "would": "would", "could": "could", "should": "should", "must": "must", "might": "might",
              "may": "may", "shall": "shall", "had": "had", "did": "did", "used": "used"}
_NOT_PAST = {"called", "named", "interested", "based", "retired", "married", "engaged", "allergic", "need", "feed"}
#: Past forms that do not end in -ed: kept as they are, and the fact is a past event.
_PAST_FORMS = {"spent", "got", "went", "made", "met", "bought", "left", "began", "took", "saw", "came", "became",
               "grew", "ran", "wrote", "gave", "found", "sold", "lost", "won", "broke", "flew", "drove", "knew",
               "thought", "told", "said", "paid", "kept", "felt", "heard", "taught", "caught", "fell", "was", "were"}
_TOPICS = (  # (words in the fact, topic label, single)
    (("dog", "cat", "pet", "puppy", "kitten", "tortoise", "rabbit", "parrot", "fish"), "pets", False),
    (("name",), "name", True),
    (("live", "lives", "living", "moved", "move", "based", "home", "from", "relocated"), "home city", True),
    (("work", "works", "working", "job", "employer", "engineer", "nurse", "teacher", "developer", "manager"),
     "work", True),
    (("vegetarian", "vegan", "eat", "eats", "allergic", "allergy", "diet", "meat"), "diet", True),
    (("like", "likes", "love", "loves", "prefer", "prefers", "favourite", "favorite", "enjoy", "enjoys", "fan"),
     "preferences", False),
    (("trip", "travel", "travelling", "traveling", "holiday", "vacation", "visit", "visiting", "flight", "hotel"),
     "travel", False),
    (("speak", "speaks", "learning", "language"), "languages", False),
    (("play", "plays", "hobby", "hiking", "running", "swim", "swims", "gym", "climbing"), "hobbies", False),
)
_PLAN = re.compile(r"\b(will|'ll|going to|plan|plans|planning|want to|wants to|next|hope to|hoping)\b", re.I)
_PAST = re.compile(r"\b(used to|was|were|last (year|month|week|summer|winter)|ago|as a child|lived|worked)\b", re.I)


def answer_json_schema(request: dict[str, Any]) -> str:
    """The JSON text answering ``request`` (a chat-completions body whose ``response_format`` is a JSON schema)."""
    schema_format = request.get("response_format") or {}
    schema = (schema_format.get("json_schema") or {}).get("schema") or {}
    asked = next((m.get("content") for m in reversed(request.get("messages", [])) if m.get("role") == "user"), "")
    asked = str(asked or "")
    if asked.startswith("TASK extract\n") and "facts" in schema.get("properties", {}):
        return json.dumps({"facts": extract(asked.split("\n", 1)[1])})
    if asked.startswith("TASK decide\n") and "decisions" in schema.get("properties", {}):
        return json.dumps({"decisions": decide(asked.split("\n", 1)[1])})
    return json.dumps(_smallest(schema))


# -- extract -------------------------------------------------------------------------------------------------

def extract(transcript: str, *, per_message: int = 2) -> list[dict[str, Any]]:
    """The facts of the user's lines of ``transcript`` (``role: text`` lines), at most ``per_message`` each."""
    facts: list[dict[str, Any]] = []
    for line in transcript.splitlines():
        if not line.startswith("user: "):
            continue
        found = [fact for clause in _clauses(line[len("user: "):]) if (fact := _fact(clause))]
        for fact in found[:per_message]:
            if fact["fact"] not in {f["fact"] for f in facts}:
                facts.append(fact)
    return facts[:8]


def _clauses(text: str) -> list[str]:
    sentences = re.split(r"(?<=[.!?;])\s+", text.strip())
    clauses: list[str] = []
    for sentence in sentences:
        if sentence.rstrip().endswith("?"):
            continue
        for part in re.split(r",?\s+(?:and|but|so)\s+(?=(?:i|i'm|my|i've|we)\b)|,\s+(?=(?:i|i'm|my)\b)", sentence,
                             flags=re.IGNORECASE):
            part = part.strip(" .!;,\u2014-")
            if part:
                clauses.append(part)
    return clauses


def _fact(clause: str) -> dict[str, Any] | None:
    words = clause.split()
    # "Hi, I'm Ada" / "Actually I now …": drop up to two leading words before the statement.
    start = next((i for i, w in enumerate(words[:3]) if _FIRST_PERSON.fullmatch(w.strip(",").lower())), 0)
    clause = " ".join(words[start:]).strip(" ,")
    if not clause or _ASKS.match(clause) or not _FIRST_PERSON.search(clause) or len(clause.split()) < 2:
        return None
    clause = re.sub(r"^(I'm|I am) ([A-Z][a-z]+)$", r"My name is \2", clause)
    sentence = _third_person(clause)
    if not sentence.startswith("The user"):
        return None
    whose = "user"
    relative = re.match(r"The user's (\w+)(?: ([A-Z]\w+))?", sentence)
    if relative and relative.group(1).lower() in _RELATIVES:
        whose = relative.group(2) or relative.group(1).lower()
    lowered = set(re.findall(r"[a-z']+", sentence.lower()))
    topic, single = next(((label, one) for keys, label, one in _TOPICS if lowered & set(keys)), ("personal detail", False))
    early = re.sub(r"^The user(?:'s \w+(?: [A-Z]\w+)?)? ", "", sentence).split()[:2]
    past = _PAST.search(clause) or any(w in _PAST_FORMS or (w.endswith("ed") and w not in _NOT_PAST) for w in early)
    when = "plan" if _PLAN.search(clause) else "past" if past else "now"
    return {"fact": sentence, "whose": whose, "topic": topic, "single": single and whose == "user", "when": when}


def _verb(word: str) -> str:
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower.endswith("ed") or lower in _PAST_FORMS or (lower.endswith("s") and not lower.endswith("ss")):
        return lower
    if re.search(r"(s|sh|ch|x|z|o)$", lower):
        return lower + "es"
    if re.search(r"[^aeiou]y$", lower):
        return lower[:-1] + "ies"
    return lower + "s"


def _third_person(clause: str) -> str:
    """'I live in Lisbon' -> 'The user lives in Lisbon.'; 'My name is Ada' -> "The user's name is Ada."."""
    text = re.sub(r"\s+", " ", clause)
    text = re.sub(r"\b(I'm|Im|I am)\b", "the user is", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI've\b", "the user has", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI'll\b", "the user will", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI'd\b", "the user would", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI (don't|do not)\b", "the user does not", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI (can't|cannot)\b", "the user cannot", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI (no longer|now|also|still|really|usually|always|never|just|recently|finally) (\w+)",
                  lambda m: f"the user {m.group(1).lower()} {_verb(m.group(2))}", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI (\w+)", lambda m: f"the user {_verb(m.group(1))}", text)
    text = re.sub(r"\bmy\b", "the user's", text, flags=re.IGNORECASE)
    text = re.sub(r"\bmyself\b", "themselves", text, flags=re.IGNORECASE)
    text = re.sub(r"\bme\b", "the user", text, flags=re.IGNORECASE)
    text = re.sub(r"\bmine\b", "the user's", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe\b", "the user and their family", text, flags=re.IGNORECASE)
    text = re.sub(r"\bour\b", "the user's family's", text, flags=re.IGNORECASE)
    text = text[0].upper() + text[1:]
    return text.rstrip(".!") + "."


# -- decide --------------------------------------------------------------------------------------------------

def decide(body: str) -> list[dict[str, Any]]:
    """One decision per ``NEW n:`` line of ``body``, against the ``STORED m:`` lines under it."""
    new: list[tuple[str, list[tuple[int, str]]]] = []
    for line in body.splitlines():
        if found := re.match(r"NEW \d+: (.*)", line):
            new.append((found.group(1), []))
        elif (found := re.match(r"\s+STORED (\d+): (.*)", line)) and new:
            new[-1][1].append((int(found.group(1)), found.group(2)))
    decisions = []
    for i, (fact, stored) in enumerate(new, 1):
        if not stored:  # the schema asks for an id; the server sends no decide call without one, but be safe
            decisions.append({"fact": i, "both_true": True, "event": "ADD", "id": 1})
            continue
        same = next((n for n, text in stored if _norm(text) == _norm(fact)), None)
        ended = _ended(fact, stored)
        if same is not None:
            decisions.append({"fact": i, "both_true": True, "event": "NONE", "id": same})
        elif ended is not None:
            decisions.append({"fact": i, "both_true": False, "event": "DELETE", "id": ended})
        else:
            decisions.append({"fact": i, "both_true": True, "event": "ADD", "id": stored[0][0]})
    return decisions


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _ended(fact: str, stored: list[tuple[int, str]]) -> int | None:
    """The shown memory a "no longer" fact ends: the one sharing most of its words (at least two beyond "the user")."""
    if "no longer" not in fact.lower():
        return None
    words = set(_norm(fact).split()) - {"the", "user", "user's", "no", "longer", "a", "an", "in", "at", "to", "of"}
    overlap = [(len(words & set(_norm(text).split())), -n, n) for n, text in stored]
    best = max(overlap)
    return best[2] if best[0] >= 2 else None


# -- any other schema ----------------------------------------------------------------------------------------

def _smallest(schema: dict[str, Any]) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: _smallest(props.get(name, {})) for name in schema.get("required", [])}
    if kind == "array":
        return [_smallest(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "stand-in".ljust(schema.get("minLength", 0), ".")
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    return None
