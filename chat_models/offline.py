"""The offline lesson model: a real agent_framework chat client that needs no key and no network.

It behaves like a model with no memory of its own. Each call answers only from the messages and
instructions it is sent (see :mod:`chat_models.rules`), so what a lesson passes in —
a session's history, a context provider's memories — is exactly what it can "remember".
It is composed like the framework's own clients: function invocation (so offered tools are
really called), chat middleware and telemetry layers on top of ``BaseChatClient``.
"""

from __future__ import annotations

import json
import logging
import re
import zlib
from collections import deque
from collections.abc import AsyncIterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from agent_framework import (
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
)
from agent_framework.observability import ChatTelemetryLayer

from model_config import OFFLINE_MODEL_NAME
from .rules import TextReply, ToolCall, ToolSpec, respond
from .text import token_count

logger = logging.getLogger(__name__)



@dataclass
class ModelRequest:
    """Exactly what the model was sent on one call: the model's whole view of the conversation."""

    messages: list[Message] = field(default_factory=list)
    instructions: str = ""
    tool_names: list[str] = field(default_factory=list)

    def render(self) -> str:
        """A readable dump of the model's view, for showing in a lesson."""
        lines = ["--- instructions ---", self.instructions.strip() or "(none)", f"--- messages ({len(self.messages)}) ---"]
        for message in self.messages:
            lines.extend(_render_message(message))
        lines.append("--- tools ---")
        lines.append(", ".join(self.tool_names) or "(none)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def _render_message(message: Message) -> list[str]:
    attribution = (message.additional_properties or {}).get("_attribution")
    source = attribution.get("source_id") if isinstance(attribution, Mapping) else None
    label = f"{message.role} \u00b7 from {source}" if source else message.role
    out: list[str] = []
    for content in message.contents:
        if content.type == "text":
            text = (content.text or "").replace("\n", "\n    ")
            out.append(f"[{label}] {text}")
        elif content.type == "function_call":
            args = content.arguments if isinstance(content.arguments, str) else json.dumps(content.arguments)
            out.append(f"[{label} \u2192 tool call] {content.name}({args})")
        elif content.type == "function_result":
            out.append(f"[tool result] {content.result}")
    return out


def tool_specs_from(options: Mapping[str, Any]) -> list[ToolSpec]:
    """The tools a request offers, as the model sees them (none when ``tool_choice`` is "none")."""
    if options.get("tool_choice") == "none":
        return []
    specs: list[ToolSpec] = []
    for tool in options.get("tools") or []:
        if isinstance(tool, Mapping):
            fn = tool.get("function", tool)
            specs.append(ToolSpec(str(fn.get("name", "")), str(fn.get("description") or ""), fn.get("parameters") or {}))
            continue
        name = getattr(tool, "name", None)
        if not name:
            continue
        parameters = getattr(tool, "parameters", None)
        try:
            schema = parameters() if callable(parameters) else (parameters or {})
        except Exception:  # a tool whose schema cannot be built is still offered by name
            logger.debug("could not read the parameter schema of tool %r", name, exc_info=True)
            schema = {}
        specs.append(ToolSpec(str(name), str(getattr(tool, "description", "") or ""), schema))
    return specs


def instructions_from(options: Mapping[str, Any], messages: Sequence[Message]) -> str:
    """All instruction text of a request: the ``instructions`` option and any system messages."""
    parts: list[str] = []
    given = options.get("instructions")
    if isinstance(given, str):
        parts.append(given)
    elif isinstance(given, Sequence):
        parts.extend(str(p) for p in given)
    parts.extend(m.text for m in messages if m.role == "system" and m.text)
    return "\n".join(p for p in parts if p and p.strip())


def _request_tokens(request: ModelRequest) -> int:
    total = token_count(request.instructions)
    for message in request.messages:
        for content in message.contents:
            if content.type == "text":
                total += token_count(content.text or "")
            elif content.type == "function_call":
                total += token_count(f"{content.name} {content.arguments}")
            elif content.type == "function_result":
                total += token_count(str(content.result))
    return total


class OfflineChatClient(
    FunctionInvocationLayer[Any],
    ChatMiddlewareLayer[Any],
    ChatTelemetryLayer[Any],
    BaseChatClient[Any],
):
    """A deterministic, stateless chat client for the lessons (the default when no model is configured).

    ``last_request`` shows what it was sent on its latest call, and ``requests`` its recent calls in
    order (the last :attr:`REQUEST_LOG_SIZE`); neither is ever used to answer. The log matters when
    one turn makes several calls, e.g. a summariser run by compaction before or after the agent's own.
    """

    OTEL_PROVIDER_NAME: ClassVar[str] = "offline"
    REQUEST_LOG_SIZE: ClassVar[int] = 200

    def __init__(self, *, model: str = OFFLINE_MODEL_NAME, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = model
        self.last_request: ModelRequest | None = None
        self.requests: deque[ModelRequest] = deque(maxlen=self.REQUEST_LOG_SIZE)

    def service_url(self) -> str:
        return "offline://lesson-model"

    def _inner_get_response(
        self,
        *,
        messages: Sequence[Message],
        stream: bool,
        options: Mapping[str, Any],
        **kwargs: Any,
    ) -> Any:
        if stream:
            return self._build_response_stream(self._stream(messages, options), response_format=options.get("response_format"))
        return self._respond(messages, options)

    async def _answer(self, messages: Sequence[Message], options: Mapping[str, Any]) -> tuple[Content, str, dict[str, int], str]:
        options = await self._validate_options(options)
        tools = tool_specs_from(options)
        request = ModelRequest(
            messages=list(messages),
            instructions=instructions_from(options, messages),
            tool_names=[spec.name for spec in tools],
        )
        self.last_request = request
        self.requests.append(request)
        decision = respond(
            instructions=request.instructions,
            messages=[m for m in messages if m.role != "system"],
            tools=tools,
        )
        if isinstance(decision, ToolCall):
            arguments = json.dumps(decision.arguments, ensure_ascii=False, sort_keys=True)
            call_id = f"call_{zlib.crc32(f'{len(messages)}:{decision.name}:{arguments}'.encode()):08x}"
            # Its own occurrence id too: otherwise the framework draws a random one (af-call-<uuid4>), which ends up
            # in the tool-call message a vector history embeds, and a run stops being repeatable.
            content = Content.from_function_call(call_id, decision.name, arguments=arguments, id=call_id)
            output_text, finish = f"{decision.name} {arguments}", "tool_calls"
        else:
            assert isinstance(decision, TextReply)
            content = Content.from_text(decision.text)
            output_text, finish = decision.text, "stop"
        input_tokens, output_tokens = _request_tokens(request), token_count(output_text)
        usage = {
            "input_token_count": input_tokens,
            "output_token_count": output_tokens,
            "total_token_count": input_tokens + output_tokens,
        }
        response_id = f"offline-{zlib.crc32(request.render().encode('utf-8')):08x}"
        logger.debug("offline model answered %s (%s tokens in, %s out)", finish, input_tokens, output_tokens)
        return content, finish, usage, response_id

    async def _respond(self, messages: Sequence[Message], options: Mapping[str, Any]) -> ChatResponse:
        content, finish, usage, response_id = await self._answer(messages, options)
        return ChatResponse(
            messages=[Message("assistant", [content], message_id=response_id)],
            response_id=response_id,
            model=self.model,
            finish_reason=finish,  # type: ignore[arg-type]
            usage_details=usage,  # type: ignore[arg-type]
        )

    async def _stream(self, messages: Sequence[Message], options: Mapping[str, Any]) -> AsyncIterable[ChatResponseUpdate]:
        content, finish, usage, response_id = await self._answer(messages, options)
        common = {"role": "assistant", "response_id": response_id, "message_id": response_id, "model": self.model}
        if content.type == "text":
            for piece in re.findall(r"\S+\s*|\s+", content.text or ""):
                yield ChatResponseUpdate(contents=[Content.from_text(piece)], **common)  # type: ignore[arg-type]
        else:
            yield ChatResponseUpdate(contents=[content], **common)  # type: ignore[arg-type]
        yield ChatResponseUpdate(
            contents=[Content.from_usage(usage)],  # type: ignore[arg-type]
            finish_reason=finish,  # type: ignore[arg-type]
            **common,  # type: ignore[arg-type]
        )
