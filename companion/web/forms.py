"""Flask-WTF forms. They turn typed text into plain data; game/ validates it, once.

The house-rules fields are made from the rules' declaration (``game.rules.RULES``):
no rule is named here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext, lazy_ngettext, ngettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import (
    BooleanField,
    Field,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields import FieldList
from wtforms.utils import unset_value
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from companion.game.play import MAX_PLAYERS, MEMBERS
from companion.game.rules import (
    BY_RULE,
    JUNIOR_RULES,
    LEAST_CARDS,
    MAX_ROUNDS,
    MOST_CARDS,
    PLANS,
    RULES,
    Rules,
    RuleSpec,
    plan,
    plan_label,
)
from companion.web.errors import Shown
from companion.web.referee import lexicon_choices


class WholeNumberField(IntegerField):
    """A whole number box whose refusal speaks the reader's language (WTForms' own message
    has no Lithuanian catalog)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(lazy_gettext("Type a whole number.")) from None


class PlanSizeField(WholeNumberField):
    """A short game's first or last hand: read only when the round plan chosen beside it
    (the field named as the rule, ``hands`` for ``hands_first``) is a short game, so what
    a hidden box holds never refuses another plan."""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.unreadable = False
        try:
            super().process_formdata(valuelist)
        except ValueError:
            self.data, self.unreadable = None, True

    def pre_validate(self, form: Form) -> None:
        plan_field = form[self.short_name.rsplit("_", 1)[0]]
        if getattr(self, "unreadable", False) and plan_field.data == SHORT:
            raise ValidationError(lazy_gettext("Type a whole number."))


def choices(*pairs: tuple[str, object]) -> list[SelectChoice]:
    """Menu choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


SEATS = choices(
    ("", "—"), *((str(i), lazy_gettext("Player %(n)s", n=i)) for i in range(1, MAX_PLAYERS + 1))
)
RULINGS = choices(
    ("", lazy_gettext("Dictionary decides")),
    ("legal", lazy_gettext("Table: legal")),
    ("illegal", lazy_gettext("Table: not legal")),
)
CHALLENGE_ROWS = 4
_SPLIT_WORDS = re.compile(r"[\s,;]+")
_SPLIT_CARDS = re.compile(r"[\s,;\-·.]+")


def first_error(form: Form) -> Shown:
    """The first message of a refused form, with the id of its field (``rules-bonus``)."""
    return next(_flatten(form.errors), Shown(_("Check the form and send it again.")))


def _flatten(errors: object, prefix: str = "") -> Iterator[Shown]:
    """A message per field from WTForms' nested errors (dicts of lists of dicts...)."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _flatten(value, f"{prefix}-{key}" if prefix else str(key))
    elif (
        isinstance(errors, list | tuple)
        and errors
        and not isinstance(errors[0], dict | list | tuple)
    ):
        yield Shown(str(errors[0]), prefix, prefix)  # a message, maybe a lazy one
    elif isinstance(errors, list | tuple):
        for i, value in enumerate(errors):
            if value:
                yield from _flatten(value, f"{prefix}-{i}")


def split_words(text: str) -> list[str]:
    """Words typed in one box, separated by spaces or commas: ``"qu-i-z top"``."""
    return [w for w in _SPLIT_WORDS.split(text.strip()) if w]


def split_cards(text: str) -> list[str]:
    """Card names typed in one box, separated by spaces, commas or dashes: ``"m qu a"``."""
    return [c for c in _SPLIT_CARDS.split(text.strip()) if c]


def typed_cards(fields: Form) -> dict[str, object]:
    """What a hand's boxes hold, as the API takes it: the ``words`` and the cards left over
    (``unused``)."""
    return {
        "words": split_words(fields.words.data or ""),
        "unused": split_cards(fields.unused.data or ""),
    }


