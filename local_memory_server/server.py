"""Start and stop the memory server: in the background from a notebook, or in the foreground.

``start_memory_server()`` runs uvicorn on a thread with its own event loop, so it works from a
Jupyter kernel whose loop is already running, and each kernel (each notebook) gets its own
server on its own free port. It returns once ``/api/health`` answers healthy.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from .app import create_app
from .auth import ApiKeys
from .embeddings import Embedder, default_embedder
from .service import MemoryService
from .store import MemoryStore
from .model_endpoint import ModelEndpoint, endpoint_from_environment
from .understanding import ModelReader
from offline_reader.changes import UpdateDecider
from .deciders import make_decider

logger = logging.getLogger(__name__)

DEFAULT_PORT = 3001


def default_db_path() -> Path:
    """Where the CLI keeps memories by default: a SQLite file in the user's data directory."""
    import platformdirs

    return platformdirs.user_data_path("lesson-utils", appauthor=False) / "memory-server.sqlite3"


#: Who reads a conversation: ``auto`` (the lessons' model when one is configured, else offline), ``model``, ``offline``.
UNDERSTANDING = ("auto", "model", "offline")


def model_reader(understanding: str | ModelEndpoint = "auto") -> ModelReader | None:
    """The model reader ``understanding`` asks for, or None for the offline reader.

    ``"model"`` with no model the server can call is the lessons' one-line ``ModelConfigurationError``."""
    if isinstance(understanding, ModelEndpoint):
        return ModelReader(understanding)
    if understanding not in UNDERSTANDING:
        raise ValueError(f"understanding={understanding!r}: use one of {', '.join(UNDERSTANDING)}")
    if understanding == "offline":
        return None
    endpoint = endpoint_from_environment()
    if endpoint is None and understanding == "model":
        from model_config import ModelConfigurationError

        raise ModelConfigurationError(
            "understanding='model' needs an OpenAI-compatible model: set LOCAL_MODEL_BASE_URL and LOCAL_MODEL "
            "(or OPENAI_API_KEY) in .env, or use understanding='offline'.", variable="LOCAL_MODEL_BASE_URL")
    return ModelReader(endpoint) if endpoint is not None else None


def build_service(
    db_path: str | os.PathLike | None, *, embedder: Embedder | None = None,
    update_decider: str | UpdateDecider = "meaning", understanding: str | ModelEndpoint = "auto",
) -> MemoryService:
    """Open the store (re-embedding rows written by another embedder) and wire the service.

    ``understanding`` is who reads a conversation (``understanding.py``): ``"auto"`` (the default: the model
    the lessons are configured with, when there is one the server can call; else the offline reader),
    ``"model"``, ``"offline"``, or a :class:`~.model_endpoint.ModelEndpoint`. ``update_decider`` is who decides
    knowledge updates on the offline path (``offline_reader/changes.py``): ``"meaning"`` (the default), ``"model"`` (asks the
    configured model about the offline reader's candidates only), or an
    :class:`~offline_reader.UpdateDecider` of your own."""
    reader = model_reader(understanding)
    embedder = embedder if embedder is not None else default_embedder()
    decider = make_decider(update_decider, embedder.embed, key=embedder.model)
    store = MemoryStore(db_path, embedding_model=embedder.model, dim=embedder.dim, decider=decider)
    if store.stale_vectors:
        store.reembed_stale(embedder.embed)
    if reader is not None:
        logger.info("The memory server reads conversations with the model %s", reader.model)
        # The model path never asks the offline decider, so the first verbatim `add` would embed its examples
        # (seconds on a busy small CPU) inside a client's timeout: embed them now, before the server answers.
        warm = getattr(decider, "warm", None)
        if callable(warm):
            warm()
    return MemoryService(store, embedder, reader=reader)


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP matters: asyncio only sets TCP_NODELAY on accepted sockets whose listening
    # socket says TCP explicitly, and without it every response waits ~40 ms on delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}"


