"""``python course.py server`` (or ``.venv/bin/python -m local_memory_server``): run the
memory server in the foreground. ``--help`` lists the options and every route it serves."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys

from .extra import ServerExtraMissing, require_server_extra

if __name__ == "__main__":  # before the imports below, which need the server extra: one line, not a traceback
    try:
        require_server_extra()
    except ServerExtraMissing as exc:
        sys.exit(f"{type(exc).__name__}: {exc}")

from .docs import routes_text
from .auth import ApiKeys
from .server import DEFAULT_PORT, UNDERSTANDING, bind_socket, build_service, default_db_path
from .deciders import DECIDERS

EXAMPLES = """examples (from the repository root):
  python course.py server                              durable SQLite file in your user data dir, port 3001
  python course.py server --db :memory: --port 0       throwaway store on any free port
  python course.py server --api-key alice=s3cret       per-user API keys turn auth on
"""


def _api_key(value: str) -> tuple[str, str]:
    user, sep, key = value.partition("=")
    if not sep or not user.strip() or not key.strip():
        raise argparse.ArgumentTypeError(f"expected USER=KEY, got {value!r}")
    return user.strip(), key.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python course.py server",
        description="A local Cortadel-compatible memory server (SQLite + hybrid search, offline embeddings).",
        epilog=f"routes:\n{routes_text()}\n\n{EXAMPLES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 = any free)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help=f"SQLite file (default {default_db_path()}); ':memory:' for a throwaway store")
    parser.add_argument("--api-key", action="append", type=_api_key, default=[], metavar="USER=KEY",
                        help="give USER the key KEY (repeatable); any key turns authentication on")
    parser.add_argument("--embeddings-url", default=None, metavar="URL",
                        help="use an OpenAI-compatible /v1/embeddings endpoint instead of the built-in model, "
                             "e.g. http://localhost:11434/v1 (key from LESSON_EMBEDDINGS_API_KEY)")
    parser.add_argument("--embeddings-model", default=None, help="model name for --embeddings-url")
    parser.add_argument("--update-decider", default="meaning", choices=DECIDERS,
                        help="who decides that a new fact replaces an old one: the offline meaning decider "
                             "(default) or the model configured for the lessons (LOCAL_MODEL_BASE_URL, ...), "
                             "falling back to the offline one on any error")
    parser.add_argument("--understanding", default="auto", choices=UNDERSTANDING,
                        help="who reads a conversation into memories: auto (default: the model configured for the "
                             "lessons, LOCAL_MODEL_BASE_URL ..., when there is one; else the offline reader), "
                             "model, or offline")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    embedder = None
    if args.embeddings_url:
        if not args.embeddings_model:
            parser.error("--embeddings-url needs --embeddings-model")
        from .embeddings import OpenAICompatibleEmbedder

        embedder = OpenAICompatibleEmbedder(
            args.embeddings_url, args.embeddings_model, api_key=os.environ.get("LESSON_EMBEDDINGS_API_KEY")
        )
    db = args.db if args.db is not None else str(default_db_path())
    keys = ApiKeys(dict(args.api_key))  # a bad key table fails here, before the database is opened
    from model_config import ModelConfigurationError

    try:
        service = build_service(None if db == ":memory:" else db, embedder=embedder,
                                update_decider=args.update_decider, understanding=args.understanding)
    except ModelConfigurationError as exc:  # a model asked for and none configured
        parser.error(str(exc))
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as exc:
        print(busy_port_message(args.host, args.port, exc), file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    auth = f"auth on ({len(args.api_key)} key(s))" if args.api_key else "auth off"
    print(f"Memory server listening on http://{host}:{port} (db: {service.store.path}; {auth})", flush=True)
    print(f"API docs: http://{host}:{port}/docs  \u00b7  stop with Ctrl+C", flush=True)

    import uvicorn

    from .app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(service, keys), log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        service.store.close()
    return 0


def busy_port_message(host: str, port: int, exc: OSError) -> str:
    """One line for a port we cannot listen on; a busy one gets another port to try."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"Port {port} on {host} is already in use (another memory server?). "
            f"Try --port {port + 1 if port else 3002}, or --port 0 for any free port."
        )
    return f"Cannot listen on {host}:{port}: {exc.strerror or exc}"


if __name__ == "__main__":
    sys.exit(main())
