"""A model's exchange with the memory server, recorded, so an offline lesson can show what a model is sent and says.

Why: lesson 10 teaches that a model reads a conversation into memories (``memory_server/understanding.py``). With no
model configured there is nothing live to show, so the lesson shows one exchange recorded from a real small model
on this project's machine: the two requests as sent (system prompt, examples, the turn) and the JSON that came
back. On a real model the lesson shows the learner's own instead. Regenerate the recording with a model in
``.env`` (or the ``LOCAL_MODEL_*`` variables set):

    python -m memory_evaluation.exchange            # writes data/model_exchange.json
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

__all__ = ["EXAMPLE", "RECORDED", "recorded_exchange", "render_exchange"]

RECORDED = Path(__file__).with_name("data") / "model_exchange.json"
#: The two messages the recording tells, one session apart: a job change told only by its new value.
EXAMPLE = ("I work as a nurse at the General in Leeds.", "Guess who just started as a paramedic? Me!")


def recorded_exchange(path: str | Path = RECORDED) -> dict[str, Any]:
    """The stored recording: ``model``, ``recorded``, ``messages`` (the two told), ``exchange`` and ``memories``."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def render_exchange(exchange: list[dict[str, Any]], *, examples: bool = False) -> str:
    """Each call as sent and received: the turn (or facts) sent last, and the JSON answer. The fixed system prompt
    and its examples are the same on every call, so they are left out unless ``examples``."""
    out: list[str] = []
    for call in exchange:
        sent = call["sent"] if examples else call["sent"][-1:]
        out.append(f"── {call['call']}: sent ({len(call['sent'])} messages; the last one:)" if not examples
                   else f"── {call['call']}: sent")
        out += [f"   [{m['role']}] {line}" for m in sent for line in m["content"].splitlines()]
        out.append(f"── {call['call']}: received")
        out.append("   " + json.dumps(call["received"], ensure_ascii=False))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record a model's exchange with the memory server for lesson 10.")
    parser.add_argument("--out", default=str(RECORDED))
    args = parser.parse_args(argv)
    from local_memory_server.server import build_service
    from model_config import ModelConfigurationError
    from .pairs import try_update

    try:
        service = build_service(None, understanding="model")
    except ModelConfigurationError as exc:
        parser.error(str(exc))
    assert service.reader is not None
    trial = try_update(*EXAMPLE, service=service)
    if service.fallbacks or len(trial.exchange) != 2:
        print(f"the model did not read both messages ({service.fallbacks} fell back): nothing written",
              file=sys.stderr)
        return 1
    record = {"model": service.reader.model, "recorded": date.today().isoformat(),
              "command": "python -m memory_evaluation.exchange", "messages": list(EXAMPLE),
              "exchange": trial.exchange,
              "memories": [{"text": text, "current": current} for said in (trial.old, trial.new)
                           for text, _, current in said]}
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    print(render_exchange(trial.exchange))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
