"""The round page: enter everyone's cards, challenge, close and reopen.

Every write calls one action; a refusal shows this page again (``show_again``) with
the message by its field and what was typed still in the forms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, Response, flash, make_response, redirect, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import store
from companion.actions import games, judging
from companion.game.deck import CARDS, text
from companion.game.errors import Conflict, Refusal, RuleError
from companion.game.parse import parse_play
from companion.game.play import Challenge
from companion.game.solver import BestPlay, best_play
from companion.web import messages, referee
from companion.web.access import held_token, require_edit, token_for
from companion.web.errors import Shown, field_id, shows_refusals
from companion.web.forms import (
    ActionForm,
    ChallengeAddForm,
    RoundForm,
    choices,
    split_cards,
    split_words,
)
from companion.web.numbers import small_int

bp = Blueprint("rounds", __name__)


def _fill(form: RoundForm, current: store.RoundState) -> None:
    """Put the saved hands into the form (words as typed in card form: ``qu-i-z``), those
    of the seats already in while the others are still entering theirs."""
    for seat in current.seats:
        hand = seat.hand
        if hand is None:
            continue
        row = form.players.entries[seat.seat].form
        row.words.data = " ".join("-".join(c.name for c in w) for w in hand.words)
        row.unused.data = " ".join(c.name for c in hand.unused)
        if hand.went_out:
            form.went_out.data = str(seat.seat)


def _flags(
    state: store.GameState, current: store.RoundState
) -> tuple[dict[tuple[int, int], str], bool]:
    """Saved words the game's dictionary doesn't accept, so the table can challenge them
    (while the round is open: a closed round can't be challenged); and whether the
    game's dictionary is still there (a group's own list may have been removed)."""
    if current.play is None or current.closed:
        return {}, True
    lexicons = referee.store()
    if not judging.has_lexicon(lexicons, state.rules.lexicon):
        return {}, False
    judge = judging.game_judge(lexicons, state.rules.lexicon, state.house_words)
    flags = {}
    for seat, hand in enumerate(current.play.hands):
        for j, word in enumerate(hand.words):
            verdict = judge(text(word))
            if not verdict.legal:
                flags[(seat, j)] = verdict.reason
    return flags, True


@dataclass(frozen=True)
class Review:
    """After a round: the best play a player's cards allowed, and the points left behind."""

    name: str
    best: BestPlay
    scored: int
    left: int


def _review(state: store.GameState, current: store.RoundState) -> list[Review]:
    """Best plays of a closed round's hands (never while the round is open: no cheating)."""
    if not current.closed or current.play is None or current.result is None:
        return []
    if not judging.has_lexicon(referee.store(), state.rules.lexicon):
        return []
    index = referee.solver_index(state.rules.lexicon, state.house_words)
    out = []
    for hand, scored in zip(current.play.hands, current.result.players, strict=True):
        cards = [c for w in hand.words for c in w] + list(hand.unused)
        best = best_play(cards, index, state.rules.min_word)
        played = scored.word_points - scored.unused_points
        out.append(Review(hand.name, best, played, max(best.points - played, 0)))
    return out


def render_round(
    game_id: str,
    number: int,
    form: RoundForm | None = None,
    error: Shown | None = None,
    challenge_form: ChallengeAddForm | None = None,
    challenge_error: Shown | None = None,
) -> str:
    """The round page, with the saved state filled in unless a refused ``form`` is given."""
    game = store.get_game(game_id)
    state = store.state_of(game)
    current = state.round(number)
    if form is None:
        form = RoundForm(formdata=None)
        _fill(form, current)
        form.version.data = str(current.version)
    challenge = challenge_form or ChallengeAddForm(formdata=None)
    challenge.by.choices = choices(*((str(i), n) for i, n in enumerate(state.names)))
    words = []
    if current.play is not None:
        for seat, hand in enumerate(current.play.hands):
            for j, w in enumerate(hand.words):
                words.append((f"{seat}:{j}", f"{hand.name}: {text(w).upper()}"))
    challenge.word.choices = choices(*words)
    flags, has_lexicon = _flags(state, current)
    return render_template(
        "round.html",
        state=state,
        current=current,
        form=form,
        error=error,
        error_field=error.field if error else "",
        editor=token_for(game) is not None,
        challenge_form=challenge,
        challenge_error=challenge_error,
        action=ActionForm(),
        deck=CARDS,
        flags=flags,
        has_lexicon=has_lexicon,
        review=_review(state, current),
        previous_open=number > 1 and not state.round(number - 1).closed,
        waiting=_waiting(current),
    )


