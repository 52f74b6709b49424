"""Try a whole assistant on users it has never seen: the capstone's grader (lesson 17).

Lesson 11's scorecard grades one part, the provider's recall. A capstone assembles every part —
a session per conversation, persistence, a provider per user with its key, failure handling — so
it is graded end to end, through the assistant's own ``reply(user, conversation, text)``:

* **cases drawn fresh** from the scorecard's generator (:func:`~.haystack.assemble`, a new seed every
  run, never the published draw): a few users, each with facts, updates (an old value early, a new
  one later) and a withdrawal, spread over conversations whose names users share, plus near misses
  and small talk; a small slice of each history, so a trial takes seconds, not minutes;
* **a yardstick**: the same statements go straight to the server under other user ids, and the
  course's provider (default settings) is asked each question. Only questions it gets right are
  graded — a miss of the server's own (lesson 11 measures those) is not the assistant's fault;
* **graded on what the model was given**, not on the offline model's wording: a chat middleware
  records every request a ``reply`` makes (its messages, instructions and tool results, whatever the
  design — a provider or memory tools), and each requirement is a fact about those requests.

Then the assistant is restarted (a new instance on the same ``store_dir``), the memory server is
stopped, and a third instance on an *empty* ``store_dir`` shows whether conversations were kept in
the folder or only in the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
import random
import re
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_framework import AgentSession, ChatContext, ChatMiddleware, Message, SessionContext
from cortadel import ChatMessage, ConversationOptions

from lesson_utils.cortadel.client import CortadelMemoryClient
from lesson_utils.cortadel.guards import INJECTED_IDS_KEY
from lesson_utils.cortadel.provider import CortadelContextProvider
from chat_models.offline import OfflineChatClient, instructions_from
from .dataset import Case
from .haystack import SEED, assemble
from .scorecard import all_memories
from .splits import Split, load_split

__all__ = ["REQUIREMENTS", "Finding", "TrialReport", "model_view", "normalise", "run_trial", "shows"]

#: What a trial checks, in the order a hint names the first one that failed.
REQUIREMENTS = {
    "answers": "every reply is a non-empty string (no exception)",
    "remembers": "what a user says is stored in their own memory, under their key",
    "users apart": "no user is ever shown another user's words or memories",
    "conversations apart": "a new conversation starts without the turns of the user's other conversations",
    "recall": "a fact told in one conversation is given to the model in a new one",
    "update": "after an update the model gets the new value, not the old one",
    "withdrawal": "a withdrawn fact is no longer given to the model",
    "server down": "a turn while the memory server is down still gets a reply",
    "restart": "a new instance on the same store_dir continues a conversation with what was said in it",
    "store_dir": "a new instance on an empty store_dir does not know that conversation",
}
USER_NAMES = ("amara", "bruno", "chen", "dalia", "emeka", "freya", "goran", "hana", "ilse", "jonas", "kiri",
              "luca", "mei", "nadia", "omar", "pilar", "quinn", "rosa", "sven", "tariq", "uma", "vera")
TOPICS = ("weekend", "garden", "commute", "recipes", "budget", "travel", "health", "hobbies", "family",
          "errands", "music", "reading", "work", "holidays", "fitness", "shopping")
FOLLOW_UPS = ("Can you sum up what we just talked about?", "What did I say a moment ago?",
              "Remind me what I asked you earlier in this chat?", "Where were we?")
USERS, SESSIONS, FILLER = 3, 4, 3
PER_USER = {"updates": 3, "withdrawals": 2, "facts": 2}  # candidates; the yardstick keeps what the server handles
OTHERS_PER_SESSION = 2  # besides the tagged statements: near misses and small talk from the history
SPLIT = "test"


# ── what the model was given ───────────────────────────────────────────────────────────────

def normalise(text: str) -> str:
    """Lower case, words only: a memory matches however it was rendered (a bullet, a tool result, JSON)."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def model_view(messages: list[Message], instructions: str = "") -> str:
    """Every word one request showed the model: instructions, message texts, tool calls and results."""
    parts = [instructions]
    for message in messages:
        for content in message.contents:
            if content.type == "text":
                parts.append(content.text or "")
            elif content.type == "function_result":
                parts.append(str(content.result))
            elif content.type == "function_call":
                parts.append(str(content.arguments))
    return _joined(line for part in parts for line in part.splitlines())


