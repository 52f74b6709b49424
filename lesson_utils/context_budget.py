"""Weigh what a model is sent the way the framework's compaction weighs it.

Token-aware compaction strategies decide by a token count (``TruncationStrategy`` and
``TokenBudgetComposedStrategy`` with a ``tokenizer``, ``ContextWindowCompactionStrategy``).
``SummarizationStrategy`` does not: it triggers on a message count (more than ``target_count +
threshold``), and its tokenizer only sizes the request it sends the summariser. A lesson that plots history growth, or checks a budget, must count with the
same rule or the plot and the budget disagree. So this module counts through the framework's public functions:
``annotate_message_groups(..., tokenizer=...)`` stamps each message with the tokenizer's count of
the message as the framework serialises it (role, id and contents as JSON), and
``included_token_count`` adds them up. The default tokenizer is the framework's own default,
``CharacterEstimatorTokenizer`` (about four characters per token). Pass a real tokenizer to count
for a particular model; pass the *same* one to your strategies.

Counting works on copies, so the messages a session stores are never annotated by a measurement.
Instructions are not messages: compaction never sees or shrinks them, so they are not counted here.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_framework import (
    CharacterEstimatorTokenizer,
    Message,
    TokenizerProtocol,
    annotate_message_groups,
    included_token_count,
)

DEFAULT_TOKENIZER: TokenizerProtocol = CharacterEstimatorTokenizer()


def message_tokens(messages: Sequence[Message], tokenizer: TokenizerProtocol | None = None) -> int:
    """Tokens in ``messages`` as compaction counts them (``CharacterEstimatorTokenizer`` by default)."""
    copies = [Message(m.role, list(m.contents), author_name=m.author_name, message_id=m.message_id) for m in messages]
    annotate_message_groups(copies, tokenizer=tokenizer or DEFAULT_TOKENIZER)
    return included_token_count(copies)


def within_budget(history: Sequence[Message], budget: int, *, kept: int = 1,
                  tokenizer: TokenizerProtocol | None = None) -> bool:
    """What a truncating strategy guarantees: ``history`` fits ``budget``, or it is only what the strategy keeps.

    ``TruncationStrategy`` and ``TokenBudgetComposedStrategy`` drop the oldest groups until the budget
    holds, but never the newest group (and, anchored, never the first user message): a projection must
    not be empty. So a single reply longer than the budget is sent anyway, alone. ``kept`` is how many
    messages the strategy never drops (1, or 2 with ``preserve_first_user_group=True``). How long a reply
    is belongs to the model, so this is the check that holds on every model.
    """
    return message_tokens(history, tokenizer) <= budget or len(history) <= kept
