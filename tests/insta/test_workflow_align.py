"""Parameter alignment: which words of the task became which value, and how a new task binds them again."""

from __future__ import annotations

from scrapesmith.insta.views import Element, Observation
from scrapesmith.insta.workflow.align import (
    bind_by_kind,
    bind_template,
    find_span,
    merge_templates,
    render_template,
    template_tokens,
)
from scrapesmith.insta.workflow.locate import resolve
from scrapesmith.insta.workflow.views import Locator, Parameter

LOGIN = 'Enter the username "thaddeus" and the password "UT" into the text fields and press login.'


def test_a_value_is_found_as_the_quoted_phrase_the_date_or_the_words_that_gave_it():
    assert find_span("UT", LOGIN).kind == "quoted" and LOGIN[find_span("UT", LOGIN).start - 1] == '"'
    date = find_span("2016-05-12", "Select 05/12/2016 as the date and hit submit.")  # a picker's ISO is the task's date
    assert (date.kind, date.text) == ("date", "05/12/2016")
    assert find_span("login", LOGIN).text == "login" and find_span("Bob", "Reply to Bob now.").kind == "name"
    assert find_span("Alice", LOGIN) is None and find_span("", LOGIN) is None


def test_tasks_of_one_family_align_into_a_template_that_binds_a_new_task():
    first = template_tokens(LOGIN, {"p1": find_span("thaddeus", LOGIN), "p2": find_span("UT", LOGIN)})
    other = 'Enter the username "keli" and the password "3hI" into the text fields and press login.'
    second = template_tokens(other, {"p1": find_span("keli", other), "p2": find_span("3hI", other)})
    template = render_template(merge_templates([first, second]))
    assert template == 'Enter the username "{p1}" and the password "{p2}" into the text fields and press login.'
    parameters = [Parameter(name="p1", kind="quoted"), Parameter(name="p2", kind="quoted", ordinal=2)]
    new = 'Enter the username "ana maria" and the password "x,y" into the text fields and press login.'
    assert bind_template(template, parameters, new) == {"p1": "ana maria", "p2": "x,y"}
    assert bind_template(template, parameters, "Click the button.") is None


def test_words_that_vary_and_no_step_used_become_a_wildcard():
    one, two = "Find the 2nd result for cats and click it.", "Find the 4th result for cats and click it."
    template = render_template(merge_templates([template_tokens(one, {}), template_tokens(two, {})]))
    assert template == "Find the {*} result for cats and click it."
    assert bind_template(template, [], "Find the 7th result for cats and click it.") == {}
    assert bind_template(template, [], "Find the 7th result for dogs and click it.") is None


def test_a_list_parameter_binds_every_item_the_task_enumerates():
    template = "Select {p1} and click Submit."
    items = [Parameter(name="p1", kind="words", items=True)]
    assert bind_template(template, items, "Select xY1, Q, 4 and click Submit.") == {"p1": ["xY1", "Q", "4"]}
    assert bind_template(template, items, "Select ab and click Submit.") == {"p1": ["ab"]}


def test_binding_by_kind_takes_the_nth_span_of_the_kind_or_says_what_is_missing():
    parameters = [Parameter(name="p1", kind="quoted", ordinal=2, examples=["UT"]),
                  Parameter(name="p2", kind="date", examples=["05/12/2016"])]
    binding, why = bind_by_kind(parameters, 'Log in as "ann" with "pw9" on 3/4/2021 at noon.')
    assert binding == {"p1": "pw9", "p2": "3/4/2021"} and not why
    binding, why = bind_by_kind(parameters, 'Log in as "ann" on 3/4/2021 at noon.')
    assert binding is None and "2nd quoted" in why and "'UT'" in why


def test_controls_that_revealed_a_named_element_in_any_episode_are_pooled_for_every_path():
    from scrapesmith.insta.workflow.reveal import add_reveals
    from scrapesmith.insta.workflow.views import Locator, Workflow, WorkflowStep

    def path(*tabs: str) -> Workflow:
        clicks = [WorkflowStep(action="click", locators=[Locator(kind="role", role="tab", value=t)]) for t in tabs]
        link = WorkflowStep(action="click", locators=[Locator(kind="role", role="link", value="{p1}"),
                                                      Locator(kind="css", value="span.alink")])
        return Workflow(family="h/tabs.html", start_url="http://h/tabs.html", steps=[*clicks, link],
                        template='Find and click on the link "{p1}".')

    first, second = path("Tab #2"), path("Tab #3", "Tab #2")
    add_reveals([first, second])
    assert [control[0].value for control in first.steps[-1].reveal] == ["Tab #2", "Tab #3"]
    assert first.steps[0].reveal == [] and second.steps[-1].reveal == first.steps[-1].reveal


