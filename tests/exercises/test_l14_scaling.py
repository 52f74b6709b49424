"""Exercise 14.safe_turn: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest

from course_kit.exercises import EXERCISES, check
from lesson_utils.persistence import StaleSessionError


async def solution(store, agent, conversation_id, message):
    while True:
        loaded = store.load_versioned(conversation_id)
        response = await agent.run(message, session=loaded.session)
        try:
            store.save(conversation_id, loaded.session, expected_version=loaded.version)
        except StaleSessionError:
            continue  # another turn saved first: redo ours on a fresh copy
        return response.text


async def with_the_lock(store, agent, conversation_id, message):
    with store.lock(conversation_id):
        session = store.load(conversation_id)
        response = await agent.run(message, session=session)
        store.save(conversation_id, session)
    return response.text


async def solution_with_the_lock(store, agent, conversation_id, message):
    """What the task asks: the lock for the whole turn, the versioned save as its guard (see below)."""
    return await lock_and_versioned_save(store, agent, conversation_id, message)


async def stub(store, agent, conversation_id, message):
    raise NotImplementedError


async def naive(store, agent, conversation_id, message):
    session = store.load(conversation_id)
    response = await agent.run(message, session=session)
    store.save(conversation_id, session)
    return response.text


async def checks_but_never_retries(store, agent, conversation_id, message):
    loaded = store.load_versioned(conversation_id)
    response = await agent.run(message, session=loaded.session)
    store.save(conversation_id, loaded.session, expected_version=loaded.version)
    return response.text


async def retries_without_reloading(store, agent, conversation_id, message):
    loaded = store.load_versioned(conversation_id)
    response = await agent.run(message, session=loaded.session)
    for _ in range(20):
        try:
            store.save(conversation_id, loaded.session, expected_version=loaded.version)
            return response.text
        except StaleSessionError:
            continue
    raise StaleSessionError(conversation_id, loaded.version, store.version(conversation_id), "the store")


async def forces_its_copy_through(store, agent, conversation_id, message):
    loaded = store.load_versioned(conversation_id)
    response = await agent.run(message, session=loaded.session)
    try:
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    except StaleSessionError:
        store.save(conversation_id, loaded.session)  # "the conflict is annoying, overwrite"
    return response.text


async def reruns_on_the_same_session(store, agent, conversation_id, message):
    loaded = store.load_versioned(conversation_id)
    while True:
        response = await agent.run(message, session=loaded.session)
        try:
            store.save(conversation_id, loaded.session, expected_version=store.version(conversation_id))
        except StaleSessionError:
            continue
        return response.text


async def forgets_the_reply(store, agent, conversation_id, message):
    await solution(store, agent, conversation_id, message)


def test_the_exercise_is_registered_for_lesson_14():
    assert EXERCISES["14.safe_turn"].lesson == "14"


@pytest.mark.full  # slow: worker processes per check
@pytest.mark.parametrize("answer", [solution_with_the_lock])
def test_correct_answers_pass(answer, capsys):
    assert check("14.safe_turn", answer) is True
    assert "\u2705 14.safe_turn" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `safe_turn` first"),
        # The task asks for both halves of the lesson: versions alone redo turns (more model calls than turns);
        # the lock alone, with a plain save, loses updates once the lock expires mid-turn.
        (solution, "model calls"),
        (with_the_lock, "a lost update"),
        (naive, "a lost update"),
        (checks_but_never_retries, "a turn failed with StaleSessionError"),
        (retries_without_reloading, "a turn failed with StaleSessionError"),
        (forces_its_copy_through, "a lost update"),
        # Which symptom shows depends on who saves last: duplicated messages or a lost update.
        (reruns_on_the_same_session, ("in the stored history", "a lost update")),
        (forgets_the_reply, "should return the reply text"),
        ("not a function", "pass your function `safe_turn` itself"),
    ],
)
@pytest.mark.full  # slow: worker processes per check
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("14.safe_turn", answer, *(hint if isinstance(hint, tuple) else (hint,)))


# Each check here starts four worker processes (about 20 s on a loaded two-core machine), so the solution runs over
# five draws, not twenty: the draw changes only the messages and the conversation id; every check races the turns.
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("14.safe_turn", lock_and_versioned_save, seeds=(101, 102, 103, 104, 105))


async def lock_and_versioned_save(store, agent, conversation_id, message):
    """The solution notebook's answer: the lesson's lock for the turn, the versioned save as its guard."""
    while True:
        with store.lock(conversation_id):
            loaded = store.load_versioned(conversation_id)
            response = await agent.run(message, session=loaded.session)
            try:
                store.save(conversation_id, loaded.session, expected_version=loaded.version)
            except StaleSessionError:
                continue
        return response.text


@pytest.mark.full  # slow: worker processes per check
def test_the_lock_with_a_versioned_save_passes():
    assert check("14.safe_turn", lock_and_versioned_save) is True


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
