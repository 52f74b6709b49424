"""Construction: the option table's defaults, and bad configuration rejected up front."""

from __future__ import annotations

import pytest
from agent_framework import ContextProvider

from lesson_utils import CortadelContextProvider, CortadelMemoryClient, MemoryClient
from lesson_utils.cortadel.rendering import DEFAULT_CONTEXT_PROMPT


def test_is_a_framework_context_provider_with_the_seed_defaults(memory):
    provider = CortadelContextProvider(client=memory)
    assert isinstance(provider, ContextProvider)
    assert provider.source_id == "cortadel"
    assert provider.top_k == 5
    assert provider.search_mode == "hybrid"
    assert provider.rerank is None and provider.memory_type is None
    assert provider.context_prompt == DEFAULT_CONTEXT_PROMPT
    assert provider.inject_as == "message"
    assert provider.scope_recall_to_session is False
    assert provider.deduplicate_across_turns is True
    assert provider.max_remembered_ids == 256
    assert provider.store_turns is True
    assert provider.await_persist is True
    assert provider.is_agent_memory is False
    assert provider.tags is None and provider.project is None
    assert provider.tools == []
    assert provider.raise_on_error is False
    assert provider.client is memory


def test_fake_satisfies_the_protocol(memory):
    assert isinstance(memory, MemoryClient)


async def test_base_url_and_user_id_build_an_sdk_client():
    async with CortadelContextProvider("http://127.0.0.1:9", "alice", api_key="k") as provider:
        assert isinstance(provider.client, CortadelMemoryClient)
        assert provider.user_id == "alice" and provider.client.user_id == "alice"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"base_url": "http://127.0.0.1:9"},
        {"user_id": "alice"},
        {"base_url": "  ", "user_id": "alice"},
        {"base_url": "http://127.0.0.1:9", "user_id": " "},
    ],
)
def test_needs_client_or_base_url_and_user_id(kwargs):
    with pytest.raises(ValueError, match="client= or both base_url and user_id"):
        CortadelContextProvider(**kwargs)


@pytest.mark.parametrize(
    "extra", [{"base_url": "http://127.0.0.1:9"}, {"user_id": "alice"}, {"api_key": "k"}]
)
def test_client_plus_connection_settings_is_ambiguous(memory, extra):
    with pytest.raises(ValueError, match="not both"):
        CortadelContextProvider(client=memory, **extra)


def test_client_must_implement_the_protocol():
    with pytest.raises(ValueError, match="MemoryClient"):
        CortadelContextProvider(client=object())


@pytest.mark.parametrize("top_k", [0, -1, 51, 1000, 2.5, True, "5"])
def test_top_k_outside_cortadel_range_is_rejected(memory, top_k):
    with pytest.raises(ValueError, match="top_k"):
        CortadelContextProvider(client=memory, top_k=top_k)


@pytest.mark.parametrize("top_k", [1, 50])
def test_top_k_bounds_are_accepted(memory, top_k):
    assert CortadelContextProvider(client=memory, top_k=top_k).top_k == top_k


@pytest.mark.parametrize("value", [-1, -256, 1.5])
def test_negative_max_remembered_ids_is_rejected(memory, value):
    with pytest.raises(ValueError, match="max_remembered_ids"):
        CortadelContextProvider(client=memory, max_remembered_ids=value)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"search_mode": "fuzzy"}, "search_mode"),
        ({"rerank": "bm25"}, "rerank"),
        ({"memory_type": "factual"}, "memory_type"),
        ({"inject_as": "system"}, "inject_as"),
        ({"tags": "work"}, "tags"),
        ({"tags": ["ok", 3]}, "tags"),
        ({"source_id": ""}, "source_id"),
        ({"source_id": "   "}, "source_id"),
    ],
)
def test_other_bad_options_are_rejected_with_a_clear_message(memory, kwargs, match):
    with pytest.raises(ValueError, match=match):
        CortadelContextProvider(client=memory, **kwargs)


def test_accepted_option_values(memory):
    provider = CortadelContextProvider(
        client=memory,
        search_mode="vector",
        rerank="cross_encoder",
        memory_type="semantic",
        inject_as="instructions",
        tags=("work", "alex"),
        source_id="cortadel-work",
    )
    assert provider.tags == ["work", "alex"]
    assert provider.source_id == "cortadel-work"


def test_include_memory_tools_builds_both_tools_once(memory):
    provider = CortadelContextProvider(client=memory, include_memory_tools=True)
    assert [t.name for t in provider.tools] == ["search_memory", "add_memories"]
    assert provider.tools[0] is provider.tools[0] and provider.tools[0] is provider._tools[0]


def test_on_error_must_be_callable(memory):
    with pytest.raises(TypeError, match="on_error"):
        CortadelContextProvider(client=memory, on_error="print")


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"base_url": "http://127.0.0.1:9"}, {"user_id": "a"}, {"base_url": "ftp://x", "user_id": "a"}],
)
def test_memory_client_needs_a_url_and_a_user(kwargs):
    with pytest.raises(ValueError):
        CortadelMemoryClient(**kwargs)


async def test_memory_client_closes_only_what_it_built():
    from cortadel import CortadelClient

    sdk = CortadelClient("http://127.0.0.1:9", "alice")
    wrapped = CortadelMemoryClient(sdk_client=sdk)
    await wrapped.aclose()
    assert not sdk._http.is_closed  # a client you passed in stays yours
    await sdk.aclose()

    owned = CortadelMemoryClient("http://127.0.0.1:9", "alice")
    await owned.aclose()
    assert owned.sdk_client._http.is_closed
    await owned.aclose()  # idempotent


def test_memory_client_rejects_sdk_client_plus_settings():
    from cortadel import CortadelClient

    with pytest.raises(ValueError, match="not both"):
        CortadelMemoryClient("http://127.0.0.1:9", "a", sdk_client=CortadelClient("http://127.0.0.1:9", "a"))


async def test_provider_closes_only_a_client_it_built(memory):
    built = CortadelContextProvider("http://127.0.0.1:9", "alice")
    async with built:
        pass
    assert built.client.sdk_client._http.is_closed

    closed = []

    class OwnedByCaller(type(memory)):
        async def aclose(self):  # would be called if the provider wrongly closed it
            closed.append(True)

    mine = OwnedByCaller()
    async with CortadelContextProvider(client=mine):
        pass
    assert closed == []


async def test_app_name_reaches_the_sdk_client_and_defaults_to_the_package():
    from lesson_utils.cortadel.client import APP_NAME

    default = CortadelContextProvider("http://127.0.0.1:9", "alice")
    custom = CortadelContextProvider("http://127.0.0.1:9", "alice", app_name="my-app")
    assert default.client.sdk_client._app_name == APP_NAME
    assert custom.client.sdk_client._app_name == "my-app"
    await default.aclose()
    await custom.aclose()
