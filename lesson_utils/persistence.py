"""Lessons 4–5: a session is just JSON.

``AgentSession.to_dict()`` captures everything a conversation needs — its id and every
provider's state slot, history included — as JSON-native data. This module turns that
into text and back, writes it to a file atomically, and keeps the *same bytes* as a
SQLite row keyed by conversation id, the way a service would.

Reading is strict: text that is not a session snapshot raises :class:`SessionFormatError`
naming the problem and where the text came from, and nothing is half-loaded. The JSON is
the shape ``to_dict`` writes, which is also the shape the framework's experimental
``FileSessionStore`` reads (it adds an optional ``"version"``), so files stay portable.

Why not build on the framework's ``SessionStore`` / ``FileSessionStore``: in 1.23 they are
experimental (an ``ExperimentalWarning`` on construction), async, keyed by id inside one
folder rather than by a path you choose, and ``FileSessionStore`` renames a corrupt file
aside when it fails to read it. A lesson wants a file it names, a visible error, and the
bad file left in place; the on-disk shape is kept compatible instead.

Lesson 14 (scaling out) adds versions: every stored session carries a version number, and
``save(..., expected_version=n)`` refuses a write made from a copy that is no longer current
(:class:`StaleSessionError`) instead of silently overwriting another worker's turn. Any store
that keeps that promise is a :class:`VersionedSessionStore`; ``SqliteSessionStore`` is the
embedded one, ``lesson_utils.scaling.RedisSessionStore`` the shared one.
"""

from __future__ import annotations

import builtins
import json
import logging
import math
import os
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, closing, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from agent_framework import AgentSession, Message

from .errors import LessonError

__all__ = [
    "ConversationBusyError",
    "SessionFormatError",
    "SessionNotFoundError",
    "SqliteSessionStore",
    "StaleSessionError",
    "VersionedSession",
    "VersionedSessionStore",
    "load_session",
    "save_session",
    "session_from_dict",
    "session_from_json",
    "session_to_json",
]

logger = logging.getLogger(__name__)

_KNOWN_KEYS = frozenset({"type", "session_id", "service_session_id", "state", "version"})
_SUPPORTED_VERSION = "1.0"


class SessionFormatError(LessonError, ValueError):
    """Text that was meant to be a saved session is not one.

    Attributes:
        source: Where the text came from (a file path, a database row, ``"<string>"``).
        problem: What is wrong with it, in words.
    """

    def __init__(self, source: str, problem: str) -> None:
        super().__init__(f"{source} is not a saved agent session: {problem}")
        self.source = source
        self.problem = problem


class SessionNotFoundError(LessonError, LookupError):
    """No session is stored under the requested conversation id."""


class StaleSessionError(LessonError, RuntimeError):
    """A save was refused: the session was loaded at a version that is no longer the stored one.

    Another worker saved the conversation in between. Overwriting would lose that worker's
    turn, so nothing is written; load the session again and redo the turn.
    """

    def __init__(self, conversation_id: str, expected: int, found: int, where: str) -> None:
        now = "it is not stored any more" if found == 0 else f"version {found} is stored now"
        if expected == 0:
            now = f"it was created meanwhile (version {found})"
        super().__init__(
            f"refused a stale write to conversation {conversation_id!r} in {where}: it was loaded at "
            f"version {expected}, but {now}; load it again and redo the turn"
        )
        self.conversation_id = conversation_id
        self.expected = expected
        self.found = found


class ConversationBusyError(LessonError, TimeoutError):
    """Another worker held the conversation's lock for longer than this worker would wait."""


@dataclass(frozen=True)
class VersionedSession:
    """A session as loaded from a versioned store, with the version it was loaded at.

    ``version`` is 0 for a conversation that is not stored yet (``load_versioned(..., create=True)``).
    Pass it back as ``save(..., expected_version=loaded.version)``.
    """

    conversation_id: str
    session: AgentSession
    version: int


@runtime_checkable
class VersionedSessionStore(Protocol):
    """What a session store shared by several workers must promise.

    - ``load_versioned`` returns the session and the version it was stored at.
    - ``save(..., expected_version=n)`` writes only if the stored version is still ``n`` and
      returns the new version; otherwise it raises :class:`StaleSessionError` and writes nothing.
      ``expected_version=None`` is an unconditional write (the last writer wins).
    - ``lock`` serialises the turns of one conversation across processes; it expires after
      ``ttl`` seconds so a crashed worker cannot block a conversation for ever.
    """

    def load_versioned(self, conversation_id: str, *, create: bool = False) -> VersionedSession: ...

    def save(self, conversation_id: str, session: AgentSession, *, expected_version: int | None = None) -> int: ...

    def lock(self, conversation_id: str, *, ttl: float = 30.0, wait: float = 60.0) -> AbstractContextManager[None]: ...


