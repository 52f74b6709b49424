"""A live view of ``session.state``, one section per provider ``source_id``, with a save button.

Lessons 02–05 teach that everything an agent "remembers" lives in the session; this widget makes
that visible after every turn (pass it to :class:`ChatWidget` as ``inspector=`` or call
:meth:`SessionInspector.refresh`).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ._render import esc, is_message_list, message_role, message_text, short
from .activity import is_probe_slot

logger = logging.getLogger(__name__)


def summarize_state(session: Any) -> dict[str, dict[str, Any]]:
    """``session.state`` as plain data: per ``source_id``, each key's value with messages as "role: text"."""
    summary: dict[str, dict[str, Any]] = {}
    for source_id, slot in session.state.items():
        if is_probe_slot(source_id):
            continue
        if not isinstance(slot, dict):
            summary[source_id] = {"value": slot}
            continue
        summary[source_id] = {
            key: [f"{message_role(m)}: {message_text(m)}" for m in value] if is_message_list(value) else value
            for key, value in slot.items()
        }
    return summary


def save_session_json(session: Any, path: str | Path) -> Path:
    """Write the session as JSON, through ``lesson_utils.persistence`` when it is available."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        from lesson_utils.persistence import save_session
    except ImportError:  # persistence is another lesson's module; fall back to the framework's own dict
        with open(path, "w", encoding="utf-8") as f:
            json.dump(session.to_dict(), f, ensure_ascii=False, indent=2)
        return path
    result = save_session(session, path)
    return Path(result) if isinstance(result, (str, Path)) else path


class SessionInspector(widgets.VBox):
    """Shows ``session.state`` by provider ``source_id``; ``refresh()`` re-reads it."""

    def __init__(self, session: Any, *, path: str | Path = "session.json", title: str = "Session state") -> None:
        self.session = session
        self.header = widgets.HTML()
        self.body = widgets.HTML(layout=widgets.Layout(max_height="420px", overflow="auto"))
        self.path = widgets.Text(value=str(path), description="Save to", layout=widgets.Layout(width="60%"))
        self.save_button = widgets.Button(description="Save session as JSON", icon="save", layout=widgets.Layout(width="auto"))
        self.status = widgets.HTML("")
        self.refresh_button = widgets.Button(description="Refresh", icon="refresh", layout=widgets.Layout(width="auto"))
        self.save_button.on_click(lambda _b: self.save())
        self.refresh_button.on_click(lambda _b: self.refresh())
        self._title = title
        self.add_class("lesson-session-inspector")
        super().__init__(
            children=[
                self.header,
                self.body,
                widgets.HBox([self.path, self.save_button, self.refresh_button]),
                self.status,
            ]
        )
        self.refresh()

    def summary(self) -> dict[str, dict[str, Any]]:
        return summarize_state(self.session)

    def refresh(self) -> None:
        """Re-read the session; call after each turn (ChatWidget does it for you)."""
        summary = self.summary()
        self.header.value = (
            f"<b>{esc(self._title)}</b> <small>session {esc(self.session.session_id)}"
            + (f", service session {esc(self.session.service_session_id)}" if self.session.service_session_id else "")
            + f" · {len(summary)} provider slot(s)</small>"
        )
        if not summary:
            self.body.value = "<i>session.state is empty: no provider has stored anything yet.</i>"
            return
        sections = []
        for source_id, slot in summary.items():
            rows = []
            for key, value in slot.items():
                if isinstance(value, list) and value and all(isinstance(v, str) for v in value) and key == "messages":
                    inner = "".join(f"<li>{esc(v)}</li>" for v in value)
                    rows.append(f"<li><code>{esc(key)}</code> ({len(value)}):<ol>{inner}</ol></li>")
                else:
                    rows.append(f"<li><code>{esc(key)}</code>: {esc(short(value, 400))}</li>")
            sections.append(
                f"<div class='lesson-state-slot'><b>state[<code>{esc(source_id)!r}</code>]</b>"
                f"<ul>{''.join(rows) or '<li><i>empty</i></li>'}</ul></div>"
            )
        self.body.value = "".join(sections)

    def save(self, path: str | Path | None = None) -> Path | None:
        """Save the session as JSON to ``path`` (default: the path box); the status line says where."""
        target = Path(path if path is not None else self.path.value.strip() or "session.json")
        try:
            written = save_session_json(self.session, target)
        except Exception as exc:  # shown to the learner, nothing else changes
            logger.info("Saving the session failed", exc_info=True)
            self.status.value = f"<span style='color:#b00020'>⚠ Could not save: {esc(type(exc).__name__)}: {esc(exc)}</span>"
            return None
        self.status.value = f"Saved to <code>{esc(written.resolve())}</code>"
        return written
