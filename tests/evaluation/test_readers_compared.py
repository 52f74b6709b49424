"""The offline reader and the stored model run, side by side: the stored figures are what today's code computes."""

from __future__ import annotations

import pytest

from memory_evaluation.readers_compared import compare_readers, readers_table, stored_comparison
from memory_evaluation.replay import ReplayEndpoint
from local_memory_server.model_endpoint import ModelAnswerError


@pytest.mark.full
def test_the_stored_comparison_is_what_the_code_computes_from_the_stored_run():
    # If this fails after a change of the reader, the guards or the prompt: run
    # `python -m memory_evaluation.readers_compared --write` and commit the new figures with the change.
    assert compare_readers() == stored_comparison()


def test_the_stored_run_is_the_models_own_reading_not_a_fallback():
    model = stored_comparison()["model_run"]
    assert model["fallbacks"] == 0 and 1 <= model["model_calls_per_message"] <= 2


def test_a_request_the_stored_run_does_not_hold_is_a_model_failure_not_a_call(tmp_path):
    run = tmp_path / "run.json"
    run.write_text("{}", encoding="utf-8")
    with pytest.raises(ModelAnswerError, match="not in the stored run"):
        ReplayEndpoint.stored(run, "qwen15").complete_json([{"role": "user", "content": "hi"}], {}, name="x",
                                                           max_tokens=10)


def test_the_table_names_both_readers_and_every_column():
    table = readers_table()
    for words in ("offline reader", "model (stored run)", "updates right", "false supersessions",
                  "withdrawals honoured", "model seconds per message", "Qwen2.5-Coder-1.5B"):
        assert words in table


def test_more_accurate_means_no_worse_in_any_column_and_better_in_one():
    from memory_evaluation.readers_compared import model_was_more_accurate

    def compared(updates, false, withdrawals):
        return {"offline": {"updates": [30, 73], "false_supersessions": [2, 59], "withdrawals": [10, 13]},
                "model_run": {"updates": [updates, 73], "false_supersessions": [false, 59], "withdrawals": [withdrawals, 13]}}

    assert model_was_more_accurate(compared(31, 2, 10)) and model_was_more_accurate(compared(30, 1, 10))
    assert not model_was_more_accurate(compared(30, 2, 10)) and not model_was_more_accurate(compared(45, 3, 13))
