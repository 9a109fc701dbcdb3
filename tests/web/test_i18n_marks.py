"""The words people read are marked for translation: extracted as ``make translations``
extracts them (babel.cfg, the same keywords), from every kind of source; and no page
flashes a sentence that is not translated."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from flask import Flask
from werkzeug.datastructures import MultiDict

from companion.game.rules import RULES
from companion.lexicon import sources
from companion.web.forms import WordForm, first_error

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {
    "N_": None,
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "Plural": (1, 2),
    "ngettext": (1, 2),
    "_": None,
    "gettext": None,
}
"""The Makefile's ``-k`` keywords with the ones Babel looks for by default that we use."""
TRANSLATED = {"_", "gettext", "ngettext"}
"""What a flashed message is made with."""


@lru_cache(maxsize=1)
def extracted() -> dict[str, set[str | tuple[str, ...]]]:
    """Every marked message, by the file it was found in (paths from the checkout)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str, set[str | tuple[str, ...]]] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        found.setdefault(filename, set()).add(message)
    return found


def messages_of(path: str) -> set[str | tuple[str, ...]]:
    return extracted().get(path, set())


@pytest.mark.parametrize(
    ("path", "message"),
    [
        # form labels, choices and validator messages (lazy_gettext, lazy_ngettext)
        ("companion/web/forms.py", "Words of the play"),
        ("companion/web/forms.py", "I went out first"),
        ("companion/web/forms.py", "Table: not legal"),
        ("companion/web/forms.py", "Player %(n)s"),
        ("companion/web/forms.py", "Type a word to check."),
        ("companion/web/forms.py", "Check the form and send it again."),
        (
            "companion/web/forms.py",
            (
                "%(plan)s: %(sizes)s (%(num)d round)",
                "%(plan)s: %(sizes)s (%(num)d rounds)",
            ),
        ),
        # flashes
        ("companion/pages/rounds.py", "Challenge withdrawn."),
        ("companion/pages/rounds.py", "Round %(number)s saved. Waiting for %(waiting)s."),
        (
            "companion/pages/rounds.py",
            (
                "%(name)s is marked as going out but still has %(num)d card left over: check it.",
                "%(name)s is marked as going out but still has %(num)d cards left over: check it.",
            ),
        ),
        ("companion/pages/seats.py", "%(name)s's seat is free: their phone can take it again."),
        ("companion/pages/solitaire.py", "%(word)s: well done."),
        ("companion/pages/games.py", "%(word)s is no longer a house word."),
        ("companion/web/forms.py", "No second opinion"),
        # house rules (N_ in game/, translated where shown)
        ("companion/game/rules.py", "Names of people and places are legal words (Junior)."),
        ("companion/game/rules.py", "Longest word only"),
        # lexicon titles
        ("companion/lexicon/sources.py", "Your list: {name}"),
        # the scripts
        ("companion/static/round.js", "Which cards?"),
        ("companion/static/round.js", ("{n} card · {points} pts", "{n} cards · {points} pts")),
        ("companion/static/round.js", ("{entered} / {n} card", "{entered} / {n} cards")),
        (
            "companion/static/round.js",
            (
                "The deck has only {n} {card} card; {entered} are entered.",
                "The deck has only {n} {card} cards; {entered} are entered.",
            ),
        ),
        ("companion/static/score.js", "Player {n}"),
        ("companion/static/new_game.js", "Seat {n} (empty)"),
        # templates
        ("templates/index.html", "Score a Quiddler round"),
        ("templates/words.html", "The deck can't lay these letters down."),
        ("templates/judge.html", "Word judge"),
        ("templates/solitaire.html", "Hint: <strong>%(word)s</strong> from piles %(piles)s."),
        ("templates/solitaire.html", ("%(num)d word", "%(num)d words")),
        ("templates/solitaire_new.html", "Practise with a shuffled virtual deck"),
    ],
)
def test_a_sentence_of_each_kind_of_source_is_extracted(
    path: str, message: str | tuple[str, ...]
) -> None:
    assert message in messages_of(path)


def test_every_house_rule_and_lexicon_title_is_marked() -> None:
    """What the forms and the rules table show of each rule is in the catalog."""
    found = messages_of("companion/game/rules.py")
    for spec in RULES:
        assert spec.title in found, spec.name
        assert spec.explanation in found, spec.name
        assert set(spec.labels) <= found, spec.name
    assert set(sources.BUILT_IN.values()) <= messages_of("companion/lexicon/sources.py")


def test_the_scripts_words_reach_their_catalog() -> None:
    """What the page's catalog offers the scripts is what the extractor finds in them."""
    from companion.web import i18n

    offered = {m if len(m) > 1 else m[0] for m in i18n.script_messages()}
    in_scripts = set().union(
        *(v for k, v in extracted().items() if k.startswith("companion/static/"))
    )
    assert in_scripts == offered
    assert "Which cards?" in offered


def _flashes(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "flash"
    ]


def test_every_flash_of_the_pages_is_translated() -> None:
    """A flashed message is made by ``_``/``gettext``/``ngettext`` (never a literal, an
    f-string or a sum of strings)."""
    checked = 0
    for path in sorted((ROOT / "companion" / "pages").glob("*.py")):
        for call in _flashes(ast.parse(path.read_text(encoding="utf-8"))):
            checked += 1
            where = f"{path.name}:{call.lineno}"
            assert call.args, where
            message = call.args[0]
            assert isinstance(message, ast.Call), f"{where}: flash of an untranslated text"
            assert isinstance(message.func, ast.Name) and message.func.id in TRANSLATED, where
            literal = message.args[0] if message.args else None
            assert isinstance(literal, ast.Constant) and isinstance(literal.value, str), (
                f"{where}: the extractor reads only a literal first argument"
            )
    assert checked >= 10  # the check looked at the flashes there are


def test_the_check_catches_a_plain_flash() -> None:
    tree = ast.parse('flash("Saved.", "ok")\nflash(f"{x} saved.")\nflash(_("Saved."))')
    plain = [c for c in _flashes(tree) if not isinstance(c.args[0], ast.Call)]
    assert len(plain) == 2


def test_a_lazy_validator_message_is_shown_as_text(app: Flask) -> None:
    """Validator messages are lazy: a refused form still shows them as plain text."""
    with app.test_request_context("/words"):
        form = WordForm(MultiDict({"word": "x" * 41}), meta={"csrf": False})
        form.lexicon.choices = [("standard", "Standard")]
        assert not form.validate()
        shown = first_error(form)
    assert shown.message == "Type one word."
    assert type(shown.message) is str
    assert shown.field == "word"
