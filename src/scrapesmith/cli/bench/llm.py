"""`scrapesmith bench llm`: the model's prompt and generation speed and structured-output reliability."""

from __future__ import annotations

import typer

from scrapesmith.bench.frame import report
from scrapesmith.bench.llm import bench_llm
from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import JsonOutOption
from scrapesmith.config import read_settings
from scrapesmith.llm import (
    EMBEDDED_MODELS,
    LLM,
    LLMError,
    LLMSettings,
    build_provider,
    embedded_model,
    is_installed,
    parse_spec,
)


@bench_app.command("llm")
def bench_llm_command(
    sizes: str = typer.Option(",".join(EMBEDDED_MODELS), "--sizes", help="Comma-separated embedded sizes."),
    prompt_tokens: int = typer.Option(1500, "--prompt-tokens", min=50),
    answer_tokens: int = typer.Option(100, "--answer-tokens", min=1),
    probes: bool = typer.Option(True, "--probes/--no-probes", help="Also run the choice-accuracy probes."),
    json_out: JsonOutOption = None,
) -> None:
    """Embedded models: prompt and generation tokens/s, latency of a 1,500-in/100-out call, probe accuracy."""
    settings, llm_settings = read_settings(), LLMSettings()
    chosen = [embedded_model(size.strip()).size for size in sizes.split(",") if size.strip()]
    missing = [size for size in chosen if not is_installed(EMBEDDED_MODELS[size], settings.cache_dir)]
    if missing:
        raise LLMError(f"not installed: {', '.join(missing)} (run 'scrapesmith llm install --size SIZE')")

    def build(size: str) -> LLM:
        return build_provider(parse_spec(f"local:{size}"), settings, llm_settings)

    with console.status("benchmarking embedded models…") as status:
        result = bench_llm(chosen, build, prompt_tokens=prompt_tokens, answer_tokens=answer_tokens,
                           probes=probes, progress=status.update)
    report(result, json_out, case_columns=[
        "size", "load_s", "prompt_tokens_per_s", "generation_tokens_per_s", "call_prompt_tokens",
        "call_output_tokens", "call_latency_s", "probe_correct", "model_rss_mib",
    ])

