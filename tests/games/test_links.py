"""Links other phones can open: the game page's view and edit links, their QR codes, the
API's create answer, from ``PUBLIC_URL``, then this computer's network address
(``LAN_URL``) when the page was opened on loopback, then the address bar."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask

from companion import create_app
from companion.pages.games import qr_svg
from companion.serve import start as serve
from companion.web.links import is_loopback

LAN = "http://192.168.1.20:5000/"
PUBLIC = "https://quiddler.example.org/"


class Links(HTMLParser):
    """The page's ``<a>`` elements with an id: their href, and the ``<details>`` they are
    in (its summary's text and whether it is open), if any."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, dict[str, object]] = {}
        self.details: list[dict[str, object]] = []
        self.summaries: list[str] = []
        self._summary: list[str] | None = None
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag == "details":
            self.details.append({"open": "open" in given, "summary": ""})
        elif tag == "summary":
            self._summary = []
        elif tag == "a" and given.get("id"):
            self.found[given["id"] or ""] = {
                "href": given.get("href"),
                "details": dict(self.details[-1]) if self.details else None,
            }

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and self.details:
            self.details.pop()
        elif tag == "summary" and self._summary is not None and self.details:
            self.details[-1]["summary"] = " ".join("".join(self._summary).split())
            self._summary = None

    def handle_data(self, data: str) -> None:
        if self._summary is not None:
            self._summary.append(data)


def game_page(app: Flask, game, host: str = "localhost", editor: bool = True) -> str:
    """The game's page as a phone that opened ``http://<host>/...`` sees it, with the edit
    right (the edit link opened first) or as a viewer."""
    client = app.test_client()
    base = f"http://{host}"
    if editor:
        opened = client.get(f"{base}/games/{game.id}/edit/{game.token}")
        assert opened.status_code == 302
    resp = client.get(f"{base}/games/{game.id}")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def note(page: str) -> str:
    """The text of the note saying which address the links use ("" when there is none)."""
    start = page.find('id="links-note"')
    if start < 0:
        return ""
    body = page[page.index(">", start) + 1 : page.index("</p>", start)]
    return " ".join(html.unescape(body.replace("<strong>", "").replace("</strong>", "")).split())


# --- which host is this computer only ----------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.0.0.1:5000", "127.8.9.10:80", "[::1]:5000", "[::1]", "localhost",
     "LOCALHOST:5000", "quiddler.localhost:5000", "localhost.", "[::ffff:127.0.0.1]:5000"],
)  # fmt: skip
def test_loopback_hosts(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize(
    "host",
    ["192.168.1.20:5000", "10.0.0.5", "quiddler.example.org", "localhost.example.org",
     "[fe80::1]:5000", "0.0.0.0:5000", "", "[::1", "notlocalhost"],
)  # fmt: skip
def test_hosts_other_phones_can_reach(host: str) -> None:
    assert not is_loopback(host)


# --- the API's create answer -------------------------------------------------------------


def created(app: Flask, host: str = "localhost") -> dict:
    resp = app.test_client().post(
        f"http://{host}/api/v1/games", json={"players": ["Ann", "Ben"], "first_dealer": 0}
    )
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()


def test_api_links_use_the_lan_address_when_asked_on_loopback(app: Flask) -> None:
    app.config["LAN_URL"] = LAN
    game = created(app, "127.0.0.1:5000")
    assert game["view_url"] == f"http://192.168.1.20:5000/games/{game['id']}"
    assert (
        game["edit_url"] == f"http://192.168.1.20:5000/games/{game['id']}/edit/{game['edit_token']}"
    )


def test_api_links_use_the_public_address_first(app: Flask) -> None:
    app.config.update(LAN_URL=LAN, PUBLIC_URL="https://quiddler.example.org")  # no final /
    app.config["ALLOWED_HOSTS"] = "10.0.0.5"  # another of this server's addresses
    for host in ("127.0.0.1:5000", "10.0.0.5:5000"):
        game = created(app, host)
        assert game["view_url"] == f"https://quiddler.example.org/games/{game['id']}"
        assert game["edit_url"].startswith("https://quiddler.example.org/games/")


def test_api_links_keep_the_address_asked_when_it_is_not_loopback(app: Flask) -> None:
    app.config.update(LAN_URL=LAN, ALLOWED_HOSTS="10.0.0.5")  # another of its addresses
    game = created(app, "10.0.0.5:5000")
    assert game["view_url"] == f"http://10.0.0.5:5000/games/{game['id']}"


def test_api_links_on_loopback_without_a_lan_address_stay_as_asked(app: Flask) -> None:
    game = created(app, "localhost")
    assert game["view_url"] == f"http://localhost/games/{game['id']}"


def test_a_public_address_under_a_prefix_keeps_its_prefix(app: Flask) -> None:
    app.config["PUBLIC_URL"] = "https://example.org/quiddler/"
    game = created(app)
    assert game["view_url"] == f"https://example.org/quiddler/games/{game['id']}"


# --- the game page -----------------------------------------------------------------------


def test_page_on_loopback_links_to_the_lan_address_and_says_so(app: Flask, new_game) -> None:
    app.config["LAN_URL"] = LAN
    game = new_game()
    page = game_page(app, game, "127.0.0.1:5000")
    links = Links(page).found
    view = f"http://192.168.1.20:5000/games/{game.id}"
    edit = f"http://192.168.1.20:5000/games/{game.id}/edit/{game.token}"
    assert links["view-link"]["href"] == view
    assert links["edit-link"]["href"] == edit
    assert qr_svg(view) in page and qr_svg(edit) in page  # the QR codes say the same
    assert qr_svg(f"http://127.0.0.1:5000/games/{game.id}") not in page
    said = note(page)
    assert "These links use 192.168.1.20:5000" in said
    assert "this computer's address on your Wi-Fi network" in said


def test_page_on_loopback_without_a_lan_address_says_how_to_fix_it(app: Flask, new_game) -> None:
    game = new_game()
    page = game_page(app, game, "localhost:5000")
    assert Links(page).found["view-link"]["href"] == f"http://localhost:5000/games/{game.id}"
    said = note(page)
    assert "The other phones can't open these links" in said
    assert "HOST=0.0.0.0 make run" in said


def test_page_opened_from_another_phone_needs_no_note(app: Flask, new_game) -> None:
    app.config["LAN_URL"] = LAN
    game = new_game()
    page = game_page(app, game, "192.168.1.20:5000")
    assert Links(page).found["view-link"]["href"] == f"http://192.168.1.20:5000/games/{game.id}"
    assert 'id="links-note"' not in page


def test_page_with_a_public_address_says_so_unless_opened_there(app: Flask, new_game) -> None:
    app.config.update(LAN_URL=LAN, PUBLIC_URL=PUBLIC)
    game = new_game()
    page = game_page(app, game, "127.0.0.1:5000")
    assert Links(page).found["edit-link"]["href"] == f"{PUBLIC}games/{game.id}/edit/{game.token}"
    assert note(page) == (
        "These links use quiddler.example.org, the public address set for this server."
    )
    there = app.test_client().get(f"https://quiddler.example.org/games/{game.id}")
    page = there.get_data(as_text=True)
    assert Links(page).found["view-link"]["href"] == f"{PUBLIC}games/{game.id}"
    assert 'id="links-note"' not in page


def test_kept_viewer_page_follows_the_link_base(app: Flask, new_game) -> None:
    """The viewers' page is kept per game version: a page kept before the LAN address was
    known must not be served once it is (same game, same version, same address bar)."""
    game = new_game()
    before = game_page(app, game, "127.0.0.1:5000", editor=False)
    assert "can't open these links" in note(before)
    app.config["LAN_URL"] = LAN
    after = game_page(app, game, "127.0.0.1:5000", editor=False)
    assert Links(after).found["view-link"]["href"] == f"http://192.168.1.20:5000/games/{game.id}"
    assert "192.168.1.20:5000" in note(after)


# --- the scorekeeper's link behind a tap -------------------------------------------------


def test_edit_link_is_in_a_closed_details_and_the_view_link_is_not(app: Flask, new_game) -> None:
    game = new_game()
    links = Links(game_page(app, game)).found
    assert links["edit-link"]["details"] == {"open": False, "summary": "Show the scorekeeper link"}
    assert links["view-link"]["details"] is None


def test_a_viewer_gets_no_scorekeeper_link(app: Flask, new_game) -> None:
    page = game_page(app, new_game(), editor=False)
    assert "Show the scorekeeper link" not in page and 'id="edit-link"' not in page


# --- the settings ------------------------------------------------------------------------


def test_public_url_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PUBLIC_URL", PUBLIC)
    app = create_app({"SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}"})
    assert app.config["PUBLIC_URL"] == PUBLIC


@pytest.mark.parametrize("wrong", ["quiddler.example.org", "ftp://example.org/", "https://"])
def test_a_public_url_links_cannot_start_from_is_refused_at_start(
    wrong: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}",
                    "PUBLIC_URL": wrong})  # fmt: skip