def _joined(texts: Iterable[str]) -> str:
    """Normalised texts with a boundary between them, so no match spans the end of one and the start of the next."""
    return " ~ ".join(n for n in map(normalise, texts) if n)


def _telling(text: str) -> bool:
    """Long enough that finding it in a request means it was carried there, not a common word or two."""
    return len(normalise(text).split()) >= 4


def shows(view: str, text: str, words: int = 12) -> bool:
    """Whether ``view`` (a :func:`model_view`) holds ``text``: its first ``words`` words, in order."""
    probe = " ".join(normalise(text).split()[:words])
    return bool(probe) and f" {probe} " in f" {view} "


_VIEWS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("capstone_views", default=None)


class _ViewRecorder(ChatMiddleware):
    """Adds each request's :func:`model_view` to the list of the ``reply`` that made it."""

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> Any:
        views = _VIEWS.get()
        if views is not None:
            messages = list(context.messages)
            views.append(model_view(messages, instructions_from(dict(context.options or {}), messages)))
        await call_next()


# ── the draw ───────────────────────────────────────────────────────────────────────────────

@dataclass
class _Turn:
    text: str
    uuid: str
    tagged: bool


@dataclass
class _Question:
    user: str
    kind: str  # recall | update | withdrawal
    text: str
    present: list[str] = field(default_factory=list)  # memory texts the model must be given
    absent: list[str] = field(default_factory=list)   # memory texts, and the user's own words, it must not be given


@dataclass
class _Draw:
    seed: int
    users: list[str]
    keys: dict[str, str]
    conversations: dict[str, list[tuple[str, list[_Turn]]]]  # user -> [(conversation, turns)]
    cases: dict[str, Case]


def _sub_split(split: Split, rng: random.Random) -> Split:
    """A few items of the kinds a capstone grades; updates of distinct attributes."""
    items: dict[str, list[dict[str, Any]]] = {kind: [] for kind in split.items}
    updates = list(split["updates"])
    rng.shuffle(updates)
    seen: set[str] = set()
    for item in updates:
        if item["attribute"] not in seen and len(items["updates"]) < PER_USER["updates"] * USERS:
            seen.add(item["attribute"])
            items["updates"].append(item)
    for kind in ("withdrawals", "facts"):
        items[kind] = rng.sample(split[kind], PER_USER[kind] * USERS)
    return Split(split.name, items, split.haystack, split.files)


def draw_cases(seed: int) -> _Draw:
    """Users, keys and conversations for one trial, from the scorecard's generator and ``seed``."""
    if seed == SEED:
        seed += 1  # never the scorecard's own draw
    rng = random.Random(f"capstone:{seed}")
    split = _sub_split(load_split(SPLIT), rng)
    cases = assemble(split, users=USERS, seed=seed, sessions=SESSIONS, filler=FILLER, user_prefix=f"capstone{seed}-")
    users = rng.sample(USER_NAMES, USERS)
    names = rng.sample(TOPICS, SESSIONS)  # shared by every user: a conversation is (user, name)
    # A name is any text the caller picks: one always holds a "/" (a file named after it is no plain file name).
    slashed = rng.randrange(SESSIONS)
    names[slashed] = f"{names[slashed]}/{rng.choice(('2025', 'notes', 'q3', 'old'))}"
    tagged = {uuid for case in cases for q in case.questions for uuid in (*q.evidence, *q.superseded)}
    tagged |= {uuid for case in cases for t in case.tracked for uuid in (*t.current, *t.not_current)}
    # A withdrawal's own statement is in no question and no tracked item (only the fact it retires is):
    # known by its text, it is told too, or the fact is never withdrawn and withdrawal is never tried.
    withdrawing = {item["withdrawal"] for item in split["withdrawals"]}
    tagged |= {t.uuid for case in cases for s in case.sessions for t in s.turns if t.content in withdrawing}
    conversations: dict[str, list[tuple[str, list[_Turn]]]] = {}
    for user, case in zip(users, cases, strict=True):
        ordered = []
        for name, session in zip(names, case.sessions, strict=True):
            said = [t for t in session.turns if t.role == "user"]
            others = [t for t in said if t.uuid not in tagged]
            keep = {t.uuid for t in rng.sample(others, min(OTHERS_PER_SESSION, len(others)))}
            turns = [_Turn(t.content, t.uuid, t.uuid in tagged) for t in said if t.uuid in tagged or t.uuid in keep]
            ordered.append((name, turns))
        said_by_user = {t.text for _, turns in ordered for t in turns}
        small_talk = [t for t in split.haystack["small_talk"] if t not in said_by_user and _telling(t)]
        ordered[-1][1].append(_Turn(rng.choice(small_talk), f"{case.user_id}-last", False))  # the turn before a restart
        conversations[user] = ordered
    keys = {user: secrets.token_urlsafe(16) for user in users}
    return _Draw(seed, users, keys, conversations, dict(zip(users, cases, strict=True)))


