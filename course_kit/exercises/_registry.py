"""The exercise registry and ``check``: one line of feedback, a bool, and never a traceback.

Each lesson's exercises live in their own module beside this one (``l01_stateless.py`` …) and
register a checker with :func:`exercise`. A checker receives the learner's answer (a function, a
class, a value) and runs it *through the framework* — on the offline lesson model and, where the
exercise needs one, a throwaway local memory server — so any correct solution passes and the text
of the learner's code never matters. A checker says what is wrong by raising :class:`Hint`; every
other exception is the learner's code failing, and becomes a hint too.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import re
import threading
import traceback
import warnings
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Checker = Callable[[Any], "Awaitable[None] | None"]


class Hint(Exception):
    """Raised by a checker: the answer is not right yet; the message is the hint shown to the learner."""


class StubNotFilled(Hint):
    """The learner has not replaced the stub (``...`` or ``raise NotImplementedError``) yet."""

    def __init__(self, what: str = "the stub") -> None:
        super().__init__(f"fill in {what} first: it still raises NotImplementedError or returns `...`")


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id (``"<lesson>.<name>"``), the lesson it closes, its title, its checker."""

    id: str
    lesson: str
    title: str
    checker: Checker


EXERCISES: dict[str, Exercise] = {}


def exercise(exercise_id: str, *, title: str) -> Callable[[Checker], Checker]:
    """Register ``checker`` under ``exercise_id`` (``"04.remember_city"``: lesson ``04``)."""
    lesson, _, name = exercise_id.partition(".")
    if not (lesson.isdigit() and len(lesson) == 2 and name):
        raise ValueError(f"exercise ids look like '04.remember_city'; got {exercise_id!r}")

    def register(checker: Checker) -> Checker:
        if exercise_id in EXERCISES:
            raise ValueError(f"exercise {exercise_id!r} is registered twice")
        EXERCISES[exercise_id] = Exercise(exercise_id, lesson, title, checker)
        return checker

    return register


def not_a_stub(value: Any, what: str = "the stub") -> Any:
    """``value`` unless it is what an untouched stub returns (``...``); raises :class:`StubNotFilled`."""
    if value is Ellipsis:
        raise StubNotFilled(what)
    return value


async def call_learner(fn: Callable[..., Any], *args: Any, what: str | None = None, **kwargs: Any) -> Any:
    """Call the learner's function (sync or async); a stub or a crash becomes a :class:`Hint`."""
    label = what or f"`{getattr(fn, '__name__', 'your code')}`"
    try:
        result = fn(*args, **kwargs)
        if inspect.isawaitable(result):
            result = await result
    except NotImplementedError:
        raise StubNotFilled(label) from None
    except Hint:
        raise
    except Exception as exc:  # the learner's code failed: say where, briefly
        raise Hint(f"{label} raised {type(exc).__name__}: {exc} ({_where(exc)})") from None
    return not_a_stub(result, label)


def check(exercise_id: str, answer: Any) -> bool:
    """Run the checker of ``exercise_id`` on ``answer``; print ``✅ …`` or ``❌ … hint``; return a bool.

    It never raises: an unknown id, an untouched stub, a wrong type or an exception in the learner's
    code each give a one-line hint. It prints at most three lines: the verdict, then at most one line for
    what the answer logged while it ran (repeated warnings collapsed into one, with a count) and one for
    what it printed, both held back so that they cannot bury the verdict.
    """
    entry = EXERCISES.get(exercise_id)
    if entry is None:
        known = ", ".join(sorted(EXERCISES)) or "none registered"
        print(f"\u274c no exercise {exercise_id!r}; the ids are: {known}")
        return False
    with _held_back() as held:
        try:
            _run(entry.checker, answer)
            verdict, passed = f"\u2705 {entry.id} \u00b7 {entry.title}: correct", True
        except Hint as hint:
            verdict, passed = f"\u274c {entry.id} \u00b7 {entry.title}: {hint}", False
        except Exception as exc:  # a checker bug must not look like the learner's fault, nor raise
            verdict, passed = f"\u274c {entry.id}: the check itself failed ({type(exc).__name__}: {exc}); please report it", False
    print(" ".join(verdict.split("\n")))
    for line in held.summary():
        print(line)
    return passed


@dataclass
class _HeldBack:
    """What an answer logged and printed while its check ran."""

    records: list[logging.LogRecord] = field(default_factory=list)
    printed: io.StringIO = field(default_factory=io.StringIO)

    def summary(self) -> list[str]:
        """At most two lines: the log records, repeats collapsed with a count, and how much was printed."""
        lines = []
        if self.records:
            repeats = Counter(map(_kind, self.records))
            kind, times = repeats.most_common(1)[0]
            example = next(r for r in self.records if _kind(r) == kind)
            said = _shortened(f"{example.levelname.lower()} from {example.name}: {example.getMessage()}")
            more = len(self.records) - times
            lines.append(f"   logged while checking: {said} (\u00d7{times})"
                         + (f", and {more} other message{'s' * (more != 1)}" if more else ""))
        printed = [line for line in self.printed.getvalue().splitlines() if line.strip()]
        if printed:
            lines.append(f"   printed while checking: {len(printed)} line{'s' * (len(printed) != 1)}, first "
                         f"{_shortened(printed[0])!r} (call your code outside check() to see them all)")
        return lines


def _kind(record: logging.LogRecord) -> str:
    """A log message with its numbers blanked: the same warning about another port or count is a repeat."""
    return re.sub(r"\d+", "#", f"{record.name} {record.getMessage()}")


def _shortened(text: str, limit: int = 140) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class _Collect(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.NOTSET)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def _held_back() -> Iterator[_HeldBack]:
    """Hold back what the answer logs (through the root logger) and prints while it is checked."""
    held = _HeldBack()
    root = logging.getLogger()
    handlers = root.handlers[:]
    collect = _Collect(held.records)
    for handler in handlers:
        root.removeHandler(handler)
    root.addHandler(collect)
    try:
        with contextlib.redirect_stdout(held.printed), contextlib.redirect_stderr(held.printed), \
                warnings.catch_warnings():
            # The framework's notice that an API is experimental is not something the answer printed.
            warnings.filterwarnings("ignore", message=".* is experimental and may change", category=FutureWarning)
            yield held
    finally:
        root.removeHandler(collect)
        for handler in handlers:
            root.addHandler(handler)


def _run(checker: Checker, answer: Any) -> None:
    """Run a sync or async checker, also from a notebook whose event loop is already running."""
    outcome = checker(answer)
    if not inspect.isawaitable(outcome):
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(_awaited(outcome))
        return
    # Inside a notebook (top-level await): run the check on its own loop in a worker thread.
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            asyncio.run(_awaited(outcome))
        except BaseException as exc:  # handed back to the caller's thread below
            errors.append(exc)

    thread = threading.Thread(target=worker, name="exercise-check")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "no traceback"
    last = frames[-1]
    return f"line {last.lineno}: {last.line or last.name}"
