"""Pages from the local disk: :class:`FileFetcher`, and :func:`expand_sources` for command-line inputs."""

from __future__ import annotations

import glob
import mimetypes
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from scrapesmith.config import get_settings
from scrapesmith.dom import decode_html
from scrapesmith.web.content import DEFAULT_ACCEPT_TYPES, accepts, sniff_media_type, text_problem
from scrapesmith.web.page import FetchError, Page, TooLarge, UnsupportedContent
from scrapesmith.web.safety import InvalidUrl

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
PAGE_SUFFIXES = HTML_SUFFIXES | {".xml", ".json"}


class FileFetcher:
    """Reads pages from local files and ``file://`` URLs (``Page.via == "file"``).

    Relative paths resolve against ``root`` (the working directory when ``None``). Directories are refused
    with a hint: expand them first with :func:`expand_sources`, so a typo never fetches thousands of files.
    With ``confine_to`` (files and directories), only files whose real path (symbolic links followed) lies
    inside one of them are read; anything else is refused, as a sandbox that mounts only those would.
    """

    def __init__(
        self, root: Path | None = None, *, accept_types: Iterable[str] = DEFAULT_ACCEPT_TYPES,
        max_bytes: int | None = None, confine_to: Iterable[str | Path] | None = None,
    ) -> None:
        self.root = root
        self.confine_to = None if confine_to is None else tuple(os.path.realpath(p) for p in confine_to)
        self.accept_types = tuple(t.lower() for t in accept_types)
        self.max_bytes = max_bytes if max_bytes is not None else get_settings().max_bytes

    def fetch(self, url: str) -> Page:
        started = time.monotonic()
        path = self.resolve(url)
        if self.confine_to is not None and not any(is_within(os.path.realpath(path), r) for r in self.confine_to):
            allowed = ", ".join(self.confine_to) or "none"
            raise FetchError(url, f"outside the local roots this run may read ({allowed})")
        if path.is_dir():
            raise FetchError(url, "is a folder; pass the files in it (e.g. DIR/*.html) or a URL-list file")
        if not path.is_file():
            raise FetchError(url, "no such file")
        size = path.stat().st_size
        if size > self.max_bytes:
            raise TooLarge(url, f"file is {size:,} bytes, over the {self.max_bytes:,}-byte cap")
        content = path.read_bytes()
        media_type = mimetypes.guess_type(path.name)[0] or sniff_media_type(content)
        if not accepts(self.accept_types, media_type):
            raise UnsupportedContent(url, f"content type {media_type} is not a document we read")
        text, encoding = decode_html(content)
        problem = text_problem(text)
        if problem is not None:
            raise UnsupportedContent(url, problem)
        return Page(
            url=path.as_uri(),
            content=content,
            text=text,
            headers={"Content-Type": media_type, "Content-Length": str(len(content))},
            content_type=media_type,
            encoding=encoding,
            requested_url=url,
            via="file",
            elapsed=time.monotonic() - started,
        )

    def resolve(self, source: str) -> Path:
        """The absolute path a file source names (a path or a ``file://`` URL)."""
        if source.lower().startswith("file:"):
            parts = urlsplit(source)
            if parts.netloc not in ("", "localhost"):
                raise InvalidUrl(source, f"file URLs on other hosts ({parts.netloc}) are not supported")
            return Path(url2pathname(parts.path))
        path = Path(source).expanduser()
        if not path.is_absolute() and self.root is not None:
            path = self.root / path
        return path.absolute()


