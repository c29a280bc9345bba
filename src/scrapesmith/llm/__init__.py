"""The LLM layer: one seam (``LLM.complete``) and everything every model call goes through.

Typical use in a capability::

    llm = resolve_llm(options.llm, cache=not options.no_cache)     # None means "no model: heuristics"
    choice = ask_structured(llm, prompt, Choice, stage="induce.top_down")

``resolve_llm`` returns the configured provider wrapped in the SQLite response cache and the ledger;
``ask_structured`` enforces the output schema (grammar, JSON mode, tolerant parsing, one retry).
"""

from scrapesmith.dom.tokens import estimate_tokens
from scrapesmith.llm.cache import CachedLLM, ResponseCache
from scrapesmith.llm.client import effective_spec, parse_spec, require_llm, resolve_llm, unwrap, wrap_llm
from scrapesmith.llm.ledger import (
    Ledger,
    LedgerEntry,
    LedgerTotals,
    PriceTable,
    attribute_to,
    current_ledger,
    use_ledger,
)
from scrapesmith.llm.local import LocalLLM
from scrapesmith.llm.structured import ask_json, ask_structured, ask_text, parse_json_reply
from scrapesmith.llm.templates import list_prompts, render_prompt
from scrapesmith.llm.views import (
    LLM,
    ChatMessage,
    Completion,
    LLMError,
    LLMOutputError,
    LLMRequest,
    ModelNotInstalled,
    NoModelConfigured,
    PromptTooLongError,
    UnknownModelSetting,
)

__all__ = [
    "LLM",
    "CachedLLM",
    "ChatMessage",
    "Completion",
    "LLMError",
    "LLMOutputError",
    "LLMRequest",
    "Ledger",
    "LedgerEntry",
    "LedgerTotals",
    "LocalLLM",
    "ModelNotInstalled",
    "NoModelConfigured",
    "OpenAICompatibleLLM",
    "PriceTable",
    "PromptTooLongError",
    "ResponseCache",
    "UnknownModelSetting",
    "ask_json",
    "ask_structured",
    "ask_text",
    "attribute_to",
    "current_ledger",
    "effective_spec",
    "estimate_tokens",
    "list_prompts",
    "parse_json_reply",
    "parse_spec",
    "render_prompt",
    "require_llm",
    "resolve_llm",
    "unwrap",
    "use_ledger",
    "wrap_llm",
]


def __getattr__(name: str):
    """Import the OpenAI SDK (about a second) only when the remote provider is actually used."""
    if name == "OpenAICompatibleLLM":
        from scrapesmith.llm.openai_provider import OpenAICompatibleLLM

        return OpenAICompatibleLLM
    raise AttributeError(f"module 'scrapesmith.llm' has no attribute {name!r}")
