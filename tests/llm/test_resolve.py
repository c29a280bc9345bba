"""Choosing the provider from --llm, SCRAPESMITH_LLM and what the machine offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.llm import (
    LLMError,
    ModelNotInstalled,
    NoModelConfigured,
    UnknownModelSetting,
    effective_spec,
    require_llm,
    resolve_llm,
    unwrap,
)
from scrapesmith.llm.openai_provider import OpenAICompatibleLLM

from .conftest import ChatServer, Step


def test_none_means_no_model(clean_env) -> None:
    assert resolve_llm("none") is None


def test_environment_setting_is_used_when_no_argument(clean_env) -> None:
    clean_env.setenv("SCRAPESMITH_LLM", "none")
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert resolve_llm() is None


def test_argument_beats_environment(clean_env, chat_server: ChatServer) -> None:
    clean_env.setenv("SCRAPESMITH_LLM", "none")
    clean_env.setenv("OPENAI_BASE_URL", chat_server.url)
    llm = resolve_llm("openai:arg-model")
    assert llm is not None and llm.name == "openai:arg-model"


def test_default_is_openai_when_an_endpoint_is_configured(clean_env, chat_server: ChatServer) -> None:
    clean_env.setenv("OPENAI_BASE_URL", chat_server.url)
    clean_env.setenv("OPENAI_MODEL", "served-model")
    chat_server.queue(Step(text="hi from the server"))
    llm = resolve_llm()
    assert isinstance(unwrap(llm), OpenAICompatibleLLM)
    assert llm.name == "openai:served-model"
    assert llm.complete(_request()).text == "hi from the server"
    assert chat_server.requests[0]["model"] == "served-model"


def test_default_is_none_without_endpoint_or_installed_weights(clean_env) -> None:
    assert effective_spec() == "none"
    assert resolve_llm() is None


def test_bare_openai_spec_uses_the_configured_model(clean_env, chat_server: ChatServer) -> None:
    clean_env.setenv("OPENAI_BASE_URL", chat_server.url)
    clean_env.setenv("SCRAPESMITH_LLM_OPENAI_MODEL", "team-model")
    assert resolve_llm("openai").name == "openai:team-model"


def test_unknown_spec_is_a_clear_error(clean_env) -> None:
    with pytest.raises(UnknownModelSetting, match="unknown model setting 'gpt4': use openai:<model> | local"):
        resolve_llm("gpt4")


def test_local_size_without_weights_says_how_to_install(clean_env) -> None:
    pytest.importorskip("llama_cpp", reason="the 'local' extra is not installed")
    with pytest.raises(ModelNotInstalled, match="embedded 0.5b model .* is not installed") as raised:
        resolve_llm("local:0.5b")
    assert raised.value.size == "0.5b"  # the command line says how to install it (cli/hints.py)


def test_local_path_that_does_not_exist_is_a_clear_error(clean_env, tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="the 'local' extra is not installed")
    with pytest.raises(LLMError, match="model file not found"):
        resolve_llm(f"local:{tmp_path / 'missing.gguf'}")


def test_unknown_local_size_lists_known_sizes(clean_env) -> None:
    pytest.importorskip("llama_cpp", reason="the 'local' extra is not installed")
    with pytest.raises(LLMError, match="known: 1.5b, 0.5b"):
        resolve_llm("local:7b")


def test_require_llm_names_the_setting() -> None:
    with pytest.raises(NoModelConfigured, match="collect needs a language model, but none is configured"):
        require_llm(None, "collect")


def _request():
    from scrapesmith.llm import ChatMessage, LLMRequest

    return LLMRequest(messages=[ChatMessage(role="user", content="hi")])
