"""What the seed pages' titles say about the record each page is about.

A page title names the page's record between words the template adds to every title ("… Stats, News, Photos -
Boston Celtics - ESPN"). What all seed titles share is template; what is left names the record, and the
element that prints it is the record's headline whatever its tag or class, even with more beside it.
"""

from __future__ import annotations

from collections.abc import Sequence


def title_cores(titles: Sequence[str]) -> list[tuple[str, ...]]:
    """Each seed title without the words every seed title shares at its start and end ("Ray Allen" of "Ray
    Allen Stats, News, Photos - Boston Celtics - ESPN"): the part that names the page's own record, one per
    part of :func:`page_title` (the document title, the OpenGraph title). Empty where the titles do not
    differ or nothing of a name's length is left."""
    parts = [title.split(" | ") for title in titles]
    if len(titles) < 2 or len({len(p) for p in parts}) != 1:
        return [() for _ in titles]
    cores: list[list[str]] = [[] for _ in titles]
    for index in range(len(parts[0])):
        split = [p[index].split() for p in parts]
        if len({tuple(words) for words in split}) < 2:
            continue
        prefix = len(common_words(split))
        suffix = len(common_words([words[::-1] for words in split]))
        for page, words in enumerate(split):
            core = " ".join(words[prefix : max(prefix, len(words) - suffix)])
            if len(core) >= 3 and core not in cores[page]:
                cores[page].append(core)
    return [tuple(c) for c in cores]


def common_words(lists: Sequence[Sequence[str]]) -> list[str]:
    """The words every list starts with."""
    common: list[str] = []
    for words in zip(*lists, strict=False):
        if len(set(words)) != 1:
            break
        common.append(words[0])
    return common


MAX_EXTRA_WORDS = 3


def leads_with(text: str, cores: Sequence[str]) -> bool:
    """Does ``text`` (folded) start with one of the title's record parts and go on past it at a word boundary
    with a short tag ("Ray Allen  #20  SG" for "ray allen")? Where a template prints the record's name with
    a little beside it; a box that goes on with a sentence ("… Review Read our reviews. Or post your own.")
    holds the name, it is not the name."""
    return any(text.startswith(core) and len(text) > len(core) and not text[len(core)].isalnum()
               and len(text[len(core):].split()) <= max(MAX_EXTRA_WORDS, len(core.split())) for core in cores)
