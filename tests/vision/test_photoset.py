"""The synthetic photo set of ``benchmarks/photoset.py``, which benchmarks/photo.py scores
the card reader on: the same seed gives the same bytes, every hand is real (words that
are words, spelled with the deck's cards, never more copies than the deck holds) and
every card's truth lies on the picture. Only a few photos are rendered here."""

from __future__ import annotations

import io
from collections import Counter
from types import ModuleType

import pytest
from PIL import Image

from companion.game import deck
from companion.lexicon import sources
from tests.vision import support

SEED = 27
RENDERED = ("overlapping", "rotated", "perspective", "fanned")
"""The conditions rendered here: those whose geometry is the hardest to get right."""


@pytest.fixture(scope="module")
def photoset() -> ModuleType:
    return support.photoset()


@pytest.fixture(scope="module")
def photos(photoset: ModuleType) -> list:
    """One photo of each condition in RENDERED, as the default set has it."""
    orders = photoset.plan(SEED, 1, RENDERED)
    return [order.render() for order in orders]


def test_the_same_seed_gives_the_same_bytes(photoset: ModuleType, photos: list) -> None:
    order = photoset.plan(SEED, 1, ["overlapping"])[0]
    again = order.render()
    assert again.jpeg == photos[0].jpeg
    assert again.cards == photos[0].cards
    other = photoset.render_photo("overlapping", order.seed + 1, order.words, order.unused)
    assert other.jpeg != again.jpeg


def test_every_word_of_the_list_is_a_word_spelled_with_cards(photoset: ModuleType) -> None:
    enable = sources.enable_words()
    for entry in photoset.WORDS:
        cards = photoset.spell(entry)
        text = deck.text(deck.card(name) for name in cards)
        assert text == entry.replace("-", ""), entry
        assert text in enable, entry
    assert any(len(name) == 2 for entry in photoset.WORDS for name in photoset.spell(entry))


def test_every_hand_of_the_set_is_real(photoset: ModuleType) -> None:
    """Every hand of the default set (no photo rendered): 1-4 words of WORDS and 0-3 cards
    left over, 3-10 cards in all, no card more often than the deck holds it."""
    words = {tuple(photoset.spell(entry)) for entry in photoset.WORDS}
    orders = photoset.plan(SEED, 10)
    assert Counter(o.condition for o in orders) == dict.fromkeys(photoset.CONDITIONS, 10)
    for order in orders:
        every = [name for word in order.words for name in word] + order.unused
        assert 3 <= len(every) <= 10
        assert 1 <= len(order.words) <= 4 and len(order.unused) <= 3
        assert all(tuple(word) in words for word in order.words)
        assert deck.over_deck(deck.card(name) for name in every) is None


def test_each_photo_holds_its_truth(photos: list) -> None:
    for photo in photos:
        every = [name for word in photo.words for name in word] + photo.unused
        assert [card.card for card in photo.cards] == every
        assert deck.over_deck(deck.card(name) for name in every) is None
        image = Image.open(io.BytesIO(photo.jpeg))
        assert image.format == "JPEG"
        assert image.size == (photo.width, photo.height)
        assert 2000 <= max(image.size) <= 3000


def test_every_index_point_lies_on_the_picture_and_its_card(
    photoset: ModuleType, photos: list
) -> None:
    for photo in photos:
        for card in photo.cards:
            assert card.indexes, f"{photo.name}: no index of {card.card} shows"
            for x, y in (*card.corners, *card.indexes):
                assert 0 <= x < photo.width and 0 <= y < photo.height, photo.name
            for point in card.indexes:
                assert photoset.inside(point, card.corners), photo.name


def near_top_left(card: object) -> bool:
    """Whether the card's first visible index is its top-left one: nearer its top-left
    corner than a third of the card's width."""
    (x0, y0), (x1, y1) = card.corners[0], card.corners[1]  # type: ignore[attr-defined]
    x, y = card.indexes[0]  # type: ignore[attr-defined]
    return (x - x0) ** 2 + (y - y0) ** 2 < ((x1 - x0) ** 2 + (y1 - y0) ** 2) / 9


def test_a_fanned_hand_shows_each_cards_top_left_index(photos: list) -> None:
    """A fanned hand is one row: one word of all its cards. Every card's top-left index
    shows; the other one only on the top card."""
    (fan,) = [photo for photo in photos if photo.condition == "fanned"]
    assert len(fan.words) == 1 and fan.unused == []
    for card in fan.cards:
        assert near_top_left(card), card
    assert all(len(card.indexes) == 1 for card in fan.cards[:-1])


def test_overlapping_cards_hide_the_index_under_them(photos: list) -> None:
    """In an overlapping word each card but the last has its bottom-right index under the
    next card: only its top-left one shows."""
    (laid,) = [photo for photo in photos if photo.condition == "overlapping"]
    start = 0
    for word in laid.words:
        cards = laid.cards[start : start + len(word)]
        start += len(word)
        assert all(near_top_left(card) for card in cards)
        assert all(len(card.indexes) == 1 for card in cards[:-1])
        assert len(cards[-1].indexes) == 2
