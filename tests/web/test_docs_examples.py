"""The docs' examples are true: every ``curl`` example of docs/api.md and of the README is
run against the app, and the answer the doc shows right after it must be the app's.

An example is a fenced ``sh`` block holding one ``curl`` command. Its answer is the next
fenced block, before the next heading: a ``json`` block is a 200 with that body; an
``http`` block is a status line (``HTTP/1.1 409 Conflict``), the headers that matter,
then, after a blank line, the body (if any). In a documented body:

- ``"..."`` stands for any value (an id, a token); inside a string, ``...`` for any text;
- an object with the key ``"..."`` may hold more keys than those shown; one without it
  holds exactly those; either way the keys shown come in the order shown;
- a list whose last item is ``"..."`` begins with the items shown; else it is exactly them;
- a ``version`` is a whole number whatever the doc shows (the lead may renumber them).

The examples of one file are a story: shell variables name what an earlier answer gave
(``$GAME`` and ``$TOKEN``, the ``id`` and ``edit_token`` of a new game; ``$SEAT_TOKEN``, a
claim's ``seat_token``; ``$ETAG``, the last ``ETag`` header). Each example is one test,
named after its heading; it replays the examples before it that touch stored games (on
a fresh database) and then checks its own.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import re
import shlex
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.game.deck import BY_NAME, CARDS
from companion.web.exports import TABLE_FIELDS
from companion.web.refusals import REASONS, REFUSALS
from tests.vision.support import hand_photo

ROOT = Path(__file__).resolve().parents[2]
FILES = ("docs/api.md", "README.md")
ANY = "..."
VOLATILE = frozenset({"version"})
"""Keys whose value the docs show but the test only checks to be a whole number."""
BINDINGS = {"id": "GAME", "edit_token": "TOKEN", "seat_token": "SEAT_TOKEN"}
"""Fields of an answer that later examples name by a shell variable."""
FENCE = re.compile(r"^\s*```(\w*)\s*$")
HEADING = re.compile(r"^#{1,6}\s+(.*)$")


@dataclass
class Answer:
    """The answer a doc shows: status, headers (name, value) and body (None: no body)."""

    status: int
    headers: list[tuple[str, str]]
    body: object | None


@dataclass
class Example:
    """One curl example of a doc, where it is, and the answer shown after it."""

    file: str
    line: int
    heading: str
    command: str
    answer: Answer | None
    name: str = ""


@dataclass
class Request:
    """A curl command as the test client sends it."""

    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    data: str | bytes | None = None


def blocks(text: str) -> list[tuple[int, str, str, str]]:
    """The fenced blocks of a Markdown text: (line, language, content, heading above)."""
    found = []
    heading = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        title = HEADING.match(lines[i])
        if title and not fence:
            heading = title.group(1).replace("`", "").strip()
        if fence:
            start, lang, body = i + 1, fence.group(1), []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                body.append(lines[i])
                i += 1
            found.append((start, lang, textwrap.dedent("\n".join(body)), heading))
        i += 1
    return found


def parse_answer(lang: str, content: str) -> Answer:
    """The answer shown in a ``json`` or ``http`` block."""
    if lang == "json":
        return Answer(200, [], json.loads(content))
    head, _, body = content.partition("\n\n")
    status_line, *header_lines = head.splitlines()
    status = int(status_line.split()[1])
    headers = [tuple(part.strip() for part in h.split(":", 1)) for h in header_lines]
    return Answer(status, headers, json.loads(body) if body.strip() else None)


def examples(file: str) -> list[Example]:
    """Every curl example of ``file``, with the answer block that follows it."""
    found = blocks((ROOT / file).read_text(encoding="utf-8"))
    out = []
    for n, (line, lang, content, heading) in enumerate(found):
        if lang != "sh" or not content.lstrip().startswith("curl "):
            continue
        answer = None
        if n + 1 < len(found):
            _, next_lang, next_content, next_heading = found[n + 1]
            if next_heading == heading and next_lang in ("json", "http"):
                answer = parse_answer(next_lang, next_content)
        out.append(Example(file, line, heading, content, answer))
    seen: dict[str, int] = {}
    for example in out:
        base = f"{example.file}: {example.heading}"
        seen[base] = seen.get(base, 0) + 1
        example.name = base if seen[base] == 1 else f"{base} ({seen[base]})"
    return out


SENT: dict[str, Callable[[], bytes]] = {
    "hand.jpg": lambda: hand_photo([["qu", "i", "z"]], ["m"], seed=1, background="felt"),
}
"""The files the examples send (``--data-binary @hand.jpg``): a photo of QU I Z with M set
apart, drawn as the photo benchmark draws them."""


def curl(command: str, variables: dict[str, str]) -> Request:
    """The request a curl command sends (the options the docs use: -s -i -X -H -d)."""
    words = shlex.split(command.replace("\\\n", " "))
    assert words[0] == "curl", command
    method = None
    url = None
    headers: dict[str, str] = {}
    data = None
    args = iter(words[1:])
    for word in args:
        if word in ("-X", "--request"):
            method = next(args)
        elif word in ("-H", "--header"):
            name, _, value = next(args).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-raw"):
            data = next(args)
        elif word == "--data-binary":  # a file the docs name: FILES
            name = next(args)
            assert name.startswith("@") and name[1:] in SENT, f"no such file: {name}"
            data = SENT[name[1:]]()
        elif re.fullmatch(r"-[si]+", word):
            continue  # silent, show the headers: nothing to send
        else:
            assert not word.startswith("-"), f"an option the test does not know: {word}"
            assert url is None, f"two addresses: {url}, {word}"
            url = word
    assert url is not None, command
    for name, value in variables.items():
        url = url.replace(f"${name}", value)
        headers = {k: v.replace(f"${name}", value) for k, v in headers.items()}
    assert "$" not in url + "".join(headers.values()), f"an unbound variable in: {command}"
    if data is not None:  # curl's -d says form data unless told otherwise
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    parts = urlsplit(url if "://" in url else f"http://{url}")
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return Request(method or ("POST" if data is not None else "GET"), path, headers, data)


def send(client: FlaskClient, example: Example, variables: dict[str, str]) -> TestResponse:
    """Run one example, and keep what later examples name by a variable."""
    request = curl(example.command, variables)
    response = client.open(
        request.path, method=request.method, headers=request.headers, data=request.data
    )
    body = response.get_json(silent=True)
    if isinstance(body, dict):
        for key, variable in BINDINGS.items():
            if isinstance(body.get(key), str) and (key != "id" or "edit_token" in body):
                variables[variable] = body[key]
    if "ETag" in response.headers:
        variables["ETAG"] = response.headers["ETag"]
    return response


def matches(shown: object, actual: object, path: str = "") -> list[str]:
    """Where ``actual`` differs from what the doc shows (empty: it is as shown)."""
    if shown == ANY:
        return []
    if isinstance(shown, str) and ANY in shown:
        pattern = re.escape(shown).replace(re.escape(ANY), ".*")
        ok = isinstance(actual, str) and re.fullmatch(pattern, actual, re.S)
        return [] if ok else [f"{path}: {actual!r} is not {shown!r}"]
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{path}: {actual!r} is not an object"]
        keys = [k for k in shown if k != ANY]
        wrong = [f"{path}.{k}: missing" for k in keys if k not in actual]
        if ANY not in shown and set(actual) != set(keys):
            wrong.append(f"{path}: keys {list(actual)}, the doc shows {keys}")
        order = [k for k in actual if k in keys]
        if not wrong and order != keys:
            wrong.append(f"{path}: keys in the order {order}, the doc shows {keys}")
        for k in keys:
            if k in actual:
                if k in VOLATILE:
                    if not (isinstance(actual[k], int) and not isinstance(actual[k], bool)):
                        wrong.append(f"{path}.{k}: {actual[k]!r} is not a whole number")
                else:
                    wrong += matches(shown[k], actual[k], f"{path}.{k}")
        return wrong
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return [f"{path}: {actual!r} is not a list"]
        items = shown[:-1] if shown and shown[-1] == ANY else shown
        if len(actual) < len(items) or (items is shown and len(actual) != len(shown)):
            return [f"{path}: {len(actual)} items, the doc shows {len(items)}"]
        return [w for i, s in enumerate(items) for w in matches(s, actual[i], f"{path}[{i}]")]
    if shown != actual or type(shown) is not type(actual):
        return [f"{path}: {actual!r}, the doc shows {shown!r}"]
    return []


def header_matches(shown: str, actual: str | None) -> bool:
    """Whether a header's value is as shown (``...`` for any text); a list (``Allow:
    OPTIONS, POST``) in any order."""
    if actual is None:
        return False
    if ANY in shown:
        return fnmatch.fnmatchcase(actual, shown.replace(ANY, "*"))
    return sorted(actual.split(", ")) == sorted(shown.split(", "))


ALL = [example for file in FILES for example in examples(file)]


def test_the_docs_have_examples_and_each_shows_its_answer() -> None:
    """The API doc and the README show curl examples, and every one is followed by the
    answer it gets: an example without one would check nothing."""
    by_file = {file: [e for e in ALL if e.file == file] for file in FILES}
    assert len(by_file["docs/api.md"]) >= 20, [e.name for e in by_file["docs/api.md"]]
    assert by_file["README.md"], "the README's API example is gone"
    assert [e.name for e in ALL if e.answer is None] == []


@pytest.mark.parametrize("example", ALL, ids=[e.name for e in ALL])
def test_a_doc_example_gets_the_answer_shown(client: FlaskClient, example: Example) -> None:
    assert example.answer is not None, f"{example.file}:{example.line}: no answer shown"
    variables: dict[str, str] = {}
    story = [e for e in ALL if e.file == example.file]
    for earlier in story[: story.index(example)]:
        if "/api/v1/games" in earlier.command:  # what the examples after it build on
            send(client, earlier, variables)
    response = send(client, example, variables)
    where = f"{example.file}:{example.line}"
    shown = example.answer
    assert response.status_code == shown.status, (where, response.get_data(as_text=True))
    for name, value in shown.headers:
        assert header_matches(value, response.headers.get(name)), (where, name, response.headers)
    if shown.body is None:
        assert response.get_data() == b"", where
    else:
        assert response.is_json, (where, response.get_data(as_text=True)[:200])
        assert matches(shown.body, response.get_json()) == [], where


def generated_table(text: str) -> tuple[str, str]:
    """api.md's table of codes (made by ``python -m companion.commands.docs``), and the
    rest of it."""
    begin, end = text.index("<!-- codes: begin -->"), text.index("<!-- codes: end -->")
    return text[begin:end], text[:begin] + text[end:]


def keys_of(value: object) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_api_md_lists_every_refusal_and_reason_code_and_no_other() -> None:
    """The table of codes in api.md holds exactly the app's refusal codes, then exactly
    its reason codes: a client written from the doc knows every code it can get."""
    table, _ = generated_table((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    refusals, _, reasons = table.partition("Reason codes")
    row = re.compile(r"^\| `([a-z_]+)` \|", re.M)
    assert sorted(row.findall(refusals)) == sorted(REFUSALS)
    assert sorted(row.findall(reasons)) == sorted(REASONS)


def test_every_code_api_md_names_is_one_the_app_has() -> None:
    """A code named in the prose (``422 `round_waiting```, the seats' table) is a refusal
    or reason code of the app; any other name in backquotes is a field the doc's JSON
    shows or a column of the CSV export. A renamed code can't linger in the doc."""
    _, prose = generated_table((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    fields = set(TABLE_FIELDS)  # a game's CSV columns and the table's
    for _, lang, content, _ in blocks(prose):
        if lang in ("json", "http"):
            with contextlib.suppress(ValueError):  # the shape of an error, with {...}
                fields |= keys_of(parse_answer(lang, content).body)
    for example in (e for e in ALL if e.file == "docs/api.md"):
        data = curl(example.command, {"GAME": "g", "TOKEN": "t", "SEAT_TOKEN": "s", "ETAG": "e"})
        if isinstance(data.data, str):  # a JSON body (a picture has no fields)
            fields |= keys_of(json.loads(data.data))
    named = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", prose))
    assert sorted(named - set(REFUSALS) - set(REASONS) - fields) == []


SPELLED = re.compile(
    r"((?:[A-Z]{1,2}·)+[A-Z]{1,2})`?\s*(?:=\s*(?:\d+(?:\+\d+)+\s*=\s*)?|\()?(\d+)(?![\d+])"
)
"""A word as cards with its value: ``QU·I·Z = 9+2+14 = 25``, ``T·H·E (12)``, ``T·O·P 11``."""
SUMMED = re.compile(r"`([a-z]+)` = (?:[A-Z+]+ = )?(\d+(?:\+\d+)+) = (\d+)")
"""A word one card per letter, its cards' values and the sum: ``steve`` = 3+3+2+11+2 = 21."""


def test_the_deck_table_of_rules_md_is_the_deck() -> None:
    """rules.md's table: every card's value and copies as the app scores them, 31 kinds
    and 118 cards, as its heading says."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "## The deck: 118 cards, 31 kinds" in text
    table = {}
    deck = text.split("## The deck", 1)[1].split("\n## ", 1)[0]
    for row in re.findall(r"^\| [A-Z].*\|$", deck, re.M):
        cells = [c.strip() for c in row.strip("|").split("|")]
        for i in range(0, len(cells) - 2, 4):
            if cells[i]:
                table[cells[i].lower()] = (int(cells[i + 1]), int(cells[i + 2]))
    assert table == {c.name: (c.value, c.copies) for c in CARDS}
    assert (len(CARDS), sum(c.copies for c in CARDS)) == (31, 118)


@pytest.mark.parametrize("file", ["docs/rules.md", "docs/glossary.md", "README.md"])
def test_the_card_values_the_docs_write_are_the_decks(file: str) -> None:
    """Each word written as cards with its value (QU·I·Z 25, T·H·E 12, `top` = 3+2+6 = 11)
    is worth that many points, and each of its cards' values is the deck's."""
    text = (ROOT / file).read_text(encoding="utf-8")
    found = SPELLED.findall(text) + [(w, s) for w, _, s in SUMMED.findall(text)]
    assert found, f"{file} writes no card values any more: drop it from this test"
    for spelled, points in found:
        cards = (
            [BY_NAME[c.lower()] for c in re.split(r"[·+]", spelled)]
            if "·" in spelled
            else [BY_NAME[c] for c in spelled]
        )
        assert sum(c.value for c in cards) == int(points), (file, spelled, points)
    for word, parts, total in SUMMED.findall(text):
        values = [int(p) for p in parts.split("+")]
        assert values == [BY_NAME[c].value for c in word] and sum(values) == int(total), word
