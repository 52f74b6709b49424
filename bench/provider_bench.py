"""What the Cortadel provider adds to an agent turn, against the local memory server over loopback.

    python bench/provider_bench.py [--sizes 1000 10000] [--rounds 200]

For each store size the script seeds one user with that many memories, starts the local memory
server *in a separate process* (``python -m local_memory_server``) on that store, and
times whole ``agent.run`` turns on the offline lesson model, six ways, interleaved round by
round so machine noise hits them alike:

* ``no provider``          — the same agent without long-term memory (the baseline);
* ``recall``               — the provider with ``store_turns=False``: one search per turn;
* ``recall + persist``     — the provider with its defaults: search, then the awaited
                             ``add_conversation`` write;
* ``recall, text mode``    — the provider with ``search_mode="text"``: no query embedding, so
                             this isolates what the provider and the HTTP hop cost;
* ``recall, gated``        — ``gate=True, min_score=BOTH_ARMS_FLOOR``: what the options cost
                             when the gate lets the turn through;
* ``search call (SDK)``    — the bare SDK search the provider makes, for reference (also in
                             text mode, and as a raw ``httpx`` POST without the SDK);
* ``HTTP round trip alone`` — a raw ``httpx`` GET of a memory that does not exist (one indexed
                             SQLite lookup, a 404): what loopback HTTP, uvicorn and FastAPI cost
                             a request whatever it asks;
* ``provider, no server``  — the provider over an in-process client that answers instantly
                             with five hits: the provider's own cost (query, render, inject,
                             state, persist bookkeeping), without any server — this row also
                             includes the offline model reading five more lines of context.

After the HTTP rounds it times the server's own steps in this process on the same store (the
query embedding, the BM25 query, the vector scan, the whole hybrid search), so the table says
where a search's time goes. Timed between agent turns, the in-process whole search runs colder than
the server's; the row "search inside the server" (raw HTTP search − the 404 GET) is the search as the
server ran it, beside the floor of its three steps. It also times the provider's two hooks alone (``before_run`` + ``after_run`` called directly
over the instant client), which is the provider's intrinsic cost per turn.

The server is ``python -m local_memory_server`` exactly as a learner starts it (it sets
``TCP_NODELAY`` on accepted sockets, so responses do not wait on delayed ACKs). Every search the
script sends is a distinct question (a base question with a distinct opener and closer), so no
cache on either side can answer one from an earlier round: each search embeds its query afresh.

Seeding is by direct store inserts (``MemoryStore.add_unchecked`` into a temporary SQLite
file, before the server starts), not through HTTP: texts are all distinct and go into the
full-text index as usual; vectors are real embeddings of a pool of base facts plus a little
noise, since brute-force vector search costs the same whatever the values. Prints a Markdown
table of median and p95 per configuration, and what each adds to the baseline median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent_framework import Agent
from cortadel import SearchOptions

from lesson_utils.cortadel import CortadelContextProvider, CortadelMemoryClient
from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR
from chat_models import OfflineChatClient

NAMES = "Alex Priya Kenji Lisa Omar Zoe Ben Ana Sam Ivy Noah Mia Leo Ava Raj Eva Tom Uma Kai Nia".split()
FACTS = [
    "ships on {day}", "likes {food}", "lives in {city}", "works at {company}", "prefers {drink} in the morning",
    "runs {n} kilometres on {day}", "is allergic to {food}", "visited {city} last year", "plays chess on {day}",
    "reads about {topic}", "wants to learn {topic}", "has a meeting with {company} on {day}",
]
DAYS = "Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays".split()
FOODS = "tea cake pasta sushi curry tacos peanuts ramen dumplings olives".split()
CITIES = "Oslo Lisbon Nairobi Kyoto Lima Quebec Tunis Hanoi Perth Bergen".split()
COMPANIES = "Contoso Fabrikam Northwind Tailspin Litware Adatum Woodgrove Proseware".split()
DRINKS = "coffee tea cocoa juice water".split()
TOPICS = "astronomy gardening Rust pottery sailing jazz chemistry poetry".split()
QUESTIONS = [
    "When do I usually ship?", "Where do I live?", "What do I like to eat?", "Where do I work?",
    "What do I drink in the morning?", "What am I allergic to?", "What do I want to learn?",
    "Which city did I visit last year?", "When do I play chess?", "What do I read about?",
]
OPENERS = ["", "Quick question: ", "Hey, ", "Sorry, ", "OK, ", "Hi! ", "Hmm, ", "So, "]
CLOSERS = ["", " Thanks.", " Just checking.", " I forgot.", " Be brief.", " Any idea?", " Cheers.", " Again?"]
TAILS = ["", " Please.", " Ta.", " Cheers!"]


def distinct_questions(count: int) -> list[str]:
    """``count`` different questions (so no query embedding is ever served from a cache)."""
    out = [
        f"{opener}{question}{closer}{tail}"
        for tail in TAILS for closer in CLOSERS for opener in OPENERS for question in QUESTIONS
    ]
    if count > len(out):
        raise ValueError(f"at most {len(out)} distinct questions; lower --rounds")
    assert len(set(out)) == len(out)
    return out[:count]


CONFIGS = [
    "no provider", "recall", "recall, gated", "recall, text mode", "recall + persist", "search call (SDK)",
    "search call (SDK), text mode", "search call (raw HTTP)", "HTTP round trip alone", "provider, no server",
]
#: Rows that are not agent turns: no "adds to baseline" figure.
CALLS = ("no provider", "search call (SDK)", "search call (SDK), text mode", "search call (raw HTTP)",
         "HTTP round trip alone")


class InstantClient:
    """A MemoryClient that answers at once: isolates the provider's own cost."""

    def __init__(self) -> None:
        from cortadel import ConversationResult, SearchHit, SearchResults

        self._hits = [SearchHit(id=f"i{n}", content=f"Alex fact number {n} ships on Fridays") for n in range(5)]
        self._results, self._conversation = SearchResults, ConversationResult

    async def search(self, query, options=None):
        return self._results(query=query, results=list(self._hits), total=5)

    async def add_conversation(self, messages, options=None):
        return self._conversation(no_facts_extracted=True)

    async def add(self, text, options=None):  # pragma: no cover - not used by the provider
        raise NotImplementedError


