"""Open the memory server a lesson talks to: the configured Cortadel server, or a local one started here.

Why here and not in ``lesson_utils``: starting the series' local server is the course's job, and the
taught library must not import the server. :mod:`lesson_utils.cortadel.server_choice` holds the choice
itself (which server, its key, a probe of ``/api/health``), which a production user keeps.
"""

from __future__ import annotations

from typing import Any

from lesson_utils.cortadel.server_choice import MemoryServerChoice, configured_server, probe_configured_server

__all__ = ["open_memory_server"]


def open_memory_server(*, probe: bool = True, **local_options: Any) -> MemoryServerChoice:
    """The real server from ``CORTADEL_BASE_URL`` if set (checked with ``/api/health`` unless
    ``probe=False``), else a freshly started local one.

    ``local_options`` go to ``start_memory_server`` (e.g. ``db_path=...``, ``api_keys={...}``)
    and are ignored for a real server.
    """
    configured = configured_server()
    if configured is not None:
        url, api_key = configured
        if probe:
            probe_configured_server(url, api_key)
        return MemoryServerChoice(url=url, api_key=api_key, local=False)
    from local_memory_server import start_memory_server

    server = start_memory_server(**local_options)
    return MemoryServerChoice(url=server.url, local=True, server=server)