class FixedRows(FieldList):
    """A fixed number of numbered rows; row ``i`` always reads the fields posted as ``name-i-*``.

    WTForms' FieldList renumbers the rows it finds in the post, so a client that
    leaves out a blank row would shift (and double) the rows after it.
    """

    def process(
        self, formdata: Any, data: object = unset_value, extra_filters: object = None
    ) -> None:
        """The rows of ``formdata`` (WTForms' wrapper of the post), ``min_entries`` of them."""
        if not formdata:
            super().process(formdata, data, extra_filters)
            return
        self.last_index = -1
        self.entries: list[Field] = []
        self.object_data = data
        for index in range(self.min_entries):
            self._add_entry(formdata, index=index)


class PlayerForm(Form):
    """One seat: name, words laid down, cards left over, went out."""

    name = StringField(lazy_gettext("Name"))
    words = StringField(lazy_gettext("Words"))
    unused = StringField(lazy_gettext("Left over"))
    went_out = BooleanField(lazy_gettext("Went out"))

    def is_blank(self) -> bool:
        return not any((f.data or "").strip() for f in (self.name, self.words, self.unused))


class ChallengeForm(Form):
    """One challenge: who challenges which player's word, and the table's ruling."""

    by = SelectField(lazy_gettext("Challenger"), choices=SEATS, default="")
    # TRANSLATORS: label of a menu of players: whose word is challenged ("the word of: Ben").
    player = SelectField(lazy_gettext("Word of"), choices=SEATS, default="")
    word = WholeNumberField(
        lazy_gettext("Word no."),
        validators=[
            Optional(),
            NumberRange(min=1, max=10, message=lazy_gettext("Give a number from 1 to 10.")),
        ],
    )
    ruling = SelectField(lazy_gettext("Ruling"), choices=RULINGS, default="")

    def is_blank(self) -> bool:
        return not self.by.data and not self.player.data and self.word.data is None


SHORT = "short"
"""The round plan a group chooses by its first and last hand sizes (``rules.plan``)."""
SHORT_DEFAULT = (10, 6)
"""The short game a blank box stands for: 10 cards down to 6 (5 rounds)."""
_PLAN_NAMES = {
    # TRANSLATORS: the rule book's round plan, named in the new-game menu.
    "standard": lazy_gettext("Standard"),
    # TRANSLATORS: a round plan: up to 10 cards and back down, 16 rounds.
    "full": lazy_gettext("Full game"),
    # TRANSLATORS: a round plan: Quiddler Junior's, 2 to 7 cards.
    "junior": lazy_gettext("Junior"),
}
JUNIOR_PRESET: dict[str, object] = {
    **{name: value for name, value in JUNIOR_RULES.items() if name != "hands"},
    "lexicon": "common",
}
"""What choosing Junior sets in the form's other house rules (new_game.js reads it from
the menu); the common word list only where the server has it."""


def _plan_choices() -> list[SelectChoice]:
    """The round plans on offer: the named ones with their sizes and rounds, and the short
    game (first and last hand in boxes of their own), before Junior."""

    def named(name: str) -> tuple[str, object]:
        hands = PLANS[name]
        # TRANSLATORS: a round plan in the new-game menu: "Standard: 3 to 10 (8 rounds)", "Full
        # game: 3 to 10, 10 to 3 (16 rounds)" (sizes: the cards dealt, with en dashes). Short.
        label = lazy_ngettext(
            "%(plan)s: %(sizes)s (%(num)d round)",
            "%(plan)s: %(sizes)s (%(num)d rounds)",
            len(hands),
            plan=_PLAN_NAMES[name],
            sizes=plan_label(hands),
        )
        return name, label

    # TRANSLATORS: a round plan in the new-game menu: the group chooses the first and the
    # last hand size in two boxes below it. Keep it short.
    short = (SHORT, lazy_gettext("Short game: you choose"))
    return choices(*(named(n) for n in PLANS if n != "junior"), short, named("junior"))


