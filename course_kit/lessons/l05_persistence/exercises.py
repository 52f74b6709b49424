"""Lesson 05's exercise: save a session with ``json.dump`` and resume it in a new process.

The learner writes ``save(session, path)`` and ``resume(path, message)``. The checker chats one turn
on the offline lesson model, calls ``save`` here, and runs ``resume`` in a *fresh interpreter*
(:mod:`._new_process`), which has nothing but the file. Then it reads the file the child wrote back.

The user is drawn per run (:mod:`._cases`). As for a returning user (lesson 06), what the agent knows
about them is in the memory provider's slot of the saved session, not in its transcript (a small-talk
turn), so a ``resume`` whose agent lacks ``UserMemoryProvider`` cannot answer from the history alone.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from agent_framework import Agent, AgentSession

from chat_models import OfflineChatClient
from lesson_utils.user_memory import UserMemoryProvider
from ...exercises._new_process import freeze, run_frozen
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

NAMES = ("Oksana", "Tariq", "Beatriz", "Kwame", "Sunniva", "Rafael", "Imogen", "Haruto", "Zainab", "Lorcan")
SMALL_TALK = ("Can you help me plan my week?", "I'd like a few ideas for a rainy Sunday.",
              "What is a good way to start learning the guitar?", "Could you suggest a quick breakfast?")
_QUESTION = "What is my name and age?"


def _two_functions(answer: Any) -> tuple[Any, Any]:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(callable(f) for f in answer)):
        raise Hint("pass both functions: check(\"05.resume_from_json\", (save, resume))")
    return answer


def _read_saved(path: Path, what: str) -> dict[str, Any]:
    if not path.exists():
        raise Hint(f"{what} wrote no file at the path it was given")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except ValueError:
        raise Hint(f"the file {what} wrote is not JSON (str() or repr() of a dict is Python, not JSON): "
                   "write it with json.dump(session.to_dict(), f)") from None
    if not isinstance(data, dict) or not isinstance(data.get("session_id"), str):
        raise Hint(f"the file {what} wrote is not session.to_dict(): it has no session_id; dump the whole dict")
    return data


@exercise("05.resume_from_json", title="resume from a JSON file, in a new process")
async def check_resume_from_json(answer: Any) -> None:
    save, resume = _two_functions(answer)
    with drawn_cases() as rng:
        # three turns of small talk before the save: six messages, more than the lesson's file held, so a save
        # that keeps only the last turns loses some
        talk = rng.sample(SMALL_TALK, 3)
        await _save_and_resume(save, resume, rng.choice(NAMES), rng.randrange(19, 89), talk)


async def _save_and_resume(save: Any, resume: Any, name: str, age: int, talk: list[str]) -> None:
    first = talk[0]
    frozen = freeze(resume)  # before save runs: the child gets nothing save leaves in this process
    memory = UserMemoryProvider()
    agent = Agent(client=OfflineChatClient(), instructions="Be friendly.", context_providers=[memory])
    met = agent.create_session()  # an earlier conversation, where the provider learned who the user is
    await agent.run(f"Hi! I'm {name} and I'm {age} years old.", session=met)
    remembered = met.state.get(memory.source_id)
    if remembered != {"name": name, "age": age}:
        raise RuntimeError(f"UserMemoryProvider learned {remembered!r}, expected {name!r}, {age}")
    session = agent.create_session()  # a returning user: the memory carried over, a new transcript
    session.state[memory.source_id] = dict(remembered)
    for turn in talk:
        await agent.run(turn, session=session)
    held = len(session.state["in_memory"]["messages"])

    with tempfile.TemporaryDirectory(prefix="exercise-05-") as folder:
        path = Path(folder) / "chat.json"
        await call_learner(save, session, path, what="`save`")
        state = _read_saved(path, "save").get("state")
        if not isinstance(state, dict) or not isinstance(state.get("in_memory"), dict):
            raise Hint("the saved file has no history (state['in_memory']): dump session.to_dict(), the whole session")
        saved_messages = state["in_memory"].get("messages")
        if isinstance(saved_messages, list) and len(saved_messages) != held:
            raise Hint(f"the saved file holds {len(saved_messages)} of the session's {held} history messages: save "
                       "session.to_dict() as it is — the whole conversation, not its last turns")
        if state.get("user_memory") != remembered:
            raise Hint("the saved file lost the provider's memory (state['user_memory']): save session.to_dict(), "
                       "not only the history — every provider's slot is part of the conversation")

        child = run_frozen(frozen, str(path), _QUESTION)
        if child.error:
            raise Hint(f"in a new process, `resume` failed ({child.error}); it must build its own agent and read "
                       "everything from the file — a new process has none of this one's objects")
        if child.value_type != "str":
            raise Hint(f"`resume` returned a {child.value_type}; return the reply's text (response.text)")

        continued = AgentSession.from_dict(_read_saved(path, "resume"))
        if continued.session_id != session.session_id:
            raise Hint("the file now holds a different conversation (new session_id): load the saved one with "
                       "AgentSession.from_dict(json.load(f)) instead of creating a session")
        history = [m.text for m in continued.state.get("in_memory", {}).get("messages", [])]
        if history[-2:] != [_QUESTION, child.value]:
            raise Hint("the file does not hold the new turn: after agent.run, write the continued session back to "
                       "path with json.dump(session.to_dict(), f)")
        if len(history) != held + 2 or history[0] != first:
            raise Hint("the continued history does not start with the saved turn: pass the loaded session to agent.run")
        if continued.state.get(memory.source_id) != remembered:
            raise Hint(f"the resumed session's memory slot holds {continued.state.get(memory.source_id)!r}, not the "
                       f"{remembered!r} the file held: use the state loaded from the file as it is — never set or "
                       "replace a provider's slot yourself")
        if name not in child.value or str(age) not in child.value:
            raise Hint(f"the new process answered {child.value!r:.80} without knowing the user, whom only the "
                       "memory provider's slot of the saved session knows (not its transcript): build the agent "
                       "with UserMemoryProvider() and run it on the session loaded from the file")
