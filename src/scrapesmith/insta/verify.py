"""The evidence judge's deterministic pass: each criterion matched to the action log, on the right field.

A criterion is read as a verb — what kind of action it asks for (type, choose, click, hover, uncheck; a
clause without a verb continues the previous one: "Select A, B and C") — and what it names: its quoted
values, else its names (a capital or a digit), else its content words; with nothing named, the element
kind ("Click the button"). It is matched to the trajectory's successful actions, in the criteria's order, on
the right field, each action used once: a value to type must be the value typed (exactly; a value the task
does not quote is never verified), a thing to click the clicked element's name (a quoted value the whole
name word for word, an unquoted one nearly the whole name, not a word of a menu's text), an option the
option chosen; an action a later one undid (a field retyped, a box unticked, another option chosen) and a
click on text that restates the task do not count. Every other content word of the criterion ("the
*username*", "the *password*", "by *@enola*") must occur on the matched element: its name, label, hint,
type or the text of its row. "Expand"/"collapse" criteria are decided by the final page's live state.

- ``verified``: matched, every word accounted for;
- ``refuted``: it names something and no action of the kind it asks for holds it (nothing typed, another
  value typed, no such element clicked), or an ordinal it names is on no element acted on;
- ``unsure``: anything else — a qualifier the program cannot check ("in upper case", "similar to"), a
  count ("all posts", "each label"), a matched action out of order, a criterion naming nothing to match.
  ``askable`` marks the unsure criteria a model's checked quote could decide: a qualifier beside an action
  the program found, or what to reach named in common words ("Find the latest blog post").

A clause that is a means to the next one ("Expand the sections below, *to find* and click ...") holds when
the rest holds; a purpose tail ("click the trash icon *to delete it*") is not a separate requirement. The
judge (``insta.evidence_judge``) asks a model about ``unsure`` criteria only, and fails them with no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scrapesmith.dom import normalize_text
from scrapesmith.insta.criteria_reading import (
    WORD,
    Act,
    Reading,
    acts_of,
    normalized,
    read_criterion,
    verb_kind,
    word_stem,
    word_tokens,
)
from scrapesmith.insta.criteria_state import One, Status, by_constraint, by_seen, by_state, sends
from scrapesmith.insta.criteria_words import (
    CLOSE_GLYPHS,
    ELEMENT_NOUNS,
    KINDS,
)
from scrapesmith.insta.page_values import (
    labelled_fields,
    page_values,
    rows_showing,
    send_controls,
)
from scrapesmith.insta.values import same_date_or_value, same_value
from scrapesmith.insta.views import Trajectory

_MEANS_AFTER = re.compile(r"^\s*,?\s*(?:in order\s+)?to\s+(?:find|locate|reach|see|get\s+to)\b", re.IGNORECASE)
_MEANS_END = re.compile(r"\bto\s+(?:find|locate|reach|see)\s*$", re.IGNORECASE)
_PURPOSE_TAIL = re.compile(r"\s+(?:in order\s+)?to\s+(?!the\b|a\b|an\b|both\b|all\b|each\b)([a-z]+\b[^\"“”]*)$")


def _holds_term(act: Act, term: str, exact: bool) -> bool:
    e = act.element
    if act.kind == "scroll":  # "to the bottom": the end it scrolled to
        return word_stem(term) == word_stem(act.value or "")
    if act.kind == "fill":
        return normalize_text(act.value or "") == normalize_text(term) if exact else \
            word_stem(term) in {word_stem(w) for w in WORD.findall(f"{e.label} {e.hint}")}
    if act.kind == "select_option":
        return normalized(act.value) == normalized(term) if exact else word_stem(term) in {word_stem(w) for w in WORD.findall(
            f"{act.value} {e.label}")}
    names = [e.name, e.text, e.label]
    if exact and normalized(term) in CLOSE_GLYPHS:  # "click the "x"": a close control, named by its glyph or "Close"
        return any(normalized(name) in CLOSE_GLYPHS | {"close"} for name in names if name)
    if exact:  # the whole name, word for word ("2023-Q2 ›" is the link "2023-Q2"; case aside)
        return any(word_tokens(name) == word_tokens(term) for name in names if name)
    term_words = [word_stem(w) for w in WORD.findall(term)]
    # the term is (nearly) the element's name, not one word of a container's text (a menu listing every item)
    return bool(term_words) and any(
        all(word in shown for word in term_words) and len(shown) <= len(term_words) + MAX_EXTRA_WORDS
        for shown in ({word_stem(w) for w in WORD.findall(name)} for name in names if name))


#: A name that is not quoted matches an element whose name has at most this many other words ("press login":
#: "Login"; "Tab #1": "Tab #1"), not a row or a menu that merely contains it.
MAX_EXTRA_WORDS = 2


def _fits_nouns(act: Act, nouns: list[str]) -> bool:
    roles = [ELEMENT_NOUNS.get(noun.casefold()) or ELEMENT_NOUNS.get(word_stem(noun), frozenset()) for noun in nouns]
    return all(not allowed or act.element.role in allowed for allowed in roles)


@dataclass
class Verdict:
    """``askable``: unsure only because words the program cannot check stand beside a match it found (the
    row of "Deva" is an e-mail, the button is on a post); only such criteria are worth a model's look."""

    criterion: str
    status: Status
    evidence: str = ""
    why: str = ""
    askable: bool = False
    matched: bool = False  # the program found the action; only words beside it are unchecked
    at: int = -1  # verified by an action: the index of the last step that proves it (a workflow's check goes there)


