"""Fixtures of the action tests: the use cases called directly, as a page or the API calls
them, with no HTTP, no form and no page in between, on the real database of the suite's
``app`` fixture (a SQLite file of this test, or ``TEST_DATABASE_URL``'s database).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from companion.actions import games
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from tests.actions.support import THREE, Act


@pytest.fixture
def act(app: Flask) -> Act:
    return Act(app)


@pytest.fixture
def lexicons(app: Flask) -> LexiconStore:
    """The app's word referee, as the web layer hands it to the actions."""
    store: LexiconStore = app.extensions["lexicons"]
    return store


@pytest.fixture
def new_game(act: Act, lexicons: LexiconStore) -> Callable[..., games.Created]:
    """``new_game(names=THREE, first_dealer=0, rules=Rules())``: a game made by the action."""

    def make(
        names: tuple[str, ...] = THREE, first_dealer: int = 0, rules: Rules | None = None
    ) -> games.Created:
        return act(games.create_game, lexicons, list(names), first_dealer, rules or Rules())

    return make
