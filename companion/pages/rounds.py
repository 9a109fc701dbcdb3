"""The round page: enter everyone's cards, challenge, close and reopen.

Every write calls one action; a refusal shows this page again (``shows_refusals``) with
the message by its field and what was typed still in the forms.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as BaseResponse

from companion import store
from companion.actions import games, judging, seats
from companion.actions.review import review_round
from companion.game.challenges import Verdict
from companion.game.deck import CARDS, Word, text
from companion.game.errors import Conflict, Forbidden, Refusal, RuleError, ShapeError
from companion.game.parse import parse_seat_hand
from companion.game.play import MAX_PLAYERS, Challenge, Hand
from companion.game.scoring import ChallengeResult
from companion.vision.photo import MOST_BYTES
from companion.web import i18n, messages, referee
from companion.web.access import held_seat_token, held_token, require_held, seat_for, token_for
from companion.web.errors import Shown, field_id, shows_refusals, takes_file
from companion.web.forms import (
    ActionForm,
    ChallengeAddForm,
    EntryForm,
    RoundForm,
    SeatForm,
    choices,
    typed_cards,
)
from companion.web.numbers import small_int
from companion.web.present import etag, polled

bp = Blueprint("rounds", __name__)

FORM_ROOM = 64 * 1024
"""A round form's fields beside its photos, with room to spare."""
SEAT_BODY = MOST_BYTES + FORM_ROOM
"""The largest body of the seat form: one hand and its photo."""
ROUND_BODY = MAX_PLAYERS * MOST_BYTES + FORM_ROOM
"""The largest body of the every-hand form: every hand with its photo."""


def _show_hand(fields: EntryForm | SeatForm, saved: store.SeatState) -> None:
    """Put one saved hand into a form's boxes (words as typed in card form: ``qu-i-z``),
    with its version (a hand saved from a phone since is a clash, not overwritten)."""
    fields.version.data = str(saved.version)
    if saved.hand is not None:
        fields.words.data = " ".join("-".join(c.name for c in w) for w in saved.hand.words)
        fields.unused.data = " ".join(c.name for c in saved.hand.unused)


def _flags(
    state: store.GameState, current: store.RoundState
) -> tuple[dict[tuple[int, int], str], bool]:
    """Saved words the game's dictionary doesn't accept, so the table can challenge them
    (while the round is open: a closed round can't be challenged); and whether the
    game's dictionary is still there (a group's own list may have been removed)."""
    if current.play is None or current.closed:
        return {}, True
    lexicons = referee.store()
    if not lexicons.knows(state.rules.lexicon):  # a group's own list may have been removed
        return {}, False
    judge = judging.game_judge(lexicons, state.rules, state.house_words)
    hands = enumerate(current.play.hands)
    verdicts = {(s, j): judge(text(w)) for s, hand in hands for j, w in enumerate(hand.words)}
    return {at: v.reason for at, v in verdicts.items() if not v.legal}, True


@dataclass(frozen=True)
class Ballot:
    """A challenge the table votes on, as every phone sees it: the word's cards, the
    dictionary's advice, and each seat's vote so far (None: not voted yet)."""

    number: int
    cards: Word
    advice: Verdict
    votes: tuple[tuple[int, str, bool | None], ...]
    """Seat, name and vote of every seat, in seating order."""
    stalled: bool
    """Everyone voted and it is a tie: the scorekeeper decides."""


def _ballots(current: store.RoundState) -> list[Ballot | None]:
    """Per challenge of the round (in its order): its vote, or None for a challenge the
    dictionary or the table's own ruling decided."""
    if current.result is None or current.play is None:
        return []
    play = current.play
    out: list[Ballot | None] = []
    for ruled, n in zip(current.result.challenges, current.challenge_numbers, strict=True):
        advice = ruled.advice
        if advice is None:
            out.append(None)
            continue
        cast = dict(ruled.challenge.votes)
        votes = tuple((s.seat, s.name, cast.get(s.name)) for s in current.seats)
        word = play.hands[play.seat_of(ruled.challenge.player)].words[ruled.challenge.word]
        out.append(Ballot(n, word, advice, votes, current.stalled(ruled)))
    return out


