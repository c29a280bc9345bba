"""Value kinds: what sort of value a field holds, read from the words of its name and description.

A field a user names ("salary", "birthplace", "release_date", "studio") is matched to a *kind* by the
ordinary English words that ask for it, never by a list of benchmark attributes. Each kind brings

* a recogniser, used as a hard check (an ISBN, a price, a date, a phone number, a URL: every value must
  have the shape) or as soft evidence (a person's name, an organisation, a short category);
* the labels pages print for it beyond the field's own words ("Tel" for a phone, "by" for a creator);
* whether a record usually has several (creators, genres) and how long a value may be;
* whether its recogniser is specific enough to *find* values by itself (a phone number is; "a short
  capitalised name" is not, so an organisation is found by labels and headings and only checked by it).

The words a kind answers to are about the language of fields, so a field no kind knows still gets its own
words as labels and no type: the evidence then comes from labels, headings and the pages themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_MONTHS = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE = re.compile(
    rf"\b{_MONTHS}\s+(\d{{1,2}}(st|nd|rd|th)?,?\s+)?\d{{4}}\b|\b\d{{1,2}}\s+{_MONTHS},?\s+\d{{4}}\b"
    r"|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|^\s*(19|20)\d{2}\s*$",
    re.IGNORECASE,
)
MONEY = re.compile(r"([$£€¥₹]|\b(usd|eur|gbp|cad|aud)\b)\s?\d[\d,]*(\.\d\d)?|\b\d[\d,]*\.\d\d\b", re.IGNORECASE)
PHONE = re.compile(r"(\+?\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s./-]?\d{3}[\s.-]\d{4}\b|\+\d[\d\s().-]{7,16}\d")
URL = re.compile(r"https?://|\bwww\.|\b[\w-]+\.(com|edu|org|net|gov|io|co|us|uk|de|fr|ca|au|info|biz)\b",
                 re.IGNORECASE)
_UNITS = (r"ft|feet|foot|in|inch|inches|cm|mm|m|km|mi|miles?|lbs?|pounds?|kg|g|oz|ounces?|mpg|mph|kph|km/h"
          r"|hp|bhp|kw|l|liters?|litres?|cc|gb|mb|tb|mp|megapixels?|x|yds?|yards?|sq\.? ?ft|acres?")
MEASURE = re.compile(rf"\b\d+(\.\d+)?\s*(-\s*\d+(\.\d+)?\s*)?-?\s*({_UNITS})\b\.?|\b\d\s*['’]\s*\d{{1,2}}\b|\b\d-\d{{1,2}}\b"
                     r"|\b\d{1,3}\s*/\s*\d{1,3}\b", re.IGNORECASE)
_LABEL_UNIT = re.compile(rf"\((?P<unit>{_UNITS})\)\s*:?\s*$|\bin\s+(?P<word>{_UNITS})\s*:?\s*$", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"[\d.,]+(\s*-\s*[\d.,]+)?")
RATING_CODE = re.compile(r"^\s*([Rr]ated\s+)?(G|PG|PG-13|R|NC-17|NR|X|Not Rated|Unrated|Approved|TV-(Y7?|G|PG|14|MA)"
                         r"|E10\+|EC|AO|RP|U|12A?|15|18)\b")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
COUNT = re.compile(r"^\s*\d[\d,]*\s*([a-z]+)?\s*$", re.IGNORECASE)
PERSON = re.compile(r"^([A-Z][\w'.-]*\.?\s+){1,4}[A-Z][\w'.-]+$")
ADDRESS = re.compile(r"\d+\s+\w+.*\b(st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|pl|place|ct"
                     r"|court|hwy|highway|pkwy|parkway|sq|square|ter|terrace)\b|\b[A-Z]{2},?\s+\d{5}\b", re.IGNORECASE)
IDENTIFIER = re.compile(r"^\s*(?=[\w./-]*\d)[A-Za-z0-9][\w./-]{2,30}\s*$")
_NUMBER = re.compile(r"^\s*[\d.,/%+-]+\s*$")
CATEGORY_WORDS = 5
CATEGORY_CHARS = 50


def _digits(value: str, keep: str = "0-9") -> str:
    return re.sub(f"[^{keep}]", "", value)


# An ISBN is written as digits (X as an ISBN-10 check digit), hyphens and spaces, perhaps after an "ISBN"
# label; anything else around ten digits ("$52,400 - $58,250") is some other number that happens to have ten.
_ISBN_TEXT = re.compile(r"^\s*(isbn(-?1[03])?\s*:?)?[\s:]*[\dXx][\dXx\s-]*\s*$", re.IGNORECASE)


def is_isbn13(value: str) -> bool:
    digits = _digits(value)
    return (bool(_ISBN_TEXT.match(value)) and bool(re.fullmatch(r"97[89]\d{10}", digits))
            and sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0)


def is_isbn10(value: str) -> bool:
    digits = _digits(value, "0-9Xx").upper()
    return (bool(_ISBN_TEXT.match(value)) and bool(re.fullmatch(r"\d{9}[\dX]", digits))
            and sum((10 - i) * (10 if d == "X" else int(d)) for i, d in enumerate(digits)) % 11 == 0)


def is_isbn(value: str) -> bool:
    return is_isbn13(value) or is_isbn10(value)


def is_measure(value: str) -> bool:
    """A number with its unit ("205 lbs", "6-7", "3.0L 300 hp V6"), and not a date ("12/13/2010")."""
    return bool(MEASURE.search(value)) and not DATE.search(value)


def label_unit(label: str) -> str | None:
    """The unit a label gives the bare numbers after it: "City (mpg)", "Height (cm):", "Weight in kg"."""
    match = _LABEL_UNIT.search(label.strip())
    return (match.group("unit") or match.group("word")).lower() if match else None


def with_unit(value: str, unit: str | None) -> str:
    """A bare number with the unit its label gives it ("18" in a row labelled "City (mpg)" reads "18 mpg"),
    so the kind check sees the measure the page prints in two places."""
    return f"{value} {unit}" if unit and _BARE_NUMBER.fullmatch(value.strip()) else value


def is_plain_number(value: str) -> bool:
    return bool(_NUMBER.match(value))


# nouns that name a body, an event or a work, never a person ("Visual Computing Conference", "Anchor Books")
ORGANISATION_NOUNS = re.compile(
    r"\b(conference|symposium|workshop|proceedings|journal|university|college|school|institute|academy"
    r"|association|society|committee|council|foundation|department|ministry|agency|center|centre|company"
    r"|corporation|inc|ltd|llc|gmbh|corp|co|group|press|publishing|publishers|books|records|studios?"
    r"|pictures|entertainment|media|bank|hospital|club|league|museum|library)\b\.?", re.IGNORECASE)


def is_person(value: str) -> bool:
    text = value.strip(" ,;:")
    return len(value) <= 60 and bool(PERSON.search(text)) and not ORGANISATION_NOUNS.search(text)


def is_short_name(value: str) -> bool:
    """An organisation or a place: a short capitalised name, not a number, date, price or sentence."""
    text = value.strip()
    return (0 < len(text) <= 80 and len(text.split()) <= 8 and (text[0].isupper() or text[0].isdigit())
            and not is_plain_number(text) and not DATE.search(text) and not MONEY.search(text)
            and not text.endswith((".", "!", "?")))


def is_category(value: str) -> bool:
    """A short categorical value ("Drama", "Private", "Point Guard"): a few words, no digits-only value."""
    text = value.strip()
    return (0 < len(text) <= CATEGORY_CHARS and len(text.split()) <= CATEGORY_WORDS and not is_plain_number(text)
            and not DATE.search(text) and not MONEY.search(text) and not URL.search(text))


def is_url(value: str) -> bool:
    """A web address ("http://www.acu.edu", "www.acu.edu", "acu.edu"), not an e-mail address: the domain
    after an ``@`` is a mailbox's, and a contact box prints both side by side."""
    return bool(URL.search(EMAIL.sub(" ", value)))


