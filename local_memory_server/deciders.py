"""Which update decider the server runs: the offline reader's, or the model's with the offline one behind it.

Why here: the decider seam (``UpdateDecider``) and the offline decider live in the shared reader
(``offline_reader.changes``), which imports nothing of the server; choosing between them by name, and the model
decider, are the server's own business.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offline_reader.changes import MeaningDecider, UpdateDecider

#: The decider names ``start_memory_server(update_decider=...)`` and the CLI accept.
DECIDERS = ("meaning", "model")


def make_decider(name: str | UpdateDecider, embed: Callable[[list[str]], Any] | None, *,
                 key: str | None = None) -> UpdateDecider:
    """The decider called ``name`` ("meaning" or "model"), embedding its examples with ``embed``."""
    if not isinstance(name, str):
        return name
    if name == "meaning":
        return MeaningDecider(embed, key=key)
    if name == "model":
        from .model_decider import ModelDecider

        return ModelDecider(fallback=MeaningDecider(embed, key=key))
    raise ValueError(f"update_decider={name!r} is not one of {', '.join(DECIDERS)}: pass one of those names.")

