"""JSON schema → llama.cpp grammar for the embedded model: escaped by us, parsed by llama.cpp before use.

llama-cpp-python turns a schema into GBNF text with its own converter, which escapes ``"`` inside a
literal but not the backslash that ``json.dumps`` already put before it: an enum value ``1.92"`` (inches)
becomes ``"\\"1.92\\\\"\\""``, which llama.cpp cannot parse; its sampler is then NULL and the process dies
with a segmentation fault at the next token (issue 45). Here the same converter runs with every literal
escaped by :func:`grammar_literal` (backslash, quote, brackets and every control character), and the
text is then parsed once by llama.cpp's own parser (``llama_sampler_init_grammar`` with no vocabulary,
which parses and builds the grammar without a model) before any model sees it. A grammar that does not
parse raises :class:`GrammarError` with llama.cpp's reason, never reaches the sampler, and so fails
closed: callers treat it as they treat an unusable answer (it is an ``LLMOutputError``).
A schema the converter cannot handle at all gets llama-cpp-python's grammar for any JSON value, as before
(the reply is validated against the schema all the same). Results are cached per schema, so the check
costs once per distinct schema in a process.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import threading
from functools import lru_cache
from typing import Any

from scrapesmith.llm.views import GrammarError

ROOT_RULE = "root"
REASON_CHARS = 300
_ESCAPES = {"\\": "\\\\", '"': '\\"', "[": "\\[", "]": "\\]", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_TO_ESCAPE = re.compile(r'[\\"\[\]\x00-\x1f\x7f]')
_stderr_lock = threading.Lock()


def grammar_literal(text: str) -> str:
    """``text`` as a quoted GBNF literal that llama.cpp's parser reads back as exactly ``text``."""
    return '"' + _TO_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(0)) or f"\\x{ord(m.group(0)):02x}", text) + '"'


def schema_grammar(schema: dict[str, Any]) -> str:
    """GBNF text for ``schema``, checked by llama.cpp's parser; :class:`GrammarError` when it cannot be."""
    grammar, problem = _checked(json.dumps(schema, ensure_ascii=True))  # key order kept: it is the fields' order
    if problem is not None:
        raise GrammarError(f"the JSON schema's grammar is unusable: {problem}")
    return grammar


@lru_cache(maxsize=512)
def _checked(schema_text: str) -> tuple[str, str | None]:
    try:
        grammar = convert(json.loads(schema_text))
    except Exception:  # noqa: BLE001 — a schema part the converter does not support: any JSON, as llama-cpp-python
        from llama_cpp.llama_grammar import JSON_GBNF  # does; the reply is still validated against the schema

        grammar = JSON_GBNF
    return grammar, parse_problem(grammar)


def convert(schema: dict[str, Any]) -> str:
    """llama-cpp-python's schema converter with our literal escaping (no check)."""
    from llama_cpp.llama_grammar import SchemaConverter

    class _Escaping(SchemaConverter):
        def _format_literal(self, literal: str) -> str:
            return grammar_literal(literal)

    converter = _Escaping(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(converter.resolve_refs(schema, "stdin"), "")
    return converter.format_grammar()


def parse_problem(grammar: str) -> str | None:
    """``None`` when llama.cpp's parser accepts ``grammar`` (with a ``root`` rule), else its reason."""
    if "\x00" in grammar:
        return "the grammar text holds a NUL character"
    import llama_cpp

    with _stderr_captured() as captured:
        sampler = llama_cpp.llama_sampler_init_grammar(None, grammar.encode("utf-8"), ROOT_RULE.encode())
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
        _replay(captured)
        return None
    return _reason(captured) or "llama.cpp could not parse the grammar"


def _reason(captured: list[str]) -> str:
    lines = [line.strip() for line in "".join(captured).splitlines() if line.strip()]
    for line in lines:
        if "error parsing grammar" in line or "left recursion" in line or "does not contain" in line:
            return line[:REASON_CHARS]
    return lines[0][:REASON_CHARS] if lines else ""


def _replay(captured: list[str]) -> None:
    """Anything another thread wrote to stderr while it was captured goes back to stderr."""
    if captured and captured[0]:
        sys.stderr.write(captured[0])
        sys.stderr.flush()


class _stderr_captured:
    """Redirect file descriptor 2 (llama.cpp's parser writes its reason there with ``fprintf``)."""

    def __enter__(self) -> list[str]:
        _stderr_lock.acquire()
        self.captured: list[str] = []
        sys.stderr.flush()
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self.captured

    def __exit__(self, *exc_info: object) -> None:
        try:
            sys.stderr.flush()
            os.dup2(self.saved, 2)
            os.close(self.saved)
            self.file.seek(0)
            self.captured.append(self.file.read().decode("utf-8", "replace"))
            self.file.close()
        finally:
            _stderr_lock.release()