def _pattern(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda value: bool(pattern.search(value))


@dataclass(frozen=True)
class ValueKind:
    """One kind of value (see the module docstring)."""

    name: str
    words: tuple[str, ...]
    check: Callable[[str], bool] | None
    hard: bool = False
    labels: tuple[str, ...] = ()
    multiple: bool = False
    max_length: int = 200
    avoid: str | None = None
    finds: bool = True

    def asked_by(self, words: set[str], text: str) -> bool:
        """Do the words of a field's name or description ask for this kind?"""
        return any((w in words) if " " not in w else (w in text) for w in self.words)


# distractors that sit next to a real price on many pages: struck-through, list, "was" and club prices
_OTHER_PRICES = (r"\b(list|was|rrp|retail|original|regular|old|save|savings|compare|club|member|members|invoice)\b"
                 r"|/(s|del|strike)\b")

# first match wins, name before description: an "isbn" beats a generic "number", a "phone" a generic "contact"
KINDS: tuple[ValueKind, ...] = (
    ValueKind("isbn13", ("isbn13", "isbn 13", "ean"), is_isbn13, True, ("isbn-13", "isbn13", "isbn", "ean"),
              max_length=40),
    ValueKind("isbn10", ("isbn10", "isbn 10"), is_isbn10, True, ("isbn-10", "isbn10", "isbn"), max_length=40),
    ValueKind("isbn", ("isbn",), is_isbn, True, ("isbn-13", "isbn13", "isbn", "isbn-10"), max_length=40),
    ValueKind("money", ("price", "cost", "fee", "fees", "salary", "pay", "msrp", "fare", "rent", "wage", "tuition",
                        "charge", "budget", "amount"), _pattern(MONEY), True,
              ("price", "our price", "sale price", "your price", "cost", "msrp"), max_length=40, avoid=_OTHER_PRICES),
    ValueKind("phone", ("phone", "telephone", "tel", "fax", "mobile"), _pattern(PHONE), True,
              ("phone", "telephone", "tel", "phone number", "contact", "call"), max_length=40),
    ValueKind("url", ("website", "url", "homepage", "web"), is_url, True,
              ("website", "web site", "url", "homepage", "web", "site"), max_length=120),
    ValueKind("address", ("address", "street"), _pattern(ADDRESS), labels=("address", "street address", "location"),
              max_length=160),
    ValueKind("date", ("date", "posted", "published", "publication", "released", "release", "founded", "born",
                       "updated", "deadline", "expires", "opened", "issued", "when"), _pattern(DATE), True,
              ("date",), max_length=60),
    ValueKind("year", ("year",), lambda v: bool(re.search(r"\b(1[6-9]|20)\d\d\b", v)), True, ("year",),
              max_length=30),
    ValueKind("rating code", ("mpaa", "certificate", "certification", "esrb", "classification", "content rating",
                              "age rating", "parental"), _pattern(RATING_CODE),
              labels=("rating", "certificate", "mpaa rating", "mpaa"), max_length=200),
    ValueKind("measure", ("height", "weight", "length", "width", "depth", "size", "dimensions", "distance",
                          "mileage", "economy", "mpg", "engine", "capacity", "displacement", "horsepower", "power",
                          "volume", "range", "resolution", "zoom", "battery"), is_measure,
              max_length=100),
    ValueKind("count", ("pages", "count", "quantity", "rooms", "bedrooms", "bathrooms", "seats", "enrollment",
                        "employees", "students", "number of"), _pattern(COUNT), True, max_length=30),
    ValueKind("person", ("author", "authors", "director", "directors", "actor", "actors", "actress", "writer",
                         "writers", "artist", "artists", "composer", "creator", "editor", "illustrator", "producer",
                         "cast", "stars", "singer", "photographer", "designer", "architect", "coach", "chef",
                         "founder", "inventor", "narrator", "translator", "speaker", "host", "contributors"),
              is_person, labels=("by",), multiple=True,
              max_length=120),
    ValueKind("identifier", ("sku", "upc", "asin", "mpn", "serial", "model number", "part number", "item number",
                             "product code", "reference", "code"), _pattern(IDENTIFIER), True,
              ("sku", "model", "item", "part number", "model number", "code"), max_length=40),
    ValueKind("category", ("genre", "genres", "tags", "tag", "keywords", "categories", "cuisine", "cuisines",
                           "subjects", "topics", "features", "amenities", "skills", "languages", "styles"),
              is_category, multiple=True, max_length=80, finds=False),
    ValueKind("class", ("type", "kind", "category", "status", "condition", "format", "gender", "level", "position",
                        "class", "department", "industry", "sector", "style", "color", "colour", "material",
                        "subject", "topic", "specialty"),
              is_category, max_length=80, finds=False),
    ValueKind("organisation", ("company", "employer", "publisher", "manufacturer", "brand", "make", "maker", "label",
                               "studio", "team", "club", "franchise", "school", "university", "college",
                               "organisation", "organization", "agency", "firm", "network", "store", "seller",
                               "vendor", "airline", "imprint", "hotel", "restaurant", "venue", "institution"),
              is_short_name, max_length=100, finds=False),
    ValueKind("location", ("location", "city", "place", "where", "region", "country", "state", "town",
                           "neighborhood", "neighbourhood", "hometown", "birthplace", "destination", "origin"),
              is_short_name, labels=("location", "city", "where"), max_length=100, finds=False),
)
BY_NAME = {kind.name: kind for kind in KINDS}

# "<verb> by" labels name one role each: "Written by" heads the writers, not the directors of the same film
ROLE_LABELS = {"written by": ("author", "authors", "writer", "writers"), "directed by": ("director", "directors"),
               "created by": ("creator", "creators"), "produced by": ("producer", "producers"),
               "composed by": ("composer", "composers"), "edited by": ("editor", "editors"),
               "illustrated by": ("illustrator", "illustrators"), "translated by": ("translator", "translators"),
               "narrated by": ("narrator", "narrators"), "designed by": ("designer", "designers")}


def role_labels(words: set[str]) -> tuple[str, ...]:
    """The "<verb> by" labels of the roles a field's words name ("directed by" for a ``director``)."""
    return tuple(label for label, roles in ROLE_LABELS.items() if words & set(roles))


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")))


_TARGET_PHRASE = re.compile(r"\bthe\s+(?:\w+'s\s+)?([a-z0-9][\w()\-/ ]{0,30}?)(?:\s+(?:of|that|for|on|in)\b|\s*[.?!]|$)")


def instruction_label(instruction: str) -> str | None:
    """The phrase an instruction asks for ("the *online price* of the book"): often the page's own label."""
    match = _TARGET_PHRASE.search(instruction.lower())
    return match.group(1).strip() if match else None


def kind_asked(name: str, description: str = "") -> ValueKind | None:
    """The kind a field's name asks for, else the kind its description asks for (the phrase it asks for,
    "the *age rating* of the film", when it has one: "the school's motto" asks for no school), else None."""
    for source in (name, instruction_label(description) or description):
        plain = " ".join(re.findall(r"[a-z0-9]+", source.lower().replace("_", " ")))
        words = set(plain.split())
        for kind in KINDS:
            if kind.asked_by(words, plain):
                return kind
    return None


# the look a value of a loose kind has when nothing else could read so: a body's noun ("Livescribe Inc."), a
# place with its region ("Oakland, CA"), a person's name; a hard kind's recogniser is telling by itself
PLACE = re.compile(r"^[A-Z][\w .'-]*,\s*([A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)*)(\s+\d{5}(-\d{4})?)?$")
_TELLING = {"organisation": lambda v: bool(ORGANISATION_NOUNS.search(v)),
            "location": lambda v: bool(PLACE.match(v.strip())), "person": is_person}


def telling_check(kind: str | None) -> Callable[[str], bool] | None:
    """A check that a value is of ``kind`` and could hardly be another field's: what lets a value be found
    behind a label in any wording (None where the kind has no telling look: a category, a short class)."""
    found = BY_NAME.get(kind or "")
    if found is None:
        return None
    return found.check if found.hard else _TELLING.get(found.name)


def names_another_kind(label: str, kind: str | None) -> bool:
    """Does ``label`` use a word that asks for another kind ("Location" in front of a value sought as a
    company)? Such a pair is another field's, whatever its value looks like."""
    plain = " ".join(re.findall(r"[a-z0-9]+", label.lower()))
    return any(other.name != kind and other.asked_by(set(plain.split()), plain) for other in KINDS)


def recogniser(kind: str | None) -> Callable[[str], bool] | None:
    """The recogniser of the kind called ``kind`` (None for no kind or an unknown one)."""
    found = BY_NAME.get(kind or "")
    return found.check if found else None


def kind_of_value(value: str, kinds: tuple[str, ...] = ("isbn13", "isbn", "money", "date", "url", "phone")) -> str | None:
    """The first of ``kinds`` whose hard recogniser ``value`` passes (an example value's kind)."""
    return next((k for k in kinds if (check := recogniser(k)) and check(value)), None)
