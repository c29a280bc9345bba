"""The embedded model's schema → grammar path (issue 45): options with quotes and other hostile text give a
grammar llama.cpp parses, and a grammar it cannot parse is a ``GrammarError`` before any model is asked.

Everything here compiles grammars with llama.cpp's own parser (no model is loaded), so it is fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapesmith.llm import GrammarError, Ledger, LedgeredLLM, LLMOutputError, LocalLLM, ask_json
from scrapesmith.llm.grammar import grammar_literal, parse_problem, schema_grammar

INCHES = ['1.92"', '1.48"', '2.29"']
# What llama-cpp-python's own converter wrote for the camera's options (issue 45): the backslash json.dumps
# put before the inch mark is not escaped, so the literal ends early.
UPSTREAM_INCHES = 'root ::= ("\\"1.92\\\\"\\"" | "\\"1.48\\\\"\\"" | "\\"none\\"") space\nspace ::= | " " | "\\n" [ \\t]{0,20}\n'
HOSTILE = ['1.92"', "\\", '\\"', "a|b", "x ::= y", "[", "]", "[^\"]", "(", ")", "\x00", "\n\r\t", "\x7f",
           "é ü 中文 🙂", "\u2028", '"""', "\\\\\\", "root", "space", "::=", "#", "'", "x" * 3000]


def choose_schema(options: list[str]) -> dict:
    """The schema ``induce --method choose`` sends (induce/choose.py)."""
    return {"title": "answer", "type": "object", "additionalProperties": False, "required": ["answer"],
            "properties": {"answer": {"enum": [*options, "none"]}}}


def read_literal(text: str) -> str:
    """A GBNF literal read back the way llama.cpp's parser reads it (``parse_char`` in llama-grammar.cpp)."""
    assert text[0] == '"' and text[-1] == '"'
    body, out, i = text[1:-1], [], 0
    simple = {"t": "\t", "r": "\r", "n": "\n", "\\": "\\", '"': '"', "[": "[", "]": "]", "-": "-"}
    while i < len(body):
        if body[i] == "\\":
            kind = body[i + 1]
            if kind in simple:
                out.append(simple[kind])
                i += 2
            else:
                width = {"x": 2, "u": 4, "U": 8}[kind]
                out.append(chr(int(body[i + 2:i + 2 + width], 16)))
                i += 2 + width
        else:
            assert body[i] != '"', "an unescaped quote ends the literal early"
            out.append(body[i])
            i += 1
    return "".join(out)


def test_the_broken_upstream_grammar_is_caught_with_llama_cpps_reason() -> None:
    problem = parse_problem(UPSTREAM_INCHES)
    assert problem is not None and "error parsing grammar" in problem


def test_inch_marks_in_the_options_give_a_grammar_that_parses_and_holds_them() -> None:
    grammar = schema_grammar(choose_schema(INCHES))
    assert parse_problem(grammar) is None
    for option in [*INCHES, "none"]:
        assert grammar_literal(json.dumps(option)) in grammar
        assert read_literal(grammar_literal(json.dumps(option))) == json.dumps(option)


def test_a_schema_whose_grammar_does_not_parse_fails_closed_before_the_model_loads(tmp_path: Path) -> None:
    not_a_model = tmp_path / "never-loaded.gguf"
    not_a_model.write_bytes(b"not a model")  # loading it would raise a different error: the model is never loaded
    ledger = Ledger()
    llm = LedgeredLLM(LocalLLM(not_a_model), ledger)
    schema = {"type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": "^[\\d]+$"}}}
    with pytest.raises(GrammarError, match=r"grammar is unusable: .*(unknown escape|error parsing grammar)"):
        ask_json(llm, "Give a code.", schema, stage="test.grammar")
    entry = ledger.entries[-1]
    assert (entry.stage, entry.input_tokens, entry.output_tokens) == ("test.grammar", 0, 0)
    assert entry.error is not None and "grammar is unusable" in entry.error
    assert (ledger.totals().calls, ledger.totals().errors) == (0, 1)


def test_a_grammar_error_is_an_unusable_answer_to_callers() -> None:
    """Every caller that falls back on an unusable answer (``LLMOutputError``) falls back on this too."""
    assert issubclass(GrammarError, LLMOutputError)


def test_llama_cpp_reads_back_every_escaped_character() -> None:
    every = "".join(chr(c) for c in range(1, 128)) + "é中🙂"
    literal = grammar_literal(every)
    assert read_literal(literal) == every
    assert parse_problem(f"root ::= {literal}\n") is None


hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=80),
                         st.text(alphabet=st.sampled_from(list('"\\|[]():=#\n\t\x00é')), max_size=40))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.lists(hostile_text, min_size=1, max_size=8, unique=True),
       names=st.lists(hostile_text, min_size=1, max_size=4, unique=True))
def test_hostile_options_and_field_names_always_give_a_grammar_llama_cpp_parses(options: list[str],
                                                                                 names: list[str]) -> None:
    schema = {"type": "object", "required": names, "additionalProperties": False,
              "properties": {name: {"enum": options} for name in names}}
    grammar = schema_grammar(schema)  # raises GrammarError when llama.cpp cannot parse it
    for value in [*options, *names]:
        assert grammar_literal(json.dumps(value)) in grammar
        assert read_literal(grammar_literal(json.dumps(value))) == json.dumps(value)


@settings(max_examples=150, deadline=None)
@given(text=hostile_text)
def test_any_text_is_one_literal_llama_cpp_reads_back_exactly(text: str) -> None:
    literal = grammar_literal(text)
    assert read_literal(literal) == text
    assert parse_problem(f"root ::= {literal}\n") is None


def test_the_fields_keep_the_schemas_order_and_the_callers_schema_is_not_changed() -> None:
    schema = {"type": "object", "required": ["zeta", "alpha"], "$defs": {"Inner": {"enum": ['2"', "x"]}},
              "properties": {"zeta": {"type": "string"}, "alpha": {"$ref": "#/$defs/Inner"}}}
    before = json.dumps(schema)
    root = next(line for line in schema_grammar(schema).splitlines() if line.startswith("root ::="))
    assert root.index("zeta") < root.index("alpha")
    assert json.dumps(schema) == before
