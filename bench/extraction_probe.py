"""How many of the facts a user states in passing the model's extraction keeps, and how many it invents.

    python bench/extraction_probe.py --url http://127.0.0.1:8080/v1 --model qwen15            # the test cases
    python bench/extraction_probe.py --cases memory_evaluation/data/blind_extraction_dev.json ...  # tune on these

The scorecard's long histories showed a small model dropping the small facts a user mentions inside a request (a
breed, a song, a sport): it stored a third as many memories as the offline reader (bench/README.md, "Twenty-fifth
round"). Those runs take most of an hour; this one asks only the extraction call, on 30 short and long chats a
helper wrote without seeing the prompts (``memory_evaluation/data/blind_extraction*.json``). Each case lists the
user's facts, each with the word or two any correct sentence of it holds ("maine coon"), and words that only the
assistant or a what-if said. Printed: facts kept (every key word in one extracted fact), facts written with a
word only the assistant or a what-if used, facts per chat, and the call's median seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_memory_server.model_endpoint import ModelAnswerError, ModelEndpoint
from local_memory_server.understanding import ModelReader
from memory_evaluation.dataset import Turn

CASES = ROOT / "memory_evaluation" / "data" / "blind_extraction.json"


def turns_of(chat: str) -> list[Turn]:
    """``role: text`` lines as turns; a line without a role continues the one before."""
    turns: list[Turn] = []
    for line in chat.splitlines():
        role, sep, text = line.partition(": ")
        if sep and role in {"user", "assistant"}:
            turns.append(Turn(uuid="", role=role, content=text))
        elif turns:
            turns[-1].content += f" {line}"
    return turns


def score(case: dict, written: list[str]) -> tuple[int, int, int]:
    """(facts kept, facts stated, written facts holding a word only the assistant or a what-if used)."""
    folded = [w.casefold() for w in written]
    kept = sum(any(all(k.casefold() in w for k in fact["key"]) for w in folded) for fact in case["facts"])
    invented = sum(any(n.casefold() in w for n in case.get("not_facts", [])) for w in folded)
    return kept, len(case["facts"]), invented


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--url", required=True, help="an OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1")
    parser.add_argument("--model", required=True)
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--show", action="store_true", help="print every case's written facts")
    args = parser.parse_args(argv)
    with open(args.cases, encoding="utf-8") as f:
        cases = json.load(f)
    reader = ModelReader(ModelEndpoint(args.url.rstrip("/"), args.model, args.api_key,
                                       timeout=120))
    kept = stated = invented = written_total = failed = 0
    seconds: list[float] = []
    for i, case in enumerate(cases):
        started = time.perf_counter()
        try:
            facts, _ = reader.extract(turns_of(case["chat"]))
        except ModelAnswerError as error:
            failed += 1
            print(f"case {i}: {error}", file=sys.stderr)
            facts = []
        seconds.append(time.perf_counter() - started)
        written = [f.text for f in facts]
        k, s, n = score(case, written)
        kept, stated, invented, written_total = kept + k, stated + s, invented + n, written_total + len(written)
        if args.show:
            print(f"case {i}: kept {k}/{s}, invented {n}: {written}", file=sys.stderr)
    print(f"\n{args.cases.name}, {len(cases)} chats, model {args.model}\n")
    print("| facts kept | facts with an assistant's or what-if word | facts written per chat | failed calls "
          "| median s per call |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {kept}/{stated} ({kept / max(stated, 1):.0%}) | {invented}/{written_total} "
          f"| {written_total / len(cases):.1f} | {failed} | {statistics.median(seconds):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
