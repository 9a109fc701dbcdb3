"""The refusal catalog: every refusal code's English template, and how one is filled in.

Every refusal code of the app has one entry here (a test holds the two together,
and docs/api.md lists them). A template names its parameters in braces; a list
is written joined by commas, a card or a word in capitals. An entry that depends
on a count is a ``Plural``: the translation layer picks the form per language.

Plain data and string formatting, no Flask and no Babel: the pages and the API render
the reader's language through ``companion.web.messages``, which passes its translating
functions in; the command line (``python -m companion.commands.solve``) renders the English
with the defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.game.errors import Refusal
from companion.game.marks import N_


@dataclass(frozen=True)
class Plural:
    """A message with a singular and a plural form, chosen by parameter ``count``."""

    one: str
    other: str
    count: str = "count"


REFUSALS: dict[str, str | Plural] = {
    # cards and words
    "not_a_card": N_(
        "'{card_text}' is not a Quiddler card; cards are the letters a-z and qu, in, er, cl, th."
    ),
    "card_not_text": N_('A card must be a string such as "qu" or "z".'),
    "cards_shape": N_(
        'Cards must be a list of card names like ["qu","i","z"] or a string like "qu-i-z".'
    ),
    "cards_too_long": N_("That is too long to be cards of one hand ({count} characters)."),
    "cards_too_many": N_("That is too many cards for one hand ({count})."),
    "word_empty": N_("This word is empty; enter its cards or remove it."),
    "word_one_card": N_(
        "{whose_word} {card} is a single card; a word needs at least two cards{double_hint}."
    ),
    "word_one_letter": N_("{whose_word} {card} has one letter; a word needs at least two."),
    "deck_copies": Plural(
        "The deck has only {copies} copy of the {card} card, but {count} are entered; "
        "check who really holds it.",
        "The deck has only {copies} copies of the {card} card, but {count} are entered; "
        "check who really holds it.",
        "copies",
    ),
    "not_letters": N_("'{text}' has characters that are not letters a-z."),
    "no_letters": N_("Type some letters to spell."),
    "too_many_letters": N_("That is {count} letters; at most {most} can be spelled."),
    "hand_too_big": N_(
        "A hand holds at most {most} cards (10 and the drawn card); this has {count}."
    ),
    "nothing_to_discard": N_("There is no card to discard."),
    "no_cards": N_("Send the cards of a hand (1 to {most} cards)."),
    # the shape of a request
    "too_many_requests": N_("Too many requests in a short time: wait a moment, then try again."),
    "too_many_new_games": Plural(
        "Too many new games in a short time: try again in {retry_after} second.",
        "Too many new games in a short time: try again in {retry_after} seconds.",
        "retry_after",
    ),
    "too_many_word_checks": Plural(
        "Too many words checked or rounds scored in a short time: try again in "
        "{retry_after} second.",
        "Too many words checked or rounds scored in a short time: try again in "
        "{retry_after} seconds.",
        "retry_after",
    ),
    "too_many_best_plays": Plural(
        "Too many best plays asked for in a short time: try again in {retry_after} second.",
        "Too many best plays asked for in a short time: try again in {retry_after} seconds.",
        "retry_after",
    ),
    "too_many_seat_claims": Plural(
        "Too many seat claims in a short time: try again in {retry_after} second.",
        "Too many seat claims in a short time: try again in {retry_after} seconds.",
        "retry_after",
    ),
    "too_many_photo_reads": Plural(
        "Too many photos read in a short time: try again in {retry_after} second.",
        "Too many photos read in a short time: try again in {retry_after} seconds.",
        "retry_after",
    ),
    "untrusted_host": N_(
        "This server doesn't answer to the address {host}: open it at the address its "
        "organiser announced."
    ),
    "json_content_type": N_(
        "Send the body as JSON, with the header 'Content-Type: application/json'."
    ),
    "photo_content_type": N_(
        "Send the photo itself as the body, with the header 'Content-Type: image/jpeg', "
        "'image/png' or 'image/webp'."
    ),
    "bad_json": N_("The body must be valid JSON (check quotes, commas and brackets)."),
    "not_an_object": N_("Expected an object with {keys}."),
    "unknown_field": N_("Unknown field '{field}'; expected {keys}."),
    "not_text": N_('"{field}" must be a string (text in quotes).'),
    "not_whole_number": N_('"{field}" must be a whole number.'),
    "not_true_or_false": N_('"{field}" must be true or false.'),
    "choice_not_text": N_("Expected a string, one of: {choices}."),
    "choice_unknown": N_("Choose one of: {choices}."),
    "points_range": N_("Points must be a whole number from 0 to {most}."),
    "players_list": N_('Send "players": a list of 2 to {most} players.'),
    "names_list": N_('Send "players": the names in seating order, as strings.'),
    "first_dealer_seat": N_('"first_dealer" is a seat number: 0 for the first player.'),
    "words_list": N_('"words" must be a list of words.'),
    "words_too_many": N_("No hand holds more than {most} cards, so not more than {most} words."),
    "challenges_list": N_('"challenges" must be a list.'),
    "challenges_too_many": N_("There are more challenges than words on the table."),
    "rules_from_address": N_(
        "A stored round takes the game's rules and its number from the "
        'address; leave out "{field}".'
    ),
    "if_match": N_(
        "If-Match must be the version last read (the round's; for one seat's hand, "
        'that seat\'s), as a number in quotes: "3".'
    ),
    "letters_text": N_('Send "letters": a string such as "quiz".'),
    "judge_words": N_('Send "words": a list of words as strings.'),
    "judge_count": N_("Send 1 to {most} words to judge."),
    "lexicon_not_text": N_('"lexicon" must be a lexicon\'s name.'),
    "hand_cards": N_('Send "cards": the hand as a list of card names.'),
    "discard_flag": N_('"discard" is true or false.'),
    "allowed_flag": N_('Send {{"allowed": true}} to allow the word, false to ban it.'),
    "legal_flag": N_('Send {{"legal": true}} for a legal word, false for not legal.'),
    "hands_list": N_(
        '"hands" is the round plan: a list of hand sizes, one per round, such as [3, 4, 5].'
    ),
    "hands_count": N_("A round plan has 1 to {most} rounds; this one has {count}."),
    "hands_size": N_("A round deals {least} to {most} cards, not {size}."),
    "handicap_list": N_('"handicap" is a list of points, one per player in seating order.'),
    "handicap_count": N_(
        "Give a handicap for each of the {players} players, in seating order "
        "(0 for no head start); this list has {count}."
    ),
    "floor_twice": N_(
        'Send the zero floor once: "floor" is "{floor}", and the old "zero_floor" says '
        "otherwise; leave out zero_floor."
    ),
    "lexicon_name": N_("Name a lexicon (1 to {most} characters)."),
    "unknown_lexicon": N_("There is no lexicon '{name}'; choose one of: {names}."),
    "no_such_game_for_words": N_("There is no game '{name}'."),
    # players and rounds
    "player_count": N_("Quiddler needs {least} to {most} players; this round has {count}."),
    "name_missing": N_("Player {seat} needs a name."),
    "name_too_long": N_("Player {seat}'s name is longer than {most} characters."),
    "name_unprintable": N_(
        "Player {seat}'s name holds characters that can't be shown; type it again."
    ),
    "name_twice": N_("Two players are called '{name}'; give each player a different name."),
    "first_dealer_range": N_("The first dealer must be one of the {seats} seats."),
    "first_dealer_named": N_("Pick a first dealer among the players named."),
    "went_out_twice": N_(
        "Only one player goes out first, but both {first} and {second} are marked."
    ),
    "hand_size": N_(
        "{player} has {have} cards in words and unused, but round {round} deals "
        "{need}: every card must be entered once."
    ),
    "hand_size_range": N_(
        "{player} has {have} cards; a hand ends a round with {least} to {most} "
        "cards (words plus unused)."
    ),
    "hand_sizes_differ": N_(
        "{player} has {have} cards but {other} has {other_has}; everyone ends "
        "a round with the same number of cards."
    ),
    "no_such_round": N_("There is no round {number}; a game has rounds 1 to {rounds}."),
    "not_a_player": N_("'{name}' is not a player of this game ({names})."),
    "player_twice": N_("{name} is entered twice."),
    "players_missing": N_("Enter the cards of every player; missing: {names}."),
    "previous_round_open": N_(
        "Round {previous} is still open; close it before entering round {number}."
    ),
    "round_closed": N_("Round {number} is closed; reopen it to change anything."),
    "previous_round_not_started": N_(
        "Round {previous} hasn't been entered yet; enter and close it before round {number}."
    ),
    "round_empty": N_("Enter everyone's cards for round {number} first."),
    "round_waiting": N_("Round {number} is waiting for {waiting} to enter their hand."),
    "deck_copies_seats": Plural(
        "The deck has only {copies} {card} card, but {holders} entered {count} between them; "
        "check who really holds it.",
        "The deck has only {copies} {card} cards, but {holders} entered {count} between them; "
        "check who really holds it.",
        "copies",
    ),
    "round_already_closed": N_("Round {number} is already closed."),
    "round_not_closed": N_("Round {number} is not closed."),
    # challenges
    "challenger_unknown": N_("The challenger '{name}' is not a player of this round ({names})."),
    "challenged_unknown": N_("'{name}' is not a player of this round ({names})."),
    "challenge_own_word": N_("{player} can't challenge their own word; only another player may."),
    "challenge_no_word": Plural(
        "{player} has no such word to challenge: they laid down {count} word.",
        "{player} has no such word to challenge: they laid down {count} words.",
    ),
    "challenge_twice": N_(
        "{player}'s word {word} is already challenged; a word is challenged once."
    ),
    "challenge_needs_ruling": N_(
        'The challenge of {word} needs a ruling: set "ruling" to "legal" '
        'or "illegal" as the table decided (no dictionary was given to decide).'
    ),
    "challenge_pick": N_("Pick the challenger and the word."),
    "seat_without_player": N_("Pick a seat that has a player for '{field}'."),
    "challenge_word_number": N_("Give the number of the challenged word (1 for the first)."),
    "no_such_challenge": N_("Round {number} has no challenge number {n}."),
    # tables of players
    "table_name_missing": N_("Give the table a name, such as 'Sunday family'."),
    "table_name_too_long": N_("A table's name is at most {most} characters; shorten it."),
    "table_name_unprintable": N_(
        "The table's name holds characters that can't be shown; type it again."
    ),
    "member_count": N_(
        "A table has {least} to {most} people; this list has {count}: add or remove names."
    ),
    "no_such_member": N_(
        "This table has no such person; reload the table's page to see who is at it now."
    ),
    "member_played": N_(
        "{name} played games of this table, so they can't be removed (their records would "
        "go); type their name back in, or rename them."
    ),
    "game_not_finished": N_(
        "The game isn't over: {closed} of {rounds} rounds are closed. Finish it first, then "
        "start the rematch."
    ),
    # house words
    "house_word_letters": N_(
        "A house word is {least} to {most} letters a-z, without spaces or hyphens."
    ),
    "no_such_house_word": N_("'{word}' is not a house word of this game."),
    # solitaire
    "solitaire_face_up": N_("Enter the {piles} face-up cards, one per pile ({count} entered)."),
    "solitaire_step_kind": N_("A step is a word, a revealed card or a refill."),
    "solitaire_no_piles": N_("Tap the face-up cards of the word, in order."),
    "solitaire_pile_twice": N_("Each pile gives one card: only its face-up card can be used."),
    "solitaire_no_such_pile": N_("There are {piles} piles, numbered 1 to {piles}."),
    "solitaire_pile_down": N_("Pile {pile} has no face-up card: only face-up cards can be used."),
    "solitaire_not_a_word": N_("{word} is not a legal word ({reason_text})."),
    "solitaire_reveal_what": N_("Say which pile and which card was turned up."),
    "solitaire_nothing_to_reveal": N_("Pile {pile} has nothing to turn up."),
    "solitaire_refill_what": N_("Say which empty pile to start and which pile gives its top card."),
    "solitaire_not_empty": N_("Pile {pile} is not empty."),
    "solitaire_cannot_give": N_(
        "Pile {pile} can't give a card: it needs a face-up card with cards under it."
    ),
    "solitaire_reveal_first": N_("First turn up the next card of pile {piles} and enter it."),
    "solitaire_refill_first": N_(
        "Pile {piles} is empty: first move the top card of another pile onto it."
    ),
    "solitaire_nothing_to_undo": N_("There is nothing to undo."),
    # the backup of a table
    "backup_not_json": N_(
        "This file is not a backup: it is not JSON (line {line}, column {column}). "
        "Choose the .json file the Companion saved."
    ),
    "backup_format": N_(
        'This file is not a backup of a Quiddler Companion table ("format" is not "{expected}").'
    ),
    "backup_version": N_(
        "This backup is of version {version}; this Companion reads version {supported}. "
        "Update the Companion, or save the backup again from the same version."
    ),
    "backup_field_type": N_("This should be {expected_text}."),
    "backup_field_missing": N_('"{field}" is missing: every field of a backup is given.'),
    "backup_too_big": N_("There are {count} here; a backup holds at most {most}."),
    "backup_no_member": N_(
        "There is no member {member}: the table's members are numbered 0 to {last_member}."
    ),
    "backup_member_twice": N_("{name} sits at two seats of the same game."),
    "backup_not_increasing": N_(
        'Each "{field}" must come after the one before it, in order, each once.'
    ),
    "backup_challenge_number": N_("A challenge's number is 1 or more."),
    "backup_code": N_("Give a code of 1 to {most} characters."),
    "backup_vote_open": N_(
        "Challenge {number} is still being voted on, but its round is closed: a round "
        "closes once every vote is decided."
    ),
    "file_too_large": N_("This file is too large: at most {most} MiB."),
    # rights, addresses, conflicts
    "edit_link_needed": N_(
        "Only the holders of this game's edit link can change it; ask whoever "
        "started the game to share it (API: send 'Authorization: Bearer <edit token>')."
    ),
    "table_link_needed": N_(
        "Only the holders of this table's edit link can change it or start its games; ask "
        "whoever started the table to share it."
    ),
    "seat_link_needed": N_(
        "Only the player at this seat (from the phone that took it) or the "
        "scorekeeper can enter this hand; tap your name on the game's page first (API: send "
        "'Authorization: Bearer <seat token>')."
    ),
    "seat_not_yours": N_(
        "This phone holds {yours}'s seat; only {name}'s phone or the scorekeeper "
        "can enter {name}'s hand."
    ),
    "vote_not_seated": N_(
        "Only the players at the table vote: tap your name on the game's page to take "
        "your seat first (API: send 'Authorization: Bearer <seat token>')."
    ),
    "vote_other_seat": N_(
        "This phone holds another player's seat; only {name}'s phone or the scorekeeper "
        "can cast {name}'s vote."
    ),
    "vote_decided": N_("The vote on {word} is already decided; nothing was changed."),
    "vote_open": N_(
        "The table is still voting on {words}: everyone votes, or the scorekeeper "
        "decides, before round {number} is closed."
    ),
    "seat_taken": N_(
        "{name}'s seat is already taken by another phone; if that phone is lost, "
        "ask the scorekeeper to release the seat."
    ),
    "seat_already_held": N_(
        "This phone already holds {name}'s seat: one phone, one player. To "
        "move, ask the scorekeeper to release {name}'s seat first."
    ),
    "hands_blank": N_("Type the cards of at least one player."),
    "went_out_not_entered": N_("{name} is marked as going out, but their cards are not entered."),
    "seat_changed": N_(
        "{name}'s hand in round {number} was just saved from another phone; "
        "choose which to keep: what is saved now, or what you typed."
    ),
    "no_such_seat": N_("There is no seat {seat}; this game's seats are 0 to {last}."),
    "no_such_game": N_("There is no game at this address; check the link."),
    "no_such_table": N_("There is no table at this address; check the link."),
    "no_such_solitaire": N_("There is no solitaire game at this address; check the link."),
    "round_changed": N_(
        "Round {number} was just changed on another phone; here is what is saved "
        "now. Enter your change again if it is still needed."
    ),
    "house_word_changed": N_(
        "The house word '{word}' was just changed on another phone; here is what is saved now."
    ),
    "solitaire_changed": N_(
        "This solitaire game moved on (another tap or another phone) since the "
        "page was loaded; here it is as it is now."
    ),
    "game_changed": N_("The game was just changed on another phone; try again."),
    "table_changed": N_("The table was just changed on another phone; try again."),
    # HTTP
    "bad_request": N_("The request could not be read."),
    "form_expired": N_(
        "The form expired or was sent from elsewhere; reload the page and try again."
    ),
    "not_found": N_("There is nothing at this address."),
    "method_not_allowed": N_("This address does not take that kind of request."),
    "too_large": N_("The request is too large."),
    "server_error": N_("Something went wrong on our side; nothing was changed."),
    "server_busy": N_("The server is busy; nothing was changed. Try again in a moment."),
}
"""Every refusal code, and its English message."""

REASONS: dict[str, str] = {
    "in_dictionary": N_("in dictionary"),
    "house_word": N_("house word"),
    "not_in_dictionary": N_("not in dictionary"),
    "proper_noun": N_("proper noun"),
    # TRANSLATORS: why a word is refused: an abbreviation such as "USA" or "etc".
    "abbreviation": N_("abbreviation"),
    # TRANSLATORS: why a word is refused: a shortened English form such as "don't" or
    # "thats" (apostrophe left out); not an abbreviation (that is the line above).
    "contraction": N_("contraction"),
    "affix": N_("prefix or suffix"),
    "too_short": N_("too short"),
    "not_letters": N_("not letters"),
    "banned_house_word": N_("banned house word"),
    "table_legal": N_("the table ruled it legal"),
    "table_illegal": N_("the table ruled it not legal"),
    "vote_legal": N_("the table voted it legal"),
    "vote_illegal": N_("the table voted it not legal"),
    "proper_noun_allowed": N_("proper noun, allowed by this game's rules"),
}
"""Every reason code of a verdict or a ruling, and its English words."""


def same(message: str) -> str:
    """English: a template as written."""
    return message


def english_plural(one: str, other: str, count: int) -> str:
    """English: the singular form for one, the plural otherwise."""
    return one if count == 1 else other


def english_list(names: object) -> str:
    """Names as an English sentence lists them: "Ann, Ben and Cy" (no serial comma)."""
    listed = [str(n) for n in names] if isinstance(names, list | tuple) else [str(names)]
    if len(listed) < 2:
        return "".join(listed)
    return f"{', '.join(listed[:-1])} and {listed[-1]}"


def reason(code: str, gettext: Callable[[str], str] = same) -> str:
    """The words of a reason code (``proper_noun`` -> "proper noun")."""
    found = REASONS.get(code)
    return gettext(found) if found else code.replace("_", " ")


def render(
    code: str,
    params: Mapping[str, object] | None = None,
    gettext: Callable[[str], str] = same,
    ngettext: Callable[[str, str, int], str] = english_plural,
    people: Callable[[object], str] = english_list,
) -> str:
    """The message of refusal ``code`` with ``params`` filled in: in English, or in the
    language of the ``gettext``, ``ngettext`` and ``people`` given."""
    entry = REFUSALS.get(code, REFUSALS["bad_request"])
    filled = values(params or {}, gettext, people)
    if isinstance(entry, Plural):
        count = (params or {}).get(entry.count)
        number = count if isinstance(count, int) and not isinstance(count, bool) else 2
        template = ngettext(entry.one, entry.other, number)
    else:
        template = gettext(entry)
    try:
        return template.format_map(filled)
    except (KeyError, IndexError, ValueError):  # a parameter missing: still say something
        return template


def text(exc: Refusal) -> str:
    """The message of a refusal, in English."""
    return render(exc.code, exc.params)


PEOPLE = ("holders", "waiting")
"""Parameters that list players: written as a sentence lists them ("Ann, Bo and Cy")."""


def values(
    params: Mapping[str, object],
    gettext: Callable[[str], str] = same,
    people: Callable[[object], str] = english_list,
) -> dict[str, str]:
    """Parameters as the templates write them, and the phrases derived from them:
    ``card_text``, ``last`` (seat), ``whose_word``, ``double_hint``, ``reason_text``."""
    out = {}
    for key, value in params.items():
        if isinstance(value, list | tuple) and key in PEOPLE:
            out[key] = people(value)
        elif isinstance(value, list | tuple):
            out[key] = ", ".join(str(v) for v in value)
        elif key in ("card", "word"):
            out[key] = str(value).upper()
        else:
            out[key] = str(value)
    out["card_text"] = str(params.get("card", ""))
    seats = params.get("seats")
    if isinstance(seats, int):
        out["last"] = str(seats - 1)
    player = params.get("player")
    out["whose_word"] = (
        gettext(N_("{player}'s word")).format(player=player) if player else gettext(N_("This word"))
    )
    out["double_hint"] = (
        gettext(N_(" (the house rule 'two letters' would allow a lone double-letter card)"))
        if params.get("double")
        else ""
    )
    if "reason" in params:
        out["reason_text"] = reason(str(params["reason"]), gettext)
    expected = EXPECTED.get(str(params.get("expected", "")))
    out["expected_text"] = gettext(expected) if expected else str(params.get("expected", ""))
    members = params.get("members")
    if isinstance(members, int):
        out["last_member"] = str(members - 1)
    return out


EXPECTED: dict[str, str] = {
    "object": N_("an object {…}"),
    "list": N_("a list […]"),
    "text": N_("text in quotes"),
    "whole_number": N_("a whole number"),
    "true_or_false": N_("true or false"),
    "time": N_("a date and time such as 2026-12-06T20:15:00+00:00"),
}
"""What a field of a backup should be (``backup_field_type``'s ``expected``), in words."""
