"""The faster first build reads what it read before: the .dic reader gives spylls's
entries, the affixes found per flag and ending give the forms each affix's regular
expression gives, what a child reads aside (WordNet's lemmas, wordfreq's table) is what
is read here, and a first start's build in a child falls back to building here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from spylls.hunspell import Dictionary as Spylls

from companion.lexicon import LexiconStore, hunspell, store, wordnet
from tests.lexicon.conftest import put_small_standard
from tests.lexicon.test_definitions import small_wordnet

AFF = """SET UTF-8
TRY esianrtolcdugmphbyfvkwzESIANRTOLCDUGMPHBYFVKWZ'
PFX U Y 1
PFX U 0 un .
SFX S Y 4
SFX S y ies [^aeiou]y
SFX S 0 s [aeiou]y
SFX S 0 es [sxzh]
SFX S 0 s [^sxzhy]
SFX D Y 2
SFX D 0 d e
SFX D y ied [^aeiou]y
"""

DIC = (
    "\ufeff9\n"  # a count line after a BOM: spylls keeps it as an entry
    "tidy/USD\n"
    "box/S\n"
    "key/S po:noun\n"  # a data tag
    "and/or\tst:andor\n"  # a tab before the tags
    "a/b/c\n"  # two slashes: the whole line is the stem
    "1\\/2/S\n"  # an escaped slash
    "\n"
    "  fix/SD  \n"
    "/slash\n"
)


def spylls_entries(path: Path) -> list[tuple[str, frozenset[str]]]:
    return [(w.stem, frozenset(w.flags)) for w in Spylls.from_files(str(path)).dic.words]


def test_the_dic_reader_gives_spylls_entries(tmp_path: Path) -> None:
    (tmp_path / "tiny.aff").write_text(AFF, encoding="utf-8")
    (tmp_path / "tiny.dic").write_text(DIC, encoding="utf-8")
    ours = hunspell.load(tmp_path / "tiny")
    assert [(w.stem, w.flags) for w in ours.words] == spylls_entries(tmp_path / "tiny")
    assert ("a/b/c", frozenset()) in [(w.stem, w.flags) for w in ours.words]


def test_the_dic_reader_gives_spylls_entries_for_en_us() -> None:
    ours = hunspell.load(hunspell.EN_US)
    assert [(w.stem, w.flags) for w in ours.words] == spylls_entries(hunspell.EN_US)


def every_affix_tried(dictionary: hunspell.Dictionary) -> Iterator[tuple[str, str | None]]:
    """What ``hunspell.forms`` gives, each affix's condition tried on the whole stem (as
    Hunspell states it, and as the expansion was written before)."""
    aff = dictionary.aff
    for word in dictionary.words:
        flags, stem = word.flags, word.stem
        if any(f and f in flags for f in (aff.ONLYINCOMPOUND, aff.FORBIDDENWORD)):
            continue
        made = []
        prefixed = [
            (p, p.add + stem[len(p.strip) :])
            for f in flags
            for p in aff.PFX.get(f, ())
            if p.cond_regexp.search(stem) and stem.startswith(p.strip)
        ]
        made += [form for _, form in prefixed]
        for f in flags:
            for s in aff.SFX.get(f, ()):
                if s.cond_regexp.search(stem) and stem.endswith(s.strip):
                    form = (stem[: len(stem) - len(s.strip)] if s.strip else stem) + s.add
                    made.append(form)
                    if s.crossproduct:
                        made += [
                            p.add + form[len(p.strip) :] for p, _ in prefixed if p.crossproduct
                        ]
        if not (aff.NEEDAFFIX and aff.NEEDAFFIX in flags) and len(stem) > 1:
            yield stem, None
        yield from ((form, stem) for form in made if len(stem) > 1 or len(form) <= 2)


@pytest.mark.parametrize("which", ["tiny", "en_US"])
def test_affixes_found_per_ending_make_the_same_forms(tmp_path: Path, which: str) -> None:
    if which == "tiny":
        (tmp_path / "tiny.aff").write_text(AFF, encoding="utf-8")
        (tmp_path / "tiny.dic").write_text(DIC, encoding="utf-8")
        dictionary = hunspell.load(tmp_path / "tiny")
    else:
        dictionary = hunspell.load(hunspell.EN_US)
    ours = Counter(hunspell.forms(dictionary))
    assert ours == Counter(every_affix_tried(dictionary))
    if which == "tiny":
        assert {"untidy", "tidies", "tidied", "untidies", "boxes", "keys", "fixes"} <= {
            form for form, _ in ours
        }


def test_a_condition_of_no_fixed_width_is_not_kept_by_ending() -> None:
    assert hunspell._width("[^aeiou]y") == 2
    assert hunspell._width(".") == 1
    assert hunspell._width("a*") is None
    assert hunspell._width("[ab") is None


def test_what_is_read_aside_is_what_is_read_here(tmp_path: Path) -> None:
    folder = small_wordnet(tmp_path / "wordnet")
    aside = store.Aside(folder)
    try:
        assert aside.lemmas() == wordnet.read(folder)
        assert aside.zipf() == store.english_zipf()
        assert aside.frequencies() == store.frequency_codes(store.english_zipf())
    finally:
        aside.close()
    assert aside.child is None
    skipped = store.Aside(folder)  # frequencies asked first: the lemmas passed over
    assert skipped.frequencies() == store.frequency_codes(store.english_zipf())
    skipped.close()
    nothing = store.Aside(None)
    assert nothing.lemmas() == wordnet.NONE
    nothing.close()


def test_what_the_child_fails_to_give_is_read_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = small_wordnet(tmp_path / "wordnet")
    monkeypatch.setattr(store.Aside, "CHILD", "raise SystemExit(3)")
    aside = store.Aside(folder)
    assert aside.lemmas() == wordnet.read(folder)
    assert aside.zipf() == store.english_zipf()
    assert aside.child is None  # given up on: the rest is read here
    assert aside.frequencies() == store.frequency_codes(store.english_zipf())
    aside.close()


def test_a_first_start_builds_in_a_child_only_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    put_small_standard(folder)
    lists = LexiconStore(tmp_path / "lists", folder)
    children: list[str] = []

    def in_child(self: LexiconStore, work: object, name: str) -> bool:
        children.append(name)
        return False  # the child failed: built here instead

    monkeypatch.setattr(LexiconStore, "_in_child", in_child)
    assert lists.build("standard", in_child=True).words > 0
    assert children == []  # its cache was good: nothing to build
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "house.txt").write_text("quiz\nzax\n")
    built = lists.build("house", in_child=True)
    assert children == ["house"] and built.words >= 2
    assert store.LexiconStore._cached(built.path, lists._recipe("house")[0])
