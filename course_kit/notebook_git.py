"""After a lesson is saved with its outputs, git still sees it unchanged (machinery of ``course.py``).

The nbstripout git filter (``course.py``, ``.gitattributes``) makes what git *stores* of an executed
lesson identical to the committed one. ``git status`` does not always run that filter, though: when a
file's size differs from the size its index entry records, git reports it modified without looking at
its content — and a lesson saved with its outputs is always larger. ``git diff`` then shows nothing while
``git status`` shows ``M``.

:func:`refresh` closes that gap for one saved notebook: when the filtered file is exactly what the index
holds, it records the file's new size and time in the index (what ``git add`` of an unchanged file does,
nothing staged). A notebook the learner edited is left alone, so their edits still show. ``course.py``
wires it into JupyterLab's saves (:func:`post_save`) and ``jupyter nbconvert --inplace`` (:class:`RefreshGitIndex`)
through the course environment's Jupyter configuration.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

__all__ = ["refresh", "post_save", "RefreshGitIndex", "JUPYTER_CONFIG"]

#: The Jupyter configuration (file name -> settings) that ``course.py`` writes into the course's environment.
JUPYTER_CONFIG = {
    "jupyter_server_config.json": {"FileContentsManager": {"post_save_hook": "course_kit.notebook_git.post_save"}},
    "jupyter_nbconvert_config.json": {"NbConvertApp": {"postprocessor_class": "course_kit.notebook_git.RefreshGitIndex"}},
}


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=False)


def refresh(path: str | Path) -> bool:
    """Record ``path``'s new size in git's index if its filtered content is what the index holds; True if it did."""
    notebook = Path(path).resolve()
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        return False
    folder = notebook.parent
    stored = _git(folder, "rev-parse", "--verify", "--quiet", f":./{notebook.name}")
    if stored.returncode != 0:  # not in a git checkout, or not tracked
        return False
    as_stored = _git(folder, "hash-object", "--", notebook.name)  # through the clean filter, like `git add`
    if as_stored.returncode != 0 or as_stored.stdout.strip() != stored.stdout.strip():
        return False  # the learner changed the lesson itself: git status should say so
    return _git(folder, "update-index", "--", notebook.name).returncode == 0


def post_save(model: dict[str, Any] | None = None, os_path: str = "", contents_manager: Any = None, **_: Any) -> None:
    """JupyterLab's ``FileContentsManager.post_save_hook``: :func:`refresh` the saved notebook."""
    if (model or {}).get("type", "notebook") == "notebook" and os_path:
        refresh(os_path)


try:
    from nbconvert.postprocessors import PostProcessorBase
except ImportError:  # nbconvert is not installed: nothing runs notebooks in place
    PostProcessorBase = object  # type: ignore[assignment,misc]


class RefreshGitIndex(PostProcessorBase):
    """``jupyter nbconvert --execute --inplace``'s post-processor: :func:`refresh` the notebook it wrote."""

    def postprocess(self, input: str) -> None:
        refresh(input)
