"""A local, Cortadel-compatible memory server: the embedded default for the long-term memory lessons.

It speaks Cortadel's REST contract (the seven operations of ``cortadel-openapi.json``), so the
official ``cortadel`` SDK, the lesson's context provider and ``curl`` work against it unchanged;
point ``CORTADEL_BASE_URL`` at a real Cortadel server instead when you have one.

    from lesson_utils.memory_server import start_memory_server
    with start_memory_server() as server:        # throwaway in-memory store
        ...  # CortadelClient(server.url, "alex")

From a shell: ``python -m lesson_utils.memory_server --db memories.sqlite3``.

What differs from a real Cortadel server, honestly:

* Facts are distilled from conversations by rules (``distill.py``), not by a model: plain
  first-person statements become third-person facts; anything subtler is missed.
* ``rerank="cross_encoder"`` is accepted, but there is no cross-encoder: the fused candidates are
  re-sorted by embedding cosine similarity and each hit says ``attributes["rerank"] == "cosine"``.
* ``expand_query``, ``include_faded`` and ``include_session_arm`` are accepted and have nothing
  to act on (no synonyms, fading or session summaries).
* Above 20,000 memories per user the vector arm is approximate (an IVF index), and a BM25 query
  whose every term is very common ranks only that term's newest matches — see ``vectors.py`` and ``fulltext.py``.

Knowledge updates (``slots.py`` decides, ``store.py`` applies, one transaction per write).
Memories are versions: a superseded or withdrawn memory stays stored with ``is_current=false``,
``invalid_at`` and (if superseded) ``superseded_by``; search and list return current memories
only, list takes ``include_superseded=true`` and ``as_of=<ISO time>`` (what was current then).

What the rules catch, for facts about the user:

* a new value in a single-valued slot supersedes the old one — where they live ("lives in",
  "is based in", "moved/relocated to", "my home/city is"), their name ("my name is", "goes by"),
  employer ("works at/for", "employed by", "joined"), job ("works as", "my job is", "is a
  <job noun>"), and preferences ("prefers X", "favourite <topic> is X", per topic);
* a near-duplicate with one value swapped ("ships on Fridays" → "on Thursdays", "41 years old" → "42 years old")
  when the swapped words look like a value (number, day, month, time of day, proper name) and
  the verb is not a many-valued one (likes, has, speaks, plays, visited, …);
* a fact and its negation ("likes tea" ⇄ "does not like tea"): the newer wins;
* "Forget that …" and "no longer / not … any more / stopped / quit" withdraw the matching
  current fact (``INVALIDATE``, nothing stored). A "Forget that …" that matches nothing is
  ``NONE``; an "I no longer …" that matches nothing is stored as a fact of its own;
* the same slot and value said again is a duplicate (``SKIP_DUPLICATE``).

What a real Cortadel (a model's verdict on each candidate pair) catches beyond them: a change
said indirectly ("we finally got the keys to the flat in Porto"); slots the rules do not know
(relationship status, a pet's new name, "my manager is now Sam"); facts about other people
("my sister moved to Oslo" updates the sister, not the user); partial overlaps ("I work from
home on Mondays now" narrowing "I work from home"); many-valued verbs used exclusively ("I
only speak French now"); values outside the keyword lists ("prefers oolong" vs "prefers
sencha" are two topics here); "forget everything about my old job" (a topic, not a fact);
and a requested deletion of an entity across facts. The rules also never resurrect the older
fact when the newer one is deleted.

The server is the package's ``server`` extra (``extra.py``). The names below are looked up lazily
(PEP 562), so importing a part that needs no web server (``distill``, ``slots``, ``classify``)
loads neither uvicorn nor FastAPI nor the embedding runtime, and a missing extra is one
``ServerExtraMissing`` line that names the fix, raised only when a server is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import MemoryServer, default_db_path, start_memory_server

__all__ = ["MemoryServer", "start_memory_server", "default_db_path"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .extra import SERVER_MODULES, missing_server_modules, require_server_extra, server_extra_missing

    require_server_extra()  # also the modules the server imports only once it runs (onnxruntime, the model)
    try:
        server = importlib.import_module(".server", __name__)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in SERVER_MODULES:
            raise
        raise server_extra_missing(missing_server_modules() or [top]) from exc
    value = getattr(server, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
