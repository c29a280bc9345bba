"""Undoing ``Content-Encoding`` with a ceiling: a small compressed body must not become gigabytes in memory.

httpx undoes each ``Content-Encoding`` layer of a chunk in one step, before any size cap is checked: a
5 kB body served as ``gzip, gzip`` became more than 3 GB in one ``iter_bytes`` chunk (issue 43). Here
each layer (``gzip``, ``x-gzip``, ``deflate``; others pass through as httpx leaves them) inflates at most
:data:`STEP` bytes at a time from the raw bytes, and every layer's output is counted against the caller's
ceiling as it is made, so memory stays bounded whatever the stack of encodings.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

STEP = 64 * 1024
MAX_LAYERS = 4  # more stacked encodings than any server needs


class InflateError(ValueError):
    """The body cannot be inflated within its ceiling (``too_large``) or is not what its encoding says."""

    def __init__(self, message: str, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


class _Layer:
    """One encoding undone incrementally: ``feed`` yields pieces of at most :data:`STEP` bytes."""

    def __init__(self, encoding: str, ceiling: int) -> None:
        self.encoding = encoding
        self.ceiling = ceiling
        self.made = 0
        self._fresh = True  # nothing inflated yet: "deflate" may still turn out to be raw deflate
        self._ended = False  # a gzip member (or the deflate stream) ended; another member may follow
        self._ignoring = False  # what follows the end is no member: ignored, as httpx does
        self._pending = b""  # the first byte of what follows an end, until the second shows whether it is gzip
        self._z = self._decompressor()

    def _decompressor(self, raw: bool = False):
        if self.encoding == "deflate":
            return zlib.decompressobj(-zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
        return zlib.decompressobj(zlib.MAX_WBITS | 16)

    def feed(self, data: bytes) -> Iterator[bytes]:
        data, self._pending = self._pending + data, b""
        while not self._ignoring:
            if self._ended:
                if self.encoding == "deflate" or not b"\x1f\x8b".startswith(data[:2]):
                    self._ignoring = True
                    return
                if len(data) < 2:
                    self._pending = data
                    return
                self._z, self._ended = self._decompressor(), False
            try:
                out = self._z.decompress(data, STEP)
            except zlib.error as exc:
                if self.encoding == "deflate" and self._fresh:  # servers send raw deflate as "deflate" too
                    self._fresh = False
                    self._z = self._decompressor(raw=True)
                    continue
                raise InflateError(f"the {self.encoding} body is broken ({exc})") from None
            self._fresh = False
            if self._z.eof:
                data, self._ended = self._z.unused_data, True
            else:
                data = self._z.unconsumed_tail
            if out:
                self.made += len(out)
                if self.made > self.ceiling:
                    raise InflateError(f"the body inflates past {self.ceiling:,} bytes", too_large=True)
                yield out
            elif not data:
                return


def encodings(header_values: Iterable[str]) -> list[str]:
    """The ``Content-Encoding`` layers in the order they were applied (``identity`` dropped)."""
    found = [part.strip().lower() for value in header_values for part in value.split(",")]
    return [name for name in found if name and name != "identity"]


def inflate(raw: Iterable[bytes], applied: list[str], limit: int) -> Iterator[bytes]:
    """The decoded body of ``raw`` chunks encoded by ``applied`` (in order applied), in pieces of at most
    :data:`STEP` bytes; :class:`InflateError` as soon as any layer makes more than ``limit`` bytes (an inner
    layer's output is compressed data, which is never much larger than what it inflates to: it gets twice
    that). Encodings other than gzip and deflate pass through undecoded."""
    known = [name for name in applied if name in ("gzip", "x-gzip", "deflate")]
    if len(known) > MAX_LAYERS:
        raise InflateError(f"{len(known)} stacked content encodings (at most {MAX_LAYERS} are undone)")
    layers = [_Layer("deflate" if name == "deflate" else "gzip", limit if index == 0 else 2 * limit + STEP)
              for index, name in enumerate(known)]
    layers.reverse()  # the last applied is undone first

    def through(depth: int, data: bytes) -> Iterator[bytes]:
        if depth == len(layers):
            yield data
            return
        for piece in layers[depth].feed(data):
            yield from through(depth + 1, piece)

    for chunk in raw:
        if chunk:
            yield from through(0, chunk)
