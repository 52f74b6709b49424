"""Jokes on any topic, and the follow-ups that rework "the joke" (emojis, a voice, shorter, louder, ...).

The offline model has no memory: a follow-up can only transform a joke that is in the messages
it is sent. That is exactly what lessons 01 and 02 show.
"""

from __future__ import annotations

import re
import zlib

from .text import LETTER, normalize_quotes

# A few topics a model would "know" a classic pun for; any other topic uses a template.
_CLASSICS: dict[str, str] = {
    "pirate": "Why couldn't the pirate play cards? Because he was standing on the deck!",
    "parrot": "Why did the parrot wear a raincoat? Because it wanted to be a polly-unsaturated bird!",
    "cat": "Why was the cat sitting on the computer? To keep an eye on the mouse!",
    "dog": "What do you call a dog magician? A labracadabrador!",
    "computer": "Why did the computer go to the doctor? Because it had a virus!",
    "programmer": "Why do programmers prefer dark mode? Because light attracts bugs!",
    "coffee": "Why did the coffee file a police report? Because it got mugged!",
    "math": "Why was the math book sad? Because it had too many problems!",
    "robot": "Why did the robot go on vacation? Because it needed to recharge its batteries!",
    "chicken": "Why did the chicken join a band? Because it had the drumsticks!",
    "ocean": "What did the ocean say to the beach? Nothing, it just waved!",
    "database": "Why did the database administrator leave his wife? She had one-to-many relationships!",
}
_TEMPLATES = [
    "Why did the {t} bring a ladder to the party? Because it heard the drinks were on the house!",
    "Why did the {t} get a standing ovation? Because the {t} was outstanding in its field!",
    "Why did the {t} sit on the clock? Because it wanted to be on time for once!",
    "What did the {t} say when it walked into the bar? Nothing, it just ordered a round of puns!",
]
_EMOJI = {
    "pirate": "\U0001f3f4\u200d\u2620\ufe0f", "parrot": "\U0001f99c", "cat": "\U0001f431", "dog": "\U0001f436",
    "computer": "\U0001f4bb", "programmer": "\U0001f468\u200d\U0001f4bb", "coffee": "\u2615", "math": "\U0001f9ee",
    "robot": "\U0001f916", "chicken": "\U0001f414", "ocean": "\U0001f30a", "database": "\U0001f5c4\ufe0f",
    "deck": "\U0001f0cf", "cards": "\U0001f0cf", "card": "\U0001f0cf", "ship": "\u26f5", "party": "\U0001f389",
    "clock": "\u23f0", "mouse": "\U0001f42d", "virus": "\U0001f9a0", "bugs": "\U0001f41e", "bird": "\U0001f426",
}
_VOICE_WORDS = ["parrot", "pirate", "robot", "cat", "dog", "cowboy", "ghost", "yoda"]

_JOKE_ASK = re.compile(
    r"(?i)\b(?:tell|give|share|write|make up|know|got|have|hear|want|need|another)\b[^.?!]*?"
    r"\b(?:an?|another|one|some|any)\b[^.?!]*?\bjokes?\b|^\W*(?:an?|another)\b[^.?!]*\bjokes?\b"
)
_TOPIC_AFTER = re.compile(
    r"(?i)\bjokes?\s+(?:about|on|involving|featuring|regarding|with)\s+(?:an?\s+|the\s+|some\s+|my\s+)?([^.?!,;]+)"
)
_TOPIC_BEFORE = re.compile(
    rf"(?i)\b(?:an?|another|one|some|any)\s+({LETTER}(?:{LETTER}|-)*(?:\s+{LETTER}(?:{LETTER}|-)*)?)\s+jokes?\b"
)
_NOT_TOPICS = {"good", "funny", "short", "new", "bad", "dad", "quick", "little", "other", "more", "great", "fun"}
_TRANSFORM_WORDS = re.compile(
    r"(?i)\b(?:emojis?|emoticons?|voice|like an? \w+|as an? \w+|shorter|short|brief|louder|shout|uppercase|"
    r"caps|all caps|translate|in (?:french|spanish|german|norwegian|italian)|again|repeat|funnier)\b"
)
_REFERS_TO_JOKE = re.compile(r"(?i)\b(?:the joke|that joke|this joke|your joke|the pun|it|that|this)\b")


def topic_of(request: str) -> str | None:
    """The topic of a joke request; "" when it asks for a joke on no topic; None when it asks for none."""
    text = normalize_quotes(request)
    if not _JOKE_ASK.search(text):
        return None
    if m := _TOPIC_AFTER.search(text):
        topic = re.sub(r"(?i)\s+(?:please|for me|now|today|again)$", "", m.group(1).strip())
        return topic.strip()
    if (m := _TOPIC_BEFORE.search(text)) and m.group(1).lower().split()[-1] not in _NOT_TOPICS:
        words = [w for w in m.group(1).split() if w.lower() not in _NOT_TOPICS]
        return " ".join(words)
    return ""


def tell_joke(topic: str) -> str:
    """A joke that mentions the topic. Deterministic: the same topic always gets the same joke."""
    key = topic.lower().strip() or "computer"
    topic = topic.strip() or "computer"
    singular = key[:-1] if key.endswith("s") and not key.endswith("ss") and key[:-1] in _CLASSICS else key
    if singular in _CLASSICS:
        return _CLASSICS[singular]
    template = _TEMPLATES[zlib.crc32(key.encode("utf-8")) % len(_TEMPLATES)]
    return template.format(t=topic.strip())


