"""The review's language slips, each fixed where a player reads it: the Czech bonus race
says who entered (not who is tied), the Lithuanian contraction is not an abbreviation,
"you" is informal everywhere, lexicons are named in the reader's language, numbers are
written as each language writes them (4,71; a minus sign), the rules page states a game's own
bonus, a Slovak phone reads Czech, a shared link's ``?lang=`` is honoured, the catalogs
carry proper headers and translator notes, and no word the glossary bans is in them."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import LanguageAccept

from companion.web.i18n import with_kin
from tests.games.conftest import new_game  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "companion" / "translations"
GLOSSARY = ROOT / "docs" / "glossary.md"
TRANSLATED = ("lt", "hu", "cs")
MINUS = "\N{MINUS SIGN}"


@cache
def catalog(lang: str) -> Catalog:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def texts(lang: str, msgid: str, context: str | None = None) -> list[str]:
    message = catalog(lang).get(msgid, context=context)
    assert message is not None, (lang, msgid, context)
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def page(client: FlaskClient, url: str, lang: str) -> str:
    resp = client.get(url, headers={"Accept-Language": lang})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    return resp.get_data(as_text=True).replace("\N{NO-BREAK SPACE}", " ")


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found
    return found.group(1)


def hand(name: str, words=(), unused=(), went_out: bool = False) -> dict[str, object]:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": went_out}


@pytest.fixture
def minus_game(new_game):  # noqa: F811
    """Round 1 closed without the zero floor: Ann kept Z, K and A (14 + 8 + 2): minus 24."""
    game = new_game(rules={"zero_floor": False})
    game.enter(1, [hand("Ann", unused=["z", "k", "a"]), hand("Ben", ["c-a-t"], went_out=True),
                   hand("Cy", ["d-o-g"])])  # fmt: skip
    game.close(1)
    return game


# 1. The Czech bonus race: "so far from" is who entered, not who is tied.


def test_the_czech_bonus_race_lists_who_entered(app: Flask, new_game) -> None:  # noqa: F811
    msgid = "A tie gives the bonus to nobody: beat it to win %(num)d point. So far from %(names)s."
    for text in texts("cs", msgid):
        assert "Zatím zadali: %(names)s." in text and "shoduj" not in text
    assert all("Kol kas įvedė" in t for t in texts("lt", msgid))
    assert all("eddig beírt" in t for t in texts("hu", msgid))
    game = new_game()
    ann = app.test_client()
    assert ann.post(f"/games/{game.id}/seats/0").status_code == 302
    saved = ann.post(f"/games/{game.id}/rounds/1/seats/0",
                     data={"words": "cat", "unused": "", "version": "0"})  # fmt: skip
    assert saved.status_code == 302
    shown = page(app.test_client(), f"/games/{game.id}/rounds/1", "cs")
    assert "Zatím zadali: Ann." in shown


# 2. The Lithuanian contraction.


def test_the_lithuanian_contraction_is_not_an_abbreviation() -> None:
    (contraction,) = texts("lt", "contraction")
    assert contraction.startswith("sutraukta forma") and "don't" in contraction
    assert "sutrumpint" not in contraction and texts("lt", "abbreviation") == ["santrumpa"]
    assert "sutraukta forma (pvz., don't)" in GLOSSARY.read_text(encoding="utf-8")
    rules = (ROOT / "templates" / "rules" / "lt.html").read_text(encoding="utf-8")
    assert "sutrauktų formų (pvz., don't)" in rules and "sutrumpint" not in rules


# 3. Informal "you": the seven messages the review found (the banned list checks the rest).


@pytest.mark.parametrize(
    ("lang", "msgid", "informal"),
    [
        ("lt", "This server doesn't answer to the address {host}: open it at the address "
         "its organiser announced.", "atidaryk jį"),
        ("lt", "Send the body as JSON, with the header 'Content-Type: application/json'.",
         "Siųsk turinį"),
        ("lt", "This game's dictionary (%(lexicon)s) is no longer on this server: words are "
         "not checked, and a challenge needs the table's ruling.", "sprendžia žaidėjai"),
        ("cs", "This server doesn't answer to the address {host}: open it at the address "
         "its organiser announced.", "otevři ho"),
        ("cs", "Send the body as JSON, with the header 'Content-Type: application/json'.",
         "Pošli tělo"),
        ("cs", "The server is busy; nothing was changed. Try again in a moment.", "Zkus to"),
    ],
)  # fmt: skip
def test_the_formal_you_is_gone(lang: str, msgid: str, informal: str) -> None:
    assert informal in texts(lang, msgid)[0]


def test_the_rules_pages_say_your_group_informally() -> None:
    lt = (ROOT / "templates" / "rules" / "lt.html").read_text(encoding="utf-8")
    cs = (ROOT / "templates" / "rules" / "cs.html").read_text(encoding="utf-8")
    assert "tavo grupė" in lt and "jūsų" not in lt and "galite" not in lt
    assert "tvoje skupina" in cs and "vaše" not in cs and "můžete" not in cs


# 4. The lexicon's name in the reader's language.

BEST_PLAY_HINT = {
    "en": "with the standard dictionary (and the house words)",
    "lt": "su žodynu „standartinis“",
    "hu": "(szótár: alap,",
    "cs": "se slovníkem „standardní“",
}


@pytest.mark.parametrize("lang", sorted(BEST_PLAY_HINT))
def test_a_closed_round_names_its_lexicon_in_the_readers_language(
    client: FlaskClient, minus_game, lang: str
) -> None:
    shown = page(client, f"/games/{minus_game.id}/rounds/1", lang)
    assert BEST_PLAY_HINT[lang] in shown
    if lang != "en":
        assert "standard dictionary" not in shown and "žodynas standard " not in shown


def test_a_game_page_names_a_wordgame_lexicon_in_czech(client: FlaskClient, new_game) -> None:  # noqa: F811
    game = new_game(rules={"lexicon": "wordgame"})
    shown = page(client, f"/rules?game={game.id}", "cs")
    assert "Pro slovní hry (ENABLE + standardní)" in shown  # the rules table: its title
    assert ">wordgame<" not in shown


# 5. Numbers: the minus sign and the decimal comma.


@pytest.mark.parametrize("lang", ["cs", "lt", "hu", "en"])
def test_a_negative_score_is_written_with_the_minus_sign(
    client: FlaskClient, minus_game, lang: str
) -> None:
    board = page(client, f"/games/{minus_game.id}", lang)
    assert f'data-total="-24">{MINUS}24</span>' in board  # the leaderboard
    assert f">{MINUS}24<span" in board or f">{MINUS}24</td>" in board  # the rounds table
    result = page(client, f"/games/{minus_game.id}/rounds/1", lang)
    assert f'data-score="-24">{MINUS}24</span>' in result
    assert re.search(r">-24<", board + result) is None
    api = client.get(minus_game.url()).get_json()  # the API keeps JSON numbers
    assert api["rounds"][0]["result"]["players"][0]["score"] == -24


def test_no_cards_left_over_is_zero_not_minus_zero(client: FlaskClient, minus_game) -> None:
    """Ben went out with every card in CAT: his leftover line says 0, no sign before it;
    Ann's says minus 24."""
    result = page(client, f"/games/{minus_game.id}/rounds/1", "cs")
    leftovers = re.findall(r'<span class="pts">([^<]*)</span></li>', result)
    assert f"{MINUS}24" in leftovers
    assert "0" in leftovers
    assert f"{MINUS}0" not in result


