"""The word referee's page shows a short definition (WordNet's, named) beside a verdict:
for a legal word, or a word refused for another reason than being a name or an
abbreviation; nothing when there is none."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient


def word_page(client: FlaskClient, word: str, **headers: str) -> str:
    resp = client.get("/words", query_string={"word": word}, headers=headers)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    return html.unescape(resp.get_data(as_text=True))


def definition_of(page: str) -> str:
    """The definition block of a page, its tags dropped, or "" when there is none."""
    found = re.search(r'<div class="definition">(.*?)</div>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found[1]).split()) if found else ""


def test_a_legal_word_shows_its_definition_and_source(client: FlaskClient) -> None:
    page = word_page(client, "dog")
    shown = definition_of(page)
    assert shown.startswith("Definition (WordNet 3.0) noun a member of the genus Canis")
    assert "verb go after with the intent to catch" in shown
    assert '"' not in shown  # the example sentence is cut
    assert '<span class="gloss" lang="en">' in page  # English in any page language


def test_an_inflected_word_says_whose_form_it_is(client: FlaskClient) -> None:
    assert "RAN is a form of RUN. verb move fast" in definition_of(word_page(client, "ran"))


@pytest.mark.parametrize("word", ["london", "steve", "ft", "xqzt"])
def test_no_definition_for_a_name_an_abbreviation_or_a_non_word(
    client: FlaskClient, word: str
) -> None:
    page = word_page(client, word)
    assert 'data-legal="no"' in page
    assert definition_of(page) == ""
    assert "WordNet" not in page


def test_the_caption_and_part_of_speech_are_in_the_readers_language(client: FlaskClient) -> None:
    shown = {lang: definition_of(word_page(client, "ox", **{"Accept-Language": lang}))
             for lang in ("lt", "hu", "cs")}  # fmt: skip
    assert shown == {
        "lt": "Reikšmė (WordNet 3.0) daiktavardis an adult castrated bull of the genus Bos",
        "hu": "Jelentés (WordNet 3.0) főnév an adult castrated bull of the genus Bos",
        "cs": "Význam (WordNet 3.0) podstatné jméno an adult castrated bull of the genus Bos",
    }
