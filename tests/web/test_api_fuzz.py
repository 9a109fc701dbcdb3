"""Property tests: no body, however wrong, makes /api/v1/score or /api/v1/spell fail with a 500.

Every refusal must be a JSON object with exactly ``error`` (the catalog's sentence for
its ``code``, every parameter filled in), ``where`` (a string), ``code`` (a code of the
catalog) and ``params`` (an object), and every accepted round must add up.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import create_app
from companion.web import messages, refusals


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path) -> FlaskClient:
    """One app for the module (hypothesis does not mix with function-scoped fixtures), on
    the suite's built lists, without rate limits: hundreds of bodies a second from one
    address. The endpoints under test are stateless (no table is read or written, so none
    is made); an in-memory database keeps the disk clean."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "DATABASE_URL": "sqlite://",
            "AUTO_MIGRATE": False,
            "LEXICON_DIR": str(tmp_path_factory.mktemp("fuzz") / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
        }
    )
    return app.test_client()


FUZZ = settings(
    max_examples=150,  # new random bodies every run (no example database)
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CARD_NAMES = [*"abcdefghijklmnopqrstuvwxyz", "qu", "in", "er", "cl", "th"]
SHAPE_KEYS = {"error", "where", "code", "params"}
DERIVED: dict[str, str | None] = {
    "card_text": "card",
    "reason_text": "reason",
    "whose_word": None,
    "double_hint": None,
    "last": "seats",
}
"""Names a template may use that the catalog derives from a parameter (the one each comes
from, None for none): the phrases ``refusals.values`` makes."""

# --- strategies ------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)

# Card names as a player might send them: real ones in any case, padded, or junk.
card_strings = st.one_of(
    st.sampled_from(CARD_NAMES),
    st.sampled_from(CARD_NAMES).map(str.upper),
    st.sampled_from(CARD_NAMES).map(lambda c: f" {c} "),
    st.text(max_size=4),
)
words = st.one_of(
    st.lists(card_strings, min_size=0, max_size=6),
    st.lists(st.sampled_from(CARD_NAMES), min_size=1, max_size=6).map("-".join),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", max_size=10),
)
names = st.one_of(
    st.sampled_from(["Ann", "Ben", "Cy", "Dee", "Eve", "ann", " Ben "]),
    st.text(max_size=45),
)


@st.composite
def players(draw: st.DrawFn) -> dict[str, Any]:
    p: dict[str, Any] = {"name": draw(names)}
    if draw(st.booleans()):
        p["words"] = draw(st.lists(words, max_size=4))
    if draw(st.booleans()):
        p["unused"] = draw(st.lists(card_strings, max_size=5) | st.text(max_size=6))
    if draw(st.booleans()):
        p["went_out"] = draw(st.booleans())
    return p


@st.composite
def challenges(draw: st.DrawFn, player_names: list[str]) -> dict[str, Any]:
    pick = st.sampled_from(player_names) if player_names else names
    ch: dict[str, Any] = {
        "by": draw(pick | names),
        "player": draw(pick | names),
        "word": draw(st.integers(min_value=-2, max_value=5)),
    }
    if draw(st.booleans()):
        ch["ruling"] = draw(st.sampled_from(["legal", "illegal", "maybe", ""]))
    return ch


rules_objects = st.fixed_dictionaries(
    {},
    optional={
        "min_word": st.sampled_from(["cards", "letters", "words"]),
        "two_player_bonus": st.sampled_from(["longest", "most", "both", "none"]),
        "bonus": st.integers(min_value=-5, max_value=1005),
        "zero_floor": st.booleans(),
        "false_out_penalty": st.integers(min_value=-5, max_value=1005),
        "lexicon": st.text(max_size=45),
    },
)


@st.composite
def score_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A /score body that is valid, or nearly so."""
    ps = draw(st.lists(players(), min_size=0, max_size=10))
    body: dict[str, Any] = {"players": ps}
    if draw(st.booleans()):
        body["round"] = draw(st.integers(min_value=-1, max_value=10))
    if draw(st.booleans()):
        ns = [p["name"] for p in ps if isinstance(p.get("name"), str)]
        body["challenges"] = draw(st.lists(challenges(ns), max_size=4))
    if draw(st.booleans()):
        body["rules"] = draw(rules_objects)
    return body


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value``: dict keys and list indexes."""
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*path, i))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


