"""The words a person reads, rendered from a refusal's code and parameters.

Every refusal code of the app has one entry here (a test holds the two together,
and docs/api.md lists them). A template names its parameters in braces; a list
is written joined by commas, a card or a word in capitals. An entry that depends
on a count is a ``Plural``: the translation layer will pick the form per language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.game.errors import Refusal


@dataclass(frozen=True)
class Plural:
    """A message with a singular and a plural form, chosen by parameter ``count``."""

    one: str
    other: str
    count: str = "count"


REFUSALS: dict[str, str | Plural] = {
    # cards and words
    "not_a_card": "'{card_text}' is not a Quiddler card; cards are the letters a-z and qu, in, "
    "er, cl, th.",
    "card_not_text": 'A card must be a string such as "qu" or "z".',
    "cards_shape": 'Cards must be a list of card names like ["qu","i","z"] or a string like '
    '"qu-i-z".',
    "cards_too_long": "That is too long to be cards of one hand ({count} characters).",
    "cards_too_many": "That is too many cards for one hand ({count}).",
    "word_empty": "This word is empty; enter its cards or remove it.",
    "word_one_card": "{player_s}word {card} is a single card; a word needs at least two cards"
    "{double_hint}.",
    "word_one_letter": "{player_s}word {card} has one letter; a word needs at least two.",
    "deck_copies": Plural(
        "The deck has only {copies} copy of the {card} card, but {count} are entered; "
        "check who really holds it.",
        "The deck has only {copies} copies of the {card} card, but {count} are entered; "
        "check who really holds it.",
        "copies",
    ),
    "not_letters": "'{text}' has characters that are not letters a-z.",
    "no_letters": "Type some letters to spell.",
    "too_many_letters": "That is {count} letters; at most {most} can be spelled.",
    "hand_too_big": "A hand holds at most {most} cards (10 and the drawn card); this has {count}.",
    "nothing_to_discard": "There is no card to discard.",
    "no_cards": "Send the cards of a hand (1 to {most} cards).",
    # the shape of a request
    "bad_json": "The body must be valid JSON (check quotes, commas and brackets).",
    "not_an_object": "Expected an object with {keys}.",
    "unknown_field": "Unknown field '{field}'; expected {keys}.",
    "not_text": '"{field}" must be a string (text in quotes).',
    "not_whole_number": '"{field}" must be a whole number.',
    "not_true_or_false": '"{field}" must be true or false.',
    "choice_not_text": "Expected a string, one of: {choices}.",
    "choice_unknown": "Choose one of: {choices}.",
    "points_range": "Points must be a whole number from 0 to {most}.",
    "players_list": 'Send "players": a list of 2 to {most} players.',
    "names_list": 'Send "players": the names in seating order, as strings.',
    "first_dealer_seat": '"first_dealer" is a seat number: 0 for the first player.',
    "words_list": '"words" must be a list of words.',
    "words_too_many": "No hand holds more than {most} cards, so not more than {most} words.",
    "challenges_list": '"challenges" must be a list.',
    "challenges_too_many": "There are more challenges than words on the table.",
    "rules_from_address": "A stored round takes the game's rules and its number from the "
    'address; leave out "{field}".',
    "if_match": "If-Match must be the version last read (the round's; for one seat's hand, "
    'that seat\'s), as a number in quotes: "3".',
    "letters_text": 'Send "letters": a string such as "quiz".',
    "judge_words": 'Send "words": a list of words as strings.',
    "judge_count": "Send 1 to {most} words to judge.",
    "lexicon_not_text": '"lexicon" must be a lexicon\'s name.',
    "hand_cards": 'Send "cards": the hand as a list of card names.',
    "discard_flag": '"discard" is true or false.',
    "allowed_flag": 'Send {{"allowed": true}} to allow the word, false to ban it.',
    "lexicon_name": "Name a lexicon (1 to {most} characters).",
    "unknown_lexicon": "There is no lexicon '{name}'; choose one of: {names}.",
    "no_such_game_for_words": "There is no game '{name}'.",
    # players and rounds
    "player_count": "Quiddler needs {least} to {most} players; this round has {count}.",
    "name_missing": "Player {seat} needs a name.",
    "name_too_long": "Player {seat}'s name is longer than {most} characters.",
    "name_unprintable": "Player {seat}'s name holds characters that can't be shown; type it again.",
    "name_twice": "Two players are called '{name}'; give each player a different name.",
    "first_dealer_range": "The first dealer must be one of the {seats} seats.",
    "first_dealer_named": "Pick a first dealer among the players named.",
    "went_out_twice": "Only one player goes out first, but both {first} and {second} are marked.",
    "hand_size": "{player} has {have} cards in words and unused, but round {round} deals "
    "{need}: every card must be entered once.",
    "hand_size_range": "{player} has {have} cards; a hand ends a round with {least} to {most} "
    "cards (words plus unused).",
    "hand_sizes_differ": "{player} has {have} cards but {other} has {other_has}; everyone ends "
    "a round with the same number of cards.",
    "no_such_round": "There is no round {number}; a game has rounds 1 to {rounds}.",
    "not_a_player": "'{name}' is not a player of this game ({names}).",
    "player_twice": "{name} is entered twice.",
    "players_missing": "Enter the cards of every player; missing: {names}.",
    "previous_round_open": "Round {previous} is still open; close it before entering round "
    "{number}.",
    "round_closed": "Round {number} is closed; reopen it to change anything.",
    "previous_round_not_started": "Round {previous} hasn't been entered yet; enter and close it "
    "before round {number}.",
    "round_empty": "Enter everyone's cards for round {number} first.",
    "round_waiting": "Round {number} is waiting for {waiting} to enter their hand.",
    "deck_copies_seats": Plural(
        "The deck has only {copies} {card} card, but {holders} entered {count} between them; "
        "check who really holds it.",
        "The deck has only {copies} {card} cards, but {holders} entered {count} between them; "
        "check who really holds it.",
        "copies",
    ),
    "round_already_closed": "Round {number} is already closed.",
    "round_not_closed": "Round {number} is not closed.",
    # challenges
    "challenger_unknown": "The challenger '{name}' is not a player of this round ({names}).",
    "challenged_unknown": "'{name}' is not a player of this round ({names}).",
    "challenge_own_word": "{player} can't challenge their own word; only another player may.",
    "challenge_no_word": Plural(
        "{player} has no such word to challenge: they laid down {count} word.",
        "{player} has no such word to challenge: they laid down {count} words.",
    ),
    "challenge_twice": "{player}'s word {word} is already challenged; a word is challenged once.",
    "challenge_needs_ruling": 'The challenge of {word} needs a ruling: set "ruling" to "legal" '
    'or "illegal" as the table decided (no dictionary was given to decide).',
    "challenge_pick": "Pick the challenger and the word.",
    "seat_without_player": "Pick a seat that has a player for '{field}'.",
    "challenge_word_number": "Give the number of the challenged word (1 for the first).",
    "no_such_challenge": "Round {number} has no challenge number {n}.",
    # house words
    "house_word_letters": "A house word is {least} to {most} letters a-z, without spaces or "
    "hyphens.",
    "no_such_house_word": "'{word}' is not a house word of this game.",
    # solitaire
    "solitaire_face_up": "Enter the {piles} face-up cards, one per pile ({count} entered).",
    "solitaire_step_kind": "A step is a word, a revealed card or a refill.",
    "solitaire_no_piles": "Tap the face-up cards of the word, in order.",
    "solitaire_pile_twice": "Each pile gives one card: only its face-up card can be used.",
    "solitaire_no_such_pile": "There are {piles} piles, numbered 1 to {piles}.",
    "solitaire_pile_down": "Pile {pile} has no face-up card: only face-up cards can be used.",
    "solitaire_not_a_word": "{word} is not a legal word ({reason_text}).",
    "solitaire_reveal_what": "Say which pile and which card was turned up.",
    "solitaire_nothing_to_reveal": "Pile {pile} has nothing to turn up.",
    "solitaire_refill_what": "Say which empty pile to start and which pile gives its top card.",
    "solitaire_not_empty": "Pile {pile} is not empty.",
    "solitaire_cannot_give": "Pile {pile} can't give a card: it needs a face-up card with cards "
    "under it.",
    "solitaire_reveal_first": "First turn up the next card of pile {piles} and enter it.",
    "solitaire_refill_first": "Pile {piles} is empty: first move the top card of another pile "
    "onto it.",
    "solitaire_nothing_to_undo": "There is nothing to undo.",
    # rights, addresses, conflicts
    "edit_link_needed": "Only the holders of this game's edit link can change it; ask whoever "
    "started the game to share it (API: send 'Authorization: Bearer <edit token>').",
    "seat_link_needed": "Only the player at this seat (from the phone that took it) or the "
    "scorekeeper can enter this hand; tap your name on the game's page first (API: send "
    "'Authorization: Bearer <seat token>').",
    "seat_not_yours": "This phone holds {yours}'s seat; only {name}'s phone or the scorekeeper "
    "can enter {name}'s hand.",
    "seat_taken": "{name}'s seat is already taken by another phone; if that phone is lost, "
    "ask the scorekeeper to release the seat.",
    "seat_already_held": "This phone already holds {name}'s seat: one phone, one player. To "
    "move, ask the scorekeeper to release {name}'s seat first.",
    "hands_blank": "Type the cards of at least one player.",
    "went_out_not_entered": "{name} is marked as going out, but their cards are not entered.",
    "seat_changed": "{name}'s hand in round {number} was just saved from another phone; "
    "choose which to keep: what is saved now, or what you typed.",
    "no_such_seat": "There is no seat {seat}; this game's seats are 0 to {last}.",
    "no_such_game": "There is no game at this address; check the link.",
    "no_such_solitaire": "There is no solitaire game at this address; check the link.",
    "round_changed": "Round {number} was just changed on another phone; here is what is saved "
    "now. Enter your change again if it is still needed.",
    "house_word_changed": "The house word '{word}' was just changed on another phone; here is "
    "what is saved now.",
    "solitaire_changed": "This solitaire game moved on (another tap or another phone) since the "
    "page was loaded; here it is as it is now.",
    "game_changed": "The game was just changed on another phone; try again.",
    # HTTP
    "bad_request": "The request could not be read.",
    "form_expired": "The form expired or was sent from elsewhere; reload the page and try again.",
    "not_found": "There is nothing at this address.",
    "method_not_allowed": "This address does not take that kind of request.",
    "too_large": "The request is too large.",
    "server_error": "Something went wrong on our side; nothing was changed.",
}
"""Every refusal code, and its English message."""

REASONS: dict[str, str] = {
    "in_dictionary": "in dictionary",
    "house_word": "house word",
    "not_in_dictionary": "not in dictionary",
    "proper_noun": "proper noun",
    "abbreviation": "abbreviation",
    "contraction": "contraction",
    "affix": "prefix or suffix",
    "too_short": "too short",
    "not_letters": "not letters",
    "banned_house_word": "banned house word",
    "table_legal": "the table ruled it legal",
    "table_illegal": "the table ruled it not legal",
}
"""Every reason code of a verdict or a ruling, and its English words."""


def people(names: object) -> str:
    """Names as a sentence lists them: "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    listed = [str(n) for n in names] if isinstance(names, list | tuple) else [str(names)]
    return " and ".join([", ".join(listed[:-1]), listed[-1]] if len(listed) > 1 else listed)


