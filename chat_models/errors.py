"""Every way a real model call fails, as one line that names the cause and the fix.

A learner on a real model meets HTTP errors from servers they did not write: a wrong key, a model
name the server does not have, a local server that is not running, one that crashes on tool
messages, one so slow it runs out the clock. Raw, each is a screen of traceback ending in
``ChatClientException(... InternalServerError ...)``. Here each error class maps to one
:class:`ModelConfigurationError` whose message says what happened and which variable or setting
to change, and whose ``variable`` names it for code.

The table is ordered: a timeout is also a connection error to the OpenAI SDK, but "the model took
longer than 120 s" is the true cause and "is the server running?" would send the learner the
wrong way. A backend can add its own wording first (``backends.py``: llama.cpp's ``--jinja``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from model_config.configuration import OFFLINE_HINT, ChatClientInfo, ModelConfigurationError
from model_config.policy import MAX_TOKENS_VARIABLE, TIMEOUT_VARIABLE


class ModelCallTimedOut(TimeoutError):
    """A model call ran past the lesson's timeout (raised by the call guard, then explained here)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the model call ran longer than {seconds:g} s")
        self.seconds = seconds


def error_chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the errors it wraps (the framework's ``inner_exception``, causes and contexts)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not s for s in seen):
        seen.append(current)
        yield current
        current = getattr(current, "inner_exception", None) or current.__cause__ or current.__context__


def status_of(err: BaseException) -> int | None:
    """The HTTP status of an OpenAI SDK error, if it has one."""
    status = getattr(err, "status_code", None)
    return status if isinstance(status, int) else None


def _is_timeout(err: BaseException) -> bool:
    import openai

    return isinstance(err, (openai.APITimeoutError, TimeoutError))


def _is_connection(err: BaseException) -> bool:
    import openai

    return isinstance(err, openai.APIConnectionError) or isinstance(err, ConnectionError)


Rule = Callable[[BaseException, ChatClientInfo, float | None], "ModelConfigurationError | None"]


def _error(message: str, info: ChatClientInfo, variable: str) -> ModelConfigurationError:
    return ModelConfigurationError(f"{message} {OFFLINE_HINT}", variable=variable, kind=info.kind)


def _names(info: ChatClientInfo) -> tuple[str, str, str, str]:
    s = info.settings
    where = f" at {info.base_url}" if info.base_url else ""
    return (
        where,
        s.get("api_key_var", "the API key variable"),
        s.get("url_var", "the base URL variable"),
        s.get("model_var", "the model variable"),
    )


def _timeout(err: BaseException, info: ChatClientInfo, timeout: float | None) -> ModelConfigurationError | None:
    if not _is_timeout(err):
        return None
    seconds = getattr(err, "seconds", None) or timeout
    took = f"longer than {seconds:g} s" if seconds else "too long"
    cap = f"lower {MAX_TOKENS_VARIABLE}, " if info.kind == "local" else ""
    return _error(
        f"The {info.kind} model {info.model!r} took {took} to answer and was stopped (not retried): a slow or "
        f"small model may be writing without end. Raise {TIMEOUT_VARIABLE}, {cap}or use a faster model.",
        info,
        TIMEOUT_VARIABLE,
    )


def _status(err: BaseException, info: ChatClientInfo, timeout: float | None) -> ModelConfigurationError | None:
    status = status_of(err)
    if status is None:
        return None
    where, key_var, url_var, model_var = _names(info)
    name = info.kind
    if status == 401:
        return _error(f"The {name} model{where} rejected the API key (401 Unauthorized): check {key_var}.", info, key_var)
    if status == 403:
        return _error(
            f"The {name} model{where} refused access (403): the key in {key_var} may lack access to model "
            f"{info.model!r}.",
            info,
            key_var,
        )
    if status == 404:
        return _error(
            f"The {name} model{where} does not know model {info.model!r} (404 Not Found): check {model_var}"
            f" (and {url_var} if the address is wrong).",
            info,
            model_var,
        )
    if status == 429:
        return _error(
            f"The {name} model{where} refused the call for rate limit or quota (429): check the plan behind "
            f"{key_var}, or wait and retry.",
            info,
            key_var,
        )
    if status in (400, 413, 422):
        return _error(
            f"The {name} model{where} rejected the request ({status}): the conversation may be longer than the "
            f"model's context, or the model may not accept tools. Check the server's log; a larger context or "
            f"another model in {model_var} may help.",
            info,
            model_var,
        )
    if status >= 500:
        return _error(
            f"The {name} model{where} returned {status} (a server error): check its log; does it support tool "
            f"calling? (model {info.model!r}, set in {model_var})",
            info,
            model_var,
        )
    return None


def _connection(err: BaseException, info: ChatClientInfo, timeout: float | None) -> ModelConfigurationError | None:
    if not _is_connection(err):
        return None
    where, _key, url_var, _model = _names(info)
    return _error(
        f"Could not reach the {info.kind} model{where} (connection refused or dropped): is the server running "
        f"and is {url_var} right?",
        info,
        url_var,
    )


RULES: tuple[Rule, ...] = (_timeout, _status, _connection)
"""In order: the first rule that explains any error in the chain wins."""


def explain_model_error(
    exc: BaseException,
    info: ChatClientInfo,
    *,
    timeout: float | None = None,
    extra_rules: tuple[Rule, ...] = (),
) -> ModelConfigurationError | None:
    """Turn a failed model call into one clear message naming what to fix (``None`` if unrelated)."""
    chain = list(error_chain(exc))
    for err in chain:
        if isinstance(err, ModelConfigurationError):
            return err
    for rule in (*extra_rules, *RULES):
        for err in chain:
            explained = rule(err, info, timeout)
            if explained is not None:
                return explained
    return None
