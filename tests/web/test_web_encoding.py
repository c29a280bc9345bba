"""Charset handling: BOMs, lying headers, meta declarations, legacy single-byte pages."""

from __future__ import annotations

import codecs

import pytest
from fetch_test_server import ENCODED_PAGES, FRENCH, RUSSIAN, html

from scrapesmith.dom.encoding import decode_html, meta_charset, normalise_encoding


def test_header_claiming_utf8_for_cp1252_bytes_falls_back_without_mojibake():
    text, encoding = decode_html(html(FRENCH).encode("cp1252"), "utf-8")
    assert FRENCH in text and encoding == "cp1252"


def test_bom_wins_over_declared_charset():
    text, encoding = decode_html(codecs.BOM_UTF8 + html(FRENCH).encode("utf-8"), "iso-8859-1")
    assert text.startswith("<!DOCTYPE") and FRENCH in text and encoding == "utf-8"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_bom_is_honoured(codec):
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    text, encoding = decode_html(bom + html(RUSSIAN).encode(codec))
    assert RUSSIAN in text and encoding == codec


def test_utf8_body_under_a_latin1_header_is_read_as_utf8():
    text, encoding = decode_html(html(FRENCH, '<meta charset="utf-8">').encode("utf-8"), "ISO-8859-1")
    assert FRENCH in text and encoding == "utf-8"


def test_meta_charset_is_used_when_the_header_says_nothing():
    page = html(RUSSIAN, '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">')
    text, encoding = decode_html(page.encode("cp1251"))
    assert RUSSIAN in text and encoding == "cp1251"


def test_valid_header_charset_beats_a_lying_meta():
    page = html(RUSSIAN, '<meta charset="utf-8">').encode("cp1251")
    text, encoding = decode_html(page, "windows-1251")
    assert RUSSIAN in text and encoding == "cp1251"


def test_undeclared_cp1251_page_is_detected():
    text, encoding = decode_html(html(RUSSIAN).encode("cp1251"))
    assert RUSSIAN in text and encoding == "cp1251"


def test_unknown_declared_charset_is_ignored():
    text, encoding = decode_html("<p>plain é</p>".encode(), "x-made-up")
    assert text == "<p>plain é</p>" and encoding == "utf-8"


def test_undecodable_garbage_never_raises():
    text, _ = decode_html(bytes(range(256)) * 4, "utf-8")
    assert isinstance(text, str) and len(text) >= 256


def test_empty_content():
    assert decode_html(b"") == ("", "utf-8")


def test_meta_charset_and_label_normalisation():
    assert meta_charset(b'<head><meta charset="Shift_JIS"></head>') == "shift_jis"
    assert normalise_encoding("latin-1") == "cp1252", "WHATWG reads latin-1 labels as windows-1252"
    assert normalise_encoding("nonsense") is None


@pytest.mark.parametrize("name", sorted(ENCODED_PAGES))
def test_served_pages_decode_correctly(site, make_fetcher, name):
    page = make_fetcher().fetch(site.url(f"/enc/{name}"))
    expected = RUSSIAN if "cp1251" in name else FRENCH
    assert expected in page.text
    assert "\ufffd" not in page.text and "Ã" not in page.text