@dataclass
class Entry:
    """What the page's entry form shows: whose form, and what refused or clashed."""

    mode: str = ""
    """``seat``: this phone's own hand; ``all``: the scorekeeper's every-hand form; ``""``."""
    form: RoundForm | SeatForm | None = None
    error: Shown | None = None
    clash: store.SeatState | None = None
    """The hand saved from another phone, shown beside what this phone typed."""
    seat: int | None = None
    """The seat of a ``seat`` form: this phone's own (or, refused, the one it sent)."""


def _seat_form(current: store.RoundState, seat: int) -> SeatForm:
    """This phone's form, filled with its seat's saved hand."""
    form = SeatForm(formdata=None)
    saved = current.seats[seat]
    _show_hand(form, saved)
    form.went_out.data = bool(saved.hand and saved.hand.went_out)
    return form


def _round_form(current: store.RoundState) -> RoundForm:
    """The scorekeeper's form, filled with every saved hand, and who went out."""
    form = RoundForm(formdata=None)
    for seat in current.seats:
        _show_hand(form.players.entries[seat.seat].form, seat)
    went_out = (str(s.seat) for s in current.seats if s.hand is not None and s.hand.went_out)
    form.went_out.data = next(went_out, "")
    return form


def live_context(state: store.GameState, number: int) -> dict[str, object]:
    """What the live part of the round page shows, the same for every phone that asks:
    read from the game alone, never from the session (who is asking changes nothing).
    The page adds what is this phone's own (``render_round``)."""
    current = state.round(number)
    previous = state.round(number - 1) if number > 1 else None
    previous_open = previous is not None and not previous.closed
    flags, has_lexicon = _flags(state, current)
    rulings = current.result.challenges if current.result else ()
    return {
        "state": state,
        "current": current,
        "flags": flags,
        "has_lexicon": has_lexicon,
        "definitions": [referee.ruling_definition(c, state.rules.lexicon) for c in rulings],
        "review": review_round(referee.store(), state, current),
        "ballots": _ballots(current),
        "previous": previous,
        "previous_open": previous_open,
        "warnings": _went_out_warnings(current),
        "marks": _marks(current, previous_open),
        "photos": {
            seat: url_for("rounds.photo", game_id=state.id, number=number, seat=seat)
            for n, seat in sorted(state.photos)
            if n == number
        },
        # As nobody in particular: the page renders its own copy for this phone.
        "editor": False,
        "holder": None,
        "voter": False,
        "entry": Entry(),
    }


def _marks(current: store.RoundState, previous_open: bool) -> dict[str, str]:
    """What the page around the live part was rendered for, as the live part says it now:
    a page whose forms depend on a mark that changed loads itself again (board.js).

    ``open``: the round is open; ``enter``: its hands can be entered (open, and the round
    before it closed); ``challenges``: the challenges and the words they can pick while the
    round is scored and open (the scorekeeper's forms), ``-`` otherwise."""
    challenges = "-"
    if current.result is not None and not current.closed and current.play is not None:
        words = [
            f"{seat}:{j}:{text(w)}"
            for seat, hand in enumerate(current.play.hands)
            for j, w in enumerate(hand.words)
        ]
        numbers = ",".join(str(n) for n in current.challenge_numbers)
        digest = hashlib.sha256("|".join(words).encode()).hexdigest()[:12]
        challenges = f"{numbers}/{digest}"
    return {
        "open": "0" if current.closed else "1",
        "enter": "1" if not current.closed and not previous_open else "0",
        "challenges": challenges,
    }


def live_part(number: int) -> str:
    """What the entity tag of round ``number``'s live part adds to the game's
    (``present.polled``)."""
    return f"-r{number}"


