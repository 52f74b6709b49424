"""Put the code a lesson teaches on the learner's screen: ``show_source(obj)``.

Lessons import their implementation from this package, which only teaches if the learner can read
it. ``show_source`` shows a class, function, method or module as it is in the installed package,
with its file path and real line numbers, syntax-highlighted in JupyterLab (and in the HTML
handouts) and as plain numbered text anywhere else.
"""

from __future__ import annotations

import html
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class SourceView:
    """The source lines of one object, where they live, and two ways to show them."""

    name: str
    path: str
    first_line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def __str__(self) -> str:
        width = len(str(self.first_line + len(self.lines)))
        numbered = (
            f"{number:>{width}}  {line.rstrip()}" for number, line in enumerate(self.lines, start=self.first_line)
        )
        return f"# {self.path}, lines {self.first_line}-{self.last_line}\n" + "\n".join(numbered)

    @property
    def last_line(self) -> int:
        return self.first_line + len(self.lines) - 1

    def _repr_html_(self) -> str:
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
        except ImportError:  # pragma: no cover - pygments ships with IPython
            body = f"<pre>{html.escape(str(self))}</pre>"
        else:
            formatter = HtmlFormatter(linenos="inline", linenostart=self.first_line, noclasses=True, style="default")
            body = highlight(self.text, PythonLexer(), formatter)
        title = html.escape(f"{self.path}, lines {self.first_line}\u2013{self.last_line}")
        return f'<div class="lesson-source"><div style="font-family:monospace;opacity:.7">{title}</div>{body}</div>'


def source_view(obj: Any) -> SourceView:
    """The :class:`SourceView` of a class, function, method or module (``TypeError`` for anything else)."""
    target = inspect.unwrap(obj) if callable(obj) else obj
    try:
        lines, first = inspect.getsourcelines(target)
        file = inspect.getsourcefile(target) or inspect.getfile(target)
    except (TypeError, OSError) as exc:
        raise TypeError(f"show_source needs a class, function, method or module; got {obj!r} ({exc})") from None
    path = Path(file).resolve()
    try:
        shown = path.relative_to(_PACKAGE_ROOT).as_posix()
    except ValueError:
        shown = path.as_posix()
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", repr(obj)))
    return SourceView(name=name, path=shown, first_line=max(first, 1), lines=tuple(lines))


def show_source(obj: Any) -> None:
    """Display ``obj``'s source: highlighted with line numbers in a notebook, numbered text elsewhere."""
    view = source_view(obj)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        print(view)
        return
    if get_ipython() is None:
        print(view)
    else:
        display(view)