def test_of_two_elements_named_alike_case_aside_the_one_written_as_the_task_writes_it_is_found():
    buttons = [Element(id=1, tag="button", role="button", text="Yes"), Element(id=2, tag="button", role="button",
                                                                                text="yes")]
    observation = Observation(url="http://127.0.0.1/", markdown="", elements=buttons)
    locators = [Locator(kind="role", role="button", value="{p1}")]
    for name, wanted in (("yes", 2), ("Yes", 1)):
        located, _ = resolve(locators, observation, lambda text, name=name: text.replace("{p1}", name))
        assert located is not None and located.id == wanted
    located, tried = resolve(locators, observation, lambda text: text.replace("{p1}", "YES"))
    assert located is None and tried == ["role 'YES': 2 elements"]


def test_a_handle_is_one_span_with_its_sign():
    """"@enola" clicked is the task's "@enola" (one parameter), not "@" and a separate "enola"."""
    task = 'Click the "Retweet" button on 1 post by @enola and then click Submit.'
    span = find_span("@enola", task)
    assert span is not None and span.text == "@enola" and task[span.start:span.end] == "@enola"
    assert find_span("enola", task).text == "enola"  # the bare word still has its source


def test_a_row_context_is_matched_as_whole_words_and_kept_on_the_element():
    from scrapesmith.dom.parse import parse_html

    html = "".join(f'<div class="media"><span class="username">{who}</span>'
                   f' <span class="like" data-ss-id="{n}">Like</span></div>' for n, who in ((1, "@etiam"), (2, "@et")))
    observation = Observation(url="http://127.0.0.1/", markdown="", elements=[])
    observation.attach_tree(parse_html(f"<html><body>{html}</body></html>"))
    locators = [Locator(kind="role", role="clickable", value="Like", context="{p1}")]
    located, tried = resolve(locators, observation, lambda text: text.replace("{p1}", "@et"))
    assert located is not None and located.id == 2, tried
    assert "@et" in located.element.context  # what the step's check reads the row by


def test_a_name_inside_the_printed_instruction_is_no_target():
    """The page prints the task ("Find the email by <b>Manya</b> …"): the sender's row is the element to click."""
    from scrapesmith.dom.parse import parse_html
    from scrapesmith.insta.candidates import Grounding

    task = 'Find the email by Manya and reply to them with the text "Egestas amet.".'
    html = ('<div id="query">Find the email by <span data-ss-id="1">Manya</span> and reply to them with the text '
            '"Egestas amet.".</div><div class="email"><div data-ss-id="2">Manya</div> Vel diam. Urna amet.</div>')
    observation = Observation(url="http://127.0.0.1/", markdown="", elements=[])
    observation.attach_tree(parse_html(f"<html><body>{html}</body></html>"))
    locators = [Locator(kind="role", role="text", value="{p1}")]
    bind = lambda text: text.replace("{p1}", "Manya")
    located, tried = resolve(locators, observation, bind)
    assert located is None and tried == ["role 'Manya': 2 elements"]  # without the task, both bear the name
    located, _ = resolve(locators, observation, bind, Grounding(task=task).restates)
    assert located is not None and located.id == 2


def test_a_control_also_gives_its_kind_so_another_instance_is_searched_by_kind():
    """A folder's name is of its instance; its class (a collapsed folder's ``li.expandable``) is of every one."""
    from scrapesmith.insta.workflow.reveal import add_reveals, kind_of
    from scrapesmith.insta.workflow.views import Workflow, WorkflowStep

    folder = WorkflowStep(action="click", locators=[Locator(kind="role", role="clickable", value="Tora Emile"),
                                                    Locator(kind="css", value="ul#tree > li.expandable:nth-of-type(2)")])
    target = WorkflowStep(action="click", locators=[Locator(kind="role", role="text", value="{p1}")])
    workflow = Workflow(family="h/tree.html", start_url="http://h/tree.html", steps=[folder, target],
                        template='Find and click on the folder named "{p1}".')
    add_reveals([workflow])
    assert workflow.steps[-1].reveal_kinds == ["li.expandable"] and "or any 'li.expandable'" in target.describe()
    bare = WorkflowStep(action="click", locators=[Locator(kind="css", value="li:nth-of-type(6)")])
    assert kind_of(bare) is None  # a bare tag is no kind: every list item would match