def render_round(game_id: str, number: int, entry: Entry | None = None) -> str:
    """The round page: the live part (``live_context``) as this phone sees it, its forms
    (the saved state filled in unless a refused form is given: a refused challenge's is
    the challenge form, its error's field ``challenge``), and what the page's script
    needs to follow the other phones."""
    game = store.get_game(game_id)
    state = store.state_of(game)
    context = live_context(state, number)
    current = state.round(number)
    editor = token_for(game) is not None
    holder = seat_for(game)
    entry = entry or Entry()
    if not entry.mode and context["marks"]["enter"] == "1":  # type: ignore[index]
        # This phone's own seat's form, or (the scorekeeper, or asked for) every hand's.
        everyone = editor and (holder is None or request.args.get("enter") == "all")
        entry.mode = "all" if everyone else "seat" if holder is not None else ""
    if entry.mode == "seat":
        entry.seat = holder if entry.seat is None else entry.seat
        # No such seat (the message alone), or not this phone's: nothing to fill in.
        if entry.seat not in range(len(state.names)) or not (editor or entry.seat == holder):
            entry.mode, entry.form = "", None
    if entry.form is None and entry.mode == "seat" and entry.seat is not None:
        entry.form = _seat_form(current, entry.seat)
    elif entry.form is None and entry.mode == "all":
        entry.form = _round_form(current)
    refused = entry.error if entry.error and entry.error.field == "challenge" else None
    challenge = ChallengeAddForm() if refused else ChallengeAddForm(formdata=None)
    # Both menus start on "Choose…", never on a challenge nobody meant (the first player
    # challenging their own first word); static/challenge.js leaves the challenger's own
    # words out of the word menu, and the action still refuses a self-challenge.
    pick = ("", _("Choose…"))
    challenge.by.choices = choices(pick, *((str(i), n) for i, n in enumerate(state.names)))
    words = [pick]
    if current.play is not None:
        for seat, hand in enumerate(current.play.hands):
            for j, w in enumerate(hand.words):
                words.append((f"{seat}:{j}", f"{hand.name}: {text(w).upper()}"))
    challenge.word.choices = choices(*words)
    lang = i18n.current()
    watch = ["open", "enter"] if editor or holder is not None else []
    if editor:
        watch.append("challenges")
    context.update(
        {
            "entry": entry,
            "form": entry.form,
            "error": entry.error,
            "error_field": entry.error.field if entry.error else "",
            "editor": editor,
            "holder": holder,
            # A seat's phone votes on a challenge put to the table (the page's vote form).
            "voter": holder is not None and not current.closed,
            "challenge_form": challenge,
            "challenge_error": refused,
            "action": ActionForm(),
            "deck": CARDS,
            "poll_ms": current_app.config.get("BOARD_POLL_MS", 3000),
            "live_url": url_for("rounds.live", game_id=state.id, number=number, lang=lang),
            "live_tag": etag(state.id, state.version, lang) + live_part(number),
            "watch": " ".join(watch),
        }
    )
    return render_template("round.html", **context)


def _went_out_warnings(current: store.RoundState) -> list[tuple[str, int]]:
    """Players marked as going out who still hold cards left over (allowed, but the
    false going-out penalty applies: the table should look again)."""
    return [
        (s.name, len(s.hand.unused))
        for s in current.seats
        if s.hand is not None and s.hand.went_out and s.hand.unused
    ]


@bp.get("/games/<game_id>/rounds/<int:number>")
def show(game_id: str, number: int) -> Response:
    """The round: who deals, who plays first, whose hand is in, the breakdown."""
    return make_response(render_round(game_id, number), {"Cache-Control": "no-store"})


@bp.get("/games/<game_id>/rounds/<int:number>/live")
def live(game_id: str, number: int) -> Response:
    """The part of the round page that follows the other phones (whose hand is in, the
    bonus to beat, the breakdown, the challenges), for the page to refresh: 304 when
    nothing changed.

    The same answer for every phone that asks for the same address: the page asks in its
    own language (``?lang=``), and nothing here reads the session (no ``Vary: Cookie``, no
    cookie set, no CSRF token), so a cache in front may keep it for a second and answer
    every phone at the table (``present.polled``). What is this phone's own (its seat,
    the scorekeeper's forms) is in the page around it."""

    def render(state: store.GameState) -> str:
        return render_template("_round_live.html", **live_context(state, number))

    return polled(game_id, live_part(number), render)


