"""The top-level names the notebooks import resolve, lazily, to the module that defines them.

Two packages re-export names this way: ``lesson_utils`` (what the lessons teach) and ``course_kit`` (what a
notebook calls for the course itself).
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import course_kit
import lesson_utils

EXPORTS = [(package, name) for package in (lesson_utils, course_kit) for name in package.__all__]


@pytest.mark.parametrize(("package", "name"), EXPORTS, ids=[f"{p.__name__}.{n}" for p, n in EXPORTS])
def test_every_export_resolves_to_its_module(package, name: str) -> None:
    module = importlib.import_module(package._EXPORTS[name])
    assert module.__name__.startswith(package.__name__ + "."), "a package re-exports only its own modules' names"
    assert getattr(package, name) is getattr(module, name)


@pytest.mark.parametrize("package", [lesson_utils, course_kit])
def test_unknown_name_is_an_attribute_error(package) -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        package.no_such_thing  # noqa: B018


@pytest.mark.full  # slow: imports the package in a new process
def test_importing_the_package_does_not_load_the_embedding_model() -> None:
    code = ("import sys, lesson_utils, course_kit; lesson_utils.CortadelContextProvider; course_kit.start_lesson; "
            "print('onnxruntime' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