# --------------------------------------------------------------------------- writing


def _first_non_json_value(value: Any, path: str) -> str | None:
    """Where ``value`` holds something JSON cannot carry, or ``None`` when it is JSON-native."""
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} is {value!r}, which JSON cannot represent"
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (found := _first_non_json_value(item, f"{path}[{index}]")) is not None:
                return found
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has a non-string key {key!r}"
            if (found := _first_non_json_value(item, f"{path}[{key!r}]")) is not None:
                return found
        return None
    return f"{path} holds a {type(value).__name__}, which is not JSON (register it with register_state_type)"


def session_to_json(session: AgentSession) -> str:
    """The session as JSON text: ``session.to_dict()``, pretty-printed, non-ASCII kept as is.

    Raises:
        TypeError: If some state value is not JSON-native (nothing is written anywhere).
    """
    if not isinstance(session, AgentSession):
        raise TypeError(f"expected an AgentSession, got {type(session).__name__}")
    data = session.to_dict()
    problem = _first_non_json_value(data.get("state"), "session.state")
    if problem is not None:
        raise TypeError(f"cannot save session {session.session_id}: {problem}")
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)


def save_session(session: AgentSession, path: str | os.PathLike[str]) -> Path:
    """Write the session to ``path`` atomically and return the path.

    The JSON goes to a temporary file beside ``path`` that then replaces it in one step,
    so a crash mid-write leaves the previous file intact, never half of a new one.
    """
    target = Path(path)
    text = session_to_json(session)  # fails before touching the disk
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    logger.debug("saved session %s to %s", session.session_id, target)
    return target


# --------------------------------------------------------------------------- reading


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not valid JSON")


def _check_history(state: Mapping[str, Any], source: str) -> None:
    """Every ``messages`` list in a provider slot must have come back as framework Messages."""
    for slot, value in state.items():
        if not isinstance(value, Mapping) or "messages" not in value:
            continue
        messages = value["messages"]
        if not isinstance(messages, list):
            raise SessionFormatError(source, f"state[{slot!r}]['messages'] must be a list, not {_kind(messages)}")
        for index, message in enumerate(messages):
            if not isinstance(message, Message):
                raise SessionFormatError(
                    source,
                    f"state[{slot!r}]['messages'][{index}] is not a saved message "
                    '(expected an object with "type": "message", "role" and "contents")',
                )


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


def session_from_dict(data: Any, *, source: str = "<data>") -> AgentSession:
    """Validate a ``to_dict()``-shaped mapping and restore the session from it."""
    if not isinstance(data, dict):
        raise SessionFormatError(source, f"the top level must be a JSON object, not {_kind(data)}")
    if data.get("type") != "session":
        found = "missing" if "type" not in data else repr(data["type"])
        raise SessionFormatError(source, f'"type" must be "session" (found {found})')
    session_id = data.get("session_id")
    if not isinstance(session_id, str) or not session_id.strip():
        found = "missing" if "session_id" not in data else _kind(session_id)
        raise SessionFormatError(source, f'"session_id" must be a non-empty string (found {found})')
    service_session_id = data.get("service_session_id")
    if service_session_id is not None and not isinstance(service_session_id, (str, dict)):
        raise SessionFormatError(
            source, f'"service_session_id" must be a string, an object or null, not {_kind(service_session_id)}'
        )
    if "state" not in data:
        raise SessionFormatError(source, '"state" is missing')
    if not isinstance(data["state"], dict):
        raise SessionFormatError(source, f'"state" must be an object, not {_kind(data["state"])}')
    version = data.get("version", _SUPPORTED_VERSION)
    if version != _SUPPORTED_VERSION:
        raise SessionFormatError(source, f'unsupported "version" {version!r} (expected {_SUPPORTED_VERSION!r})')
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        logger.warning("%s: ignoring unknown session fields %s", source, unknown)
    try:
        session = AgentSession.from_dict(data)
    except (TypeError, ValueError, KeyError) as exc:
        raise SessionFormatError(source, f"its state could not be restored ({exc})") from exc
    _check_history(session.state, source)
    return session


