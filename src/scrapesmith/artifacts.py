"""Loading the JSON artefacts capabilities forge (scraper specs, list programs) with one-line errors.

Both artefacts are versioned pydantic models whose ``id`` is derived from their content, so a stored ``id``
is dropped on load and recomputed.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from scrapesmith.errors import ScrapesmithError

Model = TypeVar("Model", bound=BaseModel)


def read_json_object(text: str, what: str, error: type[ScrapesmithError]) -> dict[str, Any]:
    """The JSON object in ``text`` without its derived ``id``; ``error`` names ``what`` on bad input."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not JSON (invalid JSON: {exc.msg} at line {exc.lineno})") from exc
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
