"""JupyterLab widgets for the lessons: a chat box, a session inspector and a memory browser.

Each is an ``ipywidgets`` box that can also be driven from code, which is how the tests use them.
"""

from __future__ import annotations

from .activity import ProviderActivity
from .chat import ChatTurn, ChatWidget
from .inspector import SessionInspector, save_session_json, summarize_state
from .memory_browser import MemoryBrowser, MemoryRow

__all__ = [
    "ChatTurn",
    "ChatWidget",
    "MemoryBrowser",
    "MemoryRow",
    "ProviderActivity",
    "SessionInspector",
    "save_session_json",
    "summarize_state",
]
