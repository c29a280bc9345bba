from lxml import etree

from scrapesmith.dom.clean import clean_html, clean_tree
from scrapesmith.dom.parse import parse_html

HTML = """<html><head><style>p{}</style><script>var a;</script></head><body onload="x()">
<!-- comment --><?php echo 1 ?><noscript>enable js</noscript>
<div id="main" class="content wide" style="color:red" data-x="1"><a href="/a" class="link">A</a></div>
</body></html>"""


def test_cleaning_drops_scripts_styles_comments_and_keeps_only_class():
    cleaned = clean_tree(parse_html(HTML))
    assert not cleaned.xpath("//script | //style | //noscript | //comment() | //processing-instruction()")
    for element in cleaned.iter(etree.Element):
        assert set(element.attrib) <= {"class"}
    assert cleaned.xpath("//div/@class") == ["content wide"]
    assert cleaned.xpath("//a/text()") == ["A"]


def test_cleaning_returns_a_copy_and_keeps_requested_attributes():
    tree = parse_html(HTML)
    cleaned = clean_tree(tree, keep_attributes={"class", "href", "id"})
    assert cleaned.xpath("//a/@href") == ["/a"]
    assert cleaned.xpath("//div/@id") == ["main"]
    assert tree.xpath("//script"), "the original tree must stay untouched"
    assert tree.xpath("//div/@style") == ["color:red"]


def test_clean_html_serialises_cleaned_markup():
    text = clean_html(HTML)
    assert "script" not in text and "style=" not in text and 'class="link"' in text
