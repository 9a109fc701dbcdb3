"""The app's icon: ``/favicon.ico`` where browsers look for it, and the pages naming it."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

WEEK = 7 * 24 * 3600


def test_favicon_is_an_icon_kept_for_long(client: FlaskClient) -> None:
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200
    assert resp.mimetype.startswith("image/")
    assert resp.data[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert int.from_bytes(resp.data[4:6], "little") >= 2  # sizes for tabs and home screens
    assert resp.cache_control.max_age is not None and resp.cache_control.max_age >= WEEK
    assert resp.cache_control.public


def test_the_svg_icon_is_served(client: FlaskClient) -> None:
    resp = client.get("/static/icon.svg")
    assert resp.status_code == 200
    assert resp.mimetype == "image/svg+xml"
    assert b"#1d3557" in resp.data and b"#fff8e6" in resp.data


def test_every_page_names_its_icons(app: Flask, client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/favicon.ico"' in page
    # A static file's address carries the build: a new one after every deploy.
    build = app.config["BUILD"]
    assert f'<link rel="icon" href="/static/icon.svg?v={build}" type="image/svg+xml">' in page
    error = client.get("/nowhere")
    assert error.status_code == 404
    assert 'href="/favicon.ico"' in error.get_data(as_text=True)
