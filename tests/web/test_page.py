"""The home page: the explanation, the score form, scored rounds, refusals by their field, CSRF."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from companion import create_app
from companion.web import messages

MINUS = "\u2212"  # the page writes points taken off with a real minus sign
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


class Element:
    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parts: list[str] = []

    @property
    def text(self) -> str:
        """The element's text with runs of white space made single spaces."""
        return " ".join("".join(self.parts).split())

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class Page(HTMLParser):
    """A rendered page: every element with its attributes and its text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(el)
        if tag not in VOID:
            self._open.append(el)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                return

    def handle_data(self, data: str) -> None:
        for el in self._open:
            el.parts.append(data)

    def by_id(self, id_: str) -> Element | None:
        return next((e for e in self.elements if e.attrs.get("id") == id_), None)

    def by_class(self, cls: str) -> list[Element]:
        return [e for e in self.elements if cls in e.classes]

    def value(self, name: str) -> str | None:
        """What an input, a select or a checkbox named ``name`` holds."""
        for e in self.elements:
            if e.attrs.get("name") != name:
                continue
            if e.tag == "input" and e.attrs.get("type") in ("checkbox", "radio"):
                if "checked" in e.attrs:
                    return e.attrs.get("value", "")
                continue
            if e.tag == "input":
                return e.attrs.get("value", "")
        return self._selected(name)

    def _selected(self, name: str) -> str | None:
        inside = False
        for e in self.elements:
            if e.tag == "select":
                inside = e.attrs.get("name") == name
            elif inside and e.tag == "option" and "selected" in e.attrs:
                return e.attrs.get("value", "")
        return None

    def scores(self) -> dict[str, int]:
        """Each player's round score, from the data-score attributes."""
        out: dict[str, int] = {}
        current = None
        for e in self.elements:
            if "player-result" in e.classes:
                current = e.attrs["data-player"]
            elif "data-score" in e.attrs and current is not None:
                out[current] = int(e.attrs["data-score"])
        return out

    def totals(self) -> dict[str, int]:
        out: dict[str, int] = {}
        current = None
        for e in self.elements:
            if "player-result" in e.classes:
                current = e.attrs["data-player"]
            elif "data-total" in e.attrs and current is not None:
                out[current] = int(e.attrs["data-total"])
        return out

    def player_result(self, name: str) -> Element:
        return next(e for e in self.by_class("player-result") if e.attrs.get("data-player") == name)


def defaults() -> dict[str, str]:
    """Every field as a browser sends the untouched form: each text box and menu, even
    empty ones, and the ticked leftover-penalty box (an unticked box is not sent)."""
    form = {
        "round": "",
        "rules-hands": "standard",
        "rules-hands_first": "10",
        "rules-hands_last": "6",
        "rules-min_word": "cards",
        "rules-two_player_bonus": "longest",
        "rules-bonus": "10",
        "rules-floor": "round",
        "rules-leftover_penalty": "y",
        "rules-false_out_penalty": "0",
        "rules-challenge_ruling": "dictionary",
    }
    for i in range(8):
        for f in ("name", "words", "unused"):
            form[f"players-{i}-{f}"] = ""
    for k in range(4):
        for f in ("by", "player", "word", "ruling"):
            form[f"challenges-{k}-{f}"] = ""
    return form


def three_player_round() -> dict[str, str]:
    """Round 5 (7 cards each). Ann challenges Ben's STEVE (struck); Cy challenges Ann's TOP."""
    form = defaults()
    form.update({
        "round": "5",
        "players-0-name": "Ann", "players-0-words": "qu-i-z top", "players-0-unused": "m",
        "players-1-name": "Ben", "players-1-words": "steve", "players-1-unused": "a e",
        "players-2-name": "Cy", "players-2-words": "th-e cat", "players-2-unused": "o i",
        "challenges-0-by": "1", "challenges-0-player": "2", "challenges-0-word": "1",
        "challenges-0-ruling": "illegal",
        "challenges-1-by": "3", "challenges-1-player": "1", "challenges-1-word": "2",
        "challenges-1-ruling": "legal",
    })  # fmt: skip
    return form


def post(client: FlaskClient, form: dict[str, str]):
    return client.post("/score", data=form)


def page_of(resp) -> Page:
    return Page(resp.get_data(as_text=True))


def field_error(page: Page, field: str) -> str:
    """The message shown next to ``field`` (its ``<field>-error`` element)."""
    el = page.by_id(f"{field}-error")
    assert el is not None, f"no error shown next to {field}"
    return el.text


