"""Games as the API and the exports write them, and the conditional GET of their views."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, current_app, make_response, request
from flask_babel import force_locale

from companion import store
from companion.game.scoring import ChallengeResult, RoundScore
from companion.store import GameState, RoundState, SeatState
from companion.web import i18n, messages, rendered


def result_json(result: RoundScore) -> dict[str, object]:
    """A scored round as ``/score`` writes it, reasons in words beside their codes."""
    return result.as_dict(messages.reason)


def challenge_json(
    ruled: ChallengeResult, n: int, current: RoundState | None = None
) -> dict[str, object]:
    """One ruled challenge as the /score result writes it, with its number ``n`` in the
    round (the number to DELETE it by); a vote still open says whether it is ``stalled``
    (everyone voted, no outcome: the scorekeeper decides)."""
    out = {**ruled.as_dict(messages.reason), "n": n}
    if ruled.pending and current is not None:
        out["stalled"] = current.stalled(ruled)
    return out


def round_json(current: RoundState) -> dict[str, object]:
    """One round as the API shows it; the result is the /score result of its entries."""
    result = None
    if current.result is not None:
        result = result_json(current.result)
        result["challenges"] = [
            challenge_json(ruled, n, current)
            for ruled, n in zip(current.result.challenges, current.challenge_numbers, strict=True)
        ]
    return {
        "number": current.number,
        "hand_size": current.hand_size,
        "dealer": current.dealer,
        "first_player": current.first_player,
        "closed": current.closed,
        "entered": current.entered,
        "went_out": current.went_out,
        "version": current.version,
        "seats": [seat_json(s) for s in current.seats],
        "bonus_race": current.race.as_dict() if current.race else None,
        "result": result,
    }


def seat_json(seat: SeatState, with_hand: bool = False) -> dict[str, object]:
    """One seat of a round: whether its hand is in and its version (the ``If-Match`` of
    its next save); ``with_hand``: the hand as saved, in card names."""
    out: dict[str, object] = {
        "seat": seat.seat,
        "name": seat.name,
        "entered": seat.entered,
        "version": seat.version,
    }
    if with_hand:
        hand = seat.hand
        out["words"] = [[c.name for c in w] for w in hand.words] if hand else []
        out["unused"] = [c.name for c in hand.unused] if hand else []
        out["went_out"] = bool(hand and hand.went_out)
    return out


def game_json(state: GameState) -> dict[str, object]:
    """The whole game: players in seating order with totals and ranks, every round."""
    by_seat = {s.seat: s for s in state.table}
    return {
        "id": state.id,
        "rules": state.rules.as_dict(),
        "lexicon": state.rules.lexicon,
        "players": [
            {
                "name": n,
                "seat": i,
                "total": by_seat[i].total,
                "rank": by_seat[i].rank,
                "claimed": state.claimed[i],
                "handicap": by_seat[i].handicap,
            }
            for i, n in enumerate(state.names)
        ],
        "rounds": [round_json(r) for r in state.rounds],
        "next_round": state.next_round,
        "next_dealer": state.next_dealer,
        "finished": state.finished,
        "winners": state.winners,
        "house_words": [{"word": w, "allowed": a} for w, a in sorted(state.house_words.items())],
        "version": state.version,
    }


SHARED_SECONDS = 1
"""How long a shared cache in front (nginx's micro-cache) may keep a polled view."""


def etag(game_id: str, version: int, lang: str | None = None) -> str:
    """The entity tag of every view of a game at ``version`` in ``lang``, by default the
    reader's language (unquoted), in this build: a copy held in one language is never
    "not modified" in another, nor one a previous build rendered."""
    return f"{game_id}-{version}-{lang or i18n.current()}-{current_app.config['BUILD']}"


def not_modified(tag: str) -> Response | None:
    """A 304 (headers to be added) when the client already holds ``tag``."""
    return Response(status=304) if request.if_none_match.contains(tag) else None


def polled(game_id: str, part: str, render: Callable[[GameState], str]) -> Response:
    """A part of a game's page that the phones poll: ``render(state)``, kept per version
    and language (``rendered``), its ETag the game's (``etag``) followed by ``part``; 304
    while the phone holds that tag.

    The page asks in the language it was rendered in (``?lang=``); the answer is then the
    same for every phone that asks for that address (nothing of the phone's session or
    rights in it), so a shared cache in front may keep it for ``SHARED_SECONDS``: nginx's
    ``X-Accel-Expires`` (deploy/nginx.conf caches only what carries it, and strips it).
    Without ``lang``, this phone's language, for no shared cache. Browsers still ask
    every time (``no-cache``)."""
    version = store.game_version(game_id)
    asked = request.args.get("lang", "")
    shared = asked in i18n.LANGUAGES
    lang = asked if shared else i18n.current()
    tag = etag(game_id, version, lang) + part
    response = not_modified(tag)
    if response is None:
        with force_locale(lang):
            body = rendered.get_or_render(
                ("poll", game_id, version, lang, part),
                lambda: render(store.state_at(game_id, version)),
            )
        response = make_response(body)
    response.headers["ETag"] = f'"{tag}"'
    # X-Accel-Expires before Cache-Control: nginx reads the headers in order, and a
    # no-cache read first makes it keep nothing, whatever X-Accel-Expires says after it.
    response.headers["X-Accel-Expires"] = str(SHARED_SECONDS if shared else 0)
    response.headers["Cache-Control"] = "no-cache"
    if not shared:
        response.vary.add("Accept-Language")
    return response
