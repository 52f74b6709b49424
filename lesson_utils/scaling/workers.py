"""Lesson 14: start worker processes from a notebook and talk to them like a load balancer would.

Each :class:`WorkerProcess` is ``python -m lesson_utils.scaling.worker`` in its own process. The
notebook sends a turn to the worker of its choice and reads the reply; nothing but the session
store connects the workers. Replies come back as :class:`Turn` objects that carry what the
model was sent, so a lesson can prove what each worker knew.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..resume import child_env

__all__ = ["Turn", "WorkerError", "WorkerProcess", "start_workers"]


class WorkerError(RuntimeError):
    """A worker failed a turn, died, or did not answer in time."""


@dataclass
class Turn:
    """One reply from a worker: who served it, the answer, and the messages the model was sent."""

    worker: str
    pid: int
    conversation_id: str | None = None
    reply: str | None = None
    sent: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None

    @property
    def sent_text(self) -> str:
        """Everything the model was sent, as one string (for ``"…" in turn.sent_text`` checks)."""
        return "\n".join(text for _, text in self.sent)


class WorkerProcess:
    """One worker process: ``send`` a turn, ``receive`` its reply, ``kill`` it, ``close`` it."""

    def __init__(
        self, name: str, store: str, *, naive: bool = False, think: float = 0.0, lock_ttl: float = 30.0
    ) -> None:
        self.name = name
        self._log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        command = [sys.executable, "-m", "lesson_utils.scaling.worker", "--name", name, "--store", store,
                   "--think", str(think), "--lock-ttl", str(lock_ttl)]  # fmt: skip
        if naive:
            command.append("--naive")
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
            text=True, encoding="utf-8", env=child_env(),
        )  # fmt: skip
        self.pid = self.process.pid
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name=f"worker-{name}-stdout", daemon=True).start()
        self._ready = False

    def __repr__(self) -> str:
        state = "running" if self.process.poll() is None else f"exited {self.process.returncode}"
        return f"<worker {self.name!r} pid {self.pid} {state}>"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _next(self, timeout: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise WorkerError(f"worker {self.name!r} did not answer within {timeout:g} s") from None
        if line is None:
            self.process.wait()
            raise WorkerError(f"worker {self.name!r} exited ({self.process.returncode}): {self.log_tail()}")
        return json.loads(line)

    def log_tail(self, lines: int = 3) -> str:
        self._log.seek(0)
        return " | ".join(self._log.read().strip().splitlines()[-lines:]) or "no output on stderr"

    def wait_ready(self, timeout: float = 120.0) -> WorkerProcess:
        if not self._ready:
            self._next(timeout)
            self._ready = True
        return self

    def send(self, conversation_id: str, message: str) -> None:
        """Hand this worker a turn (returns at once; :meth:`receive` waits for the reply)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps({"conversation_id": conversation_id, "message": message}) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise WorkerError(f"worker {self.name!r} is not running: {self.log_tail()}") from None

    def receive(self, timeout: float = 120.0, *, check: bool = True) -> Turn:
        """The next reply; raises :class:`WorkerError` if the turn failed (unless ``check=False``)."""
        self.wait_ready(timeout)
        data = self._next(timeout)
        turn = Turn(
            worker=data["worker"], pid=data["pid"], conversation_id=data.get("conversation_id"),
            reply=data.get("reply"), sent=[tuple(pair) for pair in data.get("sent", [])], error=data.get("error"),
        )  # fmt: skip
        if check and turn.error:
            raise WorkerError(f"worker {self.name!r} failed the turn: {turn.error}")
        return turn

    def ask(self, conversation_id: str, message: str, timeout: float = 120.0) -> Turn:
        """Send one turn and wait for its reply."""
        self.send(conversation_id, message)
        return self.receive(timeout)

    def kill(self) -> None:
        """Stop the process at once, mid-turn if need be (SIGKILL on POSIX)."""
        self.process.kill()
        self.process.wait()

    def close(self) -> None:
        if self.process.poll() is None:
            if self.process.stdin is not None:
                try:
                    self.process.stdin.close()  # end of input: the worker finishes and exits
                except OSError:
                    pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()

    def __enter__(self) -> WorkerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_workers(names: Iterable[str], store: str, **options: Any) -> list[WorkerProcess]:
    """Start one worker per name (in parallel) and wait until every one is ready."""
    workers = [WorkerProcess(name, store, **options) for name in names]
    try:
        for worker in workers:
            worker.wait_ready()
    except BaseException:
        for worker in workers:
            worker.kill()
            worker.close()
        raise
    return workers
