"""The contract the server speaks, served from the server itself: ``/openapi.json`` and ``/docs``.

The document is Cortadel's own REST contract (``data/cortadel-openapi.json``, the same file the
official SDK is generated from), not one FastAPI derives from our handlers: what a learner reads
at ``/docs`` is what a real Cortadel server accepts. The interactive page loads Swagger UI from the
``swagger-ui-bundle`` package, so it works with no network. ``--help`` lists the routes from the
same document, so the two can never disagree.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

CONTRACT_FILE = "cortadel-openapi.json"
OPENAPI_PATH = "/openapi.json"
DOCS_PATH = "/docs"
_STATIC_PATH = "/docs/static"


@functools.cache
def contract() -> dict[str, Any]:
    """Cortadel's OpenAPI document, as shipped with this package."""
    text = resources.files(__package__).joinpath("data").joinpath(CONTRACT_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def routes() -> list[tuple[str, str, str]]:
    """``(METHOD, path, one-line summary)`` for every operation of the contract, in its order."""
    found = []
    for path, operations in contract()["paths"].items():
        for method, operation in operations.items():
            summary = (operation.get("summary") or "").strip().splitlines()
            found.append((method.upper(), path, summary[0].rstrip(",") if summary else ""))
    return found


def routes_text() -> str:
    """The routes as aligned lines, for ``--help`` and the start-up banner."""
    rows = [*routes(), ("GET", OPENAPI_PATH, "this contract as JSON"), ("GET", DOCS_PATH, "interactive docs (Swagger UI)")]
    width = max(len(f"{method} {path}") for method, path, _ in rows)
    return "\n".join(f"  {f'{method} {path}':<{width}}  {summary}" for method, path, summary in rows)


def add_docs_routes(app: FastAPI) -> None:
    """Serve the contract at ``/openapi.json`` and Swagger UI (from a local bundle) at ``/docs``."""
    from swagger_ui_bundle import swagger_ui_path

    app.mount(_STATIC_PATH, StaticFiles(directory=swagger_ui_path), name="swagger-ui")

    @app.get(OPENAPI_PATH, include_in_schema=False)
    async def openapi() -> JSONResponse:
        return JSONResponse(contract())

    @app.get(DOCS_PATH, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=OPENAPI_PATH,
            title="Memory server (Cortadel-compatible) - API",
            swagger_js_url=f"{_STATIC_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{_STATIC_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{_STATIC_PATH}/favicon-32x32.png",
        )