def fact(i: int, rng: np.random.Generator) -> str:
    template = FACTS[i % len(FACTS)]
    text = template.format(
        day=DAYS[rng.integers(len(DAYS))], food=FOODS[rng.integers(len(FOODS))], city=CITIES[rng.integers(len(CITIES))],
        company=COMPANIES[rng.integers(len(COMPANIES))], drink=DRINKS[rng.integers(len(DRINKS))],
        topic=TOPICS[rng.integers(len(TOPICS))], n=int(rng.integers(3, 42)),
    )
    return f"{NAMES[i % len(NAMES)]} {text} (note {i})."


def seed(db_path: Path, users: dict[str, int]) -> None:
    from local_memory_server.server import build_service
    from local_memory_server.store import NewMemory

    service = build_service(db_path)
    rng = np.random.default_rng(7)
    pool_texts = [fact(i, rng) for i in range(240)]
    pool = service.embedder.embed(pool_texts)
    for user, count in users.items():
        texts = [fact(i, rng) for i in range(count)]
        noise = rng.normal(0, 0.05, size=(count, pool.shape[1])).astype(np.float32)
        vectors = pool[np.arange(count) % len(pool)] + noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        memories = [NewMemory(user_id=user, content=t, memory_type="semantic", gist=t) for t in texts]
        for start in range(0, count, 2000):
            service.store.add_unchecked(memories[start : start + 2000], vectors[start : start + 2000])
    service.store.close()


def start_server(db_path: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "local_memory_server", "--db", str(db_path), "--port", "0", "--log-level", "warning"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(ROOT))
    assert proc.stdout is not None
    for line in proc.stdout:
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            return proc, match.group(1)
    raise RuntimeError("memory server did not start")