@pytest.mark.parametrize(("lang", "mark"), [("cs", ","), ("lt", ","), ("hu", ","), ("en", ".")])
def test_the_zipf_frequency_uses_the_languages_decimal_mark(
    client: FlaskClient, lang: str, mark: str
) -> None:
    shown = page(client, "/words?word=cat&lexicon=standard", lang)
    found = re.search(r"\(Zipf (\d+)([.,])(\d\d)\)", shown)
    assert found, shown[:500]
    assert found.group(2) == mark


def test_the_scripts_get_a_number_formatter() -> None:
    script = (ROOT / "companion" / "static" / "i18n.js").read_text(encoding="utf-8")
    assert "window.formatNumber" in script and "Intl.NumberFormat(catalog.lang" in script
    round_js = (ROOT / "companion" / "static" / "round.js").read_text(encoding="utf-8")
    assert "formatNumber(s.value)" in round_js


# 6. The rules page states the game's own numbers.


def test_the_rules_page_states_a_games_bonus_and_penalty(client: FlaskClient, new_game) -> None:  # noqa: F811
    game = new_game(rules={"bonus": 15, "false_out_penalty": 5, "zero_floor": False})
    en = page(client, f"/rules?game={game.id}", "en")
    assert "15 points to the player who made more words" in en
    assert "15 points to the player with the longest word" in en
    assert "10 points to the player" not in en
    assert "in this game: 5 points" in en and "Zero floor</strong>: this game has none." in en
    assert "Your round scores \N{MINUS SIGN}8, and your running total drops by 8." in en
    cs = page(client, f"/rules?game={game.id}", "cs")
    assert "15 bodů pro hráče, který složil" in cs and "v této hře: 5 bodů" in cs
    lt = page(client, f"/rules?game={game.id}", "lt")
    assert "15 taškų žaidėjui" in lt and "šiame žaidime: 5 taškai" in lt
    hu = page(client, f"/rules?game={game.id}", "hu")
    assert "15 pont annak, aki" in hu and "ebben a játékban: 5 pont" in hu
    plain = page(client, "/rules", "en")
    assert "10 points to the player who made more words" in plain
    assert "none by default" in plain and "A group can place the floor elsewhere" in plain


