"""The LLM layer: one seam (``LLM.complete``) and everything every model call goes through.

Typical use in a capability::

    llm = resolve_llm(options.llm, cache=not options.no_cache)     # None means "no model: heuristics"
    choice = ask_structured(llm, prompt, Choice, stage="induce.top_down")

``resolve_llm`` returns the configured provider wrapped in the SQLite response cache and the ledger;
``ask_structured`` enforces the output schema (grammar, JSON mode, tolerant parsing, one retry).
"""

from scrapesmith.dom import estimate_tokens
from scrapesmith.llm.cache import CACHE_FILE_NAME, CachedLLM, ResponseCache
from scrapesmith.llm.client import (
    SPEC_HELP,
    build_provider,
    effective_spec,
    parse_spec,
    require_llm,
    resolve_llm,
    unwrap,
    wrap_llm,
)
from scrapesmith.llm.config import LLMSettings
from scrapesmith.llm.embed import EmbeddingModelMissing, embed_texts, embeddings_available, meaning_similarity
from scrapesmith.llm.ledger import (
    Ledger,
    LedgeredLLM,
    LedgerEntry,
    LedgerTotals,
    PriceTable,
    attribute_to,
    current_ledger,
    use_ledger,
)
from scrapesmith.llm.local import LocalLLM
from scrapesmith.llm.models import (
    DEFAULT_SIZE,
    EMBEDDED_MODELS,
    embedded_model,
    file_sha256,
    install_model,
    is_installed,
    model_path,
)
from scrapesmith.llm.structured import (
    JSONReplyError,
    ask_json,
    ask_structured,
    ask_text,
    describe_problem,
    parse_json_reply,
    with_schema_instruction,
)
from scrapesmith.llm.templates import list_prompts, render_prompt
from scrapesmith.llm.views import (
    LLM,
    ChatMessage,
    Completion,
    GrammarError,
    LLMError,
    LLMOutputError,
    LLMRequest,
    ModelNotInstalled,
    NoModelConfigured,
    PromptTooLongError,
    UnknownModelSetting,
)

__all__ = ["CACHE_FILE_NAME", "DEFAULT_SIZE", "EMBEDDED_MODELS", "LLM", "SPEC_HELP", "CachedLLM",
           "ChatMessage", "Completion", "EmbeddingModelMissing", "GrammarError", "JSONReplyError", "LLMError", "LLMOutputError", "LLMRequest",
           "LLMSettings", "Ledger", "LedgerEntry", "LedgerTotals", "LedgeredLLM", "LocalLLM",
           "ModelNotInstalled", "NoModelConfigured", "OpenAICompatibleLLM", "PriceTable",
           "PromptTooLongError", "ResponseCache", "UnknownModelSetting", "ask_json", "ask_structured",
           "ask_text", "attribute_to", "build_provider", "current_ledger", "describe_problem",
           "effective_spec", "embed_texts", "embedded_model", "embeddings_available", "estimate_tokens", "file_sha256", "install_model",
           "is_installed", "list_prompts", "meaning_similarity", "model_path", "parse_json_reply", "parse_spec", "render_prompt",
           "require_llm", "resolve_llm", "unwrap", "use_ledger", "with_schema_instruction", "wrap_llm"]


def __getattr__(name: str):
    """Import the OpenAI SDK (about a second) only when the remote provider is actually used."""
    if name == "OpenAICompatibleLLM":
        from scrapesmith.llm.openai_provider import OpenAICompatibleLLM

        return OpenAICompatibleLLM
    raise AttributeError(f"module 'scrapesmith.llm' has no attribute {name!r}")