# ── the yardstick: the course's provider, told the same things directly ──────────────────────

@dataclass
class _Yardstick:
    questions: list[_Question]
    memories: dict[str, list[str]]   # user -> texts of the memories their statements made
    item_memories: dict[str, list[str]]  # user -> those made by the statements of their items (distinctive)
    silent: dict[str, list[str]]     # user -> their turns that made no memory (small talk)


def _calibration_user(user: str) -> str:
    return f"yardstick-{user}"


async def _yardstick(url: str, draw: _Draw, keys: dict[str, str]) -> _Yardstick:
    questions: list[_Question] = []
    memories: dict[str, list[str]] = {}
    item_memories: dict[str, list[str]] = {}
    silent: dict[str, list[str]] = {}
    for user in draw.users:
        who = _calibration_user(user)
        ids: dict[str, list[str]] = {}
        async with CortadelMemoryClient(url, who, api_key=keys[who]) as client:
            for name, turns in draw.conversations[user]:
                for turn in turns:
                    result = await client.add_conversation([ChatMessage(role="user", content=turn.text)],
                                                           ConversationOptions(session_id=f"{who}-{name}"))
                    ids[turn.uuid] = [r.id for r in (result.results or []) if r.id]
            stored = await all_memories(client)
        texts = {i: _memory_text(item) for i, item in stored.items()}
        current = {i for i, item in stored.items() if item.is_current}
        memories[user] = [texts[i] for turn_ids in ids.values() for i in turn_ids if i in texts]
        tagged = {t.uuid for _, turns in draw.conversations[user] for t in turns if t.tagged}
        item_memories[user] = [texts[i] for uuid in tagged for i in ids.get(uuid, []) if i in texts]
        silent[user] = [t.text for _, turns in draw.conversations[user] for t in turns
                        if not t.tagged and not ids.get(t.uuid)]
        said = {t.uuid: t.text for _, turns in draw.conversations[user] for t in turns}
        async with CortadelContextProvider(url, who, api_key=keys[who]) as provider:
            for question in draw.cases[user].questions:
                graded = await _graded(provider, question, ids, texts, current, user, said)
                if graded is not None:
                    questions.append(graded)
    return _Yardstick(questions, memories, item_memories, silent)


def _memory_text(item: Any) -> str:
    return (getattr(item, "gist", None) or "").strip() or (item.content or "")


async def _graded(provider: CortadelContextProvider, question: Any, ids: dict[str, list[str]],
                  texts: dict[str, str], current: set[str], user: str, said: dict[str, str]) -> _Question | None:
    """The question with what a right assistant shows, or None where the course's provider itself misses.

    What must be absent is what the server retired: an old value's memory that the update superseded,
    a withdrawn fact's. A side remark in the same sentence ("I'm 41 and my back hurts") stays current
    and may be recalled. The user's own sentence that told the retired value must be absent too: an assistant
    that keeps its own notes of what users said would show it in a new conversation, as true.
    """
    kind = {"information_extraction": "recall", "knowledge_update": "update", "withdrawal": "withdrawal"}.get(
        question.ability)
    if kind is None:
        return None
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[question.question])])
    state: dict[str, Any] = {}
    await provider.before_run(agent=None, session=session, context=context, state=state)
    injected = set(state.get(INJECTED_IDS_KEY, []))
    wanted = [i for uuid in question.evidence for i in ids.get(uuid, [])]
    unwanted = [i for uuid in question.superseded for i in ids.get(uuid, []) if i not in current]
    present = [texts[i] for i in wanted if i in injected and i in texts]
    absent = [texts[i] for i in unwanted if i in texts]
    if (question.evidence and not present) or not all(i not in injected for i in unwanted) or (
            question.superseded and not absent):
        return None
    told = [said[uuid] for uuid in question.superseded if uuid in said and _telling(said[uuid])]
    return _Question(user, kind, question.question, present[:1], absent + told)


# ── the run ────────────────────────────────────────────────────────────────────────────────