def test_the_game_pages_link_to_the_rules_of_that_game(client: FlaskClient, new_game) -> None:  # noqa: F811
    game = new_game(rules={"bonus": 15})
    assert f'href="/rules?game={game.id}"' in page(client, f"/games/{game.id}", "en")


# 7. Minimum word: a length, not "the shortest word".


def test_minimum_word_is_labelled_as_a_length(client: FlaskClient) -> None:
    assert texts("lt", "Minimum word") == ["Mažiausias žodžio ilgis"]
    assert texts("cs", "Minimum word") == ["Minimální délka slova"]
    assert "Mažiausias žodžio ilgis" in page(client, "/games/new", "lt")
    assert "Minimální délka slova" in page(client, "/games/new", "cs")


# 8. A Slovak phone reads Czech; other neighbours stay English.


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("sk-SK,sk;q=0.9,en-US;q=0.8,en;q=0.7", "cs"),
        ("sk", "cs"),
        ("en-GB,sk;q=0.5", "en"),  # English first: English
        ("lv-LV,lv;q=0.9", "en"),  # Latvian is not Lithuanian to its readers
        ("fi,et;q=0.8", "en"),
    ],
)
def test_a_slovak_phone_reads_czech(client: FlaskClient, header: str, lang: str) -> None:
    assert lang_of(page(client, "/", header)) == lang


def test_a_czech_listed_beside_slovak_stays_first() -> None:
    accepted = with_kin(LanguageAccept([("sk", 1), ("hu", 1)]))
    assert accepted.best_match(["en", "lt", "hu", "cs"]) == "hu"  # hu listed, cs only kin
    assert list(with_kin(LanguageAccept([("sk-SK", 1)]))) == [("sk", 1), ("cs", 0.9999)]
    regional = with_kin(LanguageAccept([("en-GB", 1), ("cs", 0.5)]))
    assert regional.best_match(["en", "lt", "hu", "cs"]) == "en"  # en-GB is English


# 9. ?lang= on a shared link.


def test_a_shared_link_with_lang_shows_that_language(client: FlaskClient, new_game) -> None:  # noqa: F811
    game = new_game()
    shown = page(client, f"/games/{game.id}?lang=hu", "en")
    assert lang_of(shown) == "hu" and '"lang": "hu"' in shown
    assert lang_of(page(client, f"/games/{game.id}", "en")) == "en", "that page only"
    assert lang_of(page(client, "/rules?lang=cs", "lt")) == "cs"
    assert lang_of(page(client, "/rules?lang=xx", "lt")) == "lt", "an unknown one is ignored"


def test_lang_outranks_the_switch_on_that_page_and_the_switch_drops_it(
    client: FlaskClient,
) -> None:
    client.get("/language/lt?next=/")
    assert lang_of(page(client, "/rules?lang=hu", "en")) == "hu"
    assert lang_of(page(client, "/rules", "en")) == "lt", "the phone's choice is kept"
    back = client.get("/language/cs?next=/rules?lang%3Dhu%26game%3Dabc")
    assert back.headers["Location"] == "/rules?game=abc"
    assert lang_of(page(client, back.headers["Location"], "en")) == "cs"


def test_the_polled_parts_still_answer_in_their_lang(app: Flask, minus_game) -> None:
    for url in (f"/games/{minus_game.id}/board", f"/games/{minus_game.id}/rounds/1/live"):
        resp = app.test_client().get(f"{url}?lang=cs", headers={"Accept-Language": "hu"})
        assert resp.status_code == 200
        assert "Set-Cookie" not in resp.headers and "Cookie" not in resp.headers.get("Vary", "")
        assert f"{MINUS}24" in resp.get_data(as_text=True)
    live = app.test_client().get(f"/games/{minus_game.id}/rounds/1/live?lang=cs")
    assert "se slovníkem „standardní“" in live.get_data(as_text=True)


