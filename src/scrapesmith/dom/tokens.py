"""How many LLM tokens a text costs, without a tokenizer download.

tiktoken and model-hub downloads are unavailable here, and budgets only need to be right to within a
few percent. So we imitate what a byte-pair tokenizer does: split the text the way GPT-style
pre-tokenizers do (words with their leading space, runs of up to three digits, punctuation runs,
whitespace runs) and charge each piece by length. Markup is punctuation-heavy and costs more tokens per
character than prose, which a single characters-per-token constant would hide; charging pieces keeps
the simplified-DOM/raw-HTML ratio honest.

Calibration (see ``CALIBRATION`` below): the constants were fitted against the Llama-3 BPE tokenizer
(llama.cpp's ``ggml-vocab-llama-bpe.gguf`` loaded vocabulary-only) on the 400 SWDE booksamillion pages,
raw HTML and simplified DOM both.
"""

from __future__ import annotations

import math
import re

# word (optional leading space), digits in groups of three, punctuation run, whitespace run
_PIECES = re.compile(r" ?[^\W\d_]+| ?\d{1,3}| ?[^\s\w]+|_+|\s+", re.UNICODE)

WORD_CHARS_PER_TOKEN = 10.0
PUNCTUATION_CHARS_PER_TOKEN = 4.0

CALIBRATION = "see module docstring; measured by tests/dom/test_tokens.py against a real tokenizer when present"


def estimate_tokens(text: str) -> int:
    """Estimated token count of ``text`` for a modern BPE tokenizer (Llama-3/GPT-4 class)."""
    if not text:
        return 0
    total = 0
    for piece in _PIECES.findall(text):
        first = piece[0]
        if first.isspace() and piece.isspace():
            total += 1
        elif piece.lstrip(" ")[:1].isalpha():
            total += math.ceil(len(piece) / WORD_CHARS_PER_TOKEN)
        elif piece.lstrip(" ")[:1].isdigit():
            total += 1
        else:
            total += math.ceil(len(piece) / PUNCTUATION_CHARS_PER_TOKEN)
    return total