def _line(act: Act) -> str:
    e = act.element
    shown = e.name or e.label or e.role
    if act.kind in ("fill", "select_option"):
        return f'{act.kind} "{shown if act.kind == "fill" else e.label or e.role}" with "{act.value}"'
    return f'{act.kind} "{shown}"'


def is_means(task: str, criterion: str) -> bool:
    """``criterion`` is a means to what follows it in the task ("Switch between the tabs to find ...")."""
    if _MEANS_END.search(criterion.strip(" .,;")):
        return True
    at = task.find(criterion)
    return at >= 0 and bool(_MEANS_AFTER.match(task[at + len(criterion):]))


_BY_DOING = re.compile(r"\s+by\s+([a-z]+)ing\b(.*)$", re.IGNORECASE)


def _without_purpose(criterion: str) -> str:
    """"click the trash icon to delete it" -> "click the trash icon": the tail of a concrete action (click,
    type, choose ...) with no quote and no name. After "use the terminal *to delete a file*" the tail is the
    requirement itself and stays. "Close the dialog by clicking the "x"" -> "click the "x"": the action after
    *by* is what to do, what it is for is no separate requirement."""
    means = _BY_DOING.search(criterion)
    if means:
        stem = means.group(1).casefold()  # clicking, typing, tapping
        verb = next((v for v in (stem, stem + "e", stem[:-1]) if verb_kind(v) not in (None, "reach")), None)
        if verb:
            return f"{verb}{means.group(2)}"
    first = WORD.findall(criterion[:40].casefold())[:1]
    if not first or verb_kind(first[0]) in (None, "reach"):
        return criterion
    match = _PURPOSE_TAIL.search(criterion)
    if match and not any(c.isupper() or c.isdigit() for c in match.group(1)):
        return criterion[: match.start()]
    return criterion


def _restater(task: str) -> Callable[[str], bool]:
    """Whether a text restates the task's own instruction: it holds most of the task's words outside its quoted
    values (a link named by the quoted value of "Open the "X" page" is the target, not the instruction)."""
    unquoted = re.sub(r"\"[^\"]*\"|“[^”]*”", " ", task)
    words = {w.casefold() for w in WORD.findall(unquoted)}

    def restates(text: str) -> bool:
        return len(words) >= 3 and len(words & {w.casefold() for w in WORD.findall(text)}) >= 0.6 * len(words)

    return restates


def verify_criteria(task: str, criteria: list[str], trajectory: Trajectory) -> list[Verdict]:
    """One verdict per criterion, in order; see the module docstring."""
    restates = _restater(task)
    acts = [act for act in acts_of(trajectory) if not restates(act.element.name)]  # a click on the instruction
    for act in acts:  # the page as it showed things, its printed instruction left out
        act.page = "\n".join(line for line in act.page.splitlines() if not restates(line))
    if any(step.action is not None and step.action.target_element_id is not None and step.target is None
           for step in trajectory.steps):
        # a step that did not record its element (the seed's free-form agent): the log cannot be matched field
        # by field, so nothing is verified or refuted by the program; a model may judge every criterion
        return [Verdict(criterion, "unsure", why="the steps did not record their elements", askable=True)
                for criterion in criteria]
    page = "\n".join(line for line in trajectory.final_observation.splitlines() if not restates(line))
    verdicts: list[Verdict] = []
    last, previous_verb, used = -1, None, set[int]()
    read = frozenset(act.value for act in acts if act.kind == "read" and act.value)  # "paste it": a value read
    for criterion in criteria:
        if is_means(task, criterion):
            verdicts.append(Verdict(criterion, "verified", "(a means to the next criterion)", "means"))
            continue
        parts = [part for part in criterion.split("; ") if part.strip()]
        status: Status = "verified"
        evidence: list[str] = []
        why, askable, matched, proven = "", True, True, -1
        for part in parts:
            reading = read_criterion(_without_purpose(part), previous_verb)
            previous_verb = reading.verb
            # a state the final page shows decides ("Expand the section": is one expanded now?); else the log
            one = (reading.state and by_state(reading.state, page)) or by_constraint(reading, acts, trajectory) \
                or by_seen(part, trajectory, last) or _verify_one(reading, [act for act in acts if act.index not in used], last, read)
            if one.status == "verified" and one.at >= 0:
                last = max(last, one.at)
                used.add(one.at)
            if one.status == "verified":
                evidence.append(one.quote)
                proven = max(proven, one.at)
            else:
                askable, matched = askable and one.askable, matched and one.matched
                if one.status == "refuted" or status == "verified":
                    status, why = one.status, one.why
            if status == "refuted":
                break
        if status == "unsure" and len(parts) == 1 and reading.verb == "reach" and not reading.named \
                and why == NOTHING_NAMED:
            status, why = "unsure", SETTING
        verdicts.append(Verdict(criterion, status, "; ".join(evidence) if status == "verified" else "", why,
                                askable=status == "unsure" and askable, matched=status == "unsure" and matched,
                                at=proven if status == "verified" else -1))
    return _settings_before_actions(verdicts)