def alert(page: Page) -> str:
    el = page.by_id("form-error")
    assert el is not None, "no alert"
    return el.text


def refused(resp, code: str, status: int = 422, **params: object) -> Page:
    """The page of a refused form: ``status``, and the catalog's message for ``code`` with
    ``params`` in the HTML (escaped as the template writes it) and in the alert."""
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    said = messages.render(code, params)
    assert str(escape(said)) in resp.get_data(as_text=True), said
    page = page_of(resp)
    if status == 422:
        assert said in alert(page)
    return page


def said(code: str, **params: object) -> str:
    """The catalog's message for ``code``, as the page's text reads."""
    return messages.render(code, params)


# --- GET / ------------------------------------------------------------------------------


def test_home_explains_and_offers_the_form(client: FlaskClient) -> None:
    resp = client.get("/score")
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    page = page_of(resp)
    intro = page.by_class("intro")[0]
    assert "Score a Quiddler round" in intro.text
    assert "Type each player's words as the cards really played and the cards left over." in (
        intro.text
    )
    assert "ties give nobody" in intro.text
    form = next(e for e in page.elements if e.tag == "form")
    assert form.attrs["method"] == "post"
    for i in range(8):
        for f in ("name", "words", "unused"):
            assert page.by_id(f"players-{i}-{f}") is not None
        assert page.by_id(f"players-{i}-went_out") is not None
    for k in range(4):
        for f in ("by", "player", "word", "ruling"):
            assert page.by_id(f"challenges-{k}-{f}") is not None
    assert page.value("rules-min_word") == "cards"
    assert page.value("rules-two_player_bonus") == "longest"
    assert page.value("rules-bonus") == "10"
    assert page.value("rules-hands") == "standard"
    assert page.value("rules-floor") == "round"
    assert page.value("rules-leftover_penalty") == "y"
    assert page.value("rules-false_out_penalty") == "0"
    assert page.by_id("result") is None
    assert page.by_id("form-error") is None


# --- a scored round ----------------------------------------------------------------------


def test_three_player_round_shows_exact_scores(client: FlaskClient) -> None:
    resp = post(client, three_player_round())
    assert resp.status_code == 200
    page = page_of(resp)
    # Ann: QUIZ 25 + TOP 11 - M 5 + longest word 10 = 41.
    # Ben: STEVE struck, so -(21 + A 2 + E 2) = -25, floored to 0.
    # Cy: THE 11 + CAT 13 - O 2 - I 2 - 11 for the lost challenge = 9.
    assert page.scores() == {"Ann": 41, "Ben": 0, "Cy": 9}
    assert page.totals() == {"Ann": 41, "Ben": -25, "Cy": 9}
    assert "Zero floor" in page.player_result("Ben").text
    assert "Zero floor" not in page.player_result("Ann").text


def test_struck_word_is_shown_struck(client: FlaskClient) -> None:
    page = page_of(post(client, three_player_round()))
    ben = page.player_result("Ben")
    struck = [e for e in page.by_class("word") if "struck" in e.classes]
    assert len(struck) == 1
    assert "STEVE" in struck[0].text
    assert "struck" in struck[0].text
    assert "counts as unused" in struck[0].text
    assert "(21)" in struck[0].text
    assert f"Left over {MINUS}25" in ben.text
    assert "Words +0" in ben.text


def test_bonus_notes_say_who_won_and_who_tied(client: FlaskClient) -> None:
    page = page_of(post(client, three_player_round()))
    notes = [e.text for e in page.by_class("bonus-note")]
    assert notes == [
        "Most words: Ann and Cy tie at 2 words, so nobody gets it.",
        "Longest word: Ann, with 4 letters.",
    ]
    assert "Longest word bonus +10" in page.player_result("Ann").text


def test_challenge_notes_say_who_pays_what(client: FlaskClient) -> None:
    page = page_of(post(client, three_player_round()))
    notes = [e.text for e in page.by_class("challenge-note")]
    assert len(notes) == 2
    assert notes[0].startswith("Ann challenged Ben's STEVE: not legal")
    assert notes[0].endswith("Ben loses the word: its 21 points count against them.")
    assert notes[1].startswith("Cy challenged Ann's TOP: legal")
    assert notes[1].endswith("Cy pays 11.")
    assert f"Lost challenges {MINUS}11" in page.player_result("Cy").text


