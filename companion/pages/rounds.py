"""The round page: enter everyone's cards, challenge, close and reopen."""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from companion import referee, store
from companion.forms import (
    ActionForm,
    ChallengeAddForm,
    RoundForm,
    choices,
    split_cards,
    split_words,
)
from companion.game.deck import CARDS
from companion.game.errors import RuleError
from companion.game.parse import parse_play
from companion.game.play import Challenge, Play
from companion.game.solver import BestPlay, best_play
from companion.pages.access import require_edit, token_for
from companion.pages.games import load
from companion.pages.scorer import field_for_path
from companion.store import Conflict, GameState, NotFound, RoundState

bp = Blueprint("rounds", __name__)


def _round(state: GameState, number: int) -> RoundState:
    try:
        return state.round(number)
    except NotFound:
        abort(404)


def _fill(form: RoundForm, current: RoundState, names: tuple[str, ...]) -> None:
    """Put the saved entries into the form (words as typed in card form: ``qu-i-z``)."""
    if current.play is None:
        return
    for seat, hand in enumerate(current.play.hands):
        row = form.players.entries[seat].form
        row.words.data = " ".join("-".join(c.name for c in w) for w in hand.words)
        row.unused.data = " ".join(c.name for c in hand.unused)
    form.went_out.data = next((str(i) for i, h in enumerate(current.play.hands) if h.went_out), "")


def _flags(state: GameState, current: RoundState) -> dict[tuple[int, int], str]:
    """Saved words the game's dictionary doesn't accept, so the table can challenge them
    (while the round is open: a closed round can't be challenged)."""
    if current.play is None or current.closed:
        return {}
    judge = referee.game_judge(state.game)
    flags = {}
    for seat, hand in enumerate(current.play.hands):
        for j, word in enumerate(hand.words):
            verdict = judge("".join(c.name for c in word))
            if not verdict.legal:
                flags[(seat, j)] = verdict.reason
    return flags


@dataclass(frozen=True)
class Review:
    """After a round: the best play a player's cards allowed, and the points left behind."""

    name: str
    best: BestPlay
    scored: int
    left: int


