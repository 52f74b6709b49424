"""One failure reporter shared by the provider and the tools.

Every Cortadel call fails open: memory is an enhancement, so a dead server must not take the
agent down with it. Routing every failure through this one object is what makes the provider
and the tools behave identically: ``on_error`` observes, ``raise_on_error`` propagates, and a
failure that is neither observed nor propagated becomes a warning in the log.

A warning names the server that failed (read from the HTTP error behind the SDK's), so a wrong
``CORTADEL_BASE_URL`` shows up in the log as the URL it is.

Cancellation is never a failure: callers catch ``Exception`` only, so ``asyncio.CancelledError``
(a ``BaseException``) always propagates untouched and never reaches this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

__all__ = ["ErrorCallback", "FailureReporter", "DEFAULT_LOGGER_NAME"]

DEFAULT_LOGGER_NAME = "lesson_utils.cortadel"

ErrorCallback = Callable[[Exception], object]
"""``on_error`` signature: handed the exception; its return value is ignored."""


class FailureReporter:
    """Decides what happens to a failed Cortadel call.

    Args:
        raise_on_error: propagate the failure to the caller (after ``on_error`` saw it).
        on_error: observer called with the exception; replaces the warning log. If it raises
            itself, that is logged and ignored — an observer must never turn a handled failure
            into a crash.
        logger: where warnings go; defaults to the ``lesson_utils.cortadel`` logger.
    """

    def __init__(
        self,
        *,
        raise_on_error: bool = False,
        on_error: ErrorCallback | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        if on_error is not None and not callable(on_error):
            raise TypeError(f"on_error must be callable, got {type(on_error).__name__}.")
        self.raise_on_error = bool(raise_on_error)
        self.on_error = on_error
        self.logger = logger or logging.getLogger(DEFAULT_LOGGER_NAME)

    def report(self, error: Exception, operation: str, *, can_raise: bool = True) -> None:
        """Observe, log or re-raise ``error`` from ``operation`` (e.g. ``"search"``).

        ``can_raise=False`` is for background writes: there is no caller left to raise into, so
        the failure is observed or logged even when ``raise_on_error`` is set.
        """
        propagate = self.raise_on_error and can_raise
        if self.on_error is not None:
            try:
                self.on_error(error)
            except Exception:  # an observer that fails must not break the turn
                self.logger.exception("Cortadel on_error callback raised while handling a %s failure; ignored.", operation)
        elif not propagate:
            server = server_of(error)
            where = f" at {server}" if server else ""
            self.logger.warning("Cortadel %s%s failed; continuing without long-term memory: %s", operation, where, error)
        if propagate:
            raise error


def server_of(error: BaseException) -> str | None:
    """``scheme://host:port`` of the HTTP request behind ``error`` (or its causes), if there was one."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        try:
            request = getattr(current, "request", None)  # httpx raises RuntimeError when it has none
        except RuntimeError:
            request = None
        url = getattr(request, "url", None)
        if url is not None and getattr(url, "host", None):
            port = f":{url.port}" if url.port else ""
            return f"{url.scheme}://{url.host}{port}"
        current = current.__cause__ or current.__context__
    return None
