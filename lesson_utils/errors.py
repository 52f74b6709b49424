"""The base of the package's own errors, and the one rule for how a notebook shows them.

A lesson error is a setup or input mistake the learner can fix (a missing key, a server that does
not answer, a session file that is not one), and its message already names the fix. In JupyterLab a
traceback through the package's internals would bury that sentence, so IPython is told to show the
one line ``ErrorName: message`` instead (``_render_traceback_`` is IPython's documented hook for
that). A real bug in the package is not a ``LessonError`` and keeps its full traceback.

Each error also keeps the builtin base that says what kind of mistake it is, so existing
``except ValueError`` / ``except RuntimeError`` code keeps working. The convention for those bases:

* ``TypeError`` — an argument is the wrong kind of object (not a session, not a memory client,
  not callable);
* ``ValueError`` — a setting or input has the right role but an unusable value (``top_k`` outside
  1–50, a blank user or conversation id, text that is not a saved session), whatever its type;
* ``RuntimeError`` / ``ConnectionError`` / ``LookupError`` / ``TimeoutError`` — the state of the
  world (configuration, a server, a store) stops the call.
"""

from __future__ import annotations

__all__ = ["LessonError"]


class LessonError(Exception):
    """A mistake the learner can fix; its message says how. Shown as one line in a notebook."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback: one clear line in a notebook."""
        return [f"{type(self).__name__}: {self}"]