NOTHING_NAMED = "nothing acted on names it"
SETTING = "where to go, in common words"


def _settings_before_actions(verdicts: list[Verdict]) -> list[Verdict]:
    """"Navigate through the file tree. Find and click on "Emile"": a clause that says only where to go, in
    common words (no quote, no name), followed by a criterion an action verified, is the way to that action,
    as a means clause is; last in the task, or followed by nothing verified, it stays unsure."""
    for number, verdict in enumerate(verdicts):
        if verdict.why == SETTING and any(v.status == "verified" and v.at >= 0 for v in verdicts[number + 1:]):
            verdict.status, verdict.evidence, verdict.askable = "verified", "(the way to what follows)", False
    return verdicts


def _verify_one(reading: Reading, acts: list[Act], last: int, read: frozenset[str] = frozenset()) -> One:
    """The status of one clause, the index of the step that proves it, the quote, and why not verified."""
    kinds = KINDS.get(reading.verb or "reach", KINDS["reach"])
    right_kind = [act for act in acts if act.kind in kinds]
    if reading.values:
        return _verify_values(reading.values, [act for act in acts if act.kind in ("fill", "select_option")], last)
    if reading.verb == "type" and not reading.exact and any(act.kind == "fill" and act.value in read
                                                             for act in right_kind):
        return One("verified", at=max(a.index for a in right_kind), quote="typed the value read")
    if reading.verb == "type" and not reading.exact:
        # "type your answer into the textbox": the task quotes no value, so only a value the page gives shows the
        # typed one is right (a field called "answer" says where, not what)
        if not right_kind:
            return One("refuted", why="nothing was typed")
        from_page = _typed_from_page(reading, right_kind, last)
        if from_page is not None:
            return from_page
        return One("unsure", why="a value typed that the task does not quote")
    if reading.count in ("nothing", "none") and not reading.terms and reading.verb == "choose":
        chosen = [act for act in acts if act.kind in ("set_checked", "select_option")]
        return One("refuted", why=f"chose {_line(chosen[0])}") if chosen else One("verified", quote="(nothing chosen)")
    if reading.terms:
        holding = [act for act in right_kind if all(_holds_term(act, term, reading.exact) for term in reading.terms)]
        if not holding:
            sent = _sent_by_the_only_control(reading, right_kind, last)
            if sent is not None:
                return sent
            if reading.exact or reading.verb in ("type", "choose", "click", "uncheck", "hover", "focus"):
                return One("refuted", why=f"no {'/'.join(sorted(kinds))} action holds {', '.join(reading.terms)}")
            # "Find the latest blog post": what to reach, in common words; the final page may show it
            return One("unsure", why=NOTHING_NAMED, askable=not reading.named)
    elif reading.nouns:
        holding = [act for act in right_kind if _fits_nouns(act, reading.nouns)]
        if not holding:
            return One("refuted", why=f"no {'/'.join(sorted(kinds))} action on a {' '.join(reading.nouns)}")
    else:
        if reading.verb == "type" and not right_kind:
            return One("refuted", why="nothing was typed")
        return One("unsure", why="names nothing the program can match")
    if reading.ordinals:
        words = {word_stem(w) for act in holding for w in WORD.findall(  # a read records the ordinal it used
            f"{act.element.name} {act.element.label} {act.element.context if act.kind == 'read' else ''}")}
        if not all(word_stem(o) in words for o in reading.ordinals):
            return One("refuted" if not reading.terms else "unsure", why=f"the {reading.ordinals[0]} one is not shown")
    every = reading.count in ("all", "each", "every") and bool(reading.handles)  # counted from the page below
    if reading.count and not reading.count.isdigit() and not every:
        distinct = {act.element.id for act in holding}
        if reading.count != "both" or len(distinct) < 2:
            return One("unsure", why=f"asks for {reading.count}: a count the log cannot confirm")
    qualified = [act for act in holding if all(word_stem(w) in act.words() for w in reading.qualifiers)
                 and all(act.shows_handle(handle) for handle in reading.handles)]
    if not qualified:
        missing = [w for w in reading.qualifiers if not any(word_stem(w) in act.words() for act in holding)]
        return One("unsure", why=f"cannot check {' '.join(missing or reading.qualifiers)}",
                    askable=any(act.index >= last for act in holding), matched=True)
    if reading.count and reading.count.isdigit() and not _exactly(int(reading.count), holding, qualified):
        return One("unsure", why=f"asks for {reading.count}: not that many acted on, each once")
    if every and not _exactly(rows_showing(reading.handles, holding[0].page), holding, qualified):
        return One("unsure", why=f"asks for {reading.count}: not every item the page shows by "
                    f"{', '.join(reading.handles)} acted on, each once")
    in_order = [act for act in qualified if act.index >= last]
    if not in_order:
        return One("unsure", why="done before the previous criterion")
    act = in_order[0]
    if reading.verb == "send" and not any(sends(other) for other in acts if other.index > act.index):
        return One("unsure", why="no send control clicked after it")
    return One("verified", at=act.index, quote=_line(act))


