"""Settings, read from ``SCRAPESMITH_*`` environment variables (and ``OPENAI_*`` for remote models).

A bad value (``SCRAPESMITH_POLITENESS_DELAY=abc``) is a :class:`SettingsError`: one line naming the
variable, like every other user error.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from platformdirs import user_cache_dir
from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from scrapesmith.errors import ScrapesmithError

ENV_PREFIX = "SCRAPESMITH_"
DEFAULT_USER_AGENT = "scrapesmith/0.1 (+https://example.invalid/scrapesmith; polite bot)"


class Settings(BaseSettings):
    """Process-wide defaults. Every command-line flag overrides the matching setting."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore")

    llm: str | None = Field(default=None, description="openai:<model> | local[:0.5b|:1.5b|:/path.gguf] | none")
    cache_dir: Path = Field(default_factory=lambda: Path(user_cache_dir("scrapesmith")))
    user_agent: str = DEFAULT_USER_AGENT
    allow_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="hosts exempt from the private-address block (comma-separated or a JSON list)",
    )
    politeness_delay: float = Field(default=1.0, ge=0)
    max_per_host: int = Field(default=2, ge=1)
    timeout: float = Field(default=20.0, gt=0)
    max_bytes: int = Field(default=10 * 1024 * 1024, gt=0)


    @field_validator("allow_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        """Accept ``SCRAPESMITH_ALLOW_HOSTS=a,b`` and ``'["a", "b"]'`` as well as a list."""
        if isinstance(value, str) and value.strip().startswith("["):
            try:
                value = json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a JSON list of hosts ({exc.msg})") from None
        if isinstance(value, str):
            return [host.strip() for host in value.split(",") if host.strip()]
        return value

    @field_validator("politeness_delay", "timeout")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class SettingsError(ScrapesmithError):
    """A ``SCRAPESMITH_*`` variable holds a value its setting cannot take."""


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return read_settings()


def read_settings() -> Settings:
    """The settings as the environment holds them now; a bad variable is one :class:`SettingsError` line."""
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ENV_PREFIX + "_".join(str(part) for part in first["loc"][:1]).upper()
        value = first.get("input")
        shown = f"={value!r}" if isinstance(value, str | int | float) else ""
        raise SettingsError(f"bad setting {name}{shown}: {first['msg']}") from exc
