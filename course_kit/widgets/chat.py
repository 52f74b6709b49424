"""A chat box for an agent and a session, showing what the context providers did each turn.

The widget is an ``ipywidgets.VBox``: display it in JupyterLab, or drive it from code (and tests)
with ``widget.text.value = "hi"; await widget.send()``. The send button schedules the same
``send()`` on the kernel's running event loop, so a turn never blocks the notebook.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from ._render import esc
from .activity import ProviderActivity, TurnRecorder, diff_state, observe_providers, snapshot_state

logger = logging.getLogger(__name__)

TurnCallback = Callable[["ChatTurn"], Any]


@dataclass
class ChatTurn:
    """One exchange: what the user sent, the streamed reply, and what the providers did."""

    user: str
    reply: str = ""
    error: str | None = None
    activity: list[ProviderActivity] = field(default_factory=list)
    done: bool = False

    @property
    def ok(self) -> bool:
        return self.done and self.error is None


def describe_failure(exc: BaseException) -> str:
    """One clear sentence for a failed turn (no traceback; the traceback goes to the log)."""
    message = str(exc).strip() or "(no message)"
    return f"This turn failed: {type(exc).__name__}: {message}"


class ChatWidget(widgets.VBox):
    """Text box + send button + transcript for ``agent`` in ``session``.

    Each reply is streamed into the transcript as it arrives; under it, one line per thing a
    provider did (instructions added, context injected, history replayed, state stored). A failed
    turn shows a readable message and the widget keeps working. ``inspector`` (anything with a
    ``refresh()`` method, e.g. :class:`SessionInspector`) is refreshed after every turn; more
    hooks can be added with :meth:`on_turn`.
    """

    def __init__(self, agent: Any, session: Any | None = None, *, inspector: Any | None = None, title: str = "Chat") -> None:
        self.agent = agent
        self.session = session if session is not None else agent.create_session()
        self.turns: list[ChatTurn] = []
        self._callbacks: list[TurnCallback] = []
        self._busy = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self.last_task: asyncio.Task[Any] | None = None

        self.title = widgets.HTML(f"<b>{esc(title)}</b> <small>session {esc(self.session.session_id)}</small>")
        self.transcript = widgets.VBox(
            layout=widgets.Layout(max_height="420px", overflow="auto", border="1px solid #ddd", padding="4px")
        )
        self.text = widgets.Text(placeholder="Type a message and press Send", layout=widgets.Layout(width="70%"))
        self.button = widgets.Button(description="Send", button_style="primary", icon="paper-plane")
        self.status = widgets.HTML("")
        self.button.on_click(lambda _button: self.schedule_send())
        self.add_class("lesson-chat-widget")
        super().__init__(children=[self.title, self.transcript, widgets.HBox([self.text, self.button]), self.status])
        if inspector is not None:
            self.on_turn(lambda _turn: inspector.refresh())

    # -- driving the widget ------------------------------------------------------------------

    def on_turn(self, callback: TurnCallback) -> None:
        """Call ``callback(turn)`` after every turn, successful or not."""
        self._callbacks.append(callback)

    @property
    def busy(self) -> bool:
        return self._busy

    def schedule_send(self) -> asyncio.Task[Any] | None:
        """What the Send button does: run :meth:`send` as a task on the running loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        task = loop.create_task(self.send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.last_task = task
        return task

    async def send(self, text: str | None = None) -> ChatTurn | None:
        """Send ``text`` (default: the text box) as one turn; returns the finished turn.

        Returns ``None`` without doing anything when there is nothing to send or a turn is
        still running (the status line says why).
        """
        message = (self.text.value if text is None else text).strip()
        if not message:
            self._set_status("Type a message first.")
            return None
        if self._busy:
            self._set_status("Still answering the previous message; wait for it to finish.")
            return None
        self._busy = True
        self.button.disabled = True
        self.text.value = ""
        self._set_status("…")
        turn = ChatTurn(user=message)
        self.turns.append(turn)
        view = widgets.HTML()
        self.transcript.children = (*self.transcript.children, view)
        self._render_turn(turn, view)
        try:
            await self._run_turn(turn, view)
        finally:
            turn.done = True
            self._busy = False
            self.button.disabled = False
            self._render_turn(turn, view)
            self._set_status(turn.error or "")
            for callback in self._callbacks:
                try:
                    result = callback(turn)
                    if asyncio.iscoroutine(result):
                        await result
                except Exception:  # a broken hook must not break the chat
                    logger.exception("ChatWidget on_turn callback failed")
        return turn

    async def _run_turn(self, turn: ChatTurn, view: widgets.HTML) -> None:
        before = snapshot_state(self.session)
        recorder = TurnRecorder()
        try:
            with observe_providers(self.agent, recorder, self.session):
                stream = self.agent.run(turn.user, session=self.session, stream=True)
                async for update in stream:
                    chunk = getattr(update, "text", "") or ""
                    if chunk:
                        turn.reply += chunk
                        self._render_turn(turn, view)
                final = await stream.get_final_response()
                if not turn.reply and final.text:
                    turn.reply = final.text
        except asyncio.CancelledError:
            turn.error = "This turn was cancelled."
            raise
        except Exception as exc:  # shown to the learner; the traceback goes to the log
            logger.info("Chat turn failed", exc_info=True)  # the learner sees the message, not a traceback
            turn.error = describe_failure(exc)
        finally:
            changes = diff_state(before, snapshot_state(self.session))
            recorder.add_state_changes(changes)
            turn.activity = recorder.results()
            if turn.error is not None and not changes:
                turn.error += " Nothing from this turn was stored in the session; fix the cause and send again."

    # -- rendering -------------------------------------------------------------------------------

    def _set_status(self, text: str) -> None:
        self.status.value = f"<span class='lesson-chat-status'>{esc(text)}</span>" if text else ""

    def _render_turn(self, turn: ChatTurn, view: widgets.HTML) -> None:
        parts = [f"<div class='lesson-chat-user'><b>You:</b> {esc(turn.user)}</div>"]
        if turn.reply or not turn.done:
            cursor = "" if turn.done else " ▌"
            parts.append(f"<div class='lesson-chat-reply'><b>Agent:</b> {esc(turn.reply)}{cursor}</div>")
        if turn.error:
            parts.append(f"<div class='lesson-chat-error' style='color:#b00020'>⚠ {esc(turn.error)}</div>")
        if turn.activity:
            actions = [(a.source_id, line) for a in turn.activity for line in a.lines()]
            items = "".join(f"<li><code>{esc(source)}</code>: {esc(line)}</li>" for source, line in actions)
            parts.append(
                "<details class='lesson-chat-activity'><summary style='color:#555'>"
                f"{activity_summary(len(turn.activity), len(actions))}</summary>"
                f"<ul style='white-space:pre-wrap'>{items}</ul></details>"
            )
        view.value = "<div style='margin:4px 0'>" + "".join(parts) + "</div>"

    def transcript_text(self) -> str:
        """The transcript as plain text (handy in tests and check cells)."""
        lines: list[str] = []
        for turn in self.turns:
            lines.append(f"You: {turn.user}")
            if turn.reply:
                lines.append(f"Agent: {turn.reply}")
            if turn.error:
                lines.append(f"Error: {turn.error}")
            lines += [f"  [{a.source_id}] {line}" for a in turn.activity for line in a.lines()]
        return "\n".join(lines)


def activity_summary(providers: int, actions: int) -> str:
    """The label over a turn's provider activity, counting both things it lists (``2 actions by 1 provider``)."""
    return (
        f"what the context providers did: {actions} action{'s' if actions != 1 else ''}"
        f" by {providers} provider{'s' if providers != 1 else ''}"
    )