def _box(where: str) -> str:
    """The form box of a refusal's path: ``players[1].words[0][2]`` -> ``players-1-words``."""
    box = re.match(r"players-\d+(?:-[a-z_]+)?", field_id(where))
    return box[0] if box else ""


def _refused_save(exc: Refusal, game_id: str, number: int) -> str:
    if isinstance(exc, Conflict) and exc.code == "seat_changed":  # keep what was typed
        return _clash(game_id, number, exc, RoundForm())
    if isinstance(exc, Conflict):  # show what is saved now; what was typed is stale
        return render_round(game_id, number, Entry("all", error=Shown.of(exc, "")))
    return render_round(game_id, number, Entry("all", RoundForm(), Shown.of(exc, _box(exc.where))))


def _clash(game_id: str, number: int, exc: Refusal, form: RoundForm | SeatForm) -> str:
    """A hand saved from another phone since this page was loaded: the page again with what
    this phone typed, and beside it what is saved; saving again keeps what was typed."""
    seat = int(exc.params["seat"])  # type: ignore[call-overload]
    saved = store.round_state(store.get_game(game_id), number).seats[seat]
    if isinstance(form, SeatForm):
        form.version.data = str(saved.version)
        mode, field = "seat", "seat-form"
    else:
        form.players.entries[seat].form.version.data = str(saved.version)
        mode, field = "all", f"players-{seat}"
    return render_round(game_id, number, Entry(mode, form, Shown.of(exc, field), saved, seat))


def _photo(name: str) -> bytes | None:
    """The picture sent in the form's file field ``name``, if one was chosen (a file input
    left empty sends a part with no name and no bytes)."""
    sent = request.files.get(name)
    if sent is None:
        return None
    data = sent.read()
    return data if data or sent.filename else None


@bp.post("/games/<game_id>/rounds/<int:number>")
@shows_refusals(_refused_save)
@takes_file(ROUND_BODY)
def save(game_id: str, number: int) -> BaseResponse:
    """The scorekeeper's form: save the hands typed (blank rows are left as they are, for
    their players to enter on their phones), refused whole or saved whole; each with the
    photo sent beside it (``players-<seat>-photo``), in a game that keeps photos (a photo
    beside a blank row is ignored with it)."""
    token = require_held(game_id, store.get_game)
    form = RoundForm()
    names = store.names_of(store.get_game(game_id))
    went_out = small_int(form.went_out.data or "")
    hands, versions, photos = {}, {}, {}
    for seat in range(len(names)):
        row = form.players.entries[seat].form
        if row.is_blank():
            if went_out == seat:
                raise RuleError("went_out_not_entered", f"players[{seat}]", name=names[seat])
            continue
        try:
            hands[seat] = _typed_hand(row, went_out == seat)
        except Refusal as exc:  # the path of this hand in the form: players[1].words[0][2]
            exc.where = f"players[{seat}]" + (f".{exc.where}" if exc.where else "")
            raise
        versions[seat] = small_int(row.version.data or "")
        photo = _photo(f"players-{seat}-photo")
        if photo is not None:
            photos[seat] = photo
    if not hands:
        raise RuleError("hands_blank", "players")
    saved = seats.save_seats(referee.store(), game_id, token, number, hands, versions, photos)
    _flash_saved(number, saved, None)
    return redirect(_after_save(game_id, number, saved))


def _typed_hand(fields: EntryForm | SeatForm, went_out: bool) -> Hand:
    """The hand typed into a form's boxes: words (``qu-i-z top``) and cards left over."""
    return parse_seat_hand({**typed_cards(fields), "went_out": went_out})


