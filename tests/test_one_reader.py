"""The offline reader is one small package (``offline_reader/``): the budget, and no English rules elsewhere.

Why: three hand-written readers grew to 3,442 lines and ~190 regular expressions tuned on dev sets until they
stopped generalising. The budget keeps the one reader small enough to read, and the scan keeps rules from
growing back elsewhere. A module outside the reader may use ``re`` only if :data:`ALLOWED` names it with the
reason; English word lists count too (a triple-quoted ``.split()`` vocabulary).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
#: The distribution's packages (pyproject's ``packages.find``); the reader is one of them.
PACKAGES = ("lesson_utils", "model_config", "offline_reader", "chat_models", "local_memory_server", "memory_evaluation",
            "course_kit")
READER = ROOT / "offline_reader"
MAX_LINES, MAX_REGEXES = 1200, 60
#: A regular-expression call site (``re.compile``/``search``/… ), each compiled pattern counted once.
CALL = re.compile(r"\bre\.(?:compile|search|match|sub|findall|fullmatch|split|finditer)\(")
#: An English vocabulary: a multi-line string of words split into a set.
WORD_LIST = re.compile(r'frozenset\(\s*"""[a-z\s\'-]{80,}"""\.split\(\)')

ALLOWED = {
    # not English reading: request validation, wire formats, rendering, file names
    "lesson_utils/cortadel/rendering.py": "renders memories into the context message (markup, not meaning)",
    "lesson_utils/cortadel/user_keys.py": "validates user-key strings",
    "lesson_utils/cortadel/query_rewriting.py": "splits a query into terms for the rewrite the lesson shows",
    "lesson_utils/cortadel/gating.py": "matches a configured gating pattern (the learner's own)",
    "lesson_utils/typed_state.py": "validates field names",
    "local_memory_server/rows.py": "SQLite row encoding",
    "local_memory_server/fulltext.py": "BM25 tokenising (and its stop words)",
    "local_memory_server/embeddings.py": "the MiniLM tokenizer's pre-split",
    "local_memory_server/model_decider.py": "pulls JSON out of a model's answer",
    "chat_models/request_reading.py": "reads the framework's memory file names",
    "chat_models/offline.py": "stream chunking", "chat_models/text_tool_calls.py": "parses tool calls written as text",
    # the offline lesson model's own conversation policy: what the user says of themselves (name, age, "remember …")
    # it reads through offline_reader.speaker; what stays there reads the lines the providers inject and its own
    # dispatch, not the user's English
    "chat_models/facts.py": "the offline model's fact sheet: third-person memory lines the providers inject ('The user's "
                            "name is Alex', '- Alex ships on Fridays') and which question asks for which fact",
    "chat_models/rules.py": "the offline model's dispatch: tool names, greetings, instructions it follows",
    "chat_models/text.py": "the offline model's restating grammar (you/your)",
    "chat_models/jokes.py": "the offline model's jokes and their follow-ups",
    "chat_models/summaries.py": "the offline model's summary requests",
    "chat_models/memory_tools.py": "tool-schema field names",
    "chat_models/memory_prompts.py": "the framework's memory prompts",
    "memory_evaluation/designs.py": "memory file names and tool-call parsing",
    "memory_evaluation/overfit.py": "compares dataset wording",
    "memory_evaluation/haystack.py": "dataset ids",
    "memory_evaluation/assistant_trial.py": "reply normalising for scoring",
    "course_kit/diagrams.py": "SVG rendering",
    "course_kit/live.py": "model-name parsing",
    "course_kit/exercises/_registry.py": "masks numbers in logged lines to compare a learner's log with the expected one",
    "course_kit/lessons/l06_seeded_state/checks.py": "checks a learner's file",
    "course_kit/lessons/l06_seeded_state/exercises.py": "exercise file names",
}


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def test_the_reader_is_within_its_budget() -> None:
    files = sorted(READER.glob("*.py"))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files)
    regexes = sum(len(CALL.findall(p.read_text(encoding="utf-8"))) for p in files)
    print(f"reader: {len(files)} files, {lines} lines, {regexes} regular expressions")
    assert lines <= MAX_LINES and regexes <= MAX_REGEXES


def test_no_english_rules_outside_the_reader_unless_allowed_with_a_reason() -> None:
    found = []
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        if path.is_relative_to(READER) or name in ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        if CALL.search(text) or WORD_LIST.search(text):
            found.append(name)
    assert found == [], f"English rules outside offline_reader/: {found}"


def test_every_allowed_module_exists_and_says_why() -> None:
    missing = [name for name, reason in ALLOWED.items() if not (ROOT / name).is_file() or not reason]
    assert missing == [], f"allowed modules that no longer exist: {missing}"


def test_the_scan_would_catch_a_rule() -> None:
    assert CALL.search('x = re.compile(r"\\bmoved to\\b")') and WORD_LIST.search(
        'W = frozenset("""a an the this that these those it its he she they them his her their there here you your what which who everyone somebody""".split())')