DECK = [n for n, copies in zip(CARD_NAMES, [
    10, 2, 2, 4, 12, 2, 4, 2, 8, 2, 2, 4, 2, 6, 8, 2, 2, 6, 4, 6, 6, 2, 2, 2, 4, 2,
    2, 2, 2, 2, 2], strict=True) for _ in range(copies)]  # fmt: skip


@st.composite
def valid_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A round that could happen: cards dealt from one deck, words of 2+ cards, rulings."""
    count = draw(st.integers(min_value=2, max_value=8))
    round_number = draw(st.integers(min_value=1, max_value=8))
    size = round_number + 2
    deck = draw(st.permutations(DECK))
    ps: list[dict[str, Any]] = []
    for i in range(count):
        hand = deck[i * size : (i + 1) * size]
        used = draw(st.integers(min_value=0, max_value=size))
        cuts = sorted(draw(st.sets(st.integers(min_value=1, max_value=max(used - 1, 1)))))
        ws: list[list[str]] = []
        start = 0
        for cut in [*cuts, used]:
            if cut - start >= 2 and cut <= used:
                ws.append(hand[start:cut])
                start = cut
        ps.append(
            {
                "name": f"P{i}",
                "words": [draw(st.sampled_from([w, "-".join(w)])) for w in ws],
                "unused": hand[start:],
            }
        )
    ps[draw(st.integers(min_value=0, max_value=count - 1))]["went_out"] = True
    chs = []
    for i, p in enumerate(ps):
        for j in range(len(p["words"])):
            if draw(st.booleans()):
                chs.append(
                    {
                        "by": f"P{(i + 1) % count}",
                        "player": p["name"],
                        "word": j,
                        "ruling": draw(st.sampled_from(["legal", "illegal"])),
                    }
                )
    body: dict[str, Any] = {"players": ps, "challenges": chs}
    if draw(st.booleans()):
        body["round"] = round_number
    if draw(st.booleans()):
        body["rules"] = draw(rules_objects)
    return body


@st.composite
def mutated_score_bodies(draw: st.DrawFn) -> Any:
    """A near-valid body with a few values swapped for wrong types or junk, or keys added."""
    body: Any = draw(st.one_of(valid_rounds(), valid_rounds(), score_bodies()))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(body)[1:]  # not the root: test_score_any_json_value covers that
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        target: Any = body
        for step in path:
            target = target[step]
        if isinstance(target, dict) and draw(st.booleans()):
            new = dict(target)
            new[draw(st.text(max_size=8))] = draw(json_values)
            body = _replace(body, path, new)
        else:
            body = _replace(body, path, draw(json_values | card_strings | words))
    return body


# --- checks ---------------------------------------------------------------------------


def template_names(code: str) -> set[str]:
    """The parameters the message of ``code`` needs (derived names mapped back)."""
    template = refusals.REFUSALS[code]
    forms = (template.one, template.other) if isinstance(template, refusals.Plural) else (template,)
    names = {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}
    needed = {DERIVED.get(name, name) for name in names}
    return {name for name in needed if name is not None}


def check_response(resp: Any) -> dict[str, Any] | None:
    """No 5xx; a refusal is exactly {"error", "where", "code", "params"}, its sentence the
    catalog's for the code with every parameter it names given. Returns a 200 body."""
    assert resp.status_code < 500, resp.get_data(as_text=True)
    body = json.loads(resp.get_data())
    if resp.status_code != 200:
        assert resp.status_code in (400, 413, 415, 422), resp.status_code
        assert isinstance(body, dict)
        assert set(body) == SHAPE_KEYS, body
        assert isinstance(body["where"], str)
        assert body["code"] in refusals.REFUSALS, body
        assert isinstance(body["params"], dict), body
        assert template_names(body["code"]) <= set(body["params"]), body
        assert body["error"] == messages.render(body["code"], body["params"]), body
        assert body["error"].strip()
        return None
    return body