def _flash_saved(number: int, saved: seats.SeatsSaved, seat: int | None) -> None:
    """What the save did, where the person looks next: saved, who is still entering, a
    dropped challenge, a player going out with cards left over."""
    current = saved.round
    waiting = messages.people(current.waiting_for)
    name = current.seats[seat].name if seat is not None else ""
    if seat is not None and current.entered:
        flash(_("%(name)s's hand is saved. Every hand is in.", name=name), "ok")
    elif seat is not None:
        flash(
            _("%(name)s's hand is saved. Waiting for %(waiting)s.", name=name, waiting=waiting),
            "ok",
        )
    elif current.entered:
        flash(_("Round %(number)s saved.", number=number), "ok")
    else:
        flash(
            _("Round %(number)s saved. Waiting for %(waiting)s.", number=number, waiting=waiting),
            "ok",
        )
    for dropped in saved.dropped:
        flash(
            _(
                "The challenge of %(word)s was dropped: that word is no longer entered.",
                word=dropped.upper(),
            ),
            "error",
        )
    for name, left in _went_out_warnings(current):
        if seat is None or current.seats[seat].name == name:
            flash(
                ngettext(
                    "%(name)s is marked as going out but still has %(num)d card left over: "
                    "check it.",
                    "%(name)s is marked as going out but still has %(num)d cards left over: "
                    "check it.",
                    left,
                    name=name,
                ),
                "error",
            )


def _refused_seat(exc: Refusal, game_id: str, number: int, seat: int) -> str:
    if isinstance(exc, Conflict) and exc.code == "seat_changed":
        return _clash(game_id, number, exc, SeatForm())
    own = exc.where.removeprefix(f"players[{seat}]").lstrip(".")  # words[0][2] -> words
    named = re.match(r"(words|unused|went_out|photo)\b", own)
    field = named[1] if named else "seat-form"
    return render_round(game_id, number, Entry("seat", SeatForm(), Shown.of(exc, field), seat=seat))


@bp.post("/games/<game_id>/rounds/<int:number>/seats/<int:seat>")
@shows_refusals(_refused_seat)
@takes_file(SEAT_BODY)
def save_seat(game_id: str, number: int, seat: int) -> BaseResponse:
    """This phone's own hand: saved alone, so every phone at the table saves at once; with
    the photo of it sent beside it (``photo``), in a game that keeps photos. The rights
    this phone holds go to the action unchecked: it loads the game once, under its lock,
    and checks them (with a photo, once more before: the photo is read unlocked)."""
    token = (held_token(game_id), held_seat_token(game_id))
    form = SeatForm()
    hand = _typed_hand(form, bool(form.went_out.data))
    photo = _photo("photo")
    saved = seats.save_seats(
        referee.store(),
        game_id,
        token,
        number,
        {seat: hand},
        {seat: small_int(form.version.data)},
        {seat: photo} if photo is not None else None,
    )
    _flash_saved(number, saved, seat)
    return redirect(_after_save(game_id, number, saved))


@bp.get("/games/<game_id>/rounds/<int:number>/photos/<int:seat>.jpg")
def photo(game_id: str, number: int, seat: int) -> BaseResponse:
    """The photo kept of a hand, for whoever can see the game (its view link): 404 when
    there is none (a game that doesn't keep photos has none). Private to that browser:
    no shared cache keeps it."""
    if not store.storable_id(game_id):
        raise store.NotFound("no_such_game")
    jpeg = store.photo_of(game_id, number, seat)
    if jpeg is None:
        store.game_version(game_id)  # no such game: its own 404
        raise store.NotFound("not_found")
    response = make_response(
        jpeg,
        {
            "Content-Type": "image/jpeg",
            # Asked again each time (a new photo of the hand replaces it), 304 if the same.
            "Cache-Control": "private, no-cache",
            "X-Content-Type-Options": "nosniff",
        },
    )
    response.add_etag()
    return response.make_conditional(request)


def _after_save(game_id: str, number: int, saved: seats.SeatsSaved) -> str:
    """Back to the round: at the breakdown once every hand is in, else at who is missing."""
    place = "#breakdown" if saved.round.entered else "#round-live"
    return url_for("rounds.show", game_id=game_id, number=number) + place


def _refused_challenge(exc: Refusal, game_id: str, number: int) -> str:
    return render_round(game_id, number, Entry(error=Shown.of(exc, "challenge")))


