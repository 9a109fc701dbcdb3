"""The API and the counts in the reader's language: the ``error`` sentence follows
``Accept-Language`` (English by default), the ``code`` never changes; plural forms."""

from __future__ import annotations

import pytest
from flask import Flask
from flask_babel import force_locale, ngettext

from companion.web import messages

LANGS = ("lt", "hu", "cs")


def test_a_refusal_speaks_the_callers_language_with_the_same_code(client, new_game) -> None:
    game = new_game()
    body = {"players": [{"name": "Ann", "words": ["c-a-t"]}]}
    answers = {}
    for lang in ("en", *LANGS):
        resp = client.put(
            game.url("/rounds/1"), json=body, headers={**game.auth, "Accept-Language": lang}
        )
        assert resp.status_code == 422
        answers[lang] = resp.get_json()
    assert {a["code"] for a in answers.values()} == {"players_missing"}
    assert {a["where"] for a in answers.values()} == {"players"}
    assert answers["en"]["error"] == "Enter the cards of every player; missing: Ben, Cy."
    sentences = {a["error"] for a in answers.values()}
    assert len(sentences) == 4, sentences  # four languages, four sentences
    for lang in LANGS:
        assert "Ben, Cy" in answers[lang]["error"]  # the names, as they are
    no_language = client.put(game.url("/rounds/1"), json=body, headers=game.auth)
    assert no_language.get_json()["error"] == answers["en"]["error"]


def test_a_stored_ruling_is_shown_in_the_readers_language(app: Flask, client, new_game) -> None:
    game = new_game()
    game.enter(
        1,
        [
            {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": ["d-o-g"], "unused": []},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
        ],
    )
    game.challenge(1, "Ann", "Cy", 0)
    reasons = {}
    for lang in ("en", *LANGS):
        data = client.get(game.url(), headers={"Accept-Language": lang}).get_json()
        ruling = data["rounds"][0]["result"]["challenges"][0]
        assert ruling["reason_code"] == "in_dictionary" if "reason_code" in ruling else True
        reasons[lang] = ruling["reason"]
    assert reasons["en"] == "in dictionary"
    assert len(set(reasons.values())) == 4, reasons


POINTS = {
    "lt": {1: "1 taškas", 2: "2 taškai", 5: "5 taškai", 10: "10 taškų", 21: "21 taškas"},
    "cs": {1: "1 bod", 2: "2 body", 5: "5 bodů", 21: "21 bodů"},
    "hu": {1: "1 pont", 2: "2 pont", 5: "5 pont", 21: "21 pont"},
}
ROUNDS = {
    "lt": {1: "1 raundas", 2: "2 raundai", 5: "5 raundai", 10: "10 raundų", 21: "21 raundas"},
    "cs": {1: "1 kolo", 2: "2 kola", 5: "5 kol", 21: "21 kol"},
    "hu": {1: "1 kör", 2: "2 kör", 5: "5 kör", 21: "21 kör"},
}


@pytest.mark.parametrize("lang", ("lt", "cs", "hu"))
def test_counts_take_the_languages_plural_forms(app: Flask, lang: str) -> None:
    with app.test_request_context(), force_locale(lang):
        for n, wanted in POINTS[lang].items():
            assert ngettext("%(num)d point", "%(num)d points", n) == wanted
        for n, wanted in ROUNDS[lang].items():  # the plan menu: "Standard: 3 to 10 (8 rounds)"
            said = ngettext(
                "%(plan)s: %(sizes)s (%(num)d round)",
                "%(plan)s: %(sizes)s (%(num)d rounds)",
                n,
                plan="P",
                sizes="S",
            )
            assert said == f"P: S ({wanted})"


def test_people_are_listed_as_each_language_lists_them(app: Flask) -> None:
    names = ["Ann", "Ben", "Cy"]
    with app.test_request_context():
        assert messages.people(names) == "Ann, Ben and Cy"
        with force_locale("lt"):
            assert messages.people(names) == "Ann, Ben ir Cy"
        with force_locale("hu"):
            assert messages.people(names) == "Ann, Ben és Cy"
        with force_locale("cs"):
            assert messages.people(names) == "Ann, Ben a\u00a0Cy"  # no lone "a" at a line end
