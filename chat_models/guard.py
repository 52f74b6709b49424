"""The call guard: chat middleware that applies the call policy and explains every failure.

``get_chat_client()`` passes one :class:`ModelCallGuard` to every real client it builds, through
the framework's public ``middleware=`` parameter. Because the framework runs client middleware on
every model call (also each step of a tool loop, and ``check_chat_client``'s test call), one
object does three jobs in one place, with no subclass of a framework client:

- **options**: the policy's ``max_tokens`` cap and ``store=False`` are added to the call's options
  unless the caller set them;
- **the cap**: a reply the policy's cap cut (finish reason ``length``) says so in one line (``cap.py``);
- **time**: a call that runs past the policy's timeout is stopped — including a stream that keeps
  producing tokens forever, which the HTTP timeout alone never stops;
- **errors**: whatever the call raises becomes the one-line :class:`ModelConfigurationError` of
  ``errors.py`` (raised ``from None``, so a notebook shows one line, not a traceback chain).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from agent_framework import ChatContext, ChatMiddleware, ResponseStream

from .cap import note_finish
from model_config.configuration import ChatClientInfo
from .errors import ModelCallTimedOut, Rule, explain_model_error
from model_config.policy import CallPolicy


class ModelCallGuard(ChatMiddleware):
    """Adds the policy's options to each call, stops it at the timeout, and explains its failures."""

    def __init__(self, info: ChatClientInfo, policy: CallPolicy, *, extra_rules: tuple[Rule, ...] = ()) -> None:
        self.info = info
        self.policy = policy
        self.extra_rules = extra_rules

    def explain(self, exc: BaseException) -> BaseException:
        """The one-line error for ``exc``, or ``exc`` itself when it is not about the model call."""
        explained = explain_model_error(exc, self.info, timeout=self.policy.timeout, extra_rules=self.extra_rules)
        return explained if explained is not None else exc

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> None:
        chosen = dict(context.options or {})
        context.options = {**self.policy.options(chosen), **chosen}
        cap = context.options.get("max_tokens")
        from_policy = "max_tokens" not in chosen
        deadline = time.monotonic() + self.policy.timeout
        try:
            if context.stream:
                await call_next()
            else:
                await asyncio.wait_for(call_next(), timeout=self.policy.timeout)
        except asyncio.TimeoutError:
            raise self.explain(ModelCallTimedOut(self.policy.timeout)) from None
        except Exception as exc:
            self._raise_explained(exc)
        if context.stream and isinstance(context.result, ResponseStream):
            inner = context.result

            async def finalise(_updates: Any) -> Any:
                response = await inner.get_final_response()
                note_finish(getattr(response, "finish_reason", None), cap, from_policy=from_policy)
                return response

            context.result = ResponseStream(self._guarded(inner, deadline), finalizer=finalise)
        elif not context.stream:
            note_finish(getattr(context.result, "finish_reason", None), cap, from_policy=from_policy)

    async def _guarded(self, inner: ResponseStream[Any, Any], deadline: float) -> AsyncIterator[Any]:
        try:
            async for update in inner:
                yield update
                if time.monotonic() > deadline:  # a runaway stream: tokens keep coming, the clock decides
                    await inner.close()
                    raise ModelCallTimedOut(self.policy.timeout)
        except Exception as exc:
            self._raise_explained(exc)

    def _raise_explained(self, exc: Exception) -> None:
        explained = self.explain(exc)
        if explained is exc:
            raise exc
        raise explained from None


def is_guarded(client: Any) -> bool:
    """True when ``client`` carries a :class:`ModelCallGuard` (every real client get_chat_client builds)."""
    return any(isinstance(m, ModelCallGuard) for m in getattr(client, "chat_middleware", []) or [])


__all__ = ["ModelCallGuard", "is_guarded"]