@bp.post("/games/<game_id>/rounds/<int:number>/challenges")
@shows_refusals(_refused_challenge)
def challenge(game_id: str, number: int) -> BaseResponse:
    """Challenge a saved word; the game's house words and lexicon rule, unless the table did."""
    token = require_held(game_id, store.get_game)
    form = ChallengeAddForm()
    names = store.names_of(store.get_game(game_id))
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
    return render_round(game_id, number, Entry(error=Shown.of(exc, "")))


@bp.post("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/delete")
@shows_refusals(_refused_action)
def withdraw(game_id: str, number: int, n: int) -> BaseResponse:
    """Withdraw a challenge while the round is open."""
    games.withdraw(game_id, held_token(game_id), number, n)
    flash(_("Challenge withdrawn."), "ok")
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


def _legal(value: str | None) -> bool:
    """A vote's or a decision's button: ``legal`` or ``illegal``."""
    legal = {"legal": True, "illegal": False}.get(value or "")
    if legal is None:
        raise ShapeError("legal_flag", "legal")
    return legal


def _flash_ruled(ruled: ChallengeResult, own: bool | None = None) -> None:
    """What a vote or a decision did: the outcome once decided, else this phone's vote
    (``own``) and who the table still waits for (or that the scorekeeper decides a tie)."""
    word = ruled.text.upper()
    if not ruled.pending and ruled.ruling.legal:
        flash(_("%(word)s is legal: %(by)s pays.", word=word, by=ruled.challenge.by), "ok")
    elif not ruled.pending:
        flash(_("%(word)s is not legal: it is struck.", word=word), "ok")
    elif own:
        flash(_("Your vote on %(word)s is in: legal.", word=word), "ok")
    else:
        flash(_("Your vote on %(word)s is in: not legal.", word=word), "ok")


@bp.post("/games/<game_id>/rounds/<int:number>/vote")
@shows_refusals(_refused_action)
def vote(game_id: str, number: int) -> BaseResponse:
    """This phone's seat votes on a challenge the table settles by vote: the button sends
    ``vote`` = ``<challenge>:legal`` (or ``:illegal``), the page's vote form this phone's
    seat. Only the seat's own secret votes here (the scorekeeper decides instead)."""
    token = held_seat_token(game_id)
    if token is None:
        store.get_game(game_id)  # no such game: not found, before the missing seat
        raise Forbidden("vote_not_seated")
    picked = (request.form.get("vote") or "").partition(":")
    n, legal = small_int(picked[0]), _legal(picked[2])
    if n is None:
        raise ShapeError("legal_flag", "legal")
    seat = small_int(request.form.get("seat"))
    done = games.vote(game_id, token, number, n, -1 if seat is None else seat, legal)
    _flash_ruled(done.ruled(), legal)
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


@bp.post("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/decide")
@shows_refusals(_refused_action)
def decide(game_id: str, number: int, n: int) -> BaseResponse:
    """The scorekeeper settles an open vote (a tie, or a phone that will not vote):
    ``legal`` = ``legal`` or ``illegal``."""
    token = require_held(game_id, store.get_game)
    done = games.decide(game_id, token, number, n, _legal(request.form.get("legal")))
    _flash_ruled(done.ruled())
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#challenges")


@bp.post("/games/<game_id>/rounds/<int:number>/<any(close, reopen):action>")
@shows_refusals(_refused_action)
def close_or_reopen(game_id: str, number: int, action: str) -> BaseResponse:
    """Close the round (the leaderboard counts it) or reopen it to fix a mistake."""
    games.set_closed(game_id, held_token(game_id), number, action == "close")
    if action == "close":
        flash(
            _("Round %(number)s closed. Found a mistake? Reopen it from its page.", number=number),
            "ok",
        )
        return redirect(url_for("games.view", game_id=game_id))
    flash(
        _(
            "Round %(number)s reopened: it is off the leaderboard until closed again.",
            number=number,
        ),
        "ok",
    )
    # at the hands, unfolded (static/errors.js): a round is reopened to fix one
    return redirect(url_for("rounds.show", game_id=game_id, number=number) + "#every-hand")