def check_round_adds_up(request: Any, result: dict[str, Any]) -> None:
    """An accepted round: one result per player, in order, each total its parts."""
    assert [p["name"] for p in result["players"]] == [p["name"].strip() for p in request["players"]]
    rules = request.get("rules") or {}
    for p in result["players"]:
        standing = [w for w in p["words"] if not w["struck"]]
        assert p["word_points"] == sum(w["value"] for w in standing)
        assert p["total"] == (
            p["word_points"]
            - p["unused_points"]
            + p["bonus_most_words"]
            + p["bonus_longest_word"]
            - p["challenge_penalty"]
            - p["false_out_penalty"]
        )
        floor = rules.get("zero_floor", True)
        assert p["score"] == (max(p["total"], 0) if floor else p["total"])


def post(client: FlaskClient, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


# --- properties ---------------------------------------------------------------------------


@FUZZ
@given(json_values)
def test_score_any_json_value(fuzz: FlaskClient, body: Any) -> None:
    check_response(post(fuzz, "/api/v1/score", body))


@FUZZ
@given(json_values)
def test_spell_any_json_value(fuzz: FlaskClient, body: Any) -> None:
    check_response(post(fuzz, "/api/v1/spell", body))


@FUZZ
@given(st.one_of(json_values, st.text(max_size=50), card_strings))
def test_spell_any_letters(fuzz: FlaskClient, letters: Any) -> None:
    result = check_response(post(fuzz, "/api/v1/spell", {"letters": letters}))
    if result is not None:
        for s in result["spellings"]:
            assert "".join(s["cards"]) == letters.strip().lower()


@FUZZ
@given(score_bodies())
def test_score_near_valid_bodies(fuzz: FlaskClient, body: dict[str, Any]) -> None:
    result = check_response(post(fuzz, "/api/v1/score", body))
    if result is not None:
        check_round_adds_up(body, result)


@FUZZ
@given(valid_rounds())
def test_score_valid_rounds_add_up(fuzz: FlaskClient, body: dict[str, Any]) -> None:
    rules = body.get("rules", {})
    resp = post(fuzz, "/api/v1/score", body)
    if not all(0 <= rules.get(k, 0) <= 1000 for k in ("bonus", "false_out_penalty")) or (
        rules.get("min_word", "cards") == "words"
        or rules.get("two_player_bonus", "longest") == "none"
        or not 1 <= len(rules.get("lexicon", "x").strip()) <= 40
    ):
        check_response(resp)
        return
    assert resp.status_code == 200, resp.get_data(as_text=True)
    result = resp.get_json()
    check_round_adds_up(body, result)
    struck = {(c["player"], c["word"]) for c in body["challenges"] if c["ruling"] == "illegal"}
    for i, p in enumerate(result["players"]):
        assert [w["struck"] for w in p["words"]] == [
            (p["name"], j) in struck for j in range(len(p["words"]))
        ]
        assert len(p["unused"]) == len(body["players"][i]["unused"]) + sum(
            len(w["cards"]) for w in p["words"] if w["struck"]
        )


@FUZZ
@given(mutated_score_bodies())
def test_score_mutated_bodies(fuzz: FlaskClient, body: Any) -> None:
    result = check_response(post(fuzz, "/api/v1/score", body))
    if result is not None:
        check_round_adds_up(body, result)


@FUZZ
@given(st.binary(max_size=200))
def test_score_raw_bytes(fuzz: FlaskClient, data: bytes) -> None:
    check_response(fuzz.post("/api/v1/score", data=data, content_type="application/json"))


@FUZZ
@given(st.binary(max_size=200))
def test_spell_raw_bytes(fuzz: FlaskClient, data: bytes) -> None:
    check_response(fuzz.post("/api/v1/spell", data=data, content_type="application/json"))


@settings(max_examples=100, deadline=None, database=None)
@given(st.text(max_size=60).map(str.encode))
def test_score_text_bodies_without_content_type(fuzz: FlaskClient, data: bytes) -> None:
    """Refused as not declared JSON, whatever they hold: no page can send them unasked."""
    resp = fuzz.post("/api/v1/score", data=data)
    check_response(resp)
    assert (resp.status_code, resp.get_json()["code"]) == (415, "json_content_type")
