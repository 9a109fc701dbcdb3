"""A write through the API must be declared JSON: another site's page can make a browser
send text/plain without asking (no preflight), so such a body changes nothing."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

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
