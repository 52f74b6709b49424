"""One instant, the contract's two encodings: create, search, list and get agree on ``created_at``.

The contract sends ``created_at`` as ISO 8601 on create and search and as Unix seconds on list and
get (the official SDK parses each as declared); ``valid_at``/``invalid_at`` are ISO 8601 everywhere.
"""

from __future__ import annotations

import re
from datetime import datetime

from local_memory_server.timestamps import iso, unix_seconds

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def seconds(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_add_search_list_and_get_describe_the_same_instant(http):
    created = http.post("/api/v1/memories", json={"user_id": "t", "text": "Alex lives in Lyon"}).json()
    hit = http.post("/api/v1/memories/search", json={"user_id": "t", "query": "Lyon"}).json()["results"][0]
    item = http.get("/api/v1/memories", params={"user_id": "t"}).json()["items"][0]
    detail = http.get(f"/api/v1/memories/{created['id']}", params={"user_id": "t"}).json()
    assert created["id"] == hit["id"] == item["id"] == detail["id"]

    assert ISO.match(created["created_at"]) and hit["created_at"] == created["created_at"]
    assert item["valid_at"] == detail["valid_at"] == created["created_at"]  # the same ISO string
    assert isinstance(item["created_at"], int) and not isinstance(item["created_at"], bool)
    assert item["created_at"] == detail["created_at"] == int(seconds(created["created_at"]))


def test_a_superseded_memorys_invalid_at_uses_the_same_iso_format(http):
    first = http.post("/api/v1/memories", json={"user_id": "m", "text": "Alex lives in Lyon"}).json()
    moved = http.post("/api/v1/memories", json={"user_id": "m", "text": "Alex lives in Porto"}).json()
    assert moved["event"] == "SUPERSEDE"
    old = http.get(f"/api/v1/memories/{first['id']}", params={"user_id": "m"}).json()
    assert ISO.match(old["invalid_at"]) and ISO.match(old["valid_at"])
    assert seconds(old["invalid_at"]) >= seconds(moved["created_at"]) - 0.001
    listed = http.get("/api/v1/memories", params={"user_id": "m", "include_superseded": "true"}).json()["items"]
    assert {i["id"]: i.get("invalid_at") for i in listed}[first["id"]] == old["invalid_at"]


def test_both_forms_truncate_the_same_instant():
    for ts in (0.0, 1.9999, 1.9999996, 1714555800.1239, 1714555800.9995):
        assert unix_seconds(ts) == int(seconds(iso(ts))), ts
        assert ISO.match(iso(ts)), ts