def _typed_from_page(reading: Reading, acts: list[Act], last: int) -> One | None:
    """"Solve the problem and type your answer", "enter the value of Language": each value typed where the page gave
    one (``insta.page_values``: the problem it showed, the value beside the label) is that value; "each label": every
    field labelled with a key of the page was typed so. None when the page gave no value for anything typed."""
    given = [(act, found) for act in acts if act.kind == "fill" and act.index >= last
             and (found := page_values(reading.text, act.page, act.element.label, act.element.id))]
    if not given:
        return None
    for act, found in given:
        if not any(same_value(act.value or "", value.value) for value in found):
            return One("refuted", why=f"typed {act.value!r} where the page gives {found[0].value!r} "
                        f"({found[0].reading}: {found[0].source})")
    if reading.count in ("each", "every", "all"):
        fields = labelled_fields(given[-1][0].page)
        if not set(fields) <= {act.element.id for act, _ in given}:
            return One("unsure", why=f"asks for {reading.count}: not every labelled field was typed")
    quote = "; ".join(f"{_line(act)} = {found[0].source}" for act, found in given)
    return One("verified", at=max(act.index for act, _ in given), quote=quote)


#: Names a task gives the control that sends a form, which the page may label otherwise ("press login": "OK").
_FORM_SENDING = frozenset({"login", "signin", "submit", "send"})


def _sent_by_the_only_control(reading: Reading, clicks: list[Act], last: int) -> One | None:
    """"press login" where nothing on the page bears the name "login": the click, after the previous criterion, on
    the one control that sends a form on that page ("OK"); None when the page shows none or several (a dialog's own
    "OK" beside the form's) or the name is shown somewhere."""
    if reading.exact or reading.verb != "click" or not reading.terms or \
            not all(term.casefold() in _FORM_SENDING for term in reading.terms):
        return None
    for act in clicks:
        words = {w.casefold() for w in WORD.findall(act.page)}
        if act.index >= last and sends(act) and send_controls(act.page) == 1 and \
                not any(term.casefold() in words for term in reading.terms):
            return One("verified", at=act.index, quote=f"{_line(act)} (the page's one send control)")
    return None


def _exactly(count: int, holding: list[Act], qualified: list[Act]) -> bool:
    """"on 2 posts by @x": exactly ``count`` elements fit every word, each acted on once (a second click may
    undo the first), and no other element the criterion's action names was acted on."""
    return len(holding) == len(qualified) == len({act.element.id for act in qualified}) == count


def _verify_values(values: list[str], acts: list[Act], last: int) -> One:
    """Each date, time or number to set is the value of one field set after the previous criterion (a field
    set twice counts with its last value only, ``acts_of``), in the task's order."""
    used: set[int] = set()
    quotes, at = [], last
    for value in values:
        act = next((a for a in acts if a.index not in used and a.index >= last and a.value is not None
                    and same_date_or_value(a.value, value)), None)
        if act is None:
            return One("refuted", why=f"no field was set to {value}")
        used.add(act.index)
        quotes.append(_line(act))
        at = max(at, act.index)
    return One("verified", at=at, quote="; ".join(quotes))
