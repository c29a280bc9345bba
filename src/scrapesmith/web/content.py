"""Which documents scrapesmith reads: media-type matching and sniffing, shared by every fetcher."""

from __future__ import annotations

from collections.abc import Iterable

DEFAULT_ACCEPT_TYPES = (
    "text/html", "application/xhtml+xml", "application/xml", "text/xml", "application/json", "text/*",
)


def accepts(accept_types: Iterable[str], media_type: str) -> bool:
    """Whether ``media_type`` matches one of ``accept_types`` (``type/*`` wildcards and +xml/+json suffixes)."""
    main, _, sub = media_type.partition("/")
    for accepted in accept_types:
        if accepted in (media_type, "*/*", f"{main}/*"):
            return True
        suffix = accepted.rpartition("/")[2]
        if suffix in ("xml", "json") and sub.endswith(f"+{suffix}"):
            return True
    return False


def sniff_media_type(content: bytes) -> str:
    """A media type for a document that did not say: markup if it starts like markup, else plain text."""
    head = content[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in head:
        return "text/html"
    if head.startswith((b"<?xml", b"<")):
        return "application/xml"
    if head.startswith((b"{", b"[")):
        return "application/json"
    return "text/plain"


def text_problem(text: str) -> str | None:
    """What makes a document's decoded ``text`` no page to read, or None: empty, or binary (NUL bytes, or
    many undecodable bytes, early on). Every reader of pages asks this one question, so a saved page that
    is empty or not text gets the same plain answer from every command."""
    if not text.strip():
        return "is empty"
    head = text[:4096]
    if "\x00" in head or head.count("\ufffd") > 20:
        return "is binary, not a page"
    return None