async def measure(url: str, user: str, rounds: int, parts: ServerParts) -> dict[str, list[float]]:
    model = OfflineChatClient()
    instructions = "You are a helpful assistant. Use what you remember; never invent memories."
    recall = CortadelContextProvider(url, user, store_turns=False)
    recall_text = CortadelContextProvider(url, user, store_turns=False, search_mode="text")
    # Gate + both-arms floor: every bench question has content words, so the gate never skips
    # here — this row shows what the options cost when they do not save a search.
    gated = CortadelContextProvider(url, user, store_turns=False, gate=True, min_score=BOTH_ARMS_FLOOR)
    raw = httpx.AsyncClient(base_url=url, timeout=30)
    persist = CortadelContextProvider(url, user)
    sdk = CortadelMemoryClient(url, user)
    agents = {
        "no provider": Agent(client=model, instructions=instructions),
        "recall": Agent(client=model, instructions=instructions, context_providers=[recall]),
        "recall, gated": Agent(client=model, instructions=instructions, context_providers=[gated]),
        "recall, text mode": Agent(client=model, instructions=instructions, context_providers=[recall_text]),
        "recall + persist": Agent(client=model, instructions=instructions, context_providers=[persist]),
        "provider, no server": Agent(
            client=model, instructions=instructions, context_providers=[CortadelContextProvider(client=InstantClient())]
        ),
    }

    async def once(config: str, question: str) -> float:
        started = time.perf_counter()
        if config == "search call (SDK)":
            await sdk.search(question, SearchOptions(top_k=5))
        elif config == "search call (SDK), text mode":
            await sdk.search(question, SearchOptions(top_k=5, mode="text"))
        elif config == "search call (raw HTTP)":
            body = {"query": question, "user_id": user, "top_k": 5, "mode": "hybrid", "app_name": "bench"}
            (await raw.post("/api/v1/memories/search", json=body)).raise_for_status()
        elif config == "HTTP round trip alone":
            response = await raw.get(f"/api/v1/memories/no-such-memory-{len(question)}", params={"user_id": user})
            assert response.status_code == 404, response.text
        else:
            agent = agents[config]
            await agent.run(question, session=agent.create_session())
        return (time.perf_counter() - started) * 1000

    questions = iter(distinct_questions((10 + rounds) * len(CONFIGS)))
    for _ in range(10):  # warm-up: connections, the first embedding
        for config in CONFIGS:
            await once(config, next(questions))
    samples: dict[str, list[float]] = {c: [] for c in CONFIGS}
    for r in range(rounds):
        order = CONFIGS[r % len(CONFIGS) :] + CONFIGS[: r % len(CONFIGS)]
        for config in order:
            samples[config].append(await once(config, next(questions)))
        parts.one_round(r)  # the server's steps, in this process, in the same time window
    for closable in (recall, recall_text, gated, persist, sdk):
        await closable.aclose()
    await raw.aclose()
    return samples


class ServerParts:
    """The server's own steps for a hybrid search, timed in this process on the same store (opened
    read-only alongside the server): the query embedding, the BM25 query, the vector scan, and the
    whole search. One step per round, rotating, interleaved with the HTTP rounds so all of them
    see the same machine load."""

    STEPS = ("query embedding", "BM25 query", "vector scan", "whole hybrid search")

    def __init__(self, db_path: Path, user: str) -> None:
        from local_memory_server.server import build_service

        self.service = build_service(db_path)
        self.user = user
        self.questions = iter(distinct_questions(2560)[::-1])
        self.samples: dict[str, list[float]] = {step: [] for step in self.STEPS}
        self.vector = self.service.embedder.embed(["warm-up"])[0]

    def one_round(self, r: int) -> None:
        from local_memory_server import search as search_mod

        service, question = self.service, "Parts " + next(self.questions)
        for step in self.STEPS[r % 4 :] + self.STEPS[: r % 4]:
            started = time.perf_counter()
            if step == "query embedding":
                self.vector = service.embedder.embed([question])[0]
            elif step == "BM25 query":
                service.store.text_search(self.user, question, 30)
            elif step == "vector scan":
                service.store.vector_search(self.user, self.vector, 30)
            else:
                search_mod.search(service.store, service.embedder, self.user, question + " (whole)", top_k=5)
            self.samples[step].append((time.perf_counter() - started) * 1000)

    def close(self) -> None:
        self.service.store.close()


