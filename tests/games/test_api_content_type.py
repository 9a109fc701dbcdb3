"""A write through the API must be declared JSON: another site's page can make a browser
send text/plain without asking (no preflight), so such a body changes nothing."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app

BODY = json.dumps({"players": ["Ann", "Ben"]})


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None],
)
def test_a_game_is_not_created_from_a_body_not_declared_json(
    client: FlaskClient, rows, content_type: str | None
) -> None:
    before = rows()
    headers = {"Content-Type": content_type} if content_type else {}
    answer = client.post("/api/v1/games", data=BODY, headers=headers)
    assert answer.status_code == 415
    assert answer.get_json()["code"] == "json_content_type"
    assert "Content-Type: application/json" in answer.get_json()["error"]
    assert rows() == before


def test_a_round_is_not_saved_from_text_plain(client: FlaskClient, new_game, rows) -> None:
    game = new_game()
    before = rows()
    body = {"players": [{"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True}]}
    answer = client.put(
        f"/api/v1/games/{game.id}/rounds/1",
        data=json.dumps(body),
        headers={"Content-Type": "text/plain", "Authorization": f"Bearer {game.token}"},
    )
    assert answer.status_code == 415
    assert rows() == before


def test_json_with_a_charset_is_json(client: FlaskClient) -> None:
    answer = client.post(
        "/api/v1/games", data=BODY, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert answer.status_code == 201


def api_writes() -> list[tuple[str, str]]:
    """Every (endpoint, method) of the API that writes, from the app's URL map."""
    app = create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "routes"})
    return sorted(
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in (rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"}
    )


WRITES = api_writes()
OTHER_VALUES = {"number": 1, "n": 1, "seat": 1, "word": "qi", "action": "close"}
UNDECLARED = {
    "text/plain": {"Content-Type": "text/plain"},
    "form": {"Content-Type": "application/x-www-form-urlencoded"},
    "none": {},
}
"""What another site's page can make a browser send without a preflight (and nothing)."""


def test_the_writes_include_the_claim_and_the_release() -> None:
    assert ("api.claim_seat", "POST") in WRITES and ("api.release_seat", "DELETE") in WRITES
    assert len(WRITES) >= 13


@pytest.mark.parametrize("sent", UNDECLARED)
@pytest.mark.parametrize(("endpoint", "method"), WRITES)
def test_every_api_write_must_be_declared_json(
    app: Flask, client: FlaskClient, new_game, rows, endpoint: str, method: str, sent: str
) -> None:
    """Even one without a body (a claim, a close, a DELETE): ``{}`` as JSON will do."""
    game = new_game()
    words = {"Ann": "t-o-p", "Ben": "d-o-g", "Cy": "c-a-t"}
    game.enter(1, [{"name": n, "words": [w], "unused": []} for n, w in words.items()])
    with app.test_request_context():
        rule = next(iter(app.url_map.iter_rules(endpoint)))
        values = {k: OTHER_VALUES[k] for k in rule.arguments if k != "game_id"}
        if "game_id" in rule.arguments:
            values["game_id"] = game.id
        path = app.url_map.bind("localhost").build(endpoint, values, method=method)
    before = rows()
    answer = client.open(path, method=method, data="{}", headers={**UNDECLARED[sent], **game.auth})
    assert answer.status_code == 415, (path, answer.get_data(as_text=True))
    # a photo to read is sent as a picture, never as JSON: its own code says so
    expected = "photo_content_type" if endpoint == "api.read_cards" else "json_content_type"
    assert answer.get_json()["code"] == expected
    assert rows() == before


def test_a_web_page_cannot_take_a_seat(client: FlaskClient, new_game, rows) -> None:
    """A cross-site ``text/plain`` POST (no preflight) took a seat with 201; now only a
    claim declared JSON does."""
    game = new_game()
    before = rows()
    url = game.url("/seats/1/claim")
    for headers in UNDECLARED.values():
        assert client.post(url, data="{}", headers=headers).status_code == 415
    assert rows() == before
    assert [p["claimed"] for p in game.get()["players"]] == [False, False, False]
    taken = client.post(url, json={})
    assert taken.status_code == 201
    assert taken.get_json()["name"] == "Ben"
    assert [p["claimed"] for p in game.get()["players"]] == [False, True, False]


def test_a_wrong_method_is_still_405_not_415(client: FlaskClient) -> None:
    answer = client.post("/api/v1/cards", data="x", headers={"Content-Type": "text/plain"})
    assert answer.status_code == 405
