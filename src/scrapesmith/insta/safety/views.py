"""Data of the safety filter: one piece of evidence, the model's opinion and the verdict on a site.

Kept apart from the rules (``evidence``, ``landing``) and the decision (``classifier``) so the pipeline,
the benchmark and the report read one vocabulary, and every verdict round-trips through JSON.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from scrapesmith.insta.safety.lexicon import KIND_CATEGORY

#: The reasons a site is refused; ``login`` and ``api_cdn`` are not harmful but give an agent nothing to do.
UNSAFE_CATEGORIES = (
    "weapons", "drugs", "counterfeit", "piracy", "gambling", "adult", "malware", "harmful", "login", "api_cdn",
)
CATEGORIES = ("safe", *UNSAFE_CATEGORIES)

Strength = Literal["strong", "weak", "benign"]


class Evidence(BaseModel):
    """One deterministic finding about a site.

    ``strong`` evidence refuses the site on its own; ``weak`` evidence makes it doubtful (the model settles
    it, or with no model the site is skipped, as the seed's proposer is told to do when unsure); ``benign``
    evidence is context (a school, a research centre, a ``.gov`` suffix) that weakens a content lexicon hit.
    """

    rule: str = Field(description="which rule fired, e.g. 'domain-lexicon', 'login-wall'")
    category: str
    strength: Strength
    quote: str = Field(description="the tokens or text the rule matched, quoted")
    detail: str = ""

    def line(self) -> str:
        return f"[{self.strength}] {self.category}: {self.detail or self.rule} ({self.quote!r})"


class LandingSnapshot(BaseModel):
    """What the filter keeps of a site's landing page: enough to see a sign-in wall or a machine host."""

    url: str
    status: int = 200
    content_type: str = "text/html"
    title: str = ""
    text: str = Field(default="", description="the visible text, whitespace collapsed")
    words: int = 0
    form_words: int = Field(default=0, description="words inside forms that hold a password field")
    password_fields: int = 0
    links: int = 0
    body: str = Field(default="", description="the start of a non-HTML body (JSON, script, CSS)")
    error: str | None = Field(default=None, description="why the page could not be read, if it could not")


class ModelOpinion(BaseModel):
    """The schema-constrained answer of the model over the evidence; the reason comes first, so a small
    model states what the site is before it names a category (the schema fixes the order)."""

    reason: str = Field(max_length=200, description="what the site is, quoting the domain, the page or the evidence")
    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    unsafe: bool


#: What the model may say a site is (see ``lexicon.KIND_CATEGORY`` for the category of each).
SITE_KINDS = tuple(KIND_CATEGORY)


class SiteDescription(BaseModel):
    """The model's knowledge of a site under a JSON schema: what it is, then which kind of site. It is not
    a verdict: the filter's rules read the kind's category and the description's words."""

    what: str = Field(max_length=120, description="what the site is, in one short sentence")
    kind: Literal[SITE_KINDS]  # type: ignore[valid-type]


class SafetyVerdict(BaseModel):
    """Whether the pipeline may send an agent to a site, and why; recorded per site in the run's output."""

    site: str
    unsafe: bool
    category: str = "safe"
    reason: str = ""
    decided_by: Literal["evidence", "model", "no-model"] = "evidence"
    evidence_status: Literal["unsafe", "doubtful", "clear"] = Field(
        default="clear", description="what the evidence alone said, before any model")
    evidence: list[Evidence] = Field(default_factory=list)
    model: ModelOpinion | None = None
    description: SiteDescription | None = None
    model_calls: int = 0
    error: str | None = None
    support: list[Evidence] = Field(default_factory=list, description="a refusal's evidence that is not the model's "
                                    "own word: the domain, the landing page, the pages read (insta.safety.corroborate)")
    overruled: str | None = Field(default=None, description="a refusal the pages read did not support: what was said")

    @property
    def verdict(self) -> str:
        return "unsafe" if self.unsafe else "safe"