@dataclass
class Finding:
    """One requirement on one user: held or not, and what was seen."""

    requirement: str
    user: str
    ok: bool
    detail: str = ""


@dataclass
class TrialReport:
    """Every finding of one trial, and the seed that drew its cases."""

    seed: int
    findings: list[Finding] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)

    def passed(self, requirement: str | None = None) -> bool:
        """Whether every finding (of ``requirement``, if given) held; a requirement never tried counts as not held."""
        found = [f for f in self.findings if requirement is None or f.requirement == requirement]
        return bool(found) and all(f.ok for f in found)

    def failures(self) -> list[Finding]:
        """The findings that did not hold, in :data:`REQUIREMENTS` order."""
        order = list(REQUIREMENTS)
        return sorted((f for f in self.findings if not f.ok), key=lambda f: order.index(f.requirement))

    def table(self) -> str:
        """One line per requirement: ✅ or ❌, how many users it held for, and the first miss."""
        lines = []
        for requirement, meaning in REQUIREMENTS.items():
            found = [f for f in self.findings if f.requirement == requirement]
            if not found:
                lines.append(f"\u2014  {requirement:<20} not tried: {meaning}")
                continue
            held = sum(f.ok for f in found)
            mark = "\u2705" if held == len(found) else "\u274c"
            miss = next((f.detail for f in found if not f.ok), "")
            lines.append(f"{mark} {requirement:<20} {held}/{len(found)}  {miss or meaning}")
        return "\n".join(lines)


class _Runner:
    def __init__(self, report: TrialReport) -> None:
        self.report = report
        self.views: dict[str, list[str]] = {}  # user -> every view of their replies
        self.server_down = False  # set while the trial has stopped the memory server

    async def reply(self, assistant: Any, user: str, conversation: str, text: str) -> tuple[str | None, list[str]]:
        views: list[str] = []
        token = _VIEWS.set(views)
        try:
            reply = assistant.reply(user, conversation, text)
            if inspect.isawaitable(reply):
                reply = await reply
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.report.errors.append(error)
            raised = f"reply({user!r}, {conversation!r}, …) raised {type(error).__name__}: {error}"
            self.report.findings.append(
                Finding("server down", user, False, f"with the memory server down, {raised}") if self.server_down
                else Finding("answers", user, False, raised))
            return None, views
        finally:
            _VIEWS.reset(token)
        self.views.setdefault(user, []).extend(views)
        if not isinstance(reply, str) or not reply.strip():
            self.report.findings.append(Finding("answers", user, False,
                                                f"reply({user!r}, {conversation!r}, …) returned {reply!r}, not the reply's text"))
            return None, views
        return reply, views


class _DownServerWarnings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "continuing without long-term memory" not in record.getMessage()


@contextlib.contextmanager
def _expected_failures_quiet() -> Iterator[None]:
    """While the trial has stopped the server on purpose, the provider's fail-open warnings are expected."""
    logger, quiet = logging.getLogger("lesson_utils.cortadel"), _DownServerWarnings()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


async def _closed(assistant: Any, report: TrialReport) -> None:
    """``await assistant.aclose()`` if it has one; an exception becomes a finding."""
    close = getattr(assistant, "aclose", None)
    if close is None:
        return
    try:
        outcome = close()
        if inspect.isawaitable(outcome):
            await outcome
    except Exception as error:
        report.errors.append(error)
        report.findings.append(Finding("answers", "everyone", False, f"aclose() raised {type(error).__name__}: {error}"))


def _build(cls: Any, client: Any, url: str, keys: dict[str, str], store_dir: Path) -> Any:
    return cls(chat_client=client, memory_url=url, keys=dict(keys), store_dir=store_dir)


