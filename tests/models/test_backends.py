"""The backend registry: one entry per backend, the policy rides on public middleware, and nothing
overrides or patches a framework underscore member."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from agent_framework import ChatContext, Message

from model_config import CHOICES, KINDS, Choice, choice
from chat_models import backends, selection
from chat_models.backends import BACKENDS, Backend
from model_config.configuration import ChatClientInfo
from chat_models.guard import ModelCallGuard
from chat_models.offline import OfflineChatClient
from model_config.policy import CallPolicy

MODELS = Path(selection.__file__).parent


def test_every_kind_of_model_is_chosen_in_model_config_and_built_here_once() -> None:
    kinds = [entry.kind for entry in CHOICES]
    assert len(kinds) == len(set(kinds)) and set(KINDS) == set(kinds)
    assert sorted(entry.kind for entry in BACKENDS) == sorted(kinds), "a Choice without a Backend, or the reverse"
    assert CHOICES[-1].kind == "offline", "offline always applies, so it must be tried last"
    assert CHOICES[-1].detect({}) is not None


def test_adding_a_kind_of_model_is_one_choice_and_one_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[ChatClientInfo] = []

    def build(info: ChatClientInfo, env: object) -> OfflineChatClient:
        built.append(info)
        return OfflineChatClient()

    echo = Choice(
        kind="echo",
        detect=lambda env: "ECHO_MODEL is set" if env.get("ECHO_MODEL") else None,
        resolve=lambda env, reason, env_file: ChatClientInfo("echo", env.get("ECHO_MODEL"), None, reason, env_file),
    )
    monkeypatch.setattr(choice, "CHOICES", (echo, *CHOICES))
    monkeypatch.setattr(choice, "KINDS", (*KINDS, "echo"))
    monkeypatch.setattr(backends, "BACKENDS", (Backend(kind="echo", build=build), *BACKENDS))
    info = choice.resolve_model({"ECHO_MODEL": "parrot"})
    assert (info.kind, info.model, info.reason) == ("echo", "parrot", "ECHO_MODEL is set")
    assert choice.resolve_model({"LESSON_MODEL": "echo", "ECHO_MODEL": "p"}).reason == "LESSON_MODEL=echo"
    backends.backend("echo").build(info, {})
    assert built == [info]


def test_the_memory_server_finds_the_model_without_the_lessons_chat_clients() -> None:
    code = ("import sys, local_memory_server.server, local_memory_server.understanding; "
            "print(sorted(m for m in sys.modules if m.startswith('chat_models')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded


def test_no_module_overrides_or_patches_a_framework_underscore_member() -> None:
    for path in sorted(MODELS.glob("*.py")):
        if path.name in {"offline.py"}:  # the offline model *is* a chat client: it implements the documented hook
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                assert not any("ChatClient" in b for b in bases), f"{path.name}: {node.name} subclasses {bases}"
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        assert not target.attr.startswith("_") and target.attr != "get_response", (
                            f"{path.name}:{node.lineno} assigns {ast.unparse(target)}"
                        )


async def test_the_guard_adds_the_policy_options_without_overriding_the_callers() -> None:
    info = ChatClientInfo("foundry", "m", None, "test")
    guard = ModelCallGuard(info, CallPolicy(timeout=5, max_tokens=None, keep_history_local=True))
    seen: list[dict] = []

    async def call_next() -> None:
        seen.append(dict(context.options))

    context = ChatContext(client=OfflineChatClient(), messages=[Message("user", ["hi"])], options={"temperature": 0})
    await guard.process(context, call_next)
    context = ChatContext(client=OfflineChatClient(), messages=[Message("user", ["hi"])], options={"store": True})
    await guard.process(context, call_next)
    assert seen == [{"store": False, "temperature": 0}, {"store": True}]


def test_the_offline_model_is_built_plain() -> None:
    assert isinstance(backends.backend("offline").build(choice.resolve_model({}), {}), OfflineChatClient)


def test_foundry_keeps_history_local_through_options_and_its_class(clean_env) -> None:
    """Foundry's client stores conversations by default; the backend asks for store=False in every call's
    options (through the guard) and tells the Agent so with a subclass's public STORES_BY_DEFAULT,
    never by patching the instance. A stand-in FoundryChatClient replaces the optional extra here."""
    import sys
    import types

    class FoundryChatClient:
        STORES_BY_DEFAULT = True

        def __init__(self, *, project_endpoint, model, credential, middleware=None):
            self.model, self.chat_middleware = model, list(middleware or [])

    class AzureCliCredential:
        pass

    clean_env.setitem(sys.modules, "agent_framework_foundry", types.SimpleNamespace(FoundryChatClient=FoundryChatClient))
    clean_env.setitem(sys.modules, "azure.identity.aio", types.SimpleNamespace(AzureCliCredential=AzureCliCredential))
    clean_env.setenv("FOUNDRY_PROJECT_ENDPOINT", "https://x.services.ai.azure.com/api/projects/p")
    clean_env.setenv("FOUNDRY_MODEL", "gpt-4o-mini")
    client = selection.get_chat_client()
    assert isinstance(client, FoundryChatClient) and client.model == "gpt-4o-mini"
    assert type(client).STORES_BY_DEFAULT is False and "STORES_BY_DEFAULT" not in vars(client)
    (guard,) = client.chat_middleware
    assert isinstance(guard, ModelCallGuard) and guard.policy.options() == {"store": False}
