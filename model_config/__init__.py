"""Which model the lessons use, and the policy every call to it carries: read once, shared by everyone.

The lessons' chat clients (``chat_models``) and the local memory server's model reader
(``local_memory_server.understanding``) both import this package, and it imports neither: the server finds
the lessons' model without loading the lessons' chat clients or the offline lesson model.
"""

from .choice import CHOICES, DEFAULT_OPENAI_MODEL, KINDS, OFFLINE_MODEL_NAME, Choice, resolve_model
from .configuration import OFFLINE_HINT, ChatClientInfo, ModelConfigurationError
from .environment import find_env_file, lesson_environment, load_lesson_env
from .policy import CallPolicy, read_policy

__all__ = [
    "CHOICES",
    "DEFAULT_OPENAI_MODEL",
    "KINDS",
    "OFFLINE_HINT",
    "OFFLINE_MODEL_NAME",
    "CallPolicy",
    "ChatClientInfo",
    "Choice",
    "ModelConfigurationError",
    "find_env_file",
    "lesson_environment",
    "load_lesson_env",
    "read_policy",
    "resolve_model",
]
