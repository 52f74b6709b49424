"""HTTP routes of the local memory server: Cortadel's REST contract over a ``MemoryService``.

Each route only wires three things together, each defined once elsewhere: who is calling
(``auth.py``: a FastAPI dependency), what they sent (``reading.py`` + ``request_models.py``:
a validated model), and what happens (``service.py``: plain arguments in, the contract's response
body out). Failures are exceptions, answered by the handlers ``problems.py`` registers on the app,
so no route catches anything.

Work that blocks (embedding, SQLite) runs in the thread pool, so one slow request does not stall
the event loop and many clients are served at once.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from .auth import ApiKeys, CallerKey, DetailUser, ListUser, body_user
from .docs import add_docs_routes
from .reading import json_body, query
from .problems import add_problem_handlers
from .request_models import (
    AddConversationRequest,
    CreateMemoryRequest,
    DeleteMemoriesRequest,
    ListMemoriesQuery,
    SearchMemoriesRequest,
)
from .service import MemoryService

CreateBody = Annotated[CreateMemoryRequest, Depends(json_body(CreateMemoryRequest))]
SearchBody = Annotated[SearchMemoriesRequest, Depends(json_body(SearchMemoriesRequest))]
ConversationBody = Annotated[AddConversationRequest, Depends(json_body(AddConversationRequest))]
DeleteBody = Annotated[DeleteMemoriesRequest, Depends(json_body(DeleteMemoriesRequest))]
ListQuery = Annotated[ListMemoriesQuery, Depends(query(ListMemoriesQuery))]


def create_app(service: MemoryService, api_keys: ApiKeys | None = None) -> FastAPI:
    """The ASGI app serving ``service``; ``/openapi.json`` and ``/docs`` serve Cortadel's contract (see docs.py).

    ``api_keys`` turns authentication on (``auth.py``); without it the ``user_id`` of each request
    picks the user.
    """
    app = FastAPI(title="lesson_utils memory server (Cortadel-compatible)", docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.api_keys = api_keys if api_keys is not None else ApiKeys()
    add_docs_routes(app)
    add_problem_handlers(app)

    @app.get("/api/health")
    async def health() -> JSONResponse:
        status, body = await run_in_threadpool(service.health)
        return JSONResponse(body, status_code=status)

    @app.post("/api/v1/memories")
    async def create(body: CreateBody, key_user: CallerKey) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.create, body_user(key_user, body.user_id), body))

    @app.get("/api/v1/memories")
    async def list_memories(query: ListQuery, user: ListUser) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.list_memories, user, query))

    @app.delete("/api/v1/memories")
    async def delete(body: DeleteBody, key_user: CallerKey) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.delete, body_user(key_user, body.user_id), body))

    @app.post("/api/v1/memories/search")
    async def search(body: SearchBody, key_user: CallerKey) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.search, body_user(key_user, body.user_id), body))

    @app.post("/api/v1/memories/from-conversation")
    async def from_conversation(body: ConversationBody, key_user: CallerKey) -> JSONResponse:
        user = body_user(key_user, body.user_id)
        return JSONResponse(await run_in_threadpool(service.from_conversation, user, body))

    @app.get("/api/v1/memories/{memory_id}")
    async def get(memory_id: str, user: DetailUser) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(service.get, user, memory_id))

    return app
