"""Start pages (``collect --from``): http(s) URLs, local HTML files, ``file://`` URLs and directories of saved pages.

A URL is crawled as before (links under it). A local file or ``file://`` URL is read through ``fetch``'s
file route (:class:`~scrapesmith.web.files.FileFetcher`); a directory stands for its HTML files
(``.html``, ``.htm``, ``.xhtml``, ``.shtml``, recursively, sorted by path: every one is a crawl start), and
each other file in it is listed as skipped, with the reason, never dropped silently. Every local seed is a
*root*: its real path (symbolic links resolved) is what the research agents may read and what the sandbox
bind-mounts read-only for the program — nothing else on the disk.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from scrapesmith.collect.views import Seeds
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web import (
    HTML_SUFFIXES,
    FileFetcher,
    directory_pages,
    is_file_url,
    is_web_url,
    is_within,
)

_SUFFIXES = ", ".join(sorted(HTML_SUFFIXES))


def resolve_seeds(seeds: list[str]) -> Seeds:
    """The crawl starts, crawl scopes and local roots ``seeds`` name (in order; one line for a bad seed)."""
    resolved = Seeds()
    for seed in seeds:
        if is_web_url(seed):
            resolved.urls.append(seed)
            resolved.scopes.append(seed)
            continue
        scheme = urlsplit(seed).scheme
        if not is_file_url(seed) and scheme and len(scheme) > 1:
            raise ScrapesmithError(f"start page {seed}: unsupported URL scheme '{scheme}'; use http(s)://, file:// "
                                   "or a path")
        path = Path(os.path.realpath(FileFetcher().resolve(seed)))
        if path.is_dir() and path == Path(path.anchor):
            raise ScrapesmithError(f"start page {seed}: the whole file system is not a seed; name the saved pages' "
                                   "directory")
        if path.is_dir():
            _add_directory(resolved, seed, path)
        elif path.is_file():
            if path.suffix.lower() not in HTML_SUFFIXES:
                raise ScrapesmithError(f"start page {seed}: not an HTML page ({_SUFFIXES}); pass a saved page, a "
                                       "directory of saved pages or a URL")
            resolved.urls.append(path.as_uri())
            resolved.scopes.append(path.as_uri())
            resolved.roots.append(str(path))
        else:
            raise ScrapesmithError(f"start page {seed}: no such file or directory")
    resolved.roots = _outermost(resolved.roots)
    return resolved


def _add_directory(resolved: Seeds, seed: str, path: Path) -> None:
    pages, others = directory_pages(path, HTML_SUFFIXES)
    # a link to a file outside the directory is not in the sandbox either: skipped here, said so
    inside = [p for p in pages if is_within(os.path.realpath(p), str(path))]
    if not inside:
        raise ScrapesmithError(f"start page {seed}: no HTML pages ({_SUFFIXES}) in this folder"
                               + (f" ({len(others)} other files)" if others else ""))
    resolved.urls += [p.as_uri() for p in inside]
    resolved.scopes.append(path.as_uri().rstrip("/") + "/")
    resolved.roots.append(str(path))
    resolved.skipped += [f"{p} (not an HTML page)" for p in others]
    resolved.skipped += [f"{p} (links outside the directory)" for p in pages if p not in inside]


def _outermost(roots: list[str]) -> list[str]:
    """The roots without repeats and without those inside another one (in the order given)."""
    return [root for index, root in enumerate(roots) if root not in roots[:index]
            and not any(other != root and is_within(root, other) for other in roots)]
