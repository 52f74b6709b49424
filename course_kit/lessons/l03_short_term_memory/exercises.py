"""Lesson 03's exercise: keep a long conversation under a token budget without losing the user's name.

The learner writes ``build_agent(client, token_budget) -> Agent`` with whatever compaction they
choose: a configured or composed framework strategy, a ``CompactionProvider``, a strategy of their
own, a context provider that pins the name. The check runs two long conversations (two users on one
agent, turn by turn in alternation) on the offline lesson model and reads what the *model itself*
received on every turn — the client's own request log, so in-run compaction
(``Agent(compaction_strategy=...)``), which happens below any chat middleware, is seen too.

Every turn must: end with the user's new message; carry the previous user message (short-term
memory, not none at all); stay within the budget, counted as compaction counts
(:mod:`lesson_utils.context_budget`). On the last turn the name must still reach the model and come
back in its answer.

Each run draws (:mod:`._cases`) the budget (200–280 tokens: below the lesson's 350 and below a fixed
window of a few turns), the two names (always one of two words, which must arrive whole), how each user introduces themselves, and
the talk in between, so a budget, a name or a pattern typed in from the lesson fails; the two users
share one agent, so a name kept on the provider instead of in ``session.state`` reaches the wrong one.
Whenever the history nearly fills the budget, the next turn is a long one: an answer that fits only the
history to the budget, with the new message on top, goes over on every draw.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent, Message

from lesson_utils.context_budget import DEFAULT_TOKENIZER, message_tokens
from chat_models.offline import ModelRequest, OfflineChatClient
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

BUDGETS = range(230, 270, 10)  # drawn per run: below the lesson's 350 and below a fixed window of a few turns
NAMES = ("Ngozi Okafor", "Henrik", "Mei Ling", "Tomás", "Aroha", "Jean-Luc", "Siobhan", "Oluwaseun",
         "Ana Sofia", "Dmitri", "Kiri", "Baptiste", "Laila Haddad", "Yusuf")
INTRODUCTIONS = (
    "Hello! My name is {} and I'm new to AI agents.",
    "Hi, call me {}. I'd like some help with a few things today.",
    "Good morning, I'm {}, and I have a few questions for you.",
)
# Instructions are outside compaction's reach; a pinned fact or two is fine, a transcript is not.
INSTRUCTION_GROWTH_ALLOWED = 60
FILLER_TURNS = (
    "What is a good first programming language?",
    "I work as a nurse in a children's hospital.",
    "Can you recommend a podcast about history?",
    "I have a cat called Biscuit.",
    "What should I cook for a dinner party?",
    "I usually run on Sunday mornings.",
    "How do noise-cancelling headphones work?",
    "My favourite season is autumn.",
    "Could you suggest a board game for four people?",
    "I'm learning to play the cello.",
    "Why do leaves change colour?",
    "I prefer tea to coffee.",
    "What is a good stretch after running?",
    "I grew up near the sea.",
    "How do I keep basil alive indoors?",
    "My brother is visiting next week.",
    "What is the difference between a lake and a pond?",
    "I'm saving up for a bicycle.",
)
LONG_TURNS = (  # one of these comes early, while the history grows towards the budget: room must be left for it
    "My neighbour parks across our driveway every evening; how do I write a polite note that does not start a feud?",
    "I'm planning a three-day coastal walk in late spring, carrying everything; what should I pack to stay light?",
    "My grandmother is new to her tablet and gets lost between apps; how do I explain it to her over the phone?",
)
# Sent when the history nearly fills the budget (see _long_when_nearly_full): long enough to go over it on top.
FILLING_TURNS = (
    ("Our small garden gets sun only in the afternoon, the soil is heavy clay and the children play football on it; "
     "what could we grow there?"),
    ("I have to give a short talk at work about a project that went badly; how do I stay honest without blaming "
     "anyone?"),
)
NAME_QUESTION = "What's my name?"


def conversation(name: str, introduction: str = INTRODUCTIONS[0], fillers: tuple[str, ...] = FILLER_TURNS[:13]) -> list[str]:
    """The user's turns: the name first, a long stretch of other talk, then the question."""
    return [introduction.format(name), *fillers, NAME_QUESTION]


def _text_sent(request: ModelRequest) -> str:
    return "\n".join([request.instructions, *(m.text or "" for m in request.messages)])


def _the_turns_request(requests: list[ModelRequest], turn: str, number: int) -> ModelRequest:
    """The request of the agent's own model call this turn: the one ending with the new message."""
    for request in reversed(requests):
        last = request.messages[-1] if request.messages else None
        if last is not None and last.role == "user" and last.text == turn:
            return request
    raise Hint(
        f"on turn {number} the model never received the new message {turn!r} as the last message: "
        "your compaction dropped or moved it. Compact the *history*; the newest user message must always "
        "reach the model, last."
    )


def _long_when_nearly_full(turns: list[str], at: int, budget: int, sent_and_replied: list[Any]) -> None:
    """Make turn ``at`` a long one when the history, as it would stand uncompacted, is within a long message of
    the budget: an answer that fits the history alone to the budget (the new message on top) then goes over."""
    history = message_tokens(sent_and_replied)
    for long_turn in FILLING_TURNS:
        if long_turn != turns[at - 1] and history <= budget - 10 < history + message_tokens([Message(role="user", contents=[long_turn])]):
            turns[at] = long_turn
            return