def reason(code: str) -> str:
    """The words of a reason code (``proper_noun`` -> "proper noun")."""
    return REASONS.get(code, code.replace("_", " "))


def render(code: str, params: Mapping[str, object] | None = None) -> str:
    """The message of refusal ``code`` with ``params`` filled in."""
    template = REFUSALS.get(code, REFUSALS["bad_request"])
    values = _values(params or {})
    if isinstance(template, Plural):
        template = template.one if values.get(template.count) == "1" else template.other
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):  # a parameter missing: still say something
        return template


def text(exc: Refusal) -> str:
    """The message of a refusal."""
    return render(exc.code, exc.params)


def _values(params: Mapping[str, object]) -> dict[str, str]:
    """Parameters as the templates write them, and the few phrases derived from them."""
    out = {}
    for key, value in params.items():  # people are joined with "and": "Ann, Bo and Cy"
        if isinstance(value, list | tuple) and key in (
            "holders",
            "waiting",
        ):
            names = [str(v) for v in value]
            out[key] = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        elif isinstance(value, list | tuple):
            out[key] = ", ".join(str(v) for v in value)
        elif key in ("card", "word"):
            out[key] = str(value).upper()
        else:
            out[key] = str(value)
    out["card_text"] = str(params.get("card", ""))
    if isinstance(params.get("seats"), int):
        out["last"] = str(int(params["seats"]) - 1)  # type: ignore[call-overload]
    out["player_s"] = f"{params['player']}'s " if params.get("player") else "This "
    out["double_hint"] = (
        " (the house rule 'two letters' would allow a lone double-letter card)"
        if params.get("double")
        else ""
    )
    if "reason" in params:
        out["reason_text"] = reason(str(params["reason"]))
    return out
