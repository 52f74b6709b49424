"""A tiny OpenAI-compatible Chat Completions server on 127.0.0.1 for testing real-model wiring without keys.

It answers by echoing the last user message (usage counts words), or with ``reply(request)`` when
given one (a test that needs a particular answer, e.g. the JSON of the model update decider), streams with server-sent events, returns 401 for a
wrong bearer key and 404 for an unknown model — the same shapes a real server (OpenAI, Ollama,
LM Studio) returns. A ``max_tokens`` below the echo's word count cuts the reply to that many words with
finish reason ``length``, as a capped model does; ``GET /v1/models`` lists ``models``.
``answers_any_model=True`` answers whatever model is named, as llama.cpp's ``llama-server`` does.

A request whose ``response_format`` is a JSON schema (the local memory server's "TASK extract" and "TASK decide"
calls) gets valid JSON of that schema instead of the echo, read the stand-in's own way (``stand_in_reader.py``):
a plausible model that reads differently from the offline reader. ``json_answers`` keeps each such answer, as
``(schema name, JSON text)``; ``reads_json=False`` echoes those requests too (a model that ignores the schema).

``misbehave`` makes it fail the ways real small local servers fail, on purpose:

- ``"slow"``: waits ``delay`` seconds before answering (a big model on a CPU);
- ``"runaway"``: streams tokens without end, and ignores ``max_tokens`` (a small model that never stops);
- ``"tool_500"``: calls the first offered tool properly, then returns 500 as soon as the conversation
  holds that tool call and its result (llama-cpp-python's ``chatml-function-calling`` handler);
- ``"tool_as_text"``: when tools are offered, writes the call to the first one as JSON in the text
  instead of a real tool call (Qwen2.5-Coder, llama-server without ``--jinja``);
- ``"status:NNN"``: answers every call with that HTTP status (403, 429, 500, 503 …).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable
from typing import Any

from .stand_in_reader import answer_json_schema


class StandInServer:
    def __init__(
        self,
        *,
        api_key: str | None = "test-key",
        models: tuple[str, ...] = ("stand-in-model",),
        misbehave: str | None = None,
        delay: float = 5.0,
        reply: Callable[[dict[str, Any]], str] | None = None,
        answers_any_model: bool = False,
        reads_json: bool = True,
    ) -> None:
        self.reads_json = reads_json
        #: Every JSON-schema request answered with the stand-in's own reading: (schema name, JSON text).
        self.json_answers: list[tuple[str, str]] = []
        self.answers_any_model = answers_any_model
        self.api_key = api_key
        self.reply = reply
        self.models = models
        self.misbehave = misbehave
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.chunks_sent = 0
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True  # a handler still sleeping never blocks shutdown
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> StandInServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # http.server naming
                if self.path.rstrip("/") != "/v1/models":
                    return self._json(404, {"error": {"message": "no such route", "type": "invalid_request_error"}})
                return self._json(200, {"object": "list", "data": [
                    {"id": name, "object": "model", "owned_by": "stand-in"} for name in server.models]})

            def do_POST(self) -> None:  # http.server naming
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != "/v1/chat/completions":
                    return self._json(404, {"error": {"message": "no such route", "type": "invalid_request_error"}})
                if server.api_key is not None and self.headers.get("Authorization") != f"Bearer {server.api_key}":
                    return self._json(
                        401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error",
                                        "code": "invalid_api_key"}}
                    )
                if request.get("model") not in server.models and not server.answers_any_model:
                    return self._json(
                        404, {"error": {"message": f"model {request.get('model')!r} not found",
                                        "type": "invalid_request_error", "code": "model_not_found"}}
                    )
                server.requests.append(request)
                if server.misbehave:
                    handled = self._misbehave(request)
                    if handled:
                        return None
                user = [m for m in request.get("messages", []) if m.get("role") == "user"]
                last = user[-1]["content"] if user else ""
                if isinstance(last, list):
                    last = " ".join(part.get("text", "") for part in last if isinstance(part, dict))
                schema = request.get("response_format") or {}
                if server.reply is not None:
                    reply = server.reply(request)
                elif server.reads_json and schema.get("type") == "json_schema":
                    reply = answer_json_schema(request)
                    server.json_answers.append((str((schema.get("json_schema") or {}).get("name")), reply))
                else:
                    reply = f"Echo: {last} ({len(request.get('messages', []))} messages)"
                cap = request.get("max_tokens") or request.get("max_completion_tokens")
                finish = "stop"
                if cap and len(reply.split()) > int(cap):  # a capped model stops mid-sentence
                    reply, finish = " ".join(reply.split()[: int(cap)]), "length"
                prompt = sum(len(str(m.get("content") or "").split()) for m in request.get("messages", []))
                completion = len(reply.split())
                usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
                base = {"id": "chatcmpl-1", "created": 1700000000, "model": request["model"]}
                if not request.get("stream"):
                    return self._json(200, {**base, "object": "chat.completion", "usage": usage, "choices": [
                        {"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": reply}}]})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunks = [reply[i : i + 8] for i in range(0, len(reply), 8)]
                for i, piece in enumerate(chunks):
                    delta = {"content": piece, **({"role": "assistant"} if i == 0 else {})}
                    event = {**base, "object": "chat.completion.chunk",
                             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode("utf-8"))
                done = {**base, "object": "chat.completion.chunk",
                        "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
                self.wfile.write(f"data: {json.dumps(done)}\n\n".encode("utf-8"))
                tail = {**base, "object": "chat.completion.chunk", "choices": [], "usage": usage}
                self.wfile.write(f"data: {json.dumps(tail)}\n\ndata: [DONE]\n\n".encode("utf-8"))
                self.wfile.flush()
                return None

            def _misbehave(self, request: dict[str, Any]) -> bool:
                """Answer the way a broken server would; False to answer normally after all."""
                kind = server.misbehave or ""
                base = {"id": "chatcmpl-1", "created": 1700000000, "model": request["model"]}
                if kind.startswith("status:"):
                    status = int(kind.split(":", 1)[1])
                    self._json(status, {"error": {"message": f"stand-in says {status}", "type": "server_error"}})
                    return True
                if kind == "slow":
                    server._stopping.wait(server.delay)
                    return False
                if kind == "tool_500":
                    messages = request.get("messages", [])
                    if any(m.get("role") == "tool" or m.get("tool_calls") for m in messages):
                        self._json(500, {"error": {"message": "Internal Server Error", "type": "server_error"}})
                        return True
                    tools = request.get("tools") or []
                    if not tools or request.get("stream"):
                        return False
                    call = {"id": "call_1", "type": "function", "function": {
                        "name": tools[0]["function"]["name"], "arguments": json.dumps({"query": "stand-in"})}}
                    self._json(200, {**base, "object": "chat.completion", "choices": [{
                        "index": 0, "finish_reason": "tool_calls",
                        "message": {"role": "assistant", "content": None, "tool_calls": [call]}}]})
                    return True
                if kind == "tool_as_text":
                    tools = request.get("tools") or []
                    if not tools or any(m.get("role") == "tool" for m in request.get("messages", [])):
                        return False
                    name = tools[0]["function"]["name"]
                    text = json.dumps({"name": name, "arguments": {"query": "stand-in"}})
                    body = {**base, "object": "chat.completion", "choices": [
                        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}]}
                    if not request.get("stream"):
                        self._json(200, body)
                        return True
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    chunk = {**base, "object": "chat.completion.chunk", "choices": [
                        {"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode("utf-8"))
                    return True
                if kind == "runaway":
                    if not request.get("stream"):  # it never finishes, so a plain call never answers
                        server._stopping.wait(3600)
                        return True
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    try:
                        while not server._stopping.is_set():
                            chunk = {**base, "object": "chat.completion.chunk", "choices": [
                                {"index": 0, "delta": {"content": "and on "}, "finish_reason": None}]}
                            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode("utf-8"))
                            self.wfile.flush()
                            server.chunks_sent += 1
                            time.sleep(0.01)
                    except (BrokenPipeError, ConnectionResetError):  # the client stopped listening: good
                        pass
                    return True
                raise ValueError(f"unknown misbehaviour {kind!r}")

        return Handler
