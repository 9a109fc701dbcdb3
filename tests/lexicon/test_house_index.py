"""A game's house words in the best play: an overlay on the lexicon's one index, the same
answers as the index with the words put in and taken out.

Before, each game with a house word kept a decoded copy of the whole index (32 MiB with
``standard``), 32 games at most, made again each time a 33rd game was viewed.
"""

from __future__ import annotations

import gc
import re
import tracemalloc
from collections.abc import Mapping
from pathlib import Path

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.actions import judging
from companion.game.deck import over_deck
from companion.game.rules import Rules
from companion.game.solver import best_play, build_index
from companion.game.spelling import spellings
from companion.lexicon import Lexicon, LexiconStore

GAMES = 40
HAND = (*spellings("cat")[0], *spellings("qi")[0])
ANAGRAMS = [
    "act cat tac", "the eth het", "stare tears rates aster resat", "thin hint",
    "listen silent enlist tinsel inlets", "quit", "quiet quite", "integral triangle relating",
    "clear", "inter niter nitre", "qi", "zax", "ox", "earth heart hater", "cl", "erst rest",
]  # fmt: skip
"""A group's list rich in anagrams (and in words of the double-letter cards: th, qu, in,
er, cl), for the overlay to stand in for banned words."""
WORDS = sorted({w for group in ANAGRAMS for w in group.split()})


def with_house_words(base: Mapping[str, str], lexicon: Lexicon, house: dict[str, bool]) -> dict:
    """The old path: the whole index copied, its banned words taken out, the lexicon's
    other words with their letters put back (alphabetically first), then the allowed words
    (here alphabetically first too: before, a set's order decided between two)."""
    index = dict(base.items())
    banned = {w for w, allowed in house.items() if not allowed}
    for key in [k for k, w in index.items() if w in banned]:
        del index[key]
    letters = {"".join(sorted(w)) for w in banned}
    others = (w for w in lexicon.words() if w not in banned and "".join(sorted(w)) in letters)
    for key, word in build_index(others).items():
        index.setdefault(key, word)
    for key, word in build_index(sorted(w for w, ok in house.items() if ok)).items():
        index.setdefault(key, word)
    return index


def house_of(n: int) -> dict[str, bool]:
    """Game ``n``'s house words: a word of its own allowed, a common word banned."""
    own = "zqx" + "".join(chr(ord("a") + int(d)) for d in str(n))
    return {own: True, ["act", "the", "tears", "heart"][n % 4]: False, "qi": True}


def test_forty_games_with_house_words_share_one_index(lexicons: LexiconStore) -> None:
    """Each game holds only what its house words change: the forty together cost less
    than a megabyte beside the shared index (before: 32 MiB each)."""
    base = lexicons.solver_index("standard")
    lexicons.get("standard")  # the list loaded, as any game has it
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        indexes = [judging.solver_index(lexicons, "standard", house_of(n)) for n in range(GAMES)]
        plays = [best_play(HAND, index) for index in indexes]
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 2**20, f"{GAMES} games' indexes hold {held / 2**20:.1f} MiB"
    assert all(getattr(index, "base", None) is base for index in indexes)
    words = [sorted("".join(c.name for c in w) for w in play.words) for play in plays]
    assert words == [["cat", "qi"] if n % 4 == 0 else ["act", "qi"] for n in range(GAMES)]


def test_on_standard_the_overlay_is_the_index_with_house_words(lexicons: LexiconStore) -> None:
    """The real list, as a mapping key by key, and the rulings of the same house words."""
    standard, base = lexicons.get("standard"), lexicons.solver_index("standard")
    house = {"cat": False, "act": False, "tears": False, "zqxa": True, "xqza": True, "qi": True}
    index = judging.solver_index(lexicons, "standard", house)
    assert dict(index.items()) == with_house_words(base, standard, house)
    assert len(index) == len(with_house_words(base, standard, house))
    hand = [c for word in ("cat", "zqxa") for c in spellings(word)[-1]]
    play = best_play(hand, index)
    assert play == best_play(hand, with_house_words(base, standard, house))
    # tac stands in for the banned cat and act; of two allowed words with the same
    # cards, the first in alphabetical order
    assert sorted("".join(c.name for c in w) for w in play.words) == ["tac", "xqza"]
    judge = judging.game_judge(lexicons, Rules(), house)
    assert [(judge(w).legal, judge(w).reason) for w in ("cat", "tac", "zqxa", "dog")] == [
        (False, "banned_house_word"),
        (True, "in_dictionary"),
        (True, "house_word"),
        (True, "in_dictionary"),
    ]


def test_house_words_give_the_best_play_of_the_old_path(tmp_path: Path, small_cache: Path) -> None:
    """Any house words on a group's list rich in anagrams: the overlay is, key by key,
    the index the old path made, so every best play is the same."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "club.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    lexicons = LexiconStore(folder, small_cache)
    club, base = lexicons.get("club"), lexicons.solver_index("club")
    made_up = [w[::-1] for w in WORDS] + [w[1:] + w[0] for w in WORDS]
    choices = st.sampled_from(sorted({*WORDS, *made_up}))

    @settings(max_examples=150)
    @given(
        house=st.dictionaries(choices, st.booleans(), max_size=8),
        words=st.lists(choices, min_size=1, max_size=3),
    )
    def same(house: dict[str, bool], words: list[str]) -> None:
        index = judging.solver_index(lexicons, "club", house)
        expected = with_house_words(base, club, house)
        hand = [c for w in words for c in spellings(w)[0]][:11]
        assert {k: index.get(k) for k in expected} == expected
        assert dict(index.items()) == expected
        if not over_deck(hand):
            assert best_play(hand, index) == best_play(hand, expected)

    same()


def review_words(page: str, player: str) -> list[str]:
    """The words of ``player``'s best play on a closed round's page."""
    part = page.split(f'class="review-player" data-player="{player}"', 1)[1]
    part = part.split('class="review-player"', 1)[0]
    return re.findall(r'<span class="what">([A-Z]+)</span>', part)


def test_the_closed_round_shows_the_best_play_with_the_house_words(
    client: FlaskClient,
) -> None:
    """Through the app: an allowed word of the group's own is played, a banned one is not."""
    made = client.post("/api/v1/games", json={"players": ["Ann", "Ben"], "first_dealer": 0})
    game, token = made.json["id"], made.json["edit_token"]  # type: ignore[index]
    auth = {"Authorization": f"Bearer {token}"}
    for word, allowed in (("jqx", True), ("act", False)):
        put = client.put(f"/api/v1/games/{game}/house-words/{word}", json={"allowed": allowed},
                         headers=auth)  # fmt: skip
        assert put.status_code == 200
    url = f"/api/v1/games/{game}/rounds/1"
    players = [
        {"name": "Ann", "words": [], "unused": ["j", "q", "x"]},
        {"name": "Ben", "words": [], "unused": ["c", "a", "t"], "went_out": False},
    ]
    assert client.put(url, json={"players": players}, headers=auth).status_code == 200
    assert client.post(f"{url}/close", json={}, headers=auth).status_code == 200
    page = client.get(f"/games/{game}/rounds/1").get_data(as_text=True)
    assert review_words(page, "Ben") == ["CAT"]  # not ACT, the lexicon's first choice
    assert review_words(page, "Ann") == ["JQX"]  # the lexicon has no word of all three
