"""The catalogs: every sentence translated in lt, hu and cs, the same placeholders and tags
as the English, the template (.pot) and the compiled catalogs (.mo) up to date."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "companion" / "translations"
TRANSLATED = ("lt", "hu", "cs")
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "N_": None,
    "NC_": ((1, "c"), 2),
    "pgettext": ((1, "c"), 2),
    "Plural": (1, 2),
}
"""As ``make translations`` extracts (Makefile, babel.cfg)."""

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
TAG = re.compile(r"</?[a-z]+\b[^>]*>")


@cache
def catalog(lang: str) -> Catalog:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


@lru_cache(maxsize=1)
def template() -> Catalog:
    with (CATALOGS / "messages.pot").open("rb") as f:
        return read_po(f)


def ids(cat: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


def key(value: object) -> object:
    """A catalog's id or text as a key: plural ones are lists in a read .mo file."""
    return tuple(value) if isinstance(value, list | tuple) else value


def texts(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def test_the_template_holds_every_sentence_of_the_sources() -> None:
    method_map = [
        ("companion/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("companion/static/**.js", "javascript"),
    ]
    found = {
        (msg if isinstance(msg, str) else msg[0])
        for _file, _line, msg, _comments, _context in extract_from_dir(
            str(ROOT), method_map, keywords=KEYWORDS
        )
        if msg
    }
    missing = sorted(found - ids(template()))
    assert not missing, f"run `make translations`: not extracted yet: {missing[:5]}"


def test_the_english_catalog_says_each_sentence_as_written() -> None:
    cat = catalog("en")
    assert ids(cat) == ids(template()), "run `make translations`: the catalog is not updated"
    wrong = [m.id for m in cat if m.id and key(m.string) != key(m.id)]
    assert not wrong, f"run `make translations`: {len(wrong)} English sentences differ: {wrong[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_sentence_is_translated(lang: str) -> None:
    cat = catalog(lang)
    assert ids(cat) == ids(template()), "run `make translations`: the catalog is not updated"
    untranslated = [m.id for m in cat if m.id and (m.fuzzy or not all(texts(m)))]
    assert not untranslated, f"{len(untranslated)} untranslated in {lang}: {untranslated[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_tags(lang: str) -> None:
    wrong = []
    for m in catalog(lang):
        if not m.id:
            continue
        sources = [m.id] if isinstance(m.id, str) else list(m.id)
        wanted = sorted(PLACEHOLDER.findall(sources[-1]))
        tags = sorted(TAG.findall(sources[-1]))
        for text in texts(m):
            if sorted(PLACEHOLDER.findall(text)) != wanted or sorted(TAG.findall(text)) != tags:
                wrong.append((sources[0], text))
    assert not wrong, (
        f"{len(wrong)} translations in {lang} change placeholders or tags: {wrong[:3]}"
    )


@pytest.mark.parametrize("lang", (*TRANSLATED, "en"))
def test_the_compiled_catalogs_are_up_to_date(lang: str) -> None:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        compiled = read_mo(BytesIO(f.read()))
    kept = {key(m.id): key(m.string) for m in compiled if m.id}
    written = {key(m.id): key(m.string) for m in catalog(lang) if m.id and not m.fuzzy}
    assert kept == written, "run `make translations`: the .mo is older than the .po"
