"""The top-level names the notebooks import resolve, lazily, to the module that defines them."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import lesson_utils


@pytest.mark.parametrize("name", lesson_utils.__all__)
def test_every_export_resolves_to_its_module(name: str) -> None:
    module = importlib.import_module(lesson_utils._EXPORTS[name])
    assert getattr(lesson_utils, name) is getattr(module, name)


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        lesson_utils.no_such_thing  # noqa: B018


@pytest.mark.full  # slow: imports the package in a new process
def test_importing_the_package_does_not_load_the_embedding_model() -> None:
    code = "import sys, lesson_utils; lesson_utils.get_chat_client; print('onnxruntime' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
