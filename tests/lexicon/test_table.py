"""The word table answers exactly as the dict it was built from."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.lexicon.table import WordTable

WORDS = st.text(alphabet="abcqxyz", min_size=1, max_size=6)
ENTRIES = st.dictionaries(WORDS, st.integers(0, 65_535), max_size=60)


@given(ENTRIES, st.lists(WORDS, max_size=20))
def test_lookups_match_the_dict(entries: dict[str, int], probes: list[str]) -> None:
    table = WordTable.build(entries)
    assert len(table) == len(entries)
    for word in [*entries, *probes, "", "é", "a\nb", "\ud800", "a\x00"]:
        assert table.get(word) == entries.get(word)
        assert (word in table) is (word in entries)
    assert list(table.items()) == sorted(entries.items())


@given(ENTRIES, st.text(alphabet="abcqxyz", max_size=3))
def test_starting_with_is_the_sorted_words_with_that_prefix(
    entries: dict[str, int], prefix: str
) -> None:
    expected = sorted((w, c) for w, c in entries.items() if w.startswith(prefix))
    assert WordTable.build(entries).starting_with(prefix) == expected


@given(
    st.dictionaries(
        st.text(alphabet="abc", min_size=1, max_size=6), st.integers(0, 9), max_size=300
    ),
    st.text(alphabet="abcd", max_size=6),
)
def test_anagrams_are_the_sorted_words_of_those_letters(
    entries: dict[str, int], letters: str
) -> None:
    """Few letters, many words: prefixes with more words under them than an anagram search
    reads (``FEW``) are walked, the others read."""
    expected = sorted((w, c) for w, c in entries.items() if sorted(w) == sorted(letters))
    assert WordTable.build(entries).anagrams(letters) == expected


@given(ENTRIES)
def test_bytes_round_trip(entries: dict[str, int]) -> None:
    table = WordTable.build(entries)
    again = WordTable.from_bytes(table.to_bytes())
    assert again == table and again == entries


@given(ENTRIES, st.integers(0, 200))
def test_a_damaged_body_is_refused_or_reads_as_a_table(entries: dict[str, int], cut: int) -> None:
    """A body cut short is refused (ValueError, which the cache turns into a rebuild),
    never read as a smaller table nor raised as marisa's own error."""
    body = WordTable.build(entries).to_bytes()
    cut = min(cut, len(body) - 1)
    with pytest.raises(ValueError):
        WordTable.from_bytes(body[:cut])