async def hooks_only(turns: int = 2000) -> list[float]:
    from agent_framework import AgentResponse, AgentSession, Message, SessionContext

    provider = CortadelContextProvider(client=InstantClient(), deduplicate_across_turns=False)
    samples = []
    for _ in range(turns):
        session = AgentSession()
        context = SessionContext(input_messages=[Message(role="user", contents=["When do I usually ship?"])])
        started = time.perf_counter()
        await provider.before_run(agent=None, session=session, context=context, state={})
        context._response = AgentResponse(messages=[Message(role="assistant", contents=["You ship on Fridays."])])
        await provider.after_run(agent=None, session=session, context=context, state={})
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    distinct_questions((10 + args.rounds) * len(CONFIGS))  # fail before seeding if --rounds is too high

    users = {f"bench-{size}": size for size in args.sizes}
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.sqlite3"
        started = time.perf_counter()
        seed(db_path, users)
        print(f"seeded {sum(users.values())} memories by direct store inserts in {time.perf_counter() - started:.1f}s")
        results, breakdown = {}, {}
        proc, url = start_server(db_path)
        try:
            for size in args.sizes:
                parts = ServerParts(db_path, f"bench-{size}")
                try:
                    results[size] = asyncio.run(measure(url, f"bench-{size}", args.rounds, parts))
                finally:
                    parts.close()
                breakdown[size] = parts.samples
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    print(f"\nPer-turn latency, offline model, local memory server over loopback ({args.rounds} interleaved rounds)\n")
    print("| memories | configuration | median ms | p95 ms | adds to baseline median |")
    print("|---:|---|---:|---:|---:|")
    verdicts = []
    for size, samples in results.items():
        base = statistics.median(samples["no provider"])
        for config in CONFIGS:
            med = statistics.median(samples[config])
            added = "—" if config in CALLS else f"+{med - base:.2f}"
            print(f"| {size:,} | {config} | {med:.2f} | {p95(samples[config]):.2f} | {added} |")
        verdicts.append((size, statistics.median(samples["recall"]) - base))
    print("\nWhere a search's time goes (the server's steps timed in this process on the same store, one"
          " of each per round, interleaved with the rounds above; HTTP + SDK = SDK search call − whole search):\n")
    print("| memories | step | median ms |")
    print("|---:|---|---:|")
    for size, parts in breakdown.items():
        for step, values in parts.items():
            print(f"| {size:,} | {step} | {statistics.median(values):.2f} |")
        sdk_ms = statistics.median(results[size]["search call (SDK)"])
        raw_ms = statistics.median(results[size]["search call (raw HTTP)"])
        whole = statistics.median(parts["whole hybrid search"])
        steps = sum(statistics.median(parts[step]) for step in ("query embedding", "BM25 query", "vector scan"))
        print(f"| {size:,} | whole search − its three steps (fetch, fusion, hand-off; < 0: overlap) | {whole - steps:.2f} |")
        print(f"| {size:,} | HTTP round trip + SDK (SDK call − whole search) | {sdk_ms - whole:.2f} |")
        print(f"| {size:,} | of which the SDK itself (SDK call − raw HTTP call) | {sdk_ms - raw_ms:.2f} |")
        http_ms = statistics.median(results[size]["HTTP round trip alone"])
        print(f"| {size:,} | of which loopback HTTP + uvicorn + FastAPI (a 404 GET) | {http_ms:.2f} |")
        # The in-process "whole" runs cold, between agent turns; this is the search as the server ran it.
        print(f"| {size:,} | search inside the server (raw HTTP call − a 404 GET; floor = the three steps: "
              f"{steps:.2f}) | {raw_ms - http_ms:.2f} |")
    hooks = asyncio.run(hooks_only())
    print(f"\nprovider hooks alone (before_run + after_run, instant client): median {statistics.median(hooks):.3f} ms, "
          f"p95 {p95(hooks):.3f} ms")
    print()
    for size, added in verdicts:
        verdict = "met" if added < 10 else "MISSED"
        print(f"recall adds {added:.2f} ms median at {size:,} memories (target < 10 ms): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
