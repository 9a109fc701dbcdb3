"""The real model reads rendered photos of cards (benchmarks/photoset.py): the words in
their rows, the cards set apart, each card once, sure where the photo is clear.

The benchmark (benchmarks/photo.py) measures the reader on the whole set; these few
photos are the ones a table sees most: a plain layout, two rows, a dim room, a photo
taken askew or at a slant, a fanned hand.
"""

from __future__ import annotations

import pytest

from companion.actions.reading import read_photo
from companion.vision import model
from tests.vision.support import hand, hand_photo

CLEAR = [
    pytest.param("straight", [["qu", "i", "z"]], ["m"], "felt", 1, id="straight-felt"),
    pytest.param("straight", [["th", "in", "k"], ["cl", "er", "k"]], [], "wood", 1, id="two-rows"),
    pytest.param("dim", [["f", "o", "x"]], ["s"], "felt", 1, id="dim"),
    pytest.param("rotated", [["c", "a", "t"]], ["y"], "wood", 1, id="rotated"),
]


@pytest.mark.parametrize(("condition", "words", "unused", "background", "seed"), CLEAR)
def test_a_clear_photo_is_read_card_for_card_and_sure(
    condition: str, words: list[list[str]], unused: list[str], background: str, seed: int
) -> None:
    photo = hand_photo(words, unused, condition=condition, seed=seed, background=background)
    found = read_photo(photo)
    assert [list(w) for w in found.words] == words
    assert list(found.unused) == unused
    assert [c.card for c in found.cards] == [c for w in words for c in w] + unused
    assert all(c.sure for c in found.cards)


def test_a_photo_at_a_slant_reads_its_rows() -> None:
    words = [["b", "e"], ["cl", "u", "b"]]
    found = read_photo(hand_photo(words, condition="perspective", seed=1, background="felt"))
    assert [list(w) for w in found.words] == words
    assert found.unused == ()


def test_a_fanned_hand_is_read_left_to_right() -> None:
    found = read_photo(hand_photo([["u", "n", "d", "er"]], condition="fanned", seed=2))
    assert [c.card for c in found.cards] == ["u", "n", "d", "er"]
    assert found.words == (("u", "n", "d", "er"),)


def test_the_boxes_lie_on_the_cards_in_the_pictures_own_pixels() -> None:
    """Each box holds the centre of its card's top-left index, in the photo as sent."""
    photo = hand([["qu", "i", "z"]], ["m"], seed=1, background="felt")
    index = {c.card: c.indexes[0] for c in photo.cards}
    for card in read_photo(bytes(photo.jpeg)).cards:
        x, y, w, h = card.box
        ix, iy = index[card.card]
        assert x <= ix <= x + w and y <= iy <= y + h, (card, index[card.card])


def test_the_model_is_loaded_once_and_kept() -> None:
    read_photo(hand_photo([["a", "t"]], seed=3))
    first = model._engine
    read_photo(hand_photo([["o", "x"]], seed=4))
    assert model.loaded() and model._engine is first
