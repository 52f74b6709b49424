"""What the context providers did during one turn, derived without changing them.

Two sources, both generic over ``ContextProvider.source_id``:

* **Before the model call**: for the duration of one turn a no-op *probe* provider is slotted in
  after each of the agent's providers. Each probe sees the shared ``SessionContext`` right after
  "its" provider ran, so it can attribute the instructions, context messages and tools that
  provider added (the framework keeps instructions as one flat list, so this is the only way to
  know who added which). The probes are removed again when the turn ends.
* **After the turn**: a diff of ``session.state`` before and after, per ``source_id``, shows what
  each provider stored (history messages, remembered facts, injected memory ids, ...).
"""

from __future__ import annotations

import contextlib
import copy
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from agent_framework import AgentSession, ContextProvider, HistoryProvider, SessionContext

from ._render import clip, is_message_list, message_role, message_text, short

logger = logging.getLogger(__name__)

PROBE_SOURCE_ID = "_lesson_utils_turn_probe"


@dataclass
class ProviderActivity:
    """One provider's part in one turn."""

    source_id: str
    instructions: list[str] = field(default_factory=list)
    context_messages: list[str] = field(default_factory=list)
    replayed_messages: int = 0
    tools: list[str] = field(default_factory=list)
    stored: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (
            self.instructions or self.context_messages or self.replayed_messages or self.tools or self.stored
        )

    def lines(self) -> list[str]:
        """Human-readable lines, one per thing the provider did."""
        out = [f"added instructions: {text}" for text in self.instructions]
        if self.replayed_messages:
            out.append(f"replayed {self.replayed_messages} earlier message(s) from the session")
        out += [f"injected context: {text}" for text in self.context_messages]
        if self.tools:
            out.append(f"offered tools: {', '.join(self.tools)}")
        out += [f"stored {line}" for line in self.stored]
        return out


class _TurnProbe(ContextProvider):
    """Runs right after ``provider`` in ``before_run`` and records what it added to the context."""

    def __init__(self, recorder: TurnRecorder, provider: ContextProvider, index: int) -> None:
        # A distinct id per probe, so no duplicate-source_id check can trip over them.
        super().__init__(f"{PROBE_SOURCE_ID}:{index}")
        self._recorder = recorder
        self._provider = provider

    async def before_run(self, *, agent: Any, session: Any, context: SessionContext, state: Any) -> None:
        self._recorder.record(self._provider, context)


class TurnRecorder:
    """Collects :class:`ProviderActivity` for one turn, in provider order."""

    def __init__(self) -> None:
        self.activities: dict[str, ProviderActivity] = {}
        self._seen_instructions = 0
        self._seen_tools = 0
        self._seen_messages: dict[str, int] = {}

    def _activity(self, source_id: str) -> ProviderActivity:
        return self.activities.setdefault(source_id, ProviderActivity(source_id))

    def record(self, provider: ContextProvider, context: SessionContext) -> None:
        activity = self._activity(provider.source_id)
        new_instructions = context.instructions[self._seen_instructions :]
        self._seen_instructions = len(context.instructions)
        activity.instructions += [str(text) for text in new_instructions]

        new_tools = context.tools[self._seen_tools :]
        self._seen_tools = len(context.tools)
        activity.tools += [str(getattr(tool, "name", None) or getattr(tool, "__name__", tool)) for tool in new_tools]

        messages = context.context_messages.get(provider.source_id, [])
        fresh = messages[self._seen_messages.get(provider.source_id, 0) :]
        self._seen_messages[provider.source_id] = len(messages)
        if isinstance(provider, HistoryProvider):
            activity.replayed_messages += len(fresh)
        else:
            activity.context_messages += [message_text(m) for m in fresh]

    def add_state_changes(self, changes: dict[str, list[str]]) -> None:
        for source_id, lines in changes.items():
            self._activity(source_id).stored += lines

    def results(self) -> list[ProviderActivity]:
        return [a for a in self.activities.values() if not a.is_empty]


@contextlib.contextmanager
def observe_providers(agent: Any, recorder: TurnRecorder, session: AgentSession | None = None) -> Iterator[None]:
    """Slot probes after each of ``agent.context_providers`` for one turn; always removes them."""
    providers = getattr(agent, "context_providers", None)
    if not isinstance(providers, list):
        yield
        return
    interleaved: list[Any] = []
    for index, provider in enumerate(providers):
        interleaved.append(provider)
        if not isinstance(provider, _TurnProbe):
            interleaved.append(_TurnProbe(recorder, provider, index))
    providers[:] = interleaved
    try:
        yield
    finally:
        # In place: the framework may have appended its own history provider during the run.
        providers[:] = [p for p in providers if not isinstance(p, _TurnProbe)]
        if session is not None:
            drop_probe_slots(session.state)


def is_probe_slot(source_id: str) -> bool:
    return source_id.startswith(PROBE_SOURCE_ID)


def drop_probe_slots(state: dict[str, Any]) -> None:
    """Remove the empty state slots the framework created for the probes."""
    for key in [k for k in state if isinstance(k, str) and is_probe_slot(k)]:
        del state[key]


def snapshot_state(session: AgentSession) -> dict[str, Any]:
    """A JSON-native copy of ``session.state`` (falls back to a deep copy for unregistered types)."""
    try:
        state = session.to_dict()["state"]
    except Exception:  # an unregistered custom type must not break the widget
        logger.debug("session.to_dict() failed; falling back to deepcopy", exc_info=True)
        state = copy.deepcopy(session.state)
    drop_probe_slots(state)
    return state


def _describe_messages(items: list[Any]) -> str:
    return "; ".join(f"{message_role(m)}: {clip(message_text(m), 80)}" for m in items)


def diff_state(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[str]]:
    """Per ``source_id``, readable lines for what changed in the session state between two snapshots."""
    changes: dict[str, list[str]] = {}
    for source_id in list(after) + [s for s in before if s not in after]:
        old, new = before.get(source_id), after.get(source_id)
        if old == new:
            continue
        if old is None and isinstance(new, dict):
            old = {}  # a provider's first write: report its keys one by one
        if new is None:
            changes[source_id] = ["state: removed"]
            continue
        if not isinstance(old, dict) or not isinstance(new, dict):
            changes[source_id] = [f"state: {short(old)} → {short(new)}"]
            continue
        lines: list[str] = []
        for key in list(new) + [k for k in old if k not in new]:
            if key not in new:
                lines.append(f"{key}: removed")
                continue
            was, now = old.get(key), new[key]
            if was == now:
                continue
            if was is None and isinstance(now, list):
                was = []
            if isinstance(was, list) and isinstance(now, list) and now[: len(was)] == was:
                added = now[len(was) :]
                if is_message_list(added):
                    lines.append(f"{key}: +{len(added)} ({_describe_messages(added)})")
                else:
                    lines.append(f"{key}: +{short(added)}")
            elif key not in old:
                lines.append(f"{key} = {short(now)}")
            else:
                lines.append(f"{key}: {short(was)} → {short(now)}")
        if lines:
            changes[source_id] = lines
    return changes