def is_within(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or lies below it (both already absolute and resolved)."""
    return path == root or path.startswith(root.rstrip("/") + "/")


def is_web_url(source: str) -> bool:
    """True for http(s) URLs, including malformed ones, so the HTTP fetcher reports what is wrong."""
    return source.lower().startswith(("http://", "https://"))


def is_file_url(source: str) -> bool:
    return source.lower().startswith("file:")


def expand_sources(items: list[str]) -> list[str]:
    """Turn command-line sources into fetchable items, in order.

    URLs stay as they are; a directory becomes its page files (recursively, sorted); a glob becomes its
    matches; a ``.txt`` file is a list of sources, one per line (blank lines and ``#`` comments skipped,
    relative paths taken relative to the list file).
    """
    return list(iter_sources(items))


def iter_sources(items: Iterable[str]) -> Iterator[str]:
    """:func:`expand_sources` one item at a time: a URL list of a million lines is read as it is used."""
    for item in items:
        if is_web_url(item) or is_file_url(item):
            yield item
        elif glob.has_magic(item):
            matches = sorted(glob.glob(str(Path(item).expanduser()), recursive=True))
            if not matches:
                raise FetchError(item, "no file matches this pattern")
            for match in matches:
                yield from _expand_path(Path(match))
        else:
            yield from _expand_path(Path(item).expanduser())


def directory_pages(path: Path, suffixes: Iterable[str] = PAGE_SUFFIXES) -> tuple[list[Path], list[Path]]:
    """The page files under directory ``path`` (recursively, sorted by path) and the other files skipped."""
    wanted = frozenset(suffixes)
    pages, skipped = [], []
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        (pages if file.suffix.lower() in wanted else skipped).append(file)
    return pages, skipped


def _expand_path(path: Path) -> Iterator[str]:
    if path.is_dir():
        files, _skipped = directory_pages(path)
        if not files:
            raise FetchError(str(path), f"folder has no page files ({', '.join(sorted(PAGE_SUFFIXES))})")
        yield from (str(p) for p in files)
    elif path.is_file() and path.suffix.lower() == ".txt":
        yield from _read_source_list(path)
    else:
        # A missing file stays in the batch: fetching it fails as that page's error, and the others go on.
        yield str(path)


def _read_source_list(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            if is_web_url(entry) or is_file_url(entry) or Path(entry).is_absolute():
                yield entry
            else:
                yield str(path.parent / entry)


class LeavesSavedPages(FetchError):
    """A link or form of a saved page that leads off the saved pages: not followed, so a program recorded on
    files never reaches the network. ``message`` is the reason, the same for every such link."""

    reason = "leaves-saved-pages"


SAVED_SUFFIXES = ("", ".html", ".htm")


class SavedPages:
    """A :class:`~scrapesmith.web.Fetcher` for a program recorded on saved pages: it reads only files inside
    ``root`` (the folder of the pages given), and a link under ``base_url`` (the address the pages were saved
    from) from its saved copy there (``base/jobs/7`` -> ``root/jobs/7``, ``7.html`` or ``7.htm``). Anything
    else is :class:`LeavesSavedPages`, with the reason, instead of a request to the network."""

    def __init__(self, inner: object, root: Path, base_url: str | None = None) -> None:
        self.inner = inner
        self.root = Path(root).resolve()
        self.base_url = base_url.rstrip("/") + "/" if base_url else None

    def fetch(self, url: str) -> Page:
        if is_web_url(url):
            return self.inner.fetch(self._saved_copy(url))  # type: ignore[attr-defined]
        path = FileFetcher().resolve(url).resolve()
        if not is_within(str(path), str(self.root)):
            raise LeavesSavedPages(url, f"outside the folder of the saved pages ({self.root})")
        return self.inner.fetch(url)  # type: ignore[attr-defined]

    def _saved_copy(self, url: str) -> str:
        if self.base_url is None:
            raise LeavesSavedPages(url, "it leads to the web, off the saved pages")
        if not url.startswith(self.base_url) and url.rstrip("/") + "/" != self.base_url:
            raise LeavesSavedPages(url, f"it leads off {self.base_url}, the address the pages were saved from")
        relative = urlsplit(url[len(self.base_url):]).path.strip("/") if url.startswith(self.base_url) else ""
        stem = self.root / relative
        candidates = [stem / "index.html"] if not relative else [
            stem.with_name(stem.name + suffix) for suffix in SAVED_SUFFIXES] + [stem / "index.html"]
        for candidate in candidates:
            if candidate.is_file() and is_within(str(candidate.resolve()), str(self.root)):
                return str(candidate)
        raise LeavesSavedPages(url, f"no saved copy under {self.root} of a page of {self.base_url}")

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


def saved_root(sources: Iterable[str]) -> Path | None:
    """The folder holding every one of ``sources`` when they are all local files (saved pages), else None."""
    paths = []
    for source in sources:
        if is_web_url(source):
            return None
        paths.append(FileFetcher().resolve(source).resolve().parent)
    if not paths:
        return None
    return Path(os.path.commonpath([str(p) for p in paths]))
