"""Choosing a model: turn a spec (``openai:<model>``, ``local[:size|:path]``, ``none``) into an LLM.

Every capability calls :func:`resolve_llm` with its ``--llm`` value and gets back one object wrapped in
the response cache and the ledger, or ``None`` for ``none`` — the signal to take the heuristic path.
With no spec anywhere, the default follows what the machine offers: a configured OpenAI-compatible
endpoint, else the embedded model when its extra and weights are installed, else ``none``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from scrapesmith.config import Settings, read_settings
from scrapesmith.llm.cache import CACHE_FILE_NAME, CachedLLM, ResponseCache
from scrapesmith.llm.config import LLMSettings
from scrapesmith.llm.ledger import Ledger, LedgeredLLM
from scrapesmith.llm.local import LocalLLM, llama_cpp_available
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, embedded_model, is_installed, model_path
from scrapesmith.llm.views import LLM, LLMError, ModelNotInstalled, NoModelConfigured, UnknownModelSetting

SPEC_HELP = "openai:<model> | local | local:0.5b | local:1.5b | local:/path/model.gguf | none"


@dataclass(frozen=True)
class LLMSpec:
    provider: str
    target: str | None = None

    def __str__(self) -> str:
        return f"{self.provider}:{self.target}" if self.target else self.provider


def parse_spec(spec: str) -> LLMSpec:
    provider, _, target = spec.strip().partition(":")
    provider = provider.lower()
    if provider in ("none", "local", "openai") and not (provider == "none" and target):
        return LLMSpec(provider, target.strip() or None)
    raise UnknownModelSetting(f"unknown model setting {spec!r}: use {SPEC_HELP}")


def default_spec(settings: Settings, llm_settings: LLMSettings) -> str:
    """``openai`` when an endpoint or key is configured, else ``local`` when usable, else ``none``."""
    if llm_settings.openai_configured:
        return f"openai:{llm_settings.openai_model}"
    if llama_cpp_available() and installed_sizes(settings.cache_dir):
        return "local"
    return "none"


def installed_sizes(cache_dir: Path) -> list[str]:
    """Installed embedded sizes, the default first."""
    order = [DEFAULT_SIZE, *(size for size in EMBEDDED_MODELS if size != DEFAULT_SIZE)]
    return [size for size in order if is_installed(EMBEDDED_MODELS[size], cache_dir)]


def effective_spec(spec: str | None = None, settings: Settings | None = None) -> str:
    """The spec that :func:`resolve_llm` would use: argument, else ``SCRAPESMITH_LLM``, else the default."""
    settings = settings or read_settings()
    return spec or settings.llm or default_spec(settings, LLMSettings())


def build_provider(spec: LLMSpec, settings: Settings, llm_settings: LLMSettings) -> LLM | None:
    """The bare provider for ``spec``, without cache or ledger."""
    if spec.provider == "none":
        return None
    if spec.provider == "openai":
        from scrapesmith.llm.openai_provider import OpenAICompatibleLLM

        return OpenAICompatibleLLM(
            spec.target or llm_settings.openai_model,
            base_url=llm_settings.openai_base_url,
            api_key=llm_settings.openai_api_key,
            timeout=llm_settings.timeout,
            max_retries=llm_settings.max_retries,
            concurrency=llm_settings.concurrency,
            json_mode=llm_settings.json_mode,
        )
    return _build_local(spec.target, settings, llm_settings)


def _build_local(target: str | None, settings: Settings, llm_settings: LLMSettings) -> LocalLLM:
    if not llama_cpp_available():
        raise LLMError("the local model needs llama-cpp-python: install scrapesmith with the 'local' extra")
    options = {"n_ctx": llm_settings.context_size, "n_threads": llm_settings.threads}
    if target and (target.endswith(".gguf") or "/" in target):
        path = Path(target).expanduser()
        return LocalLLM(path, name=f"local:{path.name}", model_label=path.stem, **options)
    size = target or llm_settings.local_size or _installed_or_default(settings.cache_dir)
    model = embedded_model(size)
    if not is_installed(model, settings.cache_dir):
        raise ModelNotInstalled(model.size, f"the embedded {model.size} model ({model.title}) is not installed")
    path = model_path(model, settings.cache_dir)
    return LocalLLM(path, name=f"local:{model.size}", model_label=path.stem, **options)


def _installed_or_default(cache_dir: Path) -> str:
    sizes = installed_sizes(cache_dir)
    return sizes[0] if sizes else DEFAULT_SIZE


_caches: dict[Path, ResponseCache] = {}
_caches_lock = threading.Lock()


def shared_cache(path: Path) -> ResponseCache:
    """One open cache per file per process."""
    path = Path(path).resolve()
    with _caches_lock:
        if path not in _caches:
            _caches[path] = ResponseCache(path)
        return _caches[path]


def wrap_llm(
    provider: LLM, *, cache: bool | Path | ResponseCache = True, ledger: Ledger | None = None,
    settings: Settings | None = None,
) -> LLM:
    """Put ``provider`` behind the response cache (unless ``cache`` is false) and the ledger."""
    llm: LLM = provider
    if cache is not False:
        if isinstance(cache, ResponseCache):
            store = cache
        elif isinstance(cache, Path):
            store = shared_cache(cache)
        else:
            store = shared_cache((settings or read_settings()).cache_dir / CACHE_FILE_NAME)
        llm = CachedLLM(llm, store)
    return LedgeredLLM(llm, ledger)


def resolve_llm(
    spec: str | None = None, *, cache: bool | Path | ResponseCache = True, ledger: Ledger | None = None
) -> LLM | None:
    """The model to use, cached and ledgered; ``None`` means ``none`` (take the heuristic path)."""
    settings = read_settings()
    llm_settings = LLMSettings()
    parsed = parse_spec(spec or settings.llm or default_spec(settings, llm_settings))
    provider = build_provider(parsed, settings, llm_settings)
    if provider is None:
        return None
    return wrap_llm(provider, cache=cache, ledger=ledger, settings=settings)


def require_llm(llm: LLM | None, purpose: str) -> LLM:
    """``llm`` itself, or :class:`NoModelConfigured` naming the setting that would provide one."""
    if llm is None:
        raise NoModelConfigured(
            f"{purpose} needs a language model, but none is configured"
        )
    return llm


def unwrap(llm: LLM) -> LLM:
    """The bare provider under any cache/ledger wrappers (for ``llm info`` and benchmarks)."""
    while isinstance(llm, (CachedLLM, LedgeredLLM)):
        llm = llm.inner
    return llm