def test_page_and_api_agree(client: FlaskClient) -> None:
    page = page_of(post(client, three_player_round()))
    api = client.post("/api/v1/score", json={
        "round": 5,
        "players": [
            {"name": "Ann", "words": ["qu-i-z", "top"], "unused": ["m"]},
            {"name": "Ben", "words": ["steve"], "unused": ["a", "e"]},
            {"name": "Cy", "words": ["th-e", "cat"], "unused": ["o", "i"]},
        ],
        "challenges": [
            {"by": "Ann", "player": "Ben", "word": 0, "ruling": "illegal"},
            {"by": "Cy", "player": "Ann", "word": 1, "ruling": "legal"},
        ],
    }).get_json()  # fmt: skip
    assert page.scores() == {p["name"]: p["score"] for p in api["players"]}


def test_two_players_with_the_most_words_house_rule(client: FlaskClient) -> None:
    form = defaults()
    form.update({
        "players-0-name": "Ann", "players-0-words": "a-t t-o", "players-0-unused": "",
        "players-1-name": "Ben", "players-1-words": "q-u-i-z", "players-1-unused": "",
        "rules-two_player_bonus": "most", "rules-bonus": "7",
    })  # fmt: skip
    page = page_of(post(client, form))
    # Ann: AT 5 + TO 5 + most words 7; Ben: QUIZ 35, longest word not used.
    assert page.scores() == {"Ann": 17, "Ben": 35}
    notes = [e.text for e in page.by_class("bonus-note")]
    assert notes == [
        "Most words: Ann, with 2 words.",
        "Longest word: not used with two players (house rule).",
    ]


def test_zero_floor_off_shows_a_negative_score(client: FlaskClient) -> None:
    form = defaults()
    form["rules-floor"] = "off"
    form.update({
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "",
        "players-1-name": "Ben", "players-1-words": "", "players-1-unused": "z q x",
    })  # fmt: skip
    assert page_of(post(client, form)).scores() == {"Ann": 21, "Ben": -41}


def test_false_out_penalty_on_the_page(client: FlaskClient) -> None:
    form = defaults()
    form.update({
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "m",
        "players-0-went_out": "y",
        "players-1-name": "Ben", "players-1-words": "c-a-t", "players-1-unused": "a",
        "rules-false_out_penalty": "4",
    })  # fmt: skip
    page = page_of(post(client, form))
    assert page.scores() == {"Ann": 2, "Ben": 11}
    ann = page.player_result("Ann")
    assert "went out" in ann.text
    assert f"False going out {MINUS}4" in ann.text


def test_lone_double_letter_card_with_the_two_letters_rule(client: FlaskClient) -> None:
    """House rule 'two letters': a lone IN is a word. Typed as a card list it is one card."""
    form = defaults()
    form.update({
        "rules-min_word": "letters",
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "m",
        "players-1-name": "Ben", "players-1-words": "c-a-t", "players-1-unused": "in",
    })  # fmt: skip
    page = page_of(post(client, form))
    assert page.scores() == {"Ann": 6, "Ben": 6}  # C·A·T 13 - IN 7 (one leftover card)


def test_blank_rows_between_players_are_skipped(client: FlaskClient) -> None:
    form = defaults()
    form.update({
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "",
        "players-3-name": "Ben", "players-3-words": "c-a-t", "players-3-unused": "",
        "challenges-2-by": "1", "challenges-2-player": "4", "challenges-2-word": "1",
        "challenges-2-ruling": "legal",
    })  # fmt: skip
    page = page_of(post(client, form))
    assert page.scores() == {"Ann": 0, "Ben": 13}  # Ann: TOP 11 - 13 paid for the challenge
    assert page.totals()["Ann"] == -2


# --- refused forms ---------------------------------------------------------------------------


def test_refused_form_puts_the_message_by_the_field_and_keeps_the_input(
    client: FlaskClient,
) -> None:
    form = three_player_round()
    form["players-1-words"] = "t-o-p b-o-k7"
    form["players-1-unused"] = "a"
    resp = post(client, form)
    page = refused(resp, "not_a_card", card="k7")
    assert said("not_a_card", card="k7") in field_error(page, "players-1-words")
    assert "Not scored." in alert(page)
    box = page.by_id("players-1-words")
    assert box is not None
    assert box.attrs["aria-invalid"] == "true"
    assert box.attrs["aria-describedby"] == "players-1-words-error"
    # Everything typed is still there.
    for name in ("players-0-name", "players-0-words", "players-0-unused", "players-1-name",
                 "players-1-words", "players-1-unused", "players-2-name", "players-2-words",
                 "players-2-unused", "round", "challenges-0-by", "challenges-0-player",
                 "challenges-0-word", "challenges-0-ruling", "challenges-1-by",
                 "challenges-1-ruling"):  # fmt: skip
        assert page.value(name) == form[name], name
    assert page.by_id("result") is None
    assert page.scores() == {}


