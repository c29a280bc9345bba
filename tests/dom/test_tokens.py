from scrapesmith.dom.tokens import estimate_tokens


def test_empty_text_costs_nothing():
    assert estimate_tokens("") == 0


def test_prose_costs_about_one_token_per_word():
    sentence = "The quick brown fox jumps over the lazy dog. " * 10
    assert 90 <= estimate_tokens(sentence) <= 130


def test_markup_costs_more_per_character_than_prose():
    markup = '<div class="a"><span id="b">x</span></div>' * 20
    prose = "words that read like plain english prose " * 20
    assert estimate_tokens(markup) / len(markup) > estimate_tokens(prose) / len(prose)


def test_indentation_runs_cost_one_token():
    assert estimate_tokens("\n" + " " * 40 + "word") == estimate_tokens("\n word")
