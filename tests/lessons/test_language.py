"""offline_reader.speaker: the vocabulary and rules, on their own and free of the framework."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lesson_utils import user_memory
from offline_reader import speaker as language
from offline_reader.speaker import NOT_A_NAME, extract_age, extract_name, is_plausible_name

# The inputs lesson 04's few-line provider gets wrong, and what the rules make of them.
LESSON_04_FAILURES = [
    ("my name is priya", "Priya"),  # the naive regex wants a capital letter
    ("Call me Sam.", "Sam"),  # the naive regex only knows "my name is"
    ("My name is Anne-Marie.", "Anne-Marie"),  # the naive regex stops at the hyphen
    ("I'm tired", None),  # the case-insensitive "I'm (\w+)" fix learns "Tired"
]


@pytest.mark.parametrize(("text", "name"), LESSON_04_FAILURES)
def test_the_lesson_04_failures_are_handled(text: str, name: str | None) -> None:
    assert extract_name(text) == name


@pytest.mark.parametrize("word", sorted(NOT_A_NAME))
def test_no_vocabulary_word_is_ever_a_name_even_capitalised(word: str) -> None:
    assert extract_name(f"I'm {word.capitalize()}.") is None
    assert extract_name(f"Call me {word}") is None
    assert not is_plausible_name(word.capitalize())


def test_the_vocabulary_is_lower_case_single_words() -> None:
    assert isinstance(NOT_A_NAME, frozenset)
    assert all(word == word.lower() and word.isalpha() for word in NOT_A_NAME)
    assert {"tired", "canadian", "later", "not"} <= NOT_A_NAME


def test_a_vocabulary_word_ends_a_name_instead_of_joining_it() -> None:
    assert extract_name("I'm Alex and I'm 31") == "Alex"
    assert extract_name("call me Sam later") == "Sam"


def test_a_request_to_be_called_something_is_a_name() -> None:
    assert extract_name("you can call me Dot") == "Dot"
    assert extract_name("so, just call me Ricky from now on") == "Ricky"
    assert extract_name("I'd like it if you called me Mags") == "Mags"
    assert ([extract_name(t) for t in ("call me crazy, but", "call me sometime", "call me old-fashioned", "call me when you land")]
            == [None] * 4)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("name's Tove, good to meet you", "Tove"),               # no "my": the sentence opens with it
        ("Just oat milk is fine.", None),                        # no "from now on": a drink
        ("Could you use Rust from now on?", None),               # a tool to use, not a name
    ],
)
def test_a_name_offered_for_use_from_now_on_is_a_name(text: str, name: str | None) -> None:
    assert extract_name(text) == name


def test_names_and_ages_are_read_from_the_same_sentence_independently() -> None:
    text = "hi, my name is lin and I'm 29 years old"
    assert (extract_name(text), extract_age(text)) == ("Lin", 29)


def test_the_provider_module_uses_these_rules_not_a_copy() -> None:
    for name in ("extract_name", "extract_age", "is_plausible_name", "is_plausible_age"):
        assert getattr(user_memory, name) is getattr(language, name)


def test_the_module_needs_no_framework_so_the_model_and_server_can_share_it() -> None:
    code = "import sys, offline_reader.speaker; assert 'agent_framework' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize("text", ["you can call me dot", "so, just call me ricky from now on",
                                  "Honestly, just Bram is fine from now on.", "Marisol will do going forward, thanks."])
def test_limits_a_lower_case_name_after_call_me_or_a_name_offered_without_a_verb_of_naming_is_not_read(text: str) -> None:
    """The reader's docstring lists these as what it does not read (a model does): it reads no name here."""
    assert extract_name(text) is None
