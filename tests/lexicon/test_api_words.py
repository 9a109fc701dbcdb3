"""The referee over the JSON API: GET /api/v1/words/<word>, POST /api/v1/judge, and
challenges in POST /api/v1/score that the dictionary decides.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.lexicon.lexicon import frequency_band
from companion.web import messages

# api.md's fields, with the frequency band ("common", "uncommon", "rare"), the reason's
# stable code ("proper_noun") beside its English words ("proper noun"), and the short
# definition (WordNet's) or null.
DOCUMENTED = {
    "word", "legal", "reason", "code", "lexicon", "frequency", "band", "spellings", "definition"
}  # fmt: skip
DEFINITION = {"text", "part_of_speech", "source", "lemma", "senses"}


def get_word(client: FlaskClient, word: str, **query: str) -> dict:
    resp = client.get(f"/api/v1/words/{word}", query_string=query)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def judged(client: FlaskClient, body: object) -> dict:
    resp = client.post("/api/v1/judge", json=body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def refused(resp, status: int, where: str, code: str, **params: object) -> dict:
    """An API refusal: that status, ``where`` and ``code``, the catalog's sentence, ``params``."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert set(body) == {"error", "where", "code", "params"}, body
    assert (body["where"], body["code"]) == (where, code), body
    assert body["error"] == messages.render(code, body["params"]), body
    for key, value in params.items():
        assert body["params"][key] == value, (key, body)
    return body


