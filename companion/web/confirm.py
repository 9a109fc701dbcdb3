"""The page that asks before something is deleted for good (a game, a table): what goes,
the button that deletes (a form sent with ``confirm=yes``), and the way back."""

from __future__ import annotations

from flask import Response, make_response, render_template

from companion.web.forms import ActionForm


def confirm_delete(
    title: str, explanation: str, action_url: str, back_url: str, confirm_label: str
) -> Response:
    """The confirm page of a deletion, never kept by a cache."""
    page = render_template(
        "confirm_delete.html",
        title=title,
        explanation=explanation,
        action_url=action_url,
        back_url=back_url,
        confirm_label=confirm_label,
        form=ActionForm(),
    )
    return make_response(page, {"Cache-Control": "no-store"})
