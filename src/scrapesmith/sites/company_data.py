"""Records behind the company sites (WebLists use cases): job postings, blog posts, testimonials.

Each company site renders the same kinds of records in its own markup; the records themselves come from
here so the three sites share one tested generator. URLs are assigned by the site that renders them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from scrapesmith.sites.html import slugify
from scrapesmith.sites.words import (
    BLOG_PATTERNS,
    BUSINESS_TOPICS,
    CITIES,
    CUSTOMER_COMPANIES,
    EMPLOYMENT_TYPES,
    FIRST_NAMES,
    INDUSTRIES,
    JOB_TITLES,
    LAST_NAMES,
    ROLES,
    SENIORITY,
    TESTIMONIAL_SENTENCES,
)


@dataclass
class CompanyData:
    name: str
    product: str
    categories: list[str]
    locations: list[str]
    jobs: list[dict] = field(default_factory=list)
    posts: list[dict] = field(default_factory=list)
    testimonials: list[dict] = field(default_factory=list)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _jobs(rng: random.Random, categories: list[str], locations: list[str], count: int) -> list[dict]:
    jobs, first_id = [], rng.randrange(1000, 9000)
    for i in range(count):
        category = categories[i % len(categories)] if i < len(categories) else rng.choice(categories)
        title = rng.choice(SENIORITY) + rng.choice(JOB_TITLES[category])
        posted = date(2024, 6, 28) - timedelta(days=rng.randrange(0, 75))
        jobs.append(
            {
                "id": str(first_id + 7 * i),
                "title": title,
                "category": category,
                "location": rng.choice(locations),
                "employment_type": rng.choice(EMPLOYMENT_TYPES),
                "posted": posted.isoformat(),
                "description": [
                    (
                        f"You will join our {category} team and own {rng.choice(BUSINESS_TOPICS).lower()} "
                        f"end to end."
                    ),
                    (
                        f"We value {rng.choice(('curiosity', 'ownership', 'clear writing', 'kindness'))}"
                        f" and give you the time to do deep work."
                    ),
                ],
            }
        )
    return sorted(jobs, key=lambda j: (j["category"], j["title"], j["id"]))


def _posts(rng: random.Random, company: str, product: str, count: int) -> list[dict]:
    posts, day, used = [], date(2024, 6, 20), set()
    authors = [_person(rng) for _ in range(4)]
    while len(posts) < count:
        topic = rng.choice(BUSINESS_TOPICS)
        title = rng.choice(BLOG_PATTERNS).format(
            topic=topic,
            topic_lower=topic.lower(),
            product=product,
            version=f"{rng.randrange(2, 6)}.{rng.randrange(0, 10)}",
            year=day.year,
            company=company,
        )
        if title in used:
            continue
        used.add(title)
        posts.append(
            {
                "slug": slugify(title),
                "title": title,
                "date": day.isoformat(),
                "author": rng.choice(authors),
                "summary": f"{topic} is easier than it looks. Here is what we learned.",
                "body": [
                    f"This post covers {topic.lower()} in practice.",
                    f"Teams using {product} asked us how we approach it, so we wrote it down.",
                    "We close with a checklist you can use tomorrow.",
                ],
            }
        )
        day -= timedelta(days=rng.randrange(5, 21))
    return posts


def _testimonials(rng: random.Random, count: int) -> list[dict]:
    customers = rng.sample(CUSTOMER_COMPANIES, count)
    return [
        {
            "name": _person(rng),
            "role": rng.choice(ROLES),
            "company": customer,
            "industry": INDUSTRIES[i % len(INDUSTRIES)],
            "slug": slugify(customer),
            "quote": " ".join(rng.sample(TESTIMONIAL_SENTENCES, rng.randrange(1, 3))),
        }
        for i, customer in enumerate(customers)
    ]


def company_data(
    seed: int, site: str, name: str, product: str, *, jobs: int, posts: int, testimonials: int
) -> CompanyData:
    rng = random.Random(f"{seed}:{site}")
    categories = sorted(rng.sample(sorted(JOB_TITLES), 5))
    locations = sorted(rng.sample(CITIES, 4))
    return CompanyData(
        name,
        product,
        categories,
        locations,
        _jobs(rng, categories, locations, jobs),
        _posts(rng, name, product, posts),
        _testimonials(rng, testimonials),
    )


def job_truth(job: dict) -> dict:
    """The columns a careers page shows for a job (the description stays on the job page only)."""
    return {k: job[k] for k in ("id", "title", "category", "location", "employment_type", "posted", "url")}


def post_truth(post: dict) -> dict:
    return {k: post[k] for k in ("title", "url", "date", "author", "summary")}


def testimonial_truth(item: dict) -> dict:
    return {k: item[k] for k in ("name", "role", "company", "industry", "quote", "url")}


def company_truth(site: str, data: CompanyData, careers: dict, blog: dict, testimonials_url: str) -> dict:
    return {
        "site": site,
        "company": data.name,
        "product": data.product,
        "careers": careers,
        "blog": blog,
        "testimonials_url": testimonials_url,
        "categories": data.categories,
        "locations": data.locations,
        "jobs": [job_truth(j) for j in data.jobs],
        "posts": [post_truth(p) for p in data.posts],
        "testimonials": [testimonial_truth(t) for t in data.testimonials],
    }