# --- the serve command -------------------------------------------------------------------


def test_phones_url_only_when_listening_on_every_interface(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    assert serve.phones_url("0.0.0.0", 8000) == "http://192.168.1.20:8000/"
    assert serve.phones_url("127.0.0.1", 8000) is None
    monkeypatch.setattr(serve, "lan_address", lambda: None)
    assert serve.phones_url("0.0.0.0", 8000) is None


def fake_serve(monkeypatch: pytest.MonkeyPatch, host: str | None) -> tuple[Flask, dict]:
    """``serve.main`` made to build a bare app and serve nothing: the app, and the options
    waitress would have been given."""
    app = Flask("fake")
    ready = SimpleNamespace(words=1, seconds=0.0)
    app.extensions["lexicons"] = SimpleNamespace(
        build=lambda name, **_: ready, solver_index=lambda name: None
    )
    served: dict[str, object] = {}
    monkeypatch.setattr(serve, "ensure_instance", lambda path: None)
    monkeypatch.setattr(serve, "create_app", lambda **_: app)
    monkeypatch.setattr(serve, "upgrade_database", lambda app: None)
    monkeypatch.setattr(serve, "database_revision", lambda app: "0006")
    monkeypatch.setattr(serve, "warm_definitions", lambda app: 0)
    monkeypatch.setattr(serve, "settle", lambda app: None)
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(serve, "serve", lambda app, **options: served.update(options))
    monkeypatch.setenv("PORT", "5123")
    if host is None:
        monkeypatch.delenv("HOST", raising=False)
    else:
        monkeypatch.setenv("HOST", host)
    return app, served


def test_serve_gives_the_app_the_phones_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    app, served = fake_serve(monkeypatch, "0.0.0.0")
    serve.main()
    assert app.config["LAN_URL"] == "http://192.168.1.20:5123/"
    assert served["host"] == "0.0.0.0" and served["port"] == 5123
    assert "open http://192.168.1.20:5123/" in capsys.readouterr().out


def test_serve_on_loopback_gives_no_phones_address(monkeypatch: pytest.MonkeyPatch) -> None:
    app, served = fake_serve(monkeypatch, None)
    serve.main()
    assert "LAN_URL" not in app.config
    assert served["host"] == "127.0.0.1"