# 10. Headers, translator comments, contexts.

PLURALS = {"lt": 3, "hu": 2, "cs": 3, "en": 2}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_each_catalog_has_proper_headers(lang: str) -> None:
    text = (CATALOGS / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    version = re.search(r'^version = "(.+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version
    cat = catalog(lang)
    assert cat.project == "Quiddler Companion" and cat.version == version.group(1)
    assert cat.language_team and "LL@li.org" not in cat.language_team
    assert "FULL NAME" not in text and "FIRST AUTHOR" not in text and "ORGANIZATION" not in text
    assert f'"Language: {lang}\\n"' in text
    assert cat.num_plurals == PLURALS[lang]
    assert '"Content-Type: text/plain; charset=utf-8\\n"' in text
    assert "#~" not in text, "no obsolete entries kept"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("lt", {1: "1 taškas", 2: "2 taškai", 10: "10 taškų", 11: "11 taškų", 21: "21 taškas",
                25: "25 taškai"}),
        ("cs", {1: "1 bod", 2: "2 body", 4: "4 body", 5: "5 bodů", 21: "21 bodů"}),
        ("hu", {1: "1 pont", 2: "2 pont", 25: "25 pont"}),
    ],
)  # fmt: skip
def test_the_plural_forms_pick_the_glossarys_words(lang: str, said: dict[int, str]) -> None:
    """The compiled catalog's Plural-Forms choose the glossary's form for each count."""
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for n, words in said.items():
        form = compiled.ngettext("%(num)d point", "%(num)d points", n) % {"num": n}
        assert form.replace("\N{NO-BREAK SPACE}", " ") == words


def test_ambiguous_words_carry_a_context_and_translators_notes() -> None:
    with (CATALOGS / "messages.pot").open("rb") as f:
        template = read_po(f)
    contexts = [("open", "round state"), ("closed", "round state"), ("Score", "menu"),
                ("Challenge", "verb"), ("standard", "lexicon")]  # fmt: skip
    for msgid, context in contexts:
        assert template.get(msgid, context=context) is not None, (msgid, context)
    noted = [m.id for m in template if m.id and m.auto_comments]
    assert len(noted) >= 15, noted
    assert texts("cs", "open", "round state") == ["otevřené"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-c TRANSLATORS:" in makefile and "-k NC_:1c,2" in makefile


# 11. The glossary's banned words appear in no catalog and no rules page.


def banned() -> dict[str, list[str]]:
    """The "Banned words" table of docs/glossary.md: each language's words in backticks."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Banned words", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    for row in re.findall(r"^\| (lt|hu|cs) \| (.+?) \|", section, re.M):
        found.setdefault(row[0], []).extend(re.findall(r"`([^`]+)`", row[1]))
    return found


def pattern(word: str) -> re.Pattern[str]:
    """A banned word as a whole word, any case; ``*`` is any letters."""
    body = re.escape(word).replace(r"\*", r"\w*")
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def offenders(lang: str, sentences: list[str]) -> list[tuple[str, str]]:
    return [(w, s) for w in banned()[lang] for s in sentences if pattern(w).search(s)]


def test_the_banned_table_is_read() -> None:
    words = banned()
    assert set(words) == set(TRANSLATED)
    assert {"išeiti iš žaidimo", "iškristi", "kortel*", "ratas", "bonus*", "teisėt*"} <= set(
        words["lt"]
    )
    assert {"kiesik", "forduló*"} <= set(words["hu"])
    assert {"krupiér*", "vypadnout", "odejít ze hry", "legální*", "kvíz*", "zadejte"} <= set(
        words["cs"]
    )
    assert offenders("lt", ["Įveskite savo ranką", "Jūsų ėjimas", "nauja kortelė"])
    assert offenders("cs", ["Zadejte slova", "Vaše ruka", "krupiér rozdává"])
    assert not offenders("cs", ["Zadej slova, tvoje ruka"])
    assert not offenders("lt", ["Įvesk savo ranką; korta"])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_uses_a_banned_word(lang: str) -> None:
    sentences = [s for m in catalog(lang) if m.id
                 for s in (m.string if isinstance(m.string, tuple) else [m.string])]  # fmt: skip
    assert not offenders(lang, sentences)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_rules_page_uses_a_banned_word(lang: str) -> None:
    body = (ROOT / "templates" / "rules" / f"{lang}.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>|\{[{%#].*?[}%#]\}", " ", body)
    assert not offenders(lang, [text])
