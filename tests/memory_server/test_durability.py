"""Kill -9 the server process mid-load: every acknowledged write is there after a restart."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")


def _start(db_path, *extra: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "local_memory_server", "--port", "0", "--db", str(db_path),
         "--log-level", "warning", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
    )
    line = process.stdout.readline()
    match = re.search(r"(http://\S+)", line)
    if not match:
        process.kill()
        raise AssertionError(f"server did not start: {line!r} {process.stderr.read()}")
    url = match.group(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError("server never became healthy")


@pytest.mark.full  # slow: a server process, killed and restarted
def test_acknowledged_writes_survive_kill_9(tmp_path):
    db = tmp_path / "memories.sqlite3"
    process, url = _start(db)
    acknowledged: list[tuple[str, str]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def load(worker: int) -> None:
        with httpx.Client(base_url=url, timeout=10) as http:
            i = 0
            while not stop.is_set():
                text = f"Worker {worker} fact {i}: the answer is {worker * 1000 + i}"
                try:
                    response = http.post("/api/v1/memories", json={"user_id": "u", "text": text, "infer": False})
                except httpx.HTTPError:
                    return  # the server died under us: this write was never acknowledged
                if response.status_code == 200:
                    with lock:
                        acknowledged.append((response.json()["id"], text))
                i += 1

    threads = [threading.Thread(target=load, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(acknowledged) < 60:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)  # mid-load: requests are in flight right now
    process.wait(10)
    stop.set()
    for t in threads:
        t.join(10)
    process.stdout.close()
    process.stderr.close()
    assert len(acknowledged) >= 60

    # Restart on the same file; with a key this time, which also checks the CLI's --api-key.
    process, url = _start(db, "--api-key", "u=secret-u")
    try:
        assert httpx.get(f"{url}/api/v1/memories", timeout=10).status_code == 401
        with httpx.Client(base_url=url, timeout=10, headers={"Authorization": "Bearer secret-u"}) as http:
            stored = {}
            page = 1
            while True:
                body = http.get("/api/v1/memories", params={"user_id": "u", "size": 100, "page": page}).json()
                stored.update({item["id"]: item["content"] for item in body["items"]})
                if page >= body["pages"]:
                    break
                page += 1
            missing = [pair for pair in acknowledged if stored.get(pair[0]) != pair[1]]
            assert missing == []
            # The restarted server's indexes were rebuilt from the file: search finds old writes.
            probe_id, probe_text = acknowledged[len(acknowledged) // 2]
            hits = http.post("/api/v1/memories/search",
                             json={"user_id": "u", "query": probe_text, "mode": "text", "top_k": 1}).json()
            assert hits["results"][0]["id"] == probe_id
    finally:
        process.terminate()
        process.wait(10)
        process.stdout.close()
        process.stderr.close()
