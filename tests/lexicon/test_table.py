"""The packed word table answers exactly as the dict it was built from."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.lexicon.table import WordTable

WORDS = st.text(alphabet="abcqxyz", min_size=1, max_size=6)
ENTRIES = st.dictionaries(WORDS, st.integers(0, 65_535), max_size=60)


@given(ENTRIES, st.lists(WORDS, max_size=20))
def test_lookups_match_the_dict(entries: dict[str, int], probes: list[str]) -> None:
    table = WordTable.build(entries)
    assert len(table) == len(entries)
    for word in [*entries, *probes, "", "é", "a\nb"]:
        assert table.get(word) == entries.get(word)
        assert (word in table) is (word in entries)
    assert list(table.items()) == sorted(entries.items())


@given(ENTRIES, st.text(alphabet="abcqxyz", max_size=3))
def test_starting_with_is_the_sorted_words_with_that_prefix(
    entries: dict[str, int], prefix: str
) -> None:
    expected = sorted((w, c) for w, c in entries.items() if w.startswith(prefix))
    assert WordTable.build(entries).starting_with(prefix) == expected


@given(ENTRIES)
def test_bytes_round_trip(entries: dict[str, int]) -> None:
    table = WordTable.build(entries)
    again = WordTable.from_bytes(table.to_bytes())
    assert again == table and again == entries


def test_a_loaded_table_is_views_into_the_files_bytes() -> None:
    """No copy of the words, offsets or codes: the memory held is the file's one block."""
    entries = {"quiz": 1382, "steve": 4471, "zax": 1000}
    data = b"header line\n" + WordTable.build(entries).to_bytes()
    table = WordTable.from_bytes(memoryview(data)[len(b"header line\n") :])
    assert table == entries and table._data is data
    other = WordTable.from_bytes(memoryview(bytearray(data))[12:])  # not bytes: one copy
    assert other == entries