class MemoryServer:
    """A running local memory server. ``url`` to talk to it; ``stop()`` (idempotent) to end it.

    Use as ``with start_memory_server() as server:`` or ``async with``; both stop it on exit.
    """

    def __init__(self, service: MemoryService, sock: socket.socket, api_keys: ApiKeys | None = None) -> None:
        self.service = service
        self.url = _url(sock)
        self.db_path = service.store.path
        self._sock = sock
        self._server = uvicorn.Server(
            uvicorn.Config(create_app(service, api_keys), log_level="warning", lifespan="off", access_log=False)
        )
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"memory-server {self.url}", daemon=True)
        self._stopped = False
        self._lock = threading.Lock()

    def _run(self) -> None:
        try:
            asyncio.run(self._server.serve(sockets=[self._sock]))
        except BaseException as exc:
            self._error = exc
            logger.exception("Memory server at %s stopped with an error", self.url)

    def _start(self, timeout: float) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout
        last = "no answer yet"
        with httpx.Client(timeout=2.0) as http:
            while time.monotonic() < deadline:
                if self._error is not None or not self._thread.is_alive():
                    self.stop()
                    raise RuntimeError(f"The memory server failed to start: {self._error!r}")
                if self._server.started:
                    try:
                        response = http.get(f"{self.url}/api/health")
                        if response.status_code == 200:
                            return
                        last = f"{response.status_code} {response.text[:200]}"
                    except httpx.HTTPError as exc:
                        last = str(exc)
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"The memory server at {self.url} did not become healthy: {last}")

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self._stopped

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving, wait for the thread, close the database. Safe to call twice."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._server.should_exit = True
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
            if self._thread.is_alive():  # pragma: no cover - a wedged request
                self._server.force_exit = True
                self._thread.join(timeout)
        try:
            self._sock.close()
        except OSError:  # pragma: no cover
            pass
        self.service.store.close()
        if self.service.reader is not None:
            self.service.reader.endpoint.close()

    def __enter__(self) -> MemoryServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def __aenter__(self) -> MemoryServer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await asyncio.to_thread(self.stop)

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<MemoryServer {self.url} db={self.db_path!r} {state}>"


def start_memory_server(
    *,
    db_path: str | os.PathLike | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    api_keys: dict[str, str] | None = None,
    embedder: Embedder | None = None,
    update_decider: str | UpdateDecider = "meaning",
    understanding: str | ModelEndpoint = "auto",
    startup_timeout: float = 60.0,
) -> MemoryServer:
    """Start a Cortadel-compatible memory server in the background and return once it is healthy.

    Args:
        db_path: SQLite file to keep memories in (created if missing; durable across restarts).
            ``None`` (the default) gives a throwaway in-memory store that vanishes on ``stop()`` —
            right for a notebook demo; pass a path to keep memories.
        host: Interface to listen on; the default keeps it on this machine.
        port: TCP port; 0 (the default) picks a free one, so several notebooks can each run one.
        api_keys: ``{user_id: key}``; any key turns authentication on (Bearer or ``API_KEY``).
        embedder: Vector embedder; default the offline all-MiniLM-L6-v2 ONNX model (loaded once
            per process and shared).
        update_decider: Who decides that a new fact replaces an old one: ``"meaning"`` (the
            offline decider, the default) or ``"model"`` — an option of this local server that asks
            the model configured for the lessons (``LOCAL_MODEL_BASE_URL`` …) and falls back to the
            offline decider on any error. It is for comparing deciders, not how Cortadel decides.
        understanding: Who reads a conversation into memories: ``"auto"`` (the default) asks the model the
            lessons are configured with, when there is one, and the offline reader otherwise; ``"model"`` or
            ``"offline"`` force one. The model path falls back to the offline reader for a turn it cannot read.

    Returns a :class:`MemoryServer`: ``server.url`` for ``CORTADEL_BASE_URL``; ``server.stop()``,
    or use it as a (async) context manager.
    """
    keys = ApiKeys(api_keys)  # a bad key table fails here, before anything is opened
    service = build_service(db_path, embedder=embedder, update_decider=update_decider, understanding=understanding)
    try:
        sock = bind_socket(host, port)
    except OSError:
        service.store.close()
        raise
    server = MemoryServer(service, sock, keys)
    server._start(startup_timeout)
    logger.info("Memory server listening on %s (db: %s)", server.url, server.db_path)
    return server
