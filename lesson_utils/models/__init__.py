"""The lesson's model: the offline lesson model, and real models chosen from the environment."""

from __future__ import annotations

from .offline import OFFLINE_MODEL_NAME, ModelRequest, OfflineChatClient

__all__ = ["OFFLINE_MODEL_NAME", "ModelRequest", "OfflineChatClient"]