@exercise("03.token_budget", title="keep a conversation under a token budget without losing the user's name")
async def check_token_budget(build_agent: Any) -> None:
    if not callable(build_agent):
        raise Hint("pass your function itself: check(\"03.token_budget\", build_agent)")
    with drawn_cases() as rng:
        await _two_conversations(build_agent, rng)


async def _two_conversations(build_agent: Any, rng: Any) -> None:
    """Two users on one agent, turn by turn in alternation, at a budget drawn for this run."""
    budget = rng.choice(BUDGETS)
    client = OfflineChatClient()
    agent = await call_learner(build_agent, client, budget, what="`build_agent`")
    if not isinstance(agent, Agent):
        raise Hint(f"`build_agent` returned {type(agent).__name__}; return the `Agent` you built on `client`")
    # always one name of two words (it must reach the model whole) and one of one word, in either order
    names = [rng.choice([n for n in NAMES if " " in n]), rng.choice([n for n in NAMES if " " not in n])]
    rng.shuffle(names)
    introductions = rng.sample(INTRODUCTIONS, 2)
    chats = []
    for name, intro in zip(names, introductions, strict=True):
        fillers = rng.sample(FILLER_TURNS, rng.randrange(12, 16))
        fillers.insert(rng.randrange(1, 4), rng.choice(LONG_TURNS))
        chats.append(conversation(name, intro, tuple(fillers)))
    sessions = [agent.create_session(), agent.create_session()]
    first_instruction_tokens: list[int | None] = [None, None]
    last: list[tuple[ModelRequest, str]] = [None, None]  # type: ignore[list-item]
    for index in range(max(len(c) for c in chats)):
        for who, turns in enumerate(chats):
            if index >= len(turns):
                continue
            turn_number = index + 1
            turn = turns[index]
            client.requests.clear()
            reply = await call_learner(agent.run, turn, session=sessions[who], what="`agent.run`")
            reply_text = getattr(reply, "text", "") or ""
            request = _the_turns_request(list(client.requests), turn, turn_number)
            tokens = message_tokens(request.messages)
            if tokens > budget:
                raise Hint(
                    f"with token_budget={budget}, turn {turn_number} sent {tokens} tokens of messages, over the "
                    "budget (counted with CharacterEstimatorTokenizer, as compaction counts). Use token_budget "
                    "(not a number of your own or a fixed window), e.g. with TokenBudgetComposedStrategy, and leave "
                    "room for the new message: a CompactionProvider's before_strategy compacts the loaded history only."
                )
            if index > 0 and turns[index - 1] not in _text_sent(request):
                raise Hint(
                    f"turn {turn_number} did not carry the previous message ({turns[index - 1]!r}): that is no "
                    "short-term memory at all. Keep the most recent turns and compact the older ones."
                )
            instruction_tokens = DEFAULT_TOKENIZER.count_tokens(request.instructions)
            first = first_instruction_tokens[who]
            if first is None:
                first_instruction_tokens[who] = instruction_tokens
            elif instruction_tokens - first > INSTRUCTION_GROWTH_ALLOWED:
                raise Hint(
                    f"by turn {turn_number} the instructions grew by about {instruction_tokens - first} "
                    "tokens: the budget is for the conversation, so keep history in messages where compaction "
                    "manages it (pinning a fact or two in the instructions is fine)."
                )
            if index == len(turns) - 1:
                last[who] = (request, reply_text)
            elif index + 1 < len(turns) - 1:
                _long_when_nearly_full(turns, index + 1, budget, [*request.messages, *getattr(reply, "messages", [])])
    for who, (request, reply_text) in enumerate(last):
        name, other = names[who], names[1 - who]
        sent = _text_sent(request)
        if name not in sent and other in sent:
            raise Hint(
                f"asked {NAME_QUESTION!r}, {name}'s conversation was told the other user's name ({other}): keep "
                "the name in session.state (the `state` your provider is given), not on the provider or the "
                "module, which every conversation on the agent shares"
            )
        if name not in sent and " " in name and name.split()[0] in sent:
            raise Hint(
                f"on the last turn only part of the name {name!r} ({name.split()[0]}) reached the model: a name "
                "can have two words; keep the whole name as the user said it (a pattern that takes one word cuts it)"
            )
        if name not in sent:
            raise Hint(
                f"on the last turn the user's name ({name}, from {chats[who][0]!r}) no longer reached the model: "
                "a sliding window or truncation drops the turn that stated it, and a name you typed in or a "
                "pattern that knows one way of saying it misses it. Keep it: summarise older turns, preserve the "
                "first user turn, or pin the name (however it was said) with a context provider."
            )
        if name.split()[0] not in reply_text:  # the offline model says a given name, not always the full name
            raise Hint(
                f"the name {name} reached the model but its answer to {NAME_QUESTION!r} was {reply_text!r}: "
                "make sure the name arrives as a statement about the user (e.g. \"The user's name is …\")."
            )
