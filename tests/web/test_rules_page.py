"""/rules: the rules for players in each language, and a game's own house rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.game import deck

BODIES = Path(__file__).resolve().parents[2] / "templates" / "rules"
HEADINGS = {
    "en": "How to play Quiddler",
    "lt": "Kaip žaisti Quiddler",
    "hu": "Így játszd a Quiddlert",
    "cs": "Jak hrát Quiddler",
}
MISTRANSLATED = {
    "lt": ("viktorin", "išeiti iš žaidimo"),
    "cs": ("kvíz", "vypadnout"),
    "hu": ("59 lap", "59 kártyás"),
}
"""Words of the machine-translated sources that got the game wrong: the example word
translated (its card sum then breaks), going out read as leaving, two 59-card decks."""
SPELLED = re.compile(r"\b([A-Z]{1,2}(?:·[A-Z]{1,2})+)\D{0,25}?((?:\d+\s\+\s)+\d+)\s=\s(\d+)")
"""A word spelled card by card, then the sum of its cards: ``QU·I·Z (9 + 2 + 14 = 25``."""


def rules_page(client: FlaskClient, lang: str, query: str = "") -> str:
    resp = client.get(f"/rules{query}", headers={"Accept-Language": lang})
    assert resp.status_code == 200
    return resp.get_data(as_text=True).replace("\N{NO-BREAK SPACE}", " ")


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_rules_in_each_language(client: FlaskClient, lang: str) -> None:
    page = rules_page(client, lang)
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{HEADINGS[lang]}</h1>" in page
    assert "QU·I·Z (9 + 2 + 14 = 25" in page, "the worked example keeps its English cards"
    assert "25 \N{MINUS SIGN} 5 = 20" in page
    assert "118" in page and "QU, IN, ER, CL" in page
    text = page.lower()
    for wrong in MISTRANSLATED.get(lang, ()):
        assert wrong not in text, f"{lang}: {wrong!r} is the source's mistake"


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_every_card_sum_in_the_text_is_right(lang: str) -> None:
    """Each spelled example's terms are its cards' values, and the sum is right."""
    body = (BODIES / f"{lang}.html").read_text(encoding="utf-8")
    spelled = SPELLED.findall(re.sub(r"<[^>]+>", "", body))
    assert len(spelled) == 7, spelled  # the and quiz twice each, top, quiz again, steve
    for cards, terms, total in spelled:
        played = [deck.card(name) for name in cards.split("·")]
        values = [int(t) for t in terms.split("+")]
        assert values == [c.value for c in played], cards
        assert sum(values) == int(total), cards


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_the_deck_table_is_the_deck(client: FlaskClient, lang: str) -> None:
    body = rules_page(client, lang)  # the table is made from the deck: read it as shown
    rows = re.findall(r'<th scope="row">([A-Z]{1,2})</th><td>(\d+)</td><td>(\d+)</td>', body)
    assert {(n.lower(), int(v), int(c)) for n, v, c in rows} == {
        (c.name, c.value, c.copies) for c in deck.CARDS
    }
    assert sum(int(c) for _n, _v, c in rows) == deck.DECK_SIZE == 118


def test_an_unknown_language_reads_english(client: FlaskClient) -> None:
    page = rules_page(client, "de")
    assert '<html lang="en">' in page and HEADINGS["en"] in page


def test_a_game_shows_its_house_rules(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"players": ["Ann", "Ben"], "rules": {"two_player_bonus": "most"}}
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id = created.get_json()["id"]
    page = rules_page(client, "en", f"?game={game_id}")
    assert HEADINGS["en"] in page
    assert 'id="house-rules"' in page
    assert "Bonus with two players" in page and "Most words only" in page
    assert f"/games/{game_id}" in page, "a way back to the leaderboard"
    plain = rules_page(client, "en")
    assert 'id="house-rules"' not in plain and "Most words only" not in plain


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_an_unknown_game_still_shows_the_rules(client: FlaskClient, lang: str) -> None:
    page = rules_page(client, lang, "?game=no-such-game")
    assert HEADINGS[lang] in page
    assert 'id="house-rules"' not in page


FLOOR_EXAMPLES = {
    "round": "Your round counts 0.",
    "before_bonus": "your round scores 10.",
    "total": "If your running total was 5, it is now 0 (not \N{MINUS SIGN}3)",
    "off": "Your round scores \N{MINUS SIGN}8, and your running total drops by 8.",
}
"""What each zero-floor placement makes of the page's example (12 - 30 + 10 = -8),
as the scoring code computes it (docs/rules.md, "Where the zero floor goes")."""


@pytest.mark.parametrize("floor", sorted(FLOOR_EXAMPLES))
def test_the_floor_paragraph_follows_the_games_floor(client: FlaskClient, floor: str) -> None:
    created = client.post(
        "/api/v1/games", json={"players": ["Ann", "Ben"], "rules": {"floor": floor}}
    )
    page = rules_page(client, "en", f"?game={created.get_json()['id']}")
    assert FLOOR_EXAMPLES[floor] in page
    assert [f for f, text in FLOOR_EXAMPLES.items() if text in page] == [floor]


VARIANT_WORDS = {
    "en": (
        "This game's variants",
        "Quiddler Junior",
        "Ben starts with 15 points",
        "majority vote",
        "The rounds: 2\N{EN DASH}7",
    ),
    "lt": ("Šio žaidimo variantai", "Quiddler Junior", "Ben (", "balsų dauguma", "2\N{EN DASH}7"),
    "hu": ("A játék változatai", "Quiddler Junior", "Ben (", "többségi", "2\N{EN DASH}7"),
    "cs": ("Varianty této hry", "Quiddler Junior", "Ben (", "hlasování většinou", "2\N{EN DASH}7"),
}


@pytest.mark.parametrize("lang", sorted(VARIANT_WORDS))
def test_a_games_variants_are_explained(client: FlaskClient, lang: str) -> None:
    """A Junior game with a head start and a majority vote: the page says so, in the
    player's language; the rule book's game says nothing of variants it doesn't have."""
    junior = {"hands": [2, 3, 4, 5, 6, 7], "min_word": "one_card", "proper_nouns": True}
    created = client.post(
        "/api/v1/games",
        json={
            "players": ["Ann", "Ben", "Cy"],
            "handicap": [0, 15, 0],
            "rules": {**junior, "leftover_penalty": False, "challenge_ruling": "majority"},
        },
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    page = rules_page(client, lang, f"?game={created.get_json()['id']}")
    heading, junior_name, head_start, vote, plan = VARIANT_WORDS[lang]
    assert heading in page and junior_name in page and vote in page and plan in page
    assert head_start in page and 'id="vote"' in page
    plain = client.post("/api/v1/games", json={"players": ["Ann", "Ben"]})
    standard = rules_page(client, lang, f"?game={plain.get_json()['id']}")
    assert 'id="variants"' not in standard and 'id="vote"' not in standard
    anyone = rules_page(client, lang)
    assert 'id="variants"' in anyone and 'id="vote"' in anyone and "Quiddler Junior" in anyone