def _waiting(current: store.RoundState) -> str:
    """Whose hands the round is waiting for, while some seats are in and others not."""
    if not current.started or current.play is not None:
        return ""
    params = {"number": current.number, "waiting": list(current.waiting_for)}
    return messages.render("round_waiting", params)


def _page(body: str) -> Response:
    response = make_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/rounds/<int:number>")
def show(game_id: str, number: int) -> Response:
    """The round: who deals, who plays first, everyone's cards and the breakdown."""
    return _page(render_round(game_id, number))


def _refused_save(exc: Refusal, game_id: str, number: int) -> str:
    if isinstance(exc, Conflict):  # show what is saved now; what was typed is stale
        return render_round(game_id, number, None, Shown.of(exc, ""))
    # players[1].words[0][2] is the box players-1-words: the message goes beside it.
    box = re.match(r"players-\d+(?:-[a-z_]+)?", field_id(exc.where))
    return render_round(game_id, number, RoundForm(), Shown.of(exc, box[0] if box else ""))


@bp.post("/games/<game_id>/rounds/<int:number>")
@shows_refusals(_refused_save)
def save(game_id: str, number: int) -> BaseResponse:
    """Save every player's cards for the round in one go (refused whole, or saved whole)."""
    game = store.get_game(game_id)
    token = require_edit(game)
    form = RoundForm()
    names = store.names_of(game)
    went_out = form.went_out.data or ""
    data = {
        "players": [
            {
                "name": name,
                "words": split_words(form.players.entries[seat].form.words.data or ""),
                "unused": split_cards(form.players.entries[seat].form.unused.data or ""),
                "went_out": went_out == str(seat),
            }
            for seat, name in enumerate(names)
        ]
    }
    saved = games.save_round(
        referee.store(),
        game_id,
        token,
        number,
        parse_play(data),
        small_int(form.version.data),
        keep_challenges=True,
    )
    flash(f"Round {number} saved.", "ok")
    for dropped in saved.dropped:
        flash(
            f"The challenge of {dropped.upper()} was dropped: that word is no longer entered.",
            "error",
        )
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#breakdown")


def _refused_challenge(exc: Refusal, game_id: str, number: int) -> str:
    return render_round(
        game_id,
        number,
        error=Shown.of(exc, "challenge"),
        challenge_form=ChallengeAddForm(),
        challenge_error=Shown.of(exc),
    )


@bp.post("/games/<game_id>/rounds/<int:number>/challenges")
@shows_refusals(_refused_challenge)
def challenge(game_id: str, number: int) -> BaseResponse:
    """Challenge a saved word; the game's house words and lexicon rule, unless the table did."""
    game = store.get_game(game_id)
    token = require_edit(game)
    form = ChallengeAddForm()
    names = store.names_of(game)
    seat_text, _, index_text = (form.word.data or "").partition(":")
    seat, index, by = small_int(seat_text), small_int(index_text), small_int(form.by.data)
    if seat is None or index is None or by is None or seat >= len(names) or by >= len(names):
        raise RuleError("challenge_pick", "word")
    ruling = {"legal": True, "illegal": False}.get(form.ruling.data or "")
    games.challenge(
        referee.store(),
        game_id,
        token,
        number,
        Challenge(names[by], names[seat], index, ruling),
    )
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


def _refused_action(exc: Refusal, game_id: str, number: int, **_: object) -> str:
    return render_round(game_id, number, error=Shown.of(exc, ""))


@bp.post("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/delete")
@shows_refusals(_refused_action)
def withdraw(game_id: str, number: int, n: int) -> BaseResponse:
    """Withdraw a challenge while the round is open."""
    games.withdraw(game_id, held_token(game_id), number, n)
    flash("Challenge withdrawn.", "ok")
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


@bp.post("/games/<game_id>/rounds/<int:number>/<any(close, reopen):action>")
@shows_refusals(_refused_action)
def close_or_reopen(game_id: str, number: int, action: str) -> BaseResponse:
    """Close the round (the leaderboard counts it) or reopen it to fix a mistake."""
    token = held_token(game_id)
    if action == "close":
        games.close_round(game_id, token, number)
        flash(f"Round {number} closed. Found a mistake? Reopen it from its page.", "ok")
        return redirect(url_for("games.view", game_id=game_id))
    games.reopen_round(game_id, token, number)
    flash(f"Round {number} reopened: it is off the leaderboard until closed again.", "ok")
    return redirect(url_for("rounds.show", game_id=game_id, number=number))