def _review(state: GameState, current: RoundState) -> list[Review]:
    """Best plays of a closed round's hands (never while the round is open: no cheating)."""
    if not current.closed or current.play is None or current.result is None:
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
    state: GameState,
    number: int,
    form: RoundForm | None = None,
    error: RuleError | None = None,
    error_field: str = "",
    status: int = 200,
) -> Response:
    current = _round(state, number)
    token = token_for(state.game)
    if form is None:
        form = RoundForm(formdata=None)
        _fill(form, current, state.names)
        form.version.data = current.version
    challenge = ChallengeAddForm(formdata=None)
    challenge.by.choices = choices(*((str(i), n) for i, n in enumerate(state.names)))
    words = []
    if current.play is not None:
        for seat, hand in enumerate(current.play.hands):
            for j, w in enumerate(hand.words):
                words.append((f"{seat}:{j}", f"{hand.name}: {''.join(c.name for c in w).upper()}"))
    challenge.word.choices = choices(*words)
    previous_open = number > 1 and not state.round(number - 1).closed
    response = make_response(
        render_template(
            "round.html",
            state=state,
            current=current,
            form=form,
            error=error,
            error_field=error_field,
            editor=token is not None,
            challenge_form=challenge,
            action=ActionForm(),
            deck=CARDS,
            flags=_flags(state, current),
            review=_review(state, current),
            previous_open=previous_open,
        ),
        status,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _still_standing(current: RoundState, play: Play) -> tuple[tuple[Challenge, ...], list[str]]:
    """The challenges already ruled whose word is still entered, unchanged, where it was;
    and the words of those that no longer apply."""
    if current.play is None:
        return (), []
    kept, dropped = [], []
    for ch in current.play.challenges:
        before = current.play.hand(ch.player).words[ch.word]
        after = next(h for h in play.hands if h.name == ch.player).words
        if ch.word < len(after) and after[ch.word] == before:
            kept.append(ch)
        else:
            dropped.append("".join(c.name for c in before))
    return tuple(kept), dropped


@bp.get("/games/<game_id>/rounds/<int:number>")
def show(game_id: str, number: int) -> Response:
    """The round: who deals, who plays first, everyone's cards and the breakdown."""
    return render_round(store.state_of(load(game_id)), number)


@bp.post("/games/<game_id>/rounds/<int:number>")
def save(game_id: str, number: int) -> BaseResponse:
    """Save every player's cards for the round in one go (refused whole, or saved whole)."""
    game = load(game_id)
    require_edit(game)
    state = store.state_of(game)
    form = RoundForm()
    if not form.validate_on_submit():
        return render_round(
            state, number, form, RuleError("Reload the page and try again.", ""), status=400
        )
    went_out = form.went_out.data or ""
    data = {
        "players": [
            {
                "name": name,
                "words": split_words(form.players.entries[seat].form.words.data or ""),
                "unused": split_cards(form.players.entries[seat].form.unused.data or ""),
                "went_out": went_out == str(seat),
            }
            for seat, name in enumerate(state.names)
        ]
    }
    current = _round(state, number)
    try:
        play = parse_play(data)
        kept, dropped = _still_standing(current, play)
        store.save_round(
            game,
            number,
            replace(play, challenges=kept),
            referee.game_judge(game),
            form.version.data,
        )
    except Conflict as exc:
        fresh = store.state_of(load(game_id))
        return render_round(fresh, number, None, RuleError(str(exc), ""), status=409)
    except RuleError as exc:
        return render_round(state, number, form, exc, field_for_path(exc.where), status=422)
    flash(f"Round {number} saved.", "ok")
    for text in dropped:
        flash(
            f"The challenge of {text.upper()} was dropped: that word is no longer entered.", "error"
        )
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#breakdown")


@bp.post("/games/<game_id>/rounds/<int:number>/challenges")
def challenge(game_id: str, number: int) -> BaseResponse:
    """Challenge a saved word; the game's house words and lexicon rule, unless the table did."""
    game = load(game_id)
    require_edit(game)
    state = store.state_of(game)
    form = ChallengeAddForm()
    seat, _, index = (form.word.data or "").partition(":")
    try:
        if not (seat.isdigit() and index.isdigit() and (form.by.data or "").isdigit()):
            raise RuleError("Pick the challenger and the word.", "word")
        names = state.names
        if int(seat) >= len(names) or int(form.by.data) >= len(names):
            raise RuleError("Pick the challenger and the word.", "word")
        ruling = {"legal": True, "illegal": False}.get(form.ruling.data or "")
        if not form.validate_on_submit():
            raise RuleError("The form expired; reload the page and try again.", "")
        store.add_challenge(
            game,
            number,
            Challenge(names[int(form.by.data)], names[int(seat)], int(index), ruling),
            referee.game_judge(game),
        )
    except RuleError as exc:
        flash(exc.message, "error")
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


@bp.post("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/delete")
def withdraw(game_id: str, number: int, n: int) -> BaseResponse:
    game = load(game_id)
    require_edit(game)
    if ActionForm().validate_on_submit():
        try:
            store.withdraw_challenge(game, number, n)
            flash("Challenge withdrawn.", "ok")
        except (RuleError, NotFound) as exc:
            flash(getattr(exc, "message", str(exc)), "error")
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


@bp.post("/games/<game_id>/rounds/<int:number>/<any(close, reopen):action>")
def close_or_reopen(game_id: str, number: int, action: str) -> BaseResponse:
    """Close the round (the leaderboard counts it) or reopen it to fix a mistake."""
    game = load(game_id)
    require_edit(game)
    if ActionForm().validate_on_submit():
        try:
            if action == "close":
                store.close_round(game, number)
                flash(f"Round {number} closed. Found a mistake? Reopen it from its page.", "ok")
                return redirect(url_for("games.view", game_id=game_id))
            store.reopen_round(game, number)
            flash(f"Round {number} reopened: it is off the leaderboard until closed again.", "ok")
        except (RuleError, NotFound) as exc:
            flash(getattr(exc, "message", str(exc)), "error")
    return redirect(url_for("rounds.show", game_id=game_id, number=number))
