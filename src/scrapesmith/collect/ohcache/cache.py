"""The local cache system (node v_ics): artifacts stored once under a content id; messages carry the id.

With the cache on, a message says ``cache://a1b2c3…`` and agents fetch the artifact only when they need
it; with ablation A5 (``inline=True``) the artifact itself is embedded in every message that mentions it,
which is what inflates the token bill the paper measures.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from scrapesmith.errors import ScrapesmithError

PREFIX = "cache://"


class CacheMiss(ScrapesmithError):
    """A message referenced an artifact id the cache does not hold."""


class ArtifactCache:
    """Content-addressed files under ``root``; ``kinds`` remembers what each id holds."""

    def __init__(self, root: Path, inline: bool = False) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.inline = inline
        self.kinds: dict[str, str] = {}
        self.fetches = 0

    def put(self, kind: str, content: str) -> str:
        """Store ``content`` once and return its id (the same content always gets the same id)."""
        artifact_id = hashlib.sha256(f"{kind}\0{content}".encode()).hexdigest()[:12]
        path = self.root / artifact_id
        if not path.exists():
            path.write_text(content, encoding="utf-8")
        self.kinds[artifact_id] = kind
        return artifact_id

    def put_json(self, kind: str, value: object) -> str:
        return self.put(kind, json.dumps(value, ensure_ascii=False, sort_keys=True))

    def get(self, reference: str) -> str:
        """The artifact behind an id or a ``cache://`` reference; agents call this on demand."""
        artifact_id = reference.removeprefix(PREFIX)
        path = self.root / artifact_id
        if not artifact_id.isalnum() or not path.is_file():
            raise CacheMiss(f"no cached artifact '{reference}'")
        self.fetches += 1
        return path.read_text(encoding="utf-8")

    def get_json(self, reference: str) -> object:
        return json.loads(self.get(reference))

    def mention(self, artifact_id: str) -> str:
        """How a message refers to an artifact: its id, or (ablation A5) the artifact inlined."""
        if self.inline:
            return f"<artifact {artifact_id}>\n{(self.root / artifact_id).read_text(encoding='utf-8')}\n</artifact>"
        return f"{PREFIX}{artifact_id}"

    def __contains__(self, reference: str) -> bool:
        return (self.root / reference.removeprefix(PREFIX)).is_file()

    def __len__(self) -> int:
        return len(self.kinds)