def _rule_fields(spec: RuleSpec, only: tuple[str, ...] = ()) -> dict[str, Field]:
    """The form fields of one house rule, as its declaration says (its title and the labels
    of its choices are marked in game/rules.py and translated here, when shown): one field
    named as the rule, and for a round plan the first and last hand of a short game
    (``hands_first``, ``hands_last``). ``only``: the choices offered (default: all)."""
    title = lazy_gettext(spec.title)  # marked with N_ where it is declared
    if spec.kind == "choice":
        offered = [
            (c, lazy_gettext(label)) for c, label in zip(spec.choices, spec.labels, strict=True)
        ]
        offered = [(c, label) for c, label in offered if not only or c in only]
        field = RadioField if len(offered) == 2 else SelectField
        return {spec.name: field(title, default=spec.default, choices=choices(*offered))}
    if spec.kind == "flag":
        return {spec.name: BooleanField(title, default=spec.default)}
    if spec.kind == "points":
        return {spec.name: WholeNumberField(title, default=spec.default, validators=[Optional()])}
    if spec.kind == "plan":
        first, last = SHORT_DEFAULT
        size = {"min": LEAST_CARDS, "max": MOST_CARDS, "inputmode": "numeric"}
        return {
            spec.name: SelectField(
                title,
                default=next(n for n, h in PLANS.items() if h == spec.default),
                choices=_plan_choices(),
                render_kw={"data-plan": "", "data-junior": json.dumps(JUNIOR_PRESET)},
            ),
            f"{spec.name}_first": PlanSizeField(
                lazy_gettext("First hand"),
                default=first,
                validators=[Optional()],
                render_kw=size,
            ),
            f"{spec.name}_last": PlanSizeField(
                lazy_gettext("Last hand"),
                default=last,
                validators=[Optional()],
                render_kw=size,
            ),
        }
    return {
        spec.name: SelectField(
            title, default=spec.default, choices=lexicon_choices, validate_choice=False
        )  # the name is checked by the action: an unknown lexicon is a refusal of its own
    }


def _rule_field(spec: RuleSpec, only: tuple[str, ...] = ()) -> Field:
    """The one form field of a house rule (not a round plan's)."""
    return _rule_fields(spec, only)[spec.name]


RulesForm = type(
    "RulesForm",
    (Form,),
    {
        "__doc__": "The house rules, defaults from the rule book.",
        **{name: f for s in RULES for name, f in _rule_fields(s).items()},
    },
)


def plan_hands(chosen: str, first: int | None, last: int | None) -> list[int]:
    """The hand sizes of the round plan chosen in the menu: a named one, or a short game
    from ``first`` to ``last`` cards (a blank box takes the default). Sizes a round can't
    deal are sent as they are, first and last alone, for ``parse_rules`` to refuse at the
    box that holds them (``plan_box``)."""
    if chosen != SHORT:
        return list(PLANS[chosen])
    first = SHORT_DEFAULT[0] if first is None else first
    last = SHORT_DEFAULT[1] if last is None else last
    if not (LEAST_CARDS <= first <= MOST_CARDS and LEAST_CARDS <= last <= MOST_CARDS):
        return [first, last]
    return list(plan(first, last))


def rules_data(form: Form) -> dict[str, object]:
    """The house rules typed into a ``RulesForm``, as ``parse_rules`` takes them (a number
    left blank takes its default; the round plan as its hand sizes)."""
    data = {k: v for k, v in form.data.items() if v is not None}
    for spec in RULES:
        if spec.kind == "plan":
            first, last = data.pop(f"{spec.name}_first", None), data.pop(f"{spec.name}_last", None)
            data[spec.name] = plan_hands(str(data[spec.name]), first, last)
    return data


def rules_form_data(rules: Rules) -> dict[str, object]:
    """The house rules ``rules`` as a ``RulesForm`` shows them (its ``data``): the round
    plan by its name, or as a short game from its first to its last hand."""
    data = rules.as_dict()
    for spec in RULES:
        if spec.kind == "plan":
            hands = tuple(getattr(rules, spec.name))
            named = next((n for n, h in PLANS.items() if h == hands), None)
            data[spec.name] = named or SHORT
            if named is None:
                data[f"{spec.name}_first"], data[f"{spec.name}_last"] = hands[0], hands[-1]
    return data


