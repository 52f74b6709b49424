"""Lesson 03's exercise: keep a long conversation under a token budget without losing the user's name.

The learner writes ``build_agent(client, token_budget) -> Agent`` with whatever compaction they
choose: a configured or composed framework strategy, a ``CompactionProvider``, a strategy of their
own, a context provider that pins the name. The check runs two long conversations (two different
names, so nothing can be hard-coded) on the offline lesson model and reads what the *model itself*
received on every turn — the client's own request log, so in-run compaction
(``Agent(compaction_strategy=...)``), which happens below any chat middleware, is seen too.

Every turn must: end with the user's new message; carry the previous user message (short-term
memory, not none at all); stay within the budget, counted as compaction counts
(:mod:`lesson_utils.context_budget`). On the last turn the name must still reach the model and come
back in its answer.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent

from ..context_budget import DEFAULT_TOKENIZER, message_tokens
from ..models.offline import ModelRequest, OfflineChatClient
from ._registry import Hint, call_learner, exercise

TOKEN_BUDGET = 450
NAMES = ("Ngozi", "Henrik")
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
)
NAME_QUESTION = "What's my name?"


def conversation(name: str) -> list[str]:
    """The user's turns: the name first, a long stretch of other talk, then the question."""
    return [f"Hello! My name is {name} and I'm new to AI agents.", *FILLER_TURNS, NAME_QUESTION]


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


@exercise("03.token_budget", title="keep a conversation under a token budget without losing the user's name")
async def check_token_budget(build_agent: Any) -> None:
    if not callable(build_agent):
        raise Hint("pass your function itself: check(\"03.token_budget\", build_agent)")
    for name in NAMES:
        client = OfflineChatClient()
        agent = await call_learner(build_agent, client, TOKEN_BUDGET, what="`build_agent`")
        if not isinstance(agent, Agent):
            raise Hint(f"`build_agent` returned {type(agent).__name__}; return the `Agent` you built on `client`")
        session = agent.create_session()
        turns = conversation(name)
        first_instruction_tokens: int | None = None
        reply_text = ""
        for number, turn in enumerate(turns, start=1):
            client.requests.clear()
            reply = await call_learner(agent.run, turn, session=session, what="`agent.run`")
            reply_text = getattr(reply, "text", "") or ""
            request = _the_turns_request(list(client.requests), turn, number)
            tokens = message_tokens(request.messages)
            if tokens > TOKEN_BUDGET:
                raise Hint(
                    f"turn {number} sent {tokens} tokens of messages, over the budget of {TOKEN_BUDGET} "
                    "(counted with CharacterEstimatorTokenizer, as compaction counts). Compact the history, "
                    "e.g. with TokenBudgetComposedStrategy, and leave room for the new message: a "
                    "CompactionProvider's before_strategy compacts the loaded history only."
                )
            if number > 1 and turns[number - 2] not in _text_sent(request):
                raise Hint(
                    f"turn {number} did not carry the previous message ({turns[number - 2]!r}): that is no "
                    "short-term memory at all. Keep the most recent turns and compact the older ones."
                )
            instruction_tokens = DEFAULT_TOKENIZER.count_tokens(request.instructions)
            if first_instruction_tokens is None:
                first_instruction_tokens = instruction_tokens
            elif instruction_tokens - first_instruction_tokens > INSTRUCTION_GROWTH_ALLOWED:
                raise Hint(
                    f"by turn {number} the instructions grew by about {instruction_tokens - first_instruction_tokens} "
                    "tokens: the budget is for the conversation, so keep history in messages where compaction "
                    "manages it (pinning a fact or two in the instructions is fine)."
                )
        if name not in _text_sent(request):
            raise Hint(
                f"on the last turn the user's name ({name}, said in turn 1) no longer reached the model: a sliding "
                "window or truncation drops the turn that stated it. Keep it: summarise older turns "
                "(SummarizationStrategy), preserve the first user turn, or pin the name with a context provider."
            )
        if name not in reply_text:
            raise Hint(
                f"the name {name} reached the model but its answer to {NAME_QUESTION!r} was {reply_text!r}: "
                "make sure the name arrives as a statement about the user (e.g. \"The user's name is …\")."
            )
