"""The referee's pages: check one word, and the word judge for a whole play."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, request

from companion.actions import judging
from companion.game.rules import DEFAULT_LEXICON
from companion.web import referee
from companion.web.extensions import limited
from companion.web.forms import JudgeForm, WordForm

bp = Blueprint("referee", __name__)

COOKIE = "lexicon"
"""Remembers the lexicon last picked on these pages, for a year."""
REMEMBER = 365 * 24 * 3600


def _remembered() -> str:
    name = request.cookies.get(COOKIE, DEFAULT_LEXICON)
    return name if name in referee.store().names() else DEFAULT_LEXICON


def _page(template: str, picked: str, status: int = 200, **context: object) -> Response:
    response = make_response(render_template(template, **context), status)
    if picked != request.cookies.get(COOKIE) and picked in referee.store().names():
        response.set_cookie(COOKIE, picked, max_age=REMEMBER, samesite="Lax", httponly=True)
    return response


@bp.get("/words")
@limited("word-lookups")
def check_word() -> Response:
    """Type a word: a big verdict, the reason, how common it is, its card spellings."""
    form = WordForm(request.args, meta={"csrf": False})
    lexicons = referee.store()
    if not form.lexicon.data or form.lexicon.data not in lexicons.names():
        form.lexicon.data = _remembered()
    report = close = None
    typed = form.word.data is not None
    if typed and form.validate():
        report = referee.word_report(form.word.data, form.lexicon.data)
        if not report["legal"]:
            close = judging.lexicon(lexicons, form.lexicon.data).close_words(form.word.data)
    return _page(
        "words.html",
        form.lexicon.data,
        422 if typed and report is None else 200,  # a word typed, and refused
        form=form,
        report=report,
        close=close,
        lexicon_title=referee.title(form.lexicon.data),
    )


@bp.route("/judge", methods=["GET", "POST"])
@limited("word-lookups", methods=["POST"])
def judge() -> Response:
    """Several words, one verdict for the whole play, as a tournament word judge gives it."""
    form = JudgeForm()
    lexicons = referee.store()
    if not form.is_submitted():
        form.lexicon.data = _remembered()
    verdict = second = None
    if form.validate_on_submit():
        words = form.words_list()
        verdict = all(judging.lexicon(lexicons, form.lexicon.data).verdict(w).legal for w in words)
        if form.second.data:
            other = judging.lexicon(lexicons, form.second.data)
            second = all(other.verdict(w).legal for w in words)
    return _page(
        "judge.html",
        form.lexicon.data or _remembered(),
        422 if form.is_submitted() and verdict is None else 200,  # sent, and refused
        form=form,
        verdict=verdict,
        second=second,
        titles={name: referee.title(name) for name in lexicons.names()},
    )
