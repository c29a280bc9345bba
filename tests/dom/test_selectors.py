import pytest

from scrapesmith.dom.parse import parse_html
from scrapesmith.dom.selectors import (
    SelectorError,
    absolute_xpath,
    css_selector,
    is_obfuscated_class,
    node_text,
    normalize_text,
    relative_xpath,
    robust_xpath,
    select,
    select_text,
)

BLOG = """<html><body><div id="blog"><ul>
<li class="blog-item"><div><div class="title"><a href="/a">First  post</a></div><div class="author css-1x2y3z">Ann</div></div></li>
<li class="blog-item"><div><div class="title"><a href="/b">Second post</a></div><div class="author">Bob</div></div></li>
</ul><a class="load-more" href="/p2">Next page</a></div>
<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table></body></html>"""


def _elements(tree):
    return [e for e in tree.iter() if isinstance(e.tag, str)]


def test_normalize_text_collapses_unicode_whitespace_and_zero_width():
    assert normalize_text("  a\u00a0\n b\u200b c\t") == "a b c"
    assert normalize_text(None) == ""


def test_node_text_skips_scripts_and_separates_blocks():
    tree = parse_html("<div><p>one</p><p>two<script>x()</script></p>t<b>ail</b></div>")
    assert node_text(tree.find(".//div")) == "one two tail"


def test_absolute_xpath_is_positional():
    tree = parse_html(BLOG)
    second = tree.xpath("//li")[1]
    assert absolute_xpath(second) == "/html/body/div/ul/li[2]"
    assert tree.xpath(absolute_xpath(second)) == [second]


@pytest.mark.parametrize("generate", [robust_xpath, css_selector])
def test_generated_selectors_select_exactly_the_node(generate):
    tree = parse_html(BLOG)
    for element in _elements(tree.find("body")):
        expression = generate(element)
        assert select(tree, expression) == [element], expression


def test_robust_selectors_prefer_ids_and_classes_over_positions():
    tree = parse_html(BLOG)
    load_more = tree.xpath("//a[@class='load-more']")[0]
    assert css_selector(load_more) == "a.load-more"
    assert "[" not in robust_xpath(tree.xpath("//div[@id='blog']")[0]).replace("[@id='blog']", "")


def test_hashed_classes_are_not_used():
    tree = parse_html(BLOG)
    author = tree.xpath("//div[contains(@class, 'author')]")[0]
    assert "css-1x2y3z" not in css_selector(author)
    assert "css-1x2y3z" not in robust_xpath(author)


@pytest.mark.parametrize("generate", [robust_xpath, css_selector])
def test_selectors_survive_sibling_insertion(generate):
    tree = parse_html(BLOG)
    target = tree.xpath("//a[@class='load-more']")[0]
    expression = generate(target)
    blog = tree.xpath("//div[@id='blog']")[0]
    blog.insert(0, parse_html("<p class='promo'>new</p>").find(".//p"))
    tree.find("body").insert(0, parse_html("<div class='banner'>hi</div>").find(".//div"))
    assert select(tree, expression) == [target]


@pytest.mark.parametrize("generate", [robust_xpath, css_selector])
def test_selectors_relative_to_a_list_item(generate):
    tree = parse_html(BLOG)
    item = tree.xpath("//li")[1]
    link = item.find(".//a")
    expression = generate(link, item)
    assert select(item, expression) == [link]
    other = tree.xpath("//li")[0]
    assert select_text(other, expression) == ["First post"]


def test_relative_xpath_from_ancestor():
    tree = parse_html(BLOG)
    item = tree.xpath("//li")[1]
    assert relative_xpath(item.find(".//a"), item) == "./div/div[1]/a"
    assert relative_xpath(item, item) == "."


def test_select_detects_css_and_xpath_and_normalises_text():
    tree = parse_html(BLOG)
    assert select_text(tree, ".title a") == ["First post", "Second post"]
    assert select_text(tree, "//div[@class='title']/a") == ["First post", "Second post"]
    assert select_text(tree, "a::attr(href)") == ["/a", "/b", "/p2"]
    assert select_text(tree, "a.load-more::text") == ["Next page"]
    assert select_text(tree, "count(//li)") == ["2"]
    assert select_text(tree, "td:nth-of-type(2)") == ["2", "4"]


def test_invalid_selectors_raise_selector_error():
    tree = parse_html(BLOG)
    with pytest.raises(SelectorError):
        select(tree, "//div[")
    with pytest.raises(SelectorError):
        select(tree, "div >> !!")


@pytest.mark.parametrize("name", ["css-1x2y3z", "sc-aXZVg", "Header_title__3xYzA", "jsx-123456", "a1b2c3"])
def test_hashed_class_names_are_obfuscated(name):
    assert is_obfuscated_class(name)


@pytest.mark.parametrize("name", ["blog-item", "productTitle", "col-md-6", "btn-primary", "item42", "clearfix"])
def test_semantic_class_names_are_not_obfuscated(name):
    assert not is_obfuscated_class(name)


def test_prefixed_office_tags_get_valid_selectors():
    tree = parse_html("<div><o:p>x</o:p><o:p>y</o:p></div>")
    for element in tree.iter("o:p"):
        for expression in (absolute_xpath(element), robust_xpath(element), css_selector(element)):
            assert select(tree, expression) == [element]