async def run_trial(cls: Any, seed: int, *, build: Callable[..., Any] = _build, stop_early: bool = False) -> TrialReport:
    """Run ``cls`` (an assistant class) on cases drawn with ``seed``; every finding in a :class:`TrialReport`.

    ``build(cls, chat_client, memory_url, keys, store_dir)`` makes an instance; an exception it raises
    propagates (the caller says what is wrong with the class). ``stop_early`` ends the trial after
    the first step that found a failure (a grader needs one; a lesson's table wants them all).
    """
    from local_memory_server import start_memory_server

    draw = draw_cases(seed)
    report = TrialReport(draw.seed)
    keys = {**draw.keys, **{_calibration_user(u): secrets.token_urlsafe(16) for u in draw.users}}
    work = Path(tempfile.mkdtemp(prefix="capstone-"))
    # The offline reader: the grader judges an assistant the same whatever model .env configures for the server.
    server = start_memory_server(api_keys=keys, understanding="offline")
    runner = _Runner(report)
    instances: list[Any] = []
    try:
        yardstick = await _yardstick(server.url, draw, keys)

        def client() -> OfflineChatClient:
            return OfflineChatClient(middleware=[_ViewRecorder()])

        first = build(cls, client(), server.url, draw.keys, work / "store")
        instances.append(first)
        await asyncio.gather(*(_tell(runner, first, draw, user) for user in draw.users))
        await _closed(instances.pop(), report)  # a restart: drains writes a design may have left in flight
        await _remembers(server.url, draw, report)
        if stop_early and report.failures():
            return report
        second = build(cls, client(), server.url, draw.keys, work / "store")  # a restart: same folder
        instances.append(second)
        await asyncio.gather(*(_ask(runner, second, draw, yardstick, user) for user in draw.users))
        _apart(report, runner, draw, yardstick)
        if stop_early and report.failures():
            return report
        server.stop()  # the memory server goes down
        runner.server_down = True
        third = build(cls, client(), server.url, draw.keys, work / "empty")
        instances.append(third)
        with _expected_failures_quiet():
            for user in draw.users:
                await _restart(runner, second, third, draw, yardstick, user)
        if not any(f.requirement == "answers" for f in report.findings):
            report.findings.append(Finding("answers", "everyone", True))
    finally:
        for instance in instances:
            await _closed(instance, report)
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return report


async def _tell(runner: _Runner, assistant: Any, draw: _Draw, user: str) -> None:
    for name, turns in draw.conversations[user]:
        for turn in turns:
            await runner.reply(assistant, user, name, turn.text)


async def _ask(runner: _Runner, assistant: Any, draw: _Draw, yardstick: _Yardstick, user: str) -> None:
    """Each question in a new conversation: alternately its second turn (after a greeting) and its first."""
    report = runner.report
    opener = draw.cases[user].phatic[0]
    given_first: list[bool] = []  # whether a question asked as a conversation's first turn got its memory
    later: list[tuple[_Question, list[str]]] = []
    mine = _joined([q.text for q in yardstick.questions if q.user == user] + draw.cases[user].phatic)
    theirs = [q.text for q in yardstick.questions if q.user != user and _telling(q.text) and not shows(mine, q.text)]
    for n, question in enumerate(q for q in yardstick.questions if q.user == user):
        conversation = f"question-{draw.seed % 1000}-{n}"  # new for this user; the same name for every user
        opened: list[str] = []
        if n % 2 == 0:  # the question is not the conversation's first turn
            _, opened = await runner.reply(assistant, user, conversation, opener)
        reply, views = await runner.reply(assistant, user, conversation, question.text)
        if reply is None:
            continue
        seen = " ~ ".join(opened + views)  # what this conversation showed the model, up to the answer
        here = _joined([opener, question.text])  # what this conversation was told: never 'carried'
        carried = [t for t in yardstick.silent[user] if _telling(t) and not shows(here, t) and shows(seen, t)]
        # Every user's question conversations share their names: another user's question here is a shared session.
        shared = [t for t in theirs if shows(seen, t)]
        if shared:
            report.findings.append(Finding(
                "users apart", user, False,
                f"{user}'s new conversation {conversation!r} showed the model {shared[0]!r}, asked by another user in "
                "a conversation of the same name: key each session by (user, conversation), not by the conversation's "
                "name"))
        report.findings.append(Finding(
            "conversations apart", user, not carried,
            f"{user}'s new conversation {conversation!r} carried {carried[:1]}, said in another conversation: "
            "keep one session per (user, conversation)" if carried else ""))
        missing = [t for t in question.present if not shows(seen, t)]
        stale = [t for t in question.absent if shows(seen, t)]
        if question.kind in ("recall", "update") and n % 2 == 1:
            given_first.append(not missing)
        where = f"as turn 2 of a new conversation (after {opener!r})" if n % 2 == 0 else "to open a new conversation"
        if question.kind == "recall":
            later.append((question, missing))
            report.findings.append(Finding("recall", user, not missing,
                                           f"{user} asked {question.text!r} {where}; the model was not given "
                                           f"{missing[:1]}, which the course's provider recalls for those words" if missing else ""))
        elif question.kind == "update":
            detail = (f"{user} asked {question.text!r} {where}; the model was not given the new value {missing[:1]}"
                      if missing else f"{user} asked {question.text!r}; the model was given the old value {stale[:1]}"
                      if stale else "")
            report.findings.append(Finding("update", user, not detail, detail))
        else:
            report.findings.append(Finding("withdrawal", user, not stale,
                                           f"{user} asked {question.text!r}; the model was given the withdrawn "
                                           f"{stale[:1]}" if stale else ""))
    recalled = [f.ok for f in report.findings if f.user == user and f.requirement == "recall"]
    if recalled and not any(recalled):  # it recalled nothing for this user: a withdrawn fact's absence proves nothing
        for finding in report.findings:
            if finding.user == user and finding.requirement == "withdrawal" and finding.ok:
                finding.ok, finding.detail = False, (f"withdrawal not tried for {user}: the model was given none of "
                                                     f"{user}'s memories, so it could not have been given a withdrawn one")
    shared_session = any(f.user == user and f.requirement == "users apart" and not f.ok for f in report.findings)
    if given_first and all(given_first) and not shared_session:  # every first turn recalled, a later one not: say so
        for finding in report.findings:
            if finding.user == user and not finding.ok and "as turn 2" in finding.detail:
                finding.detail += " (a question that opened a conversation did get it: recall on every turn)"