def session_from_json(text: str | bytes, *, source: str = "<string>") -> AgentSession:
    """Restore a session from JSON written by :func:`session_to_json`.

    Args:
        text: The JSON, as text or UTF-8 bytes.

    Keyword Args:
        source: Names the origin in error messages (a path, a database row).

    Raises:
        SessionFormatError: If the text is not JSON or not a session snapshot.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")  # tolerate a BOM from Windows editors
        except UnicodeDecodeError as exc:
            raise SessionFormatError(source, f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if not isinstance(text, str):
        raise TypeError(f"expected JSON text or bytes, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise SessionFormatError(source, "it is empty")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SessionFormatError(
            source, f"it is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from exc
    except ValueError as exc:  # NaN / Infinity
        raise SessionFormatError(source, f"it is not valid JSON ({exc})") from exc
    return session_from_dict(data, source=source)


def load_session(path: str | os.PathLike[str]) -> AgentSession:
    """Read a session saved by :func:`save_session`.

    Raises:
        FileNotFoundError: If there is no such file.
        SessionFormatError: If the file does not hold a session snapshot.
    """
    target = Path(path)
    data = target.read_bytes()
    return session_from_json(data, source=f"file {str(target)!r}")


# --------------------------------------------------------------------------- a database row


class SqliteSessionStore:
    """Sessions as rows of a SQLite table, keyed by conversation id.

    Each row holds exactly the JSON text :func:`session_to_json` produces, so a row and a
    file are interchangeable. Every call opens and closes its own connection, so several
    processes can share one database file — on one machine. Each row carries a version
    (see :class:`VersionedSessionStore`).
    """

    TABLE = "agent_sessions"
    LOCKS = "agent_session_locks"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        with closing(self._connect()) as connection, connection:
            connection.execute(
                f"CREATE TABLE IF NOT EXISTS {self.TABLE} ("
                " conversation_id TEXT PRIMARY KEY,"
                " session_json TEXT NOT NULL,"
                " updated_at TEXT NOT NULL,"
                " version INTEGER NOT NULL DEFAULT 1)"
            )
            columns = {row[1] for row in connection.execute(f"PRAGMA table_info({self.TABLE})")}
            if "version" not in columns:  # a database written before versions existed (lesson 05)
                connection.execute(f"ALTER TABLE {self.TABLE} ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
            connection.execute(
                f"CREATE TABLE IF NOT EXISTS {self.LOCKS} ("
                " conversation_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at REAL NOT NULL)"
            )

    def __repr__(self) -> str:
        return f"SqliteSessionStore({str(self.path)!r})"

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    @staticmethod
    def _check_id(conversation_id: str) -> str:
        if not isinstance(conversation_id, str) or not conversation_id:
            raise ValueError(f"conversation_id must be a non-empty string, got {conversation_id!r}")
        return conversation_id

    def _source(self, conversation_id: str) -> str:
        return f"row {conversation_id!r} of {self.TABLE} in {str(self.path)!r}"

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction that takes the database's write lock before it reads."""
        with closing(self._connect()) as connection:
            connection.isolation_level = None
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def save(self, conversation_id: str, session: AgentSession, *, expected_version: int | None = None) -> int:
        """Store the session for ``conversation_id`` and return its new version.

        With ``expected_version`` (from :meth:`load_versioned`; 0 for a new conversation) the write
        happens only if that is still the stored version, else :class:`StaleSessionError`.
        """
        self._check_id(conversation_id)
        return self.save_json(conversation_id, session_to_json(session), expected_version=expected_version)

    def save_json(self, conversation_id: str, text: str, *, expected_version: int | None = None) -> int:
        """Store session JSON as is, after checking it is one (so a bad row is never written)."""
        self._check_id(conversation_id)
        session_from_json(text, source=f"JSON for {self._source(conversation_id)}")
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._transaction() as connection:
            row = connection.execute(
                f"SELECT version FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
            current = 0 if row is None else int(row[0])
            if expected_version is not None and expected_version != current:
                raise StaleSessionError(conversation_id, expected_version, current, repr(self))
            connection.execute(
                f"INSERT INTO {self.TABLE} (conversation_id, session_json, updated_at, version) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(conversation_id) DO UPDATE SET "
                "session_json = excluded.session_json, updated_at = excluded.updated_at, version = excluded.version",
                (conversation_id, text, stamp, current + 1),
            )
        return current + 1

    def load_versioned(self, conversation_id: str, *, create: bool = False) -> VersionedSession:
        """The stored session and its version; with ``create=True`` a new session at version 0 if none.

        Raises:
            SessionNotFoundError: If no row has that conversation id and ``create`` is false.
            SessionFormatError: If the row does not hold a session snapshot.
        """
        self._check_id(conversation_id)
        with closing(self._connect()) as connection:
            row = connection.execute(
                f"SELECT session_json, version FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            if create:
                return VersionedSession(conversation_id, AgentSession(), 0)
            raise SessionNotFoundError(f"no session stored for conversation {conversation_id!r} in {str(self.path)!r}")
        session = session_from_json(row[0], source=self._source(conversation_id))
        return VersionedSession(conversation_id, session, int(row[1]))

    @contextmanager
    def lock(self, conversation_id: str, *, ttl: float = 30.0, wait: float = 60.0) -> Iterator[None]:
        """Hold the conversation's lock (a row in another table) for one turn, across processes.

        The row expires after ``ttl`` seconds, so a worker killed mid-turn blocks the
        conversation for at most that long. Waits up to ``wait`` seconds, then
        :class:`ConversationBusyError`.
        """
        self._check_id(conversation_id)
        token, deadline = uuid.uuid4().hex, time.monotonic() + wait
        while True:
            now = time.time()
            with self._transaction() as connection:
                connection.execute(
                    f"DELETE FROM {self.LOCKS} WHERE conversation_id = ? AND expires_at < ?", (conversation_id, now)
                )
                taken = connection.execute(
                    f"INSERT OR IGNORE INTO {self.LOCKS} VALUES (?, ?, ?)", (conversation_id, token, now + ttl)
                ).rowcount
            if taken == 1:
                break
            if time.monotonic() >= deadline:
                raise ConversationBusyError(
                    f"conversation {conversation_id!r} in {self!r} is busy: another worker held its lock "
                    f"for more than {wait:g} s; try the turn again later"
                )
            time.sleep(0.02)
        try:
            yield
        finally:
            with self._transaction() as connection:
                connection.execute(
                    f"DELETE FROM {self.LOCKS} WHERE conversation_id = ? AND token = ?", (conversation_id, token)
                )

    def load_json(self, conversation_id: str) -> str:
        """The stored JSON text for ``conversation_id``.

        Raises:
            SessionNotFoundError: If no row has that conversation id.
        """
        self._check_id(conversation_id)
        with closing(self._connect()) as connection:
            row = connection.execute(
                f"SELECT session_json FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            raise SessionNotFoundError(f"no session stored for conversation {conversation_id!r} in {str(self.path)!r}")
        return row[0]

    def load(self, conversation_id: str) -> AgentSession:
        """Restore the session stored for ``conversation_id``.

        Raises:
            SessionNotFoundError: If no row has that conversation id.
            SessionFormatError: If the row does not hold a session snapshot.
        """
        return session_from_json(self.load_json(conversation_id), source=self._source(conversation_id))

    def version(self, conversation_id: str) -> int:
        """The stored version of ``conversation_id`` (0 when none is stored)."""
        self._check_id(conversation_id)
        with closing(self._connect()) as connection:
            row = connection.execute(
                f"SELECT version FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        return 0 if row is None else int(row[0])

    def delete(self, conversation_id: str) -> bool:
        """Remove the row; returns whether there was one."""
        self._check_id(conversation_id)
        with closing(self._connect()) as connection, connection:
            cursor = connection.execute(f"DELETE FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,))
        return cursor.rowcount > 0

    def list(self) -> builtins.list[str]:
        """Stored conversation ids, oldest update first."""
        with closing(self._connect()) as connection:
            rows = connection.execute(
                f"SELECT conversation_id FROM {self.TABLE} ORDER BY updated_at, conversation_id"
            ).fetchall()
        return [row[0] for row in rows]

    def __contains__(self, conversation_id: object) -> bool:
        if not isinstance(conversation_id, str) or not conversation_id:
            return False
        with closing(self._connect()) as connection:
            row = connection.execute(
                f"SELECT 1 FROM {self.TABLE} WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        return row is not None
