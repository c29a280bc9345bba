"""Loading the JSON artefacts capabilities forge (scraper specs, list programs) with one-line errors.

Both artefacts are versioned pydantic models whose ``id`` is derived from their content, so a stored ``id``
is dropped on load and recomputed. Everything a user hands in is checked before any work starts: the file
decodes as UTF-8 text, the JSON is not nested past reason, it is the right kind of artefact, its regexes
compile. Regexes then run with a time bound (:func:`regex_search`), so a pattern that backtracks without
end costs one value, not the run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import regex
from pydantic import BaseModel, ValidationError

from scrapesmith.errors import ScrapesmithError

Model = TypeVar("Model", bound=BaseModel)

REGEX_SECONDS = 1.0


class RegexTimeout(ScrapesmithError):
    """A pattern ran past :data:`REGEX_SECONDS` on one value (catastrophic backtracking)."""


def read_artifact_text(path: Path, what: str, error: type[ScrapesmithError]) -> str:
    """The text of the ``what`` file at ``path``: it must be a file, not empty, and UTF-8 (binary and UTF-16
    are refused). Every command that reads a spec, a program or a workflow reads it here, so a folder, an
    empty, a binary or a missing file gets the same one line everywhere."""
    path = Path(path)
    if path.is_dir():
        raise error(f"{path} is a folder, not a {what} file")
    if not path.is_file():
        raise error(f"{what} file not found: {path}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    if not data.strip():
        raise error(f"{path} is empty; a {what} is UTF-8 JSON")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise error(f"{path} is not a text {what} (binary or UTF-16); save it as UTF-8 JSON")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path} is not UTF-8 text (byte {exc.start}); a {what} is UTF-8 JSON") from exc


def check_kind(data: dict[str, Any], what: str, kind: str, required: str, error: type[ScrapesmithError]) -> None:
    """Refuse JSON of another kind before validating it: a ``kind`` other than ``kind``, or no ``required`` key.

    Every field of an artefact has a default, so without this any JSON object (``{"a": 1}``) would load
    as an empty artefact and a run would "succeed" with nothing.
    """
    if data.get("kind", kind) != kind:
        raise error(f"not a {what} (its kind is {data.get('kind')!r}, expected {kind!r})")
    if required not in data:
        raise error(f"not a {what} (no '{required}' key; keys: {', '.join(sorted(map(str, data))[:8]) or 'none'})")


def check_regex(pattern: str | None) -> str | None:
    """``pattern`` if it compiles (a pydantic validator for artefact fields), else ``ValueError``."""
    if pattern is not None:
        try:
            regex.compile(pattern)
        except (regex.error, RecursionError, OverflowError) as exc:
            raise ValueError(f"bad regex {pattern!r}: {exc}") from None
    return pattern


def regex_search(pattern: str, text: str) -> regex.Match[str] | None:
    """``re.search`` with a time bound: :class:`RegexTimeout` after :data:`REGEX_SECONDS`."""
    try:
        return regex.search(pattern, text, timeout=REGEX_SECONDS)
    except TimeoutError as exc:
        raise RegexTimeout(f"regex {pattern!r} ran over {REGEX_SECONDS:g} s on a {len(text)}-character value") \
            from exc


def read_json_object(text: str, what: str, error: type[ScrapesmithError]) -> dict[str, Any]:
    """The JSON object in ``text`` without its derived ``id``; ``error`` names ``what`` on bad input."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not JSON (invalid JSON: {exc.msg} at line {exc.lineno})") from exc
    except RecursionError as exc:
        raise error(f"{what} is nested too deeply to be a {what}") from exc
    if not isinstance(data, dict):
        raise error(f"{what} must be a JSON object")
    data.pop("id", None)
    return data


def validate_artifact(model: type[Model], data: dict[str, Any], what: str, error: type[ScrapesmithError]) -> Model:
    """``model`` built from ``data``; the first validation problem becomes a one-line ``error``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise error(f"invalid {what} ({where}: {first['msg']})") from exc
    except RecursionError as exc:
        raise error(f"{what} is nested too deeply to be a {what}") from exc