def is_transform_request(text: str) -> bool:
    return bool(_TRANSFORM_WORDS.search(normalize_quotes(text))) and topic_of(text) is None


def refers_to_joke(text: str) -> bool:
    return bool(_REFERS_TO_JOKE.search(text))


def looks_like_joke(text: str) -> bool:
    """A set-up question followed by a punchline: how most jokes (ours and real models') look."""
    return bool(re.search(r"\?\s*\S.{2,}", text or "", flags=re.S))


def no_joke_reply() -> str:
    return "I'm not sure which joke you mean \u2014 I don't see any joke in what I was sent. Ask me for one first!"


def transform(joke: str, request: str) -> str:
    """Apply every transformation the request asks for, in a fixed, readable order."""
    req = normalize_quotes(request).lower()
    text = joke.strip()
    if re.search(r"\b(?:shorter|short|brief)\b", req):
        text = _shorten(text)
    lang = re.search(r"\b(?:in|into|to) (french|spanish|german|norwegian|italian)\b", req)
    if "translate" in req or lang:
        text = _translate(text, lang.group(1) if lang else "french")
    voice = _voice_in(req)
    if voice:
        text = _in_voice(text, voice)
    if re.search(r"\bemojis?|emoticons?\b", req):
        text = _add_emojis(text)
    if re.search(r"\b(?:louder|shout|uppercase|all caps|caps)\b", req):
        text = text.upper()
    return text


def _voice_in(req: str) -> str | None:
    m = re.search(rf"\bin (?:an?|the|a very)?\s*({LETTER}+)(?:'s|s')? voice\b", req) or re.search(
        rf"\b(?:like|as) an? ({LETTER}+)\b", req
    )
    return m.group(1) if m else None


def _shorten(text: str) -> str:
    parts = re.split(r"(?<=\?)\s+", text, maxsplit=1)
    if len(parts) == 2:
        punch = re.split(r"\s*(?:\u2014|--|,|;)\s*", parts[1])[0].rstrip(".!") + "!"
        return f"{parts[0]} {punch}"
    return text.split(". ")[0].rstrip(".!") + "!"


def _in_voice(text: str, voice: str) -> str:
    if voice == "parrot":
        last = re.findall(rf"{LETTER}+", text)[-1]
        body = re.sub(r"([.!?])(\s+|$)", r"\1 *Squawk!* ", text).strip()
        return f"Squawk! {body} {last.capitalize()}! {last.capitalize()}! Squawk!"
    if voice == "pirate":
        swapped = re.sub(r"\byou\b", "ye", text)
        swapped = re.sub(r"\bmy\b", "me", swapped)
        swapped = re.sub(r"\bis\b", "be", swapped)
        return f"Arr, matey! {swapped} Yo-ho-ho!"
    if voice == "robot":
        return f"BEEP BOOP. {text.upper()} END OF JOKE. BEEP."
    if voice == "cat":
        return f"Meow! {text} *purrs*"
    if voice == "dog":
        return f"Woof! {text} *wags tail*"
    return f"*in a {voice}'s voice* {text}"


def _add_emojis(text: str) -> str:
    emojis: list[str] = []
    for word in re.findall(rf"{LETTER}+", text.lower()):
        if word in _EMOJI and _EMOJI[word] not in emojis:
            emojis.append(_EMOJI[word])
    lead = "".join(emojis[:3]) or "\u2728"
    body = re.sub(r"\?(\s+)", "? \U0001f914\\1", text, count=1)
    return f"{lead} {body} \U0001f602\U0001f923"


_GLOSSARY = {
    "french": ("En fran\u00e7ais", {"why": "pourquoi", "the": "le", "because": "parce que", "was": "\u00e9tait",
                                   "what": "quoi", "he": "il", "it": "il", "on": "sur", "is": "est", "a": "un"}),
    "spanish": ("En espa\u00f1ol", {"why": "por qu\u00e9", "the": "el", "because": "porque", "was": "estaba",
                                   "what": "qu\u00e9", "he": "\u00e9l", "on": "en", "is": "es", "a": "un"}),
    "german": ("Auf Deutsch", {"why": "warum", "the": "der", "because": "weil", "was": "war", "what": "was",
                               "he": "er", "on": "auf", "is": "ist", "a": "ein"}),
    "norwegian": ("P\u00e5 norsk", {"why": "hvorfor", "the": "den", "because": "fordi", "was": "var",
                                   "what": "hva", "he": "han", "on": "p\u00e5", "is": "er", "a": "en"}),
    "italian": ("In italiano", {"why": "perch\u00e9", "the": "il", "because": "perch\u00e9", "was": "era",
                               "what": "cosa", "he": "lui", "on": "su", "is": "\u00e8", "a": "un"}),
}


def _translate(text: str, language: str) -> str:
    """A small offline model can only swap the common words; it says so."""
    label, words = _GLOSSARY[language]

    def swap(m: re.Match[str]) -> str:
        w = m.group(0)
        out = words.get(w.lower(), w)
        return out.capitalize() if w[:1].isupper() else out

    return f"({label}, as well as a tiny offline model can:) " + re.sub(rf"{LETTER}+", swap, text)