@pytest.fixture
def house(app: Flask) -> Path:
    """The group's own list "house" in the app's lexicons folder."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "house.txt"
    path.write_text("zyzzyva\nquokka\nsteve\nParis\n", encoding="utf-8")
    return path


# GET /api/v1/words/<word>


def test_a_proper_noun_as_api_md_shows_it(client: FlaskClient) -> None:
    body = get_word(client, "steve")
    assert set(body) == DOCUMENTED
    assert {k: body[k] for k in ("word", "legal", "reason", "code", "lexicon")} == {
        "word": "steve",
        "legal": False,
        "reason": "proper noun",
        "code": "proper_noun",
        "lexicon": "standard",
    }
    assert isinstance(body["frequency"], float)
    assert body["band"] == frequency_band(body["frequency"]) == "common"
    assert body["spellings"] == [{"cards": ["s", "t", "e", "v", "e"], "value": 21}]
    assert body["definition"] is None


def test_a_legal_word_comes_with_its_definition_and_source(client: FlaskClient) -> None:
    body = get_word(client, "dog")
    assert set(body) == DOCUMENTED
    definition = body["definition"]
    assert set(definition) == DEFINITION
    assert (definition["source"], definition["part_of_speech"], definition["lemma"]) == (
        "WordNet 3.0",
        "noun",
        "dog",
    )
    assert definition["text"].startswith("a member of the genus Canis")
    assert '"' not in definition["text"]  # WordNet's example ("the dog barked...") is cut
    assert definition["senses"][0] == {"part_of_speech": "noun", "text": definition["text"]}
    assert [s["part_of_speech"] for s in definition["senses"]] == ["noun", "verb"]


def test_an_inflected_word_is_defined_by_its_lemma(client: FlaskClient) -> None:
    definition = get_word(client, "ran")["definition"]
    assert (definition["lemma"], definition["part_of_speech"]) == ("run", "verb")


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("london", "proper_noun"),  # WordNet has only London: no entry at all
        ("steve", "proper_noun"),
        ("min", "abbreviation"),  # WordNet defines "min" (a minute): not beside this refusal
        ("xqzt", "not_in_dictionary"),
    ],
)
def test_no_definition_beside_a_name_an_abbreviation_or_a_non_word(
    client: FlaskClient, word: str, code: str
) -> None:
    body = get_word(client, word)
    assert (body["legal"], body["code"], body["definition"]) == (False, code, None)


def test_a_word_refused_for_any_reason_has_no_definition(client: FlaskClient, house: Path) -> None:
    body = get_word(client, "dog", lexicon="house")  # not in the group's list: no definition
    assert (body["legal"], body["code"], body["definition"]) == (False, "not_in_dictionary", None)
    assert get_word(client, "dog")["definition"]["source"] == "WordNet 3.0"  # standard's


def test_quiz_is_legal_with_its_two_spellings(client: FlaskClient) -> None:
    body = get_word(client, "quiz")
    assert (body["legal"], body["reason"], body["code"]) == (True, "in dictionary", "in_dictionary")
    assert body["spellings"] == [
        {"cards": ["q", "u", "i", "z"], "value": 35},
        {"cards": ["qu", "i", "z"], "value": 25},
    ]
    spelled = client.post("/api/v1/spell", json={"letters": "quiz"}).get_json()
    assert body["spellings"] == spelled["spellings"]


@pytest.mark.parametrize("written", ["Quiz", "QUIZ", "%20quiz%20"])
def test_case_and_surrounding_spaces_are_ignored(client: FlaskClient, written: str) -> None:
    assert get_word(client, written) == get_word(client, "quiz")


@pytest.mark.parametrize(
    ("word", "reason", "code"),
    [
        ("nasa", "abbreviation", "abbreviation"),
        ("dont", "contraction", "contraction"),
        ("ous", "prefix or suffix", "affix"),
        ("stevee", "not in dictionary", "not_in_dictionary"),
        ("a", "too short", "too_short"),
        ("don't", "not letters", "not_letters"),
        ("co-op", "not letters", "not_letters"),
        ("50/50", "not letters", "not_letters"),
    ],
)
def test_refused_words_say_why(client: FlaskClient, word: str, reason: str, code: str) -> None:
    body = get_word(client, word)
    assert (body["legal"], body["reason"], body["code"]) == (False, reason, code)


def test_a_word_never_seen_has_no_frequency(client: FlaskClient) -> None:
    body = get_word(client, "qzx")
    assert (body["frequency"], body["band"]) == (None, "rare")


def test_what_cannot_be_laid_down_has_no_spellings(client: FlaskClient) -> None:
    assert get_word(client, "don't")["spellings"] == []


def test_the_wordgame_lexicon_is_chosen_by_query(client: FlaskClient) -> None:
    assert get_word(client, "twas")["reason"] == "contraction"  # 'twas
    body = get_word(client, "twas", lexicon="wordgame")  # the plural of twa, "two" in Scots
    assert (body["legal"], body["reason"], body["lexicon"]) == (True, "in dictionary", "wordgame")
    assert body["spellings"] == [{"cards": ["t", "w", "a", "s"], "value": 18}]


def test_the_retired_broad_answers_as_wordgame(client: FlaskClient) -> None:
    body = get_word(client, "zax", lexicon="broad")
    assert (body["legal"], body["lexicon"]) == (True, "wordgame")


def test_a_groups_own_list_is_chosen_by_query(client: FlaskClient, house: Path) -> None:
    body = get_word(client, "zyzzyva", lexicon="house")
    assert (body["legal"], body["lexicon"]) == (True, "house")
    assert get_word(client, "steve", lexicon="house")["legal"] is True
    assert get_word(client, "quiz", lexicon="house")["legal"] is False
    assert get_word(client, "london", lexicon="house")["reason"] == "proper noun"


def test_a_games_house_words_are_added_by_query(client: FlaskClient) -> None:
    """api.md: ``?game=<id>`` adds that game's house words to the verdict."""
    resp = client.post("/api/v1/games", json={"players": ["Ann", "Ben"], "first_dealer": 0})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    game = resp.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for word, allowed in (("zyzzyva", True), ("quiz", False)):
        url = f"/api/v1/games/{game['id']}/house-words/{word}"
        assert client.put(url, json={"allowed": allowed}, headers=auth).status_code == 200
    allowed = get_word(client, "zyzzyva", game=game["id"])
    assert (allowed["legal"], allowed["reason"], allowed["code"]) == (
        True,
        "house word",
        "house_word",
    )
    banned = get_word(client, "quiz", game=game["id"])
    assert (banned["legal"], banned["reason"], banned["code"]) == (
        False,
        "banned house word",
        "banned_house_word",
    )


def test_an_unknown_lexicon_is_refused_with_the_names(client: FlaskClient) -> None:
    resp = client.get("/api/v1/words/quiz", query_string={"lexicon": "klingon"})
    names = ["standard", "wordgame", "common"]
    refused(resp, 422, "lexicon", "unknown_lexicon", name="klingon", names=names)


def test_a_long_legal_word(client: FlaskClient) -> None:
    body = get_word(client, "Counterrevolutionaries")
    assert (body["word"], body["legal"]) == ("counterrevolutionaries", True)
    assert body["spellings"] and all(s["value"] > 0 for s in body["spellings"])


def test_a_word_longer_than_any_hand(client: FlaskClient) -> None:
    body = get_word(client, "electroencephalographic", lexicon="standard")
    assert body["legal"] is True
    assert body["spellings"] == []  # 23 letters: more than any hand holds


def test_a_very_long_string_is_cut_and_refused(client: FlaskClient) -> None:
    body = get_word(client, "q" * 500)
    assert body["word"] == "q" * 60
    assert (body["legal"], body["reason"], body["spellings"]) == (False, "not in dictionary", [])


