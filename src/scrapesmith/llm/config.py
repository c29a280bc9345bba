"""Settings of the LLM layer, read from ``SCRAPESMITH_LLM_*`` and ``OPENAI_*`` environment variables.

They live apart from the process-wide :class:`scrapesmith.config.Settings` because only providers read
them, and they are read afresh on each ``resolve_llm`` so a changed environment takes effect at once.
"""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class LLMSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SCRAPESMITH_LLM_", extra="ignore")

    timeout: float = Field(default=120.0, description="seconds per remote request")
    max_retries: int = Field(default=4, description="retries on 429/5xx/timeouts, with exponential backoff")
    concurrency: int = Field(default=4, description="simultaneous requests per endpoint")
    json_mode: str = Field(default="auto", description="auto | schema | object | prompt (remote only)")
    openai_model: str = Field(
        default="gpt-4o-mini",
        validation_alias=AliasChoices("SCRAPESMITH_LLM_OPENAI_MODEL", "OPENAI_MODEL"),
        description="model used by a bare 'openai' spec",
    )
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    openai_api_key: str | None = Field(default=None, validation_alias="OPENAI_API_KEY", repr=False)
    local_size: str | None = Field(default=None, description="embedded size used by a bare 'local' spec")
    context_size: int = Field(default=8192, description="llama.cpp context window of embedded models")
    threads: int = Field(default=2, description="CPU threads of embedded models")

    @property
    def openai_configured(self) -> bool:
        return bool(self.openai_base_url or self.openai_api_key)