def test_refusal_maps_to_the_row_the_player_was_typed_in(client: FlaskClient) -> None:
    form = defaults()
    form.update({
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "",
        "players-2-name": "Ben", "players-2-words": "c-a-t x", "players-2-unused": "",
    })  # fmt: skip
    resp = post(client, form)
    page = refused(resp, "word_one_card", player="Ben", card="x", double=False)
    message = said("word_one_card", player="Ben", card="x", double=False)
    assert message in field_error(page, "players-2-words")
    assert page.by_id("players-1-words-error") is None
    assert page.value("players-2-words") == "c-a-t x"


def test_duplicate_name_is_refused_at_the_name(client: FlaskClient) -> None:
    form = three_player_round()
    form["players-2-name"] = "ann"
    resp = post(client, form)
    page = refused(resp, "name_twice", name="ann")
    assert said("name_twice", name="ann") in field_error(page, "players-2-name")
    assert page.value("players-2-name") == "ann"


def test_wrong_card_count_for_the_round_marks_the_player_row(client: FlaskClient) -> None:
    form = three_player_round()
    form["players-1-unused"] = "a"
    resp = post(client, form)
    page = refused(resp, "hand_size", player="Ben", have=6, round=5, need=7)
    row = page.by_id("players-1")
    assert row is not None and "has-error" in row.classes
    assert said("hand_size", player="Ben", have=6, round=5, need=7) in row.text
    assert page.value("players-1-unused") == "a"
    assert page.value("round") == "5"


def test_too_many_copies_names_the_card(client: FlaskClient) -> None:
    form = three_player_round()
    form["players-2-unused"] = "z z"
    resp = post(client, form)
    page = refused(resp, "deck_copies", card="z", copies=2, count=3)
    assert said("deck_copies", card="z", copies=2, count=3) in field_error(page, "players-2-unused")


def test_challenge_without_ruling_is_decided_by_the_dictionary(client: FlaskClient) -> None:
    """Left to the dictionary, the challenge is ruled with its reason shown on the page."""
    form = three_player_round()
    form["challenges-1-ruling"] = ""
    resp = post(client, form)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    page = page_of(resp)
    note = " ".join(page.by_class("challenge-note")[1].text.split())
    assert note == "Cy challenged Ann's TOP: legal (in dictionary). Cy pays 11."
    assert page.scores() == page_of(post(client, three_player_round())).scores()


def test_challenge_of_an_empty_seat(client: FlaskClient) -> None:
    form = three_player_round()
    form["challenges-1-player"] = "5"
    resp = post(client, form)
    page = refused(resp, "seat_without_player", field="Word of")  # the menu's label
    message = said("seat_without_player", field="Word of")
    assert message in field_error(page, "challenges-1-player")


def test_challenge_of_own_word_maps_to_the_challenge_row(client: FlaskClient) -> None:
    form = three_player_round()
    for f in ("by", "player", "word", "ruling"):
        form[f"challenges-0-{f}"] = ""
    form["challenges-1-by"] = "1"  # Ann challenges her own TOP, in the second row
    resp = post(client, form)
    page = refused(resp, "challenge_own_word", player="Ann")
    assert said("challenge_own_word", player="Ann") in field_error(page, "challenges-1-by")


def test_challenge_word_number_out_of_range(client: FlaskClient) -> None:
    form = three_player_round()
    form["challenges-1-word"] = "3"  # Ann laid down 2 words
    resp = post(client, form)
    page = refused(resp, "challenge_no_word", player="Ann", count=2)
    message = said("challenge_no_word", player="Ann", count=2)
    assert message in field_error(page, "challenges-1-word")


@pytest.mark.parametrize("typed", ["0", "11", "two"])
def test_challenge_word_number_not_1_to_10(client: FlaskClient, typed: str) -> None:
    form = three_player_round()
    form["challenges-1-word"] = typed
    resp = post(client, form)
    assert resp.status_code == 422
    page = page_of(resp)
    assert field_error(page, "challenges-1-word")  # the form's own check of the number
    assert page.value("challenges-1-word") == typed
    assert page.scores() == {}


