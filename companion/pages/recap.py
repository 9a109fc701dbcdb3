"""The end of a game: the recap page, its share card (SVG and PNG) and a printable page."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, request, url_for
from flask_babel import format_date

from companion import store
from companion.actions import records
from companion.web import i18n, referee
from companion.web.access import held_token, token_for
from companion.web.charts import running_totals_chart
from companion.web.links import public_url
from companion.web.sharecard import ShareCard, card_labels, card_png, card_svg, podium

bp = Blueprint("recap", __name__)


def _recap(game_id: str) -> records.GameRecap:
    return records.game_recap(referee.store(), game_id)


def _card(found: records.GameRecap) -> str:
    """The share card of a game, as SVG: its podium, its chart, its best word."""
    state, recap = found.state, found.recap
    best = recap.best_word
    places = [(s.rank, s.name, s.total) for s in recap.ranked]
    card = ShareCard(
        title="Quiddler Companion",
        date_line=format_date(found.started, "full"),
        podium=podium(places),
        chart=running_totals_chart(list(state.names), state.running()),
        best_word=(best.text.upper(), best.value, best.name) if best else None,
        labels=card_labels(best.value if best else None),
    )
    return card_svg(card)


@bp.get("/games/<game_id>/recap")
def page(game_id: str) -> Response:
    """The recap: podium, chart, the best word, the bonuses round by round, the challenges
    and their rulings, the points each player left on the table; the share card to send
    and to download; printable."""
    found = _recap(game_id)
    state = found.state
    # The rematch button: for the scorekeeper (this phone holds the game's edit right).
    editor = held_token(game_id) is not None and token_for(store.get_game(game_id)) is not None
    body = render_template(
        "recap.html",
        found=found,
        state=state,
        recap=found.recap,
        chart=running_totals_chart(list(state.names), state.running()),
        editor=editor,
        png_url=url_for("recap.png", game_id=game_id, lang=request.args.get("lang")),
        card_url=public_url("recap.png", game_id=game_id, lang=i18n.current()),
    )
    return make_response(body, {"Cache-Control": "no-store"})


@bp.get("/games/<game_id>/recap.svg")
def svg(game_id: str) -> Response:
    """The share card as SVG (what the PNG is drawn from)."""
    return make_response(_card(_recap(game_id)), {"Content-Type": "image/svg+xml"})


@bp.get("/games/<game_id>/recap.png")
def png(game_id: str) -> Response:
    """The share card as a PNG of 1200 x 630, to send from the phone's share sheet or save."""
    image = card_png(_card(_recap(game_id)))
    named = f'inline; filename="quiddler-{game_id}.png"'
    if "download" in request.args:
        named = named.replace("inline", "attachment", 1)
    return make_response(image, {"Content-Type": "image/png", "Content-Disposition": named})
