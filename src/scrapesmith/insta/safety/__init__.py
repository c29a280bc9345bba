"""The InSTA proposer's safety filter: which sites an agent must never be sent to, and why.

Deterministic evidence comes first — the domain's words against category lexicons, sign-in and machine
hosts by their labels, the landing page's text, sign-in walls and non-HTML roots — then the model says
what the site is under a JSON schema, and the same rules read its description; refusal wins. Each
verdict carries its category, its quoted reason and the evidence, and is stored with the site's result.
"""

from scrapesmith.insta.safety.classifier import SafetyFilter, assess
from scrapesmith.insta.safety.corroborate import corroborate, site_support
from scrapesmith.insta.safety.domain_evidence import domain_evidence, split_domain
from scrapesmith.insta.safety.evaluate import SafetyReport, evaluate_safety_filter, groups, labelled_domains
from scrapesmith.insta.safety.knowledge import knowledge_evidence
from scrapesmith.insta.safety.landing import landing_evidence, snapshot_failure, snapshot_page
from scrapesmith.insta.safety.views import (
    Evidence,
    LandingSnapshot,
    ModelOpinion,
    SafetyVerdict,
    SiteDescription,
)

__all__ = [
    "Evidence", "LandingSnapshot", "ModelOpinion", "SafetyFilter", "SafetyReport", "SafetyVerdict",
    "SiteDescription", "assess", "corroborate", "domain_evidence", "evaluate_safety_filter", "groups", "knowledge_evidence",
    "labelled_domains", "landing_evidence",
    "site_support", "snapshot_failure", "snapshot_page", "split_domain",
]
