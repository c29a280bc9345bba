"""Settings, read from ``SCRAPESMITH_*`` environment variables (and ``OPENAI_*`` for remote models)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from platformdirs import user_cache_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_USER_AGENT = "scrapesmith/0.1 (+https://example.invalid/scrapesmith; polite bot)"


class Settings(BaseSettings):
    """Process-wide defaults. Every command-line flag overrides the matching setting."""

    model_config = SettingsConfigDict(env_prefix="SCRAPESMITH_", extra="ignore")

    llm: str | None = Field(default=None, description="openai:<model> | local[:0.5b|:1.5b|:/path.gguf] | none")
    cache_dir: Path = Field(default_factory=lambda: Path(user_cache_dir("scrapesmith")))
    user_agent: str = DEFAULT_USER_AGENT
    allow_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="hosts exempt from the private-address block (comma-separated)"
    )
    politeness_delay: float = 1.0
    max_per_host: int = 2
    timeout: float = 20.0
    max_bytes: int = 10 * 1024 * 1024


    @field_validator("allow_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        """Accept ``SCRAPESMITH_ALLOW_HOSTS=a,b`` as well as a list."""
        if isinstance(value, str):
            return [host.strip() for host in value.split(",") if host.strip()]
        return value


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