_PLANS = "|".join(spec.name for spec in RULES if spec.kind == "plan")
_PLAN_SIZE = re.compile(rf"^(?P<plan>(?:.+-)?(?:{_PLANS}))-(?P<round>\d+)$")


def plan_box(field: str) -> str:
    """The form box of a refused hand size (``rules-hands-0``): a short game's first hand
    (round 1) or its last; any other field id as it is."""
    found = _PLAN_SIZE.match(field)
    if found is None:
        return field
    return found["plan"] + ("_first" if found["round"] == "0" else "_last")


class ScoreForm(FlaskForm):
    """Score one round: the players' words and leftovers, challenges, house rules."""

    round = SelectField(
        lazy_gettext("Round"),
        # Any plan's rounds: the round plan is chosen in the same form, so the cards of
        # round n are only known once it is sent (a round the plan lacks is refused).
        choices=choices(
            ("", lazy_gettext("any")), *((str(r), str(r)) for r in range(1, MAX_ROUNDS + 1))
        ),
        default="",
    )
    players = FixedRows(FormField(PlayerForm), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    challenges = FixedRows(
        FormField(ChallengeForm), min_entries=CHALLENGE_ROWS, max_entries=CHALLENGE_ROWS
    )
    rules = FormField(RulesForm)


class WordForm(FlaskForm):
    """Check one word (a GET form: nothing changes, so no CSRF token)."""

    word = StringField(
        lazy_gettext("Word"),
        validators=[
            InputRequired(lazy_gettext("Type a word to check.")),
            Length(max=40, message=lazy_gettext("Type one word.")),
        ],
    )
    lexicon = SelectField(lazy_gettext("Dictionary"), choices=lexicon_choices)


MAX_JUDGED = 20


class JudgeForm(FlaskForm):
    """The word judge: all the words of one play, one verdict."""

    words = TextAreaField(
        lazy_gettext("Words of the play"),
        validators=[
            InputRequired(lazy_gettext("Type the words of the play, separated by spaces."))
        ],
    )
    lexicon = SelectField(lazy_gettext("Dictionary"), choices=lexicon_choices)
    second = SelectField(
        lazy_gettext("Second opinion"),
        default="",
        choices=lambda: choices(("", _("No second opinion"))) + lexicon_choices(),
    )

    def words_list(self) -> list[str]:
        """The typed words, split on spaces, commas and new lines."""
        return split_words(self.words.data or "")

    def validate_words(self, field: TextAreaField) -> None:
        count = len(self.words_list())
        if count == 0:
            raise ValidationError(_("Type the words of the play, separated by spaces."))
        if count > MAX_JUDGED:
            raise ValidationError(
                ngettext(
                    "Judge at most %(num)d word at a time.",
                    "Judge at most %(num)d words at a time.",
                    MAX_JUDGED,
                )
            )


class NameForm(Form):
    """One seat of a new game: the name, and the player's head start in points (blank: 0)."""

    name = StringField(lazy_gettext("Name"))
    # TRANSLATORS: label of a small box under a player's name on the new-game page: the
    # points that player starts the game with.
    handicap = WholeNumberField(
        lazy_gettext("Handicap"), validators=[Optional()], render_kw={"inputmode": "numeric"}
    )


class NewGameForm(FlaskForm):
    """Start a game: names in seating order, the first dealer, the house rules."""

    players = FixedRows(FormField(NameForm), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField(lazy_gettext("First dealer"), choices=SEATS[1:], default="1")
    rules = FormField(RulesForm)
    table = HiddenField()
    """The table the game is started from (its id), or blank for a game on its own."""
    # TRANSLATORS: a checkbox of the new-game page: the photo a phone sends with its hand
    # is kept with the round. Short.
    keep_photos = BooleanField(lazy_gettext("Keep a photo of each hand"))


MEMBER_ROWS = MEMBERS[1]
"""Rows of names in a table's form: as many as a table can have people."""
MEMBER_ROWS_SHOWN = 8
"""Rows shown at first; the others wait under "More rows" (no script needed)."""


class MemberForm(Form):
    """One person of a table: the name, and which member it is (blank: a new one)."""

    name = StringField(lazy_gettext("Name"))
    member = HiddenField()


class TableForm(FlaskForm):
    """A table of people: its name, its members in order, and the two-player bonus."""

    name = StringField(lazy_gettext("Name of the table"))
    members = FixedRows(FormField(MemberForm), min_entries=MEMBER_ROWS, max_entries=MEMBER_ROWS)
    alternate_bonus = BooleanField(
        lazy_gettext("Two-player games: the bonus alternates game by game")
    )
    version = HiddenField()
    """The table's version the form was filled from: a table changed since on another
    phone is a conflict, not overwritten (its members would be taken off)."""


class EntryForm(Form):
    """What one player laid down: words and leftover cards; the version of the hand the
    page showed (a hand saved from another phone since is a conflict, not overwritten)."""

    words = StringField(lazy_gettext("Words"))
    unused = StringField(lazy_gettext("Left over"))
    version = StringField("Version")
    photo = FileField(lazy_gettext("Photo of the cards"))
    """Optional: kept with the hand in a game that keeps photos (read by the page)."""

    def is_blank(self) -> bool:
        """Nothing typed: this hand is left as it is (its player may enter it on their phone)."""
        return not (self.words.data or "").strip() and not (self.unused.data or "").strip()


class SeatForm(FlaskForm):
    """One player's own hand, from their phone: words, leftovers, going out."""

    words = StringField(lazy_gettext("Your words"))
    unused = StringField(lazy_gettext("Left over"))
    went_out = BooleanField(lazy_gettext("I went out first"))
    version = StringField("Version")
    photo = FileField(lazy_gettext("Photo of the cards"))
    """Optional: kept with the hand in a game that keeps photos (read by the page)."""


class RoundForm(FlaskForm):
    """Every player's cards for one round, and who went out."""

    players = FixedRows(FormField(EntryForm), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    went_out = StringField(lazy_gettext("Went out"))


class ChallengeAddForm(FlaskForm):
    """Challenge a saved word: who challenges, and which word (``seat:index``)."""

    by = SelectField(
        lazy_gettext("Challenger"), validate_choice=False
    )  # seats: checked by the view
    word = SelectField(lazy_gettext("Word"), validate_choice=False)
    ruling = SelectField(lazy_gettext("Ruling"), default="", choices=RULINGS)


class HouseWordForm(FlaskForm):
    """Allow or ban one word in this game."""

    word = StringField(
        lazy_gettext("Word"),
        validators=[
            InputRequired(lazy_gettext("Type the word.")),
            Length(max=40, message=lazy_gettext("A house word is at most 40 letters.")),
        ],
    )
    allowed = SelectField(
        "",
        choices=choices(("allow", lazy_gettext("Allow")), ("ban", lazy_gettext("Ban"))),
        default="allow",
    )


class ActionForm(FlaskForm):
    """A button that changes something: only the CSRF token."""


class SolitaireNewForm(FlaskForm):
    """Start a solitaire game: the eight face-up cards, or practice with a virtual deck."""

    face_up = StringField(lazy_gettext("The eight face-up cards, pile 1 to 8"))
    min_word = _rule_field(BY_RULE["min_word"], only=("cards", "letters"))  # no Junior here
    lexicon = _rule_field(BY_RULE["lexicon"])


class SolitaireStepForm(FlaskForm):
    """One step: the piles of a word in order, a revealed card, or a refill."""

    piles = StringField(lazy_gettext("Piles"))
    card = StringField(lazy_gettext("Card"))
    version = StringField("Version")


BACKUP_MOST_BYTES = 16 * 1024 * 1024
"""The largest backup file the import takes (some 500 games fit in 4 MiB)."""


class ImportForm(FlaskForm):
    """The backup file of a table, to make a new table of it."""

    file = FileField(
        lazy_gettext("Backup file (.json)"),
        validators=[
            FileRequired(lazy_gettext("Choose the backup file to import.")),
            FileSize(
                BACKUP_MOST_BYTES,
                message=lazy_gettext("This file is too large: at most 16 MiB."),
            ),
        ],
    )
