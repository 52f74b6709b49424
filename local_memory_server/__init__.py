"""A local, Cortadel-compatible memory server: the embedded default for the long-term memory lessons.

It speaks Cortadel's REST contract (the seven operations of ``cortadel-openapi.json``), so the
official ``cortadel`` SDK, the lesson's context provider and ``curl`` work against it unchanged;
point ``CORTADEL_BASE_URL`` at a real Cortadel server instead when you have one.

    from local_memory_server import start_memory_server
    with start_memory_server() as server:        # throwaway in-memory store
        ...  # CortadelClient(server.url, "alex")

From a shell: ``python -m local_memory_server --db memories.sqlite3``.

What differs from a real Cortadel server, honestly:

* Who reads a conversation (``understanding.py``): with a model configured for the lessons (``LOCAL_MODEL_*``
  or a key, ``start_memory_server(understanding="auto")``, the default), that model extracts standalone facts and
  decides ``ADD`` / ``UPDATE`` / ``DELETE`` / ``NONE`` for each against the user's most similar memories, in at
  most two schema-constrained calls per turn (``prompts.py``); guard-rails in code refuse a replacement its own
  labels or the offline reader do not back, and a failed call hands the turn to the offline reader. Without a
  model, the offline reader (``offline_reader/``, its limits in ``offline_reader.LIMITS``) distils plain first-person
  statements (and chat that drops the "I" before a verb) into third-person facts; a statement with no verb
  ("Paramedic in Bristol") and anything subtler is missed. (The SDK and the contract do not say how a real Cortadel distils.)
* Hybrid search fuses BM25 and vector candidates with RRF, then orders the best 60 by embedding cosine
  similarity (``search.py`` says why); it reads no rule about English words (who or when a memory is about).
  ``rerank="cross_encoder"`` is accepted, but there is no cross-encoder: it does that cosine ordering (in the
  text mode too) and each hit says ``attributes["rerank"] == "cosine"``.
* ``expand_query``, ``include_faded`` and ``include_session_arm`` are accepted and have nothing
  to act on (no synonyms, fading or session summaries).
* Above 20,000 memories per user the vector arm is approximate (an IVF index), and a BM25 query
  whose every term is very common ranks only that term's newest matches — see ``vectors.py`` and ``fulltext.py``.

Knowledge updates offline (the reader's ``changes.py`` is the one seam that decides, ``store.py`` applies, one transaction
per write; with a model, ``understanding.py`` decides and the same store applies). Memories are versions: a superseded or withdrawn memory stays stored with ``is_current=false``,
``invalid_at`` and (if superseded) ``superseded_by``; the local server's search and list return current memories only, list
takes ``include_superseded=true`` and ``as_of=<ISO time>`` (what was current then).

What the offline decider (``MeaningDecider`` in ``offline_reader/changes.py``) catches, for facts about the user:

* a new value of a single-valued attribute supersedes the old one — home, name, age, employer, job, partner,
  car, a favourite of one kind, the time of one activity — read by meaning (the fact's embedding against
  labelled examples), so "our new place is in Aarhus" or "my favourite colour is now burgundy" count when
  both facts name their values;
* a departure replaces what was left, whatever its attribute ("sold my Corolla and bought a Tesla", "quit
  the bakery and signed on with a brewery", "moved out of Leeds");
* a fact and its negation ("likes tea" ⇄ "does not like tea"): the newer wins;
* "Forget that …" and "no longer / not … any more / stopped / quit" withdraw the matching current fact
  (``INVALIDATE``, nothing stored). A "Forget that …" that matches nothing is ``NONE``; an "I no longer …"
  that matches nothing is stored as a fact of its own, and so is one that says more of the user ("I'm a
  locksmith now, not a plumber any more": ``SUPERSEDE``, the plumber replaced);
* the same value said again is a duplicate (``SKIP_DUPLICATE``);
* many-valued facts (likes, pets, languages, friends …), favourites of different kinds, "also …", and facts
  about other people ("my brother lives in Oslo") replace nothing.

What it misses, and what a decider that asks a model can catch (how a real Cortadel decides is not
documented): attributes without labelled examples (a pet's new name, "my manager is now Sam"); a change
told only as a story ("after ten years at the bank I took an offer from an insurer"); sentences whose
embedding lands on a near miss ("works in Bergen" read as a home); partial overlaps ("I work from home on
Mondays now"); many-valued verbs used exclusively ("I only speak French now"); "forget everything about my
old job" (a topic, not a fact); and a requested deletion of an entity across facts. It also never
resurrects the older fact when the newer one is deleted. A model reads what it misses (``understanding="model"``,
or ``"auto"`` with a model configured): that is the local server's choice, not a claim about how Cortadel decides.
(``update_decider="model"`` is older and narrower: the model only judges the offline reader's candidates.)

The server is the package's ``server`` extra (``extra.py``). The names below are looked up lazily
(PEP 562), so importing a part that needs no web server (``store``, ``rows``, or the reader)
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