# POST /api/v1/judge


def test_a_play_of_legal_words_is_acceptable(client: FlaskClient) -> None:
    assert judged(client, {"words": ["quiz", "Bill", " running ", "rose"]}) == {"acceptable": True}


@pytest.mark.parametrize("bad", ["steve", "nasa", "dont", "ment", "stevee", "a", "co-op"])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_one_bad_word_makes_the_play_unacceptable_without_saying_which(
    client: FlaskClient, bad: str, at: int
) -> None:
    words = ["quiz", "bill", "running"]
    words[at] = bad
    assert judged(client, {"words": words}) == {"acceptable": False}


def test_the_api_md_example(client: FlaskClient) -> None:
    body = {"words": ["qi", "zax", "stevee"], "lexicon": "wordgame"}
    assert judged(client, body) == {"acceptable": False}


def test_the_lexicon_decides(client: FlaskClient, house: Path) -> None:
    assert judged(client, {"words": ["twas", "quiz"]}) == {"acceptable": False}
    both = {"words": ["twas", "quiz"], "lexicon": "wordgame"}
    assert judged(client, both) == {"acceptable": True}
    assert judged(client, {"words": ["zyzzyva"], "lexicon": "house"}) == {"acceptable": True}
    assert judged(client, {"words": ["the"], "lexicon": "house"}) == {"acceptable": False}


def test_twenty_words_are_judged(client: FlaskClient) -> None:
    assert judged(client, {"words": ["quiz"] * 20}) == {"acceptable": True}


@pytest.mark.parametrize(
    ("body", "status", "where", "code"),
    [
        ({"words": "quiz"}, 400, "words", "judge_words"),
        ({"words": ["quiz", 7]}, 400, "words", "judge_words"),
        ({"words": None}, 400, "words", "judge_words"),
        ({}, 400, "words", "judge_words"),
        ({"words": []}, 422, "words", "judge_count"),
        ({"words": ["quiz"] * 21}, 422, "words", "judge_count"),
        ({"words": ["quiz"], "lexicon": "klingon"}, 422, "lexicon", "unknown_lexicon"),
        ({"words": ["quiz"], "lexicon": 5}, 400, "lexicon", "lexicon_not_text"),
        ({"words": ["quiz"], "game": "1"}, 400, "game", "unknown_field"),
        (["quiz"], 400, "", "not_an_object"),
    ],
)
def test_judge_refusals(
    client: FlaskClient, body: object, status: int, where: str, code: str
) -> None:
    refused(client.post("/api/v1/judge", json=body), status, where, code)


def test_judge_refuses_a_body_that_is_not_json(client: FlaskClient) -> None:
    resp = client.post("/api/v1/judge", data="words=quiz", content_type="application/json")
    refused(resp, 400, "", "bad_json")


# POST /api/v1/score: a challenge without the table's ruling


def challenged(client: FlaskClient, word: str, **rules: str) -> dict:
    """Ann lays ``word`` (cards joined by "-"), Ben challenges it; both hold five cards."""
    unused = ["m", "n", "r", "s", "t"][: 5 - len(word.split("-"))]
    body: dict = {
        "players": [
            {"name": "Ann", "words": [word], "unused": unused},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["a", "e"]},
        ],
        "challenges": [{"by": "Ben", "player": "Ann", "word": 0}],
    }
    if rules:
        body["rules"] = rules
    resp = client.post("/api/v1/score", json=body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


@pytest.mark.parametrize(
    ("word", "legal", "reason", "code"),
    [
        ("b-i-l-l", True, "in dictionary", "in_dictionary"),
        ("t-v", False, "abbreviation", "abbreviation"),
        ("d-o-n-t", False, "contraction", "contraction"),
        ("s-t-e-v-e", False, "proper noun", "proper_noun"),
    ],
)
def test_the_dictionary_decides_a_challenge(
    client: FlaskClient, word: str, legal: bool, reason: str, code: str
) -> None:
    result = challenged(client, word)
    ruling = result["challenges"][0]
    assert (ruling["decided_by"], ruling["legal"], ruling["reason"], ruling["code"]) == (
        "dictionary",
        legal,
        reason,
        code,
    )
    assert result["players"][0]["words"][0]["struck"] is not legal
    assert ruling["charged_to"] == ("Ben" if legal else "Ann")


def test_a_groups_own_list_decides_a_challenge(client: FlaskClient, house: Path) -> None:
    ruling = challenged(client, "s-t-e-v-e", lexicon="house")["challenges"][0]
    assert (ruling["decided_by"], ruling["legal"]) == ("dictionary", True)
