"""The server from a shell: ``--help`` lists the routes, a busy port suggests another, and the
server serves its contract at ``/openapi.json`` with interactive docs that need no network."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

from local_memory_server import __main__ as cli
from local_memory_server.docs import contract, routes

CONTRACT_ROUTES = {(method.upper(), path) for path, ops in contract()["paths"].items() for method in ops}


def test_the_packaged_contract_has_cortadels_seven_operations():
    assert len(CONTRACT_ROUTES) == 7
    assert ("POST", "/api/v1/memories/search") in CONTRACT_ROUTES


def test_help_lists_every_route_and_the_course_command():
    done = subprocess.run([sys.executable, "-m", "local_memory_server", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python course.py server")
    for method, path, _summary in routes():
        assert re.search(rf"^  {method} {re.escape(path)}\s", done.stdout, re.M), (method, path)
    assert "GET /docs" in done.stdout and "GET /openapi.json" in done.stdout


def test_a_busy_port_suggests_another(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert cli.main(["--port", str(port), "--db", ":memory:"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"Port {port} on 127.0.0.1 is already in use (another memory server?). "
        f"Try --port {port + 1}, or --port 0 for any free port."
    )


def test_openapi_json_is_the_contract(http):
    response = http.get("/openapi.json")
    assert response.status_code == 200 and response.json() == contract()


def test_docs_page_loads_swagger_ui_from_the_server_itself(http):
    page = http.get("/docs")
    assert page.status_code == 200 and "/openapi.json" in page.text
    sources = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert sources and not [s for s in sources if s.startswith(("http://", "https://", "//"))], sources
    for source in sources:
        assert http.get(source).status_code == 200, source


def test_the_docs_routes_do_not_shadow_the_contract(http):
    assert http.get("/api/v1/memories/docs").status_code in (400, 401, 404)
    assert http.get("/no-such-route").json()["code"] == "not_found"
