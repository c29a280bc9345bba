"""Understanding pages: parse, clean, simplify, render as markdown, build and evaluate selectors.

The few nouns every capability needs are re-exported here; each module's docstring says why it exists.
"""

from scrapesmith.dom.clean import clean_html, clean_tree
from scrapesmith.dom.encoding import decode_html
from scrapesmith.dom.ids import ID_ATTRIBUTE, assign_ids, node_id, nodes_by_id
from scrapesmith.dom.layout import (
    BOX_ATTRIBUTE,
    VIEWPORT,
    Box,
    PageLayout,
    layout_from_record,
    layout_record,
    unrendered,
)
from scrapesmith.dom.list_evidence import FEATURES, RankedList, rank_lists
from scrapesmith.dom.list_selection import (
    DATA_LIST_THRESHOLD,
    SECONDARY_FEATURES,
    SECONDARY_FLOOR,
    detect_lists,
    overlapping,
    secondary_features,
    select_lists,
)
from scrapesmith.dom.lists import (
    MIN_ITEMS,
    PREVIOUS_WORDS,
    RecordRegion,
    content_children,
    element_text,
    find_first_page,
    find_pagination,
    find_record_regions,
    fingerprint,
    is_element,
    least_common_ancestor,
    own_text,
    page_number,
    similarity,
)
from scrapesmith.dom.markdown import MarkdownView, accessible_name, to_markdown
from scrapesmith.dom.mutate import (
    LAYOUT_VERSIONS,
    MUTATIONS,
    TEMPLATE_MUTATIONS,
    VALUE_MUTATIONS,
    check_layout_version,
    layout_version,
    mutate_page,
    reformat_text,
)
from scrapesmith.dom.parse import (
    HtmlElement,
    absolutize,
    document_base_url,
    is_parsable_url,
    parse_html,
    safe_urljoin,
)
from scrapesmith.dom.selectors import (
    SelectorError,
    absolute_xpath,
    css_selector,
    css_to_xpath,
    is_obfuscated_class,
    is_stable_id,
    node_text,
    normalize_text,
    relative_xpath,
    robust_xpath,
    select,
    select_text,
)
from scrapesmith.dom.simplify import SimplifiedDom, simplify
from scrapesmith.dom.tokens import estimate_tokens
from scrapesmith.dom.visibility import (
    expanded_state,
    is_checked,
    is_focused,
    is_hidden,
    is_interactive,
    is_selected,
    live_value,
)

__all__ = ["BOX_ATTRIBUTE", "DATA_LIST_THRESHOLD", "FEATURES", "ID_ATTRIBUTE", "LAYOUT_VERSIONS", "MIN_ITEMS", "MUTATIONS",
           "PREVIOUS_WORDS", "SECONDARY_FEATURES", "SECONDARY_FLOOR", "TEMPLATE_MUTATIONS", "VALUE_MUTATIONS",
           "VIEWPORT", "Box", "HtmlElement", "MarkdownView", "PageLayout", "RankedList", "RecordRegion",
           "SelectorError", "SimplifiedDom", "absolute_xpath", "absolutize", "accessible_name", "assign_ids",
           "check_layout_version", "clean_html", "clean_tree", "content_children", "css_selector",
           "css_to_xpath", "decode_html", "detect_lists", "document_base_url", "element_text",
           "estimate_tokens", "expanded_state", "find_first_page", "find_pagination", "find_record_regions", "fingerprint",
           "is_checked", "is_element", "is_focused", "is_hidden", "is_interactive", "is_obfuscated_class",
           "is_parsable_url", "is_selected", "is_stable_id", "layout_from_record", "layout_record", "layout_version",
           "least_common_ancestor",
           "live_value", "mutate_page", "node_id", "node_text", "nodes_by_id", "normalize_text",
           "overlapping", "own_text", "page_number", "parse_html", "rank_lists", "reformat_text",
           "relative_xpath", "robust_xpath", "safe_urljoin", "secondary_features", "select", "select_lists",
           "select_text", "similarity", "simplify", "to_markdown", "unrendered"]
