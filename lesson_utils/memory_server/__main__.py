"""``python -m lesson_utils.memory_server``: run the memory server in the foreground."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from .server import DEFAULT_PORT, bind_socket, build_service, default_db_path


def _api_key(value: str) -> tuple[str, str]:
    user, sep, key = value.partition("=")
    if not sep or not user.strip() or not key.strip():
        raise argparse.ArgumentTypeError(f"expected USER=KEY, got {value!r}")
    return user.strip(), key.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lesson_utils.memory_server",
        description="A local Cortadel-compatible memory server (SQLite + hybrid search, offline embeddings).",
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
    service = build_service(None if db == ":memory:" else db, api_keys=dict(args.api_key), embedder=embedder)
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as exc:
        print(f"Cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    auth = f"auth on ({len(args.api_key)} key(s))" if args.api_key else "auth off"
    print(f"Memory server listening on http://{host}:{port} (db: {service.store.path}; {auth})", flush=True)

    import uvicorn

    from .app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        service.store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