def test_same_word_challenged_twice(client: FlaskClient) -> None:
    form = three_player_round()
    form.update({"challenges-2-by": "2", "challenges-2-player": "1", "challenges-2-word": "2",
                 "challenges-2-ruling": "legal"})  # fmt: skip
    resp = post(client, form)
    page = refused(resp, "challenge_twice", player="Ann", word="top")
    row = page.by_id("challenges-2")
    assert row is not None and said("challenge_twice", player="Ann", word="top") in row.text


def test_one_player_is_refused(client: FlaskClient) -> None:
    form = defaults()
    form.update({"players-0-name": "Ann", "players-0-words": "t-o-p"})
    refused(post(client, form), "player_count", count=1, least=2, most=8)


def test_bad_bonus_is_refused_at_the_bonus(client: FlaskClient) -> None:
    form = three_player_round()
    form["rules-bonus"] = "-3"
    resp = post(client, form)
    page = refused(resp, "points_range", most=1000)
    assert said("points_range", most=1000) in field_error(page, "rules-bonus")
    assert page.value("rules-bonus") == "-3"


# --- CSRF ------------------------------------------------------------------------------------


@pytest.fixture
def csrf_app(app: Flask) -> Flask:
    """The app as deployed: CSRF protection on (on the test's fresh database)."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "AUTO_MIGRATE": False,
            "DATABASE_URL": app.config["DATABASE_URL"],
            "LEXICON_DIR": app.config["LEXICON_DIR"],
            "LEXICON_CACHE_DIR": app.config["LEXICON_CACHE_DIR"],
        }
    )


def test_post_without_csrf_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    client.get("/score")
    resp = client.post("/score", data=three_player_round())
    refused(resp, "form_expired", status=400)
    assert "data-score" not in resp.get_data(as_text=True)


def test_post_with_a_wrong_csrf_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    client.get("/score")
    resp = client.post("/score", data={**three_player_round(), "csrf_token": "forged"})
    refused(resp, "form_expired", status=400)
    assert "data-score" not in resp.get_data(as_text=True)


def test_post_with_the_page_csrf_token_is_scored(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    html = client.get("/score").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html
    )
    assert match, "the form carries a CSRF token"
    resp = client.post("/score", data={**three_player_round(), "csrf_token": match.group(1)})
    assert resp.status_code == 200
    assert page_of(resp).scores() == {"Ann": 41, "Ben": 0, "Cy": 9}


def test_api_needs_no_csrf_token(csrf_app: Flask) -> None:
    resp = csrf_app.test_client().post("/api/v1/spell", json={"letters": "top"})
    assert resp.status_code == 200


def test_two_went_out_is_refused(client: FlaskClient) -> None:
    form = three_player_round()
    form["players-0-went_out"] = "y"
    form["players-2-went_out"] = "y"
    resp = post(client, form)
    page = refused(resp, "went_out_twice", first="Ann", second="Cy")
    assert page.value("players-0-went_out") == "y"
    assert page.value("players-2-went_out") == "y"
    assert page.value("players-1-went_out") is None


# --- a form posted without its blank rows ------------------------------------------------------


def test_form_posted_without_blank_rows_scores_the_same(client: FlaskClient) -> None:
    """BUG: a POST that leaves out the empty rows (as a script, or a browser whose hidden rows
    are disabled, would send it) is refused with a false message.

    WTForms 3.3 renumbers the posted rows 0, 2 to 0, 1, then fills the list up to 8 rows by
    reading the form data again, so the row posted as players-2 is read twice: "Two players
    are called 'Ben'". The same happens to challenge rows ("already challenged").
    """
    full = defaults()
    full.update({
        "players-0-name": "Ann", "players-0-words": "t-o-p", "players-0-unused": "",
        "players-2-name": "Ben", "players-2-words": "c-a-t", "players-2-unused": "",
    })  # fmt: skip
    assert page_of(post(client, full)).scores() == {"Ann": 11, "Ben": 13}
    sparse = {k: v for k, v in full.items() if v}
    resp = post(client, sparse)
    page = page_of(resp)
    assert resp.status_code == 200, alert(page)
    assert page.scores() == {"Ann": 11, "Ben": 13}
