"""Decode HTML bytes to text without mojibake, whatever the page claims about itself.

Servers and pages often lie about their charset: a header says ``utf-8`` while the bytes are cp1252, or a
header says ``iso-8859-1`` while the page is UTF-8 with a correct ``<meta charset>``. We follow the WHATWG
order of evidence (BOM, then transport charset, then ``<meta>``, then sniffing), but every *declared*
encoding is checked against the bytes with a strict decode before it is believed, so a wrong declaration
falls through to the next piece of evidence instead of producing garbage or raising.
"""

from __future__ import annotations

import codecs
import contextlib
import re

from charset_normalizer import from_bytes

# Longest BOMs first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# WHATWG maps these labels to windows-1252, which is what such pages really use.
_WHATWG_ALIASES = {"latin1": "cp1252", "iso8859-1": "cp1252", "ascii": "cp1252", "us-ascii": "cp1252"}
# Encodings under which (almost) any byte string decodes, so a strict decode proves nothing about them.
_PERMISSIVE = {"cp1252", "iso8859-15", "cp1251", "cp1250", "koi8-r", "iso8859-2", "iso8859-5", "mac-roman"}

# Most common legacy encodings on the web, most common first; used to break detector near-ties.
_WEB_PREVALENCE = ("cp1252", "cp1251", "gb18030", "gbk", "shift_jis", "euc_kr", "cp1250", "big5", "euc_jp")
_NEAR_TIE = 0.1

_META_SCAN_BYTES = 4096
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""",
    re.IGNORECASE,
)


def decode_html(content: bytes, declared: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding)`` for a document's bytes; never raises.

    ``declared`` is the charset the transport announced (the Content-Type header's ``charset``).
    The returned encoding is a Python codec name (``utf-8``, ``cp1252``, ``cp1251``…).
    """
    if not content:
        return "", normalise_encoding(declared) or "utf-8"
    for bom, encoding in _BOMS:
        if content.startswith(bom):
            return content[len(bom) :].decode(encoding, errors="replace"), encoding
    for candidate in (normalise_encoding(declared), meta_charset(content)):
        text = _try_declared(content, candidate)
        if text is not None:
            return text, candidate  # type: ignore[return-value]
    return _sniff(content)


def normalise_encoding(label: str | None) -> str | None:
    """Map a charset label to a Python codec name, or ``None`` when the label is unknown."""
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except (LookupError, ValueError):
        return None
    return _WHATWG_ALIASES.get(name, name)


def meta_charset(content: bytes) -> str | None:
    """The charset a ``<meta charset>`` or ``http-equiv`` tag in the document's head declares."""
    match = _META_CHARSET.search(content[:_META_SCAN_BYTES])
    return normalise_encoding(match.group(1).decode("ascii")) if match else None


def _try_declared(content: bytes, encoding: str | None) -> str | None:
    """Decode with a declared encoding if the bytes bear it out, else ``None``."""
    if encoding is None:
        return None
    if encoding.startswith(("utf-16", "utf-32")):
        # A page that really were UTF-16 without a BOM is vanishingly rare; an ASCII-compatible page
        # mislabelled as UTF-16 is common (the label was copied from elsewhere). Let the sniffer decide.
        return None
    if encoding in _PERMISSIVE and _is_non_ascii_utf8(content):
        # Valid multi-byte UTF-8 does not happen by accident in single-byte text: the label is wrong.
        return None
    try:
        return content.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _is_non_ascii_utf8(content: bytes) -> bool:
    if content.isascii():
        return False
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _sniff(content: bytes) -> tuple[str, str]:
    """Detect the encoding from the bytes alone; UTF-8 with replacement characters as the last resort."""
    if content.isascii() or _is_non_ascii_utf8(content):
        return content.decode("utf-8"), "utf-8"
    encoding = _likeliest_web_encoding(content)
    if encoding is not None:
        with contextlib.suppress(UnicodeDecodeError, LookupError):
            return content.decode(encoding), encoding
    return content.decode("cp1252", errors="replace"), "cp1252"


def _likeliest_web_encoding(content: bytes) -> str | None:
    """charset_normalizer's pick, preferring encodings common on the web when they fit about as well.

    On short Western European text the detector rates cp1257 and cp1252 alike and may pick the rarer one;
    breaking near-ties by how common an encoding is on the web avoids that kind of mojibake.
    """
    results = list(from_bytes(content))
    if not results:
        return None
    best = results[0]
    for preferred in _WEB_PREVALENCE:
        for result in results:
            name = normalise_encoding(result.encoding)
            if (
                name == preferred
                and result.chaos <= best.chaos + _NEAR_TIE
                and result.coherence >= best.coherence - _NEAR_TIE
            ):
                return name
    return normalise_encoding(best.encoding) or best.encoding
