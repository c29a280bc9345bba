from scrapesmith.dom.parse import absolutize, document_base_url, parse_html
from scrapesmith.web.page import Page, parse_page


def test_broken_markup_is_repaired():
    tree = parse_html("<p>one<p>two<div>three</span></table><b>four")
    assert [p.text for p in tree.iter("p")] == ["one", "two"]
    assert tree.findtext(".//div") == "three"
    assert tree.tag == "html"


def test_empty_and_comment_only_documents_give_empty_html():
    for source in ("", "   ", b"", "<!-- nothing -->"):
        tree = parse_html(source)
        assert tree.tag == "html"
        assert tree.find("body") is not None


def test_str_with_xml_declaration_and_bom_parses():
    tree = parse_html('\ufeff<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>café</p></body></html>')
    assert tree.findtext(".//p") == "café"


def test_utf8_bom_bytes_parse_without_stray_characters():
    tree = parse_html(b"\xef\xbb\xbf<html><body><p>na\xc3\xafve</p></body></html>")
    assert tree.findtext(".//p") == "naïve"


def test_wrong_declared_encoding_in_bytes_is_overruled():
    content = '<html><head><meta charset="iso-8859-1"></head><body><p>Ærø – “quoted”</p></body></html>'
    tree = parse_html(content.encode("utf-8"), encoding="iso-8859-1")
    assert tree.findtext(".//p") == "Ærø – “quoted”"


def test_declared_transport_encoding_is_used_for_legacy_bytes():
    text = "<html><body><p>Déjà vu, crème brûlée</p></body></html>"
    tree = parse_html(text.encode("cp1252"), encoding="windows-1252")
    assert tree.findtext(".//p") == "Déjà vu, crème brûlée"


def test_nul_bytes_do_not_break_parsing():
    tree = parse_html("<p>a\x00b</p>")
    assert tree.findtext(".//p").startswith("a")


def test_base_href_sets_effective_base_url():
    tree = parse_html('<base href="/docs/"><a href="page.html">x</a>', url="http://example.test/a/b.html")
    assert document_base_url(tree) == "http://example.test/docs/"
    assert absolutize(tree, "page.html") == "http://example.test/docs/page.html"


def test_page_url_is_base_without_base_href():
    tree = parse_html("<a href='x'>x</a>", url="http://example.test/dir/index.html")
    assert absolutize(tree, "../y") == "http://example.test/y"


def test_swde_page_with_bom_before_base_href(swde_page):
    tree = parse_html(swde_page)
    assert document_base_url(tree) == "http://www.booksamillion.com/product/9780316125581"
    assert "Bree Tanner" in tree.findtext(".//title")


def test_parse_page_uses_page_url():
    page = Page(url="http://example.test/p/", content=b"<a href='q'>q</a>", text="<a href='q'>q</a>")
    tree = parse_page(page)
    assert absolutize(tree, "q") == "http://example.test/p/q"
