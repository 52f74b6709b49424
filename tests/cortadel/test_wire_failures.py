"""What a production server can do wrong — garbage, errors, silence — and the provider failing open."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from agent_framework import Agent
from cortadel import CortadelClient, CortadelError

from lesson_utils import CortadelContextProvider, CortadelMemoryClient, create_memory_tools
from lesson_utils.cortadel.client import DEFAULT_TIMEOUT
from lesson_utils.cortadel.tools import ADD_UNAVAILABLE, SEARCH_UNAVAILABLE

BAD_ANSWERS = {
    "html page with 200": (200, "text/html", b"<html>proxy login</html>"),
    "invalid json with 200": (200, "application/json", b"not json{"),
    "empty body with 200": (200, "application/json", b""),
    "json 500": (500, "application/json", b'{"error": "boom"}'),
    "html 502 from a proxy": (502, "text/html", b"<html>bad gateway</html>"),
}


def provider_over(transport: httpx.MockTransport, **kwargs) -> tuple[CortadelContextProvider, httpx.AsyncClient]:
    http = httpx.AsyncClient(transport=transport)
    sdk = CortadelClient("http://cortadel.test", "alex", http_client=http)
    return CortadelContextProvider(client=CortadelMemoryClient(sdk_client=sdk), **kwargs), http


@pytest.mark.parametrize("answer", BAD_ANSWERS.values(), ids=BAD_ANSWERS.keys())
async def test_a_bad_answer_fails_open_through_the_reporter(chat, answer):
    status, content_type, body = answer
    requests: list[str] = []

    def respond(request: httpx.Request) -> httpx.Response:
        requests.append(request.url.path)
        return httpx.Response(status, headers={"content-type": content_type}, content=body)

    seen: list[Exception] = []
    provider, http = provider_over(httpx.MockTransport(respond), on_error=seen.append)
    async with http:
        agent = Agent(client=chat, instructions="Be helpful.", context_providers=[provider])
        reply = await agent.run("When do I ship?", session=agent.create_session())
    assert reply.text == "echo: When do I ship?"
    assert len(requests) == 2  # the search, then the write
    assert len(seen) == 2 and all(isinstance(e, CortadelError) for e in seen)


async def test_a_200_of_the_wrong_shape_reads_as_no_memories(chat):
    # The SDK maps unknown JSON leniently: a body that is not a search response is an empty result.
    transport = httpx.MockTransport(lambda r: httpx.Response(200, json={"results": "nope", "total": "many"}))
    seen: list[Exception] = []
    provider, http = provider_over(transport, on_error=seen.append)
    async with http:
        agent = Agent(client=chat, instructions="Be helpful.", context_providers=[provider])
        await agent.run("When do I ship?", session=agent.create_session())
    assert seen == []
    assert not any(m.additional_properties.get("_attribution") for m in chat.last.messages)


class GarbageClient:
    """A hand-written MemoryClient whose results are not what the protocol promises."""

    async def search(self, query, options=None):
        return None

    async def add_conversation(self, messages, options=None):
        return "ok"

    async def add(self, text, options=None):
        return 42


async def test_a_client_returning_garbage_fails_open_in_the_provider_and_the_tools(chat):
    seen: list[Exception] = []
    provider = CortadelContextProvider(client=GarbageClient(), on_error=seen.append)
    agent = Agent(client=chat, instructions="Be helpful.", context_providers=[provider])
    reply = await agent.run("When do I ship?", session=agent.create_session())
    assert reply.text == "echo: When do I ship?"
    assert len(seen) == 1 and isinstance(seen[0], AttributeError)  # the search; the write's result is unused

    search, add = create_memory_tools(GarbageClient(), on_error=seen.append)
    assert (await search.invoke(arguments={"query": "ship"}))[0].text == SEARCH_UNAVAILABLE
    assert (await add.invoke(arguments={"text": "Alex ships on Fridays"}))[0].text == ADD_UNAVAILABLE
    assert len(seen) == 3


class SilentServer:
    """Accepts connections on loopback and never answers until released: a hung memory server."""

    def __init__(self) -> None:
        self.release = threading.Event()
        release = self.release

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                release.wait(30)
                body = json.dumps({"query": "", "results": [], "total": 0}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> SilentServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


async def test_a_hung_server_times_out_per_the_timeout_option_and_fails_open(chat):
    seen: list[Exception] = []
    with SilentServer() as silent:
        async with CortadelContextProvider(silent.url, "alex", timeout=0.2, on_error=seen.append) as provider:
            agent = Agent(client=chat, instructions="Be helpful.", context_providers=[provider])
            reply = await agent.run("When do I ship?", session=agent.create_session())
    assert reply.text == "echo: When do I ship?"
    assert len(seen) == 2 and all(isinstance(e, CortadelError) and e.code == "transport_error" for e in seen)
    assert all(isinstance(e.__cause__, httpx.TimeoutException) for e in seen)


async def test_timeout_defaults_to_30_seconds_for_clients_the_provider_builds():
    async with CortadelContextProvider("http://127.0.0.1:9", "alex") as provider:
        # The SDK keeps its httpx client private; reading its timeout is the only way to see it applied.
        assert DEFAULT_TIMEOUT == 30.0
        assert provider.client.sdk_client._http.timeout.read == DEFAULT_TIMEOUT


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), "30", True])
def test_timeout_must_be_a_positive_number(bad):
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        CortadelContextProvider("http://127.0.0.1:9", "alex", timeout=bad)


def test_timeout_with_a_ready_client_is_rejected(memory):
    with pytest.raises(ValueError, match="not both"):
        CortadelContextProvider(client=memory, timeout=5)


async def test_the_fail_open_warning_names_the_server_that_is_down(chat, caplog):
    import logging
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    provider = CortadelContextProvider(client=CortadelMemoryClient(url, "alex"))
    agent = Agent(client=chat, instructions="Be helpful.", context_providers=[provider])
    with caplog.at_level(logging.WARNING, logger="lesson_utils.cortadel"):
        reply = await agent.run("When do I ship?", session=agent.create_session())
    assert reply.text == "echo: When do I ship?"
    warnings = [r.getMessage() for r in caplog.records if r.name == "lesson_utils.cortadel"]
    assert warnings and warnings[0].startswith(f"Cortadel search at {url} failed; continuing without long-term memory")