async def _remembers(url: str, draw: _Draw, report: TrialReport) -> None:
    """After the first conversations: each user's own memory (read with their key) holds something."""
    for user in draw.users:
        async with CortadelMemoryClient(url, user, api_key=draw.keys[user]) as client:
            stored = await all_memories(client)
        report.findings.append(Finding(
            "remembers", user, bool(stored),
            "" if stored else f"after {user}'s conversations, nothing was stored in {user}'s memory (read with "
            f"keys[{user!r}]): bind each user's memory to that user and that user's key"))


def _apart(report: TrialReport, runner: _Runner, draw: _Draw, yardstick: _Yardstick) -> None:
    for user in draw.users:
        seen = runner.views.get(user, [])
        if not seen:
            continue
        own = _joined([x.text for _, turns in draw.conversations[user] for x in turns] + yardstick.memories[user]
                      + draw.cases[user].phatic)  # a text both users said is not a leak
        words = [x.text for other in draw.users if other != user for _, turns in draw.conversations[other]
                 for x in turns if x.tagged or x.text in yardstick.silent[other]]
        memories = [m for other in draw.users if other != user for m in yardstick.item_memories[other]]
        everything = " ~ ".join(seen)
        said = [t for t in words if _telling(t) and not shows(own, t) and shows(everything, t)]
        recalled = [t for t in memories if _telling(t) and not shows(own, t) and shows(everything, t)]
        detail = (f"{user} was shown another user's words {said[0]!r}, said in a conversation of the same name: "
                  "key each session by (user, conversation), not by the conversation's name" if said else
                  f"{user} was given another user's memory {recalled[0]!r}: bind each user's memory to that user and "
                  "keys[user], one provider per user" if recalled else "")
        report.findings.append(Finding("users apart", user, not detail, detail))


async def _restart(runner: _Runner, restarted: Any, empty: Any, draw: _Draw, yardstick: _Yardstick, user: str) -> None:
    report = runner.report
    name, turns = draw.conversations[user][-1]
    said = [t.text for t in turns]
    follow_up = FOLLOW_UPS[draw.seed % len(FOLLOW_UPS)]
    reply, views = await runner.reply(restarted, user, name, follow_up)
    if reply is None:
        return
    report.findings.append(Finding("server down", user, True))
    lost = [text for text in said if not shows(" ~ ".join(views), text)]
    report.findings.append(Finding(
        "restart", user, not lost,
        f"a new instance on the same store_dir continued {user}'s conversation {name!r} without {lost[-1]!r}, "
        "said in it before the restart: save each conversation's session under store_dir after every turn"
        if lost else ""))
    reply, views = await runner.reply(empty, user, name, follow_up)
    if reply is None:
        return
    known = any(shows(" ~ ".join(views), text) for text in said if _telling(text) and not shows(normalise(follow_up), text))
    report.findings.append(Finding(
        "store_dir", user, not known,
        f"a new instance on an EMPTY store_dir still continued {user}'s conversation {name!r}: conversations are "
        "kept in the process (a class or module variable) or outside store_dir, not in store_dir" if known else ""))
