"""What is on a phone's first screen, per language and screen size: figures, not a test.

Run: ``.venv/bin/python benchmarks/first_screen.py [--shots DIR]``.

For each language (en, lt, hu, cs) and phone (390x844, 320x640) it opens, in headless
Chromium (the browser tests' flags), the pages a game at the table lands on and prints
where things are, in CSS pixels from the top of the page as loaded (the scroll the
page's address or script gives it included; "-" when missing):

* seat: a seat's phone entering its hand in round 1 (the player with the longest name,
  20 characters): y of the bottom of Save, the card keys fully on the first screen (of
  31), whether the player's name on the keyboard is whole (not cut);
* close: the scorekeeper's round 8, every hand in (rounds 1-7 closed): y of the bottom of
  Close, with seats claimed and with none;
* qr: the game's page right after "Start the game": y of the bottom of the view QR;
* flash: a seat saving its hand: y of the saved message on the screen it lands on
  (negative: above what the person sees);
* winner: the game's page after round 8 is closed: y of the bottom of the winner.

A figure inside the screen (<= 844 or 640) is on the first screen. The app is served from
a temporary instance by a thread of this process, as the browser tests serve it.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from serving import ROOT, migrated_app, round_body
from werkzeug.serving import make_server

sys.path.insert(0, str(ROOT / "tests" / "browser"))  # the browser tests' phone and flags
from phone import CHROMIUM_FLAGS, PHONE, call

NAMES = ["Aiste", "Bálint", "Čeněk", "Maximiliana Kovácsné"]
LONG = 3  # the seat with the 20-character name
LANGS = ["en", "lt", "hu", "cs"]
SIZES = [(390, 844), (320, 640)]




def game(base: str, closed: int, entered: int = 0) -> dict:
    """A new game: rounds 1..``closed`` entered and closed, then ``entered`` entered only."""
    made = call(base, "POST", "/api/v1/games", {"players": NAMES, "first_dealer": 0})
    for n in range(1, closed + entered + 1):
        url = f"/api/v1/games/{made['id']}/rounds/{n}"
        call(base, "PUT", url, round_body(n, NAMES), made["edit_token"])
        if n <= closed:
            call(base, "POST", f"{url}/close", {}, made["edit_token"])
    return made


def bottom(page, selector: str) -> str:
    """The bottom of the first ``selector`` from the top of the screen, or ``-``."""
    box = page.locator(selector).first
    if not box.count() or not box.is_visible():
        return "-"
    return str(round(box.evaluate("e => e.getBoundingClientRect().bottom")))


def top(page, selector: str) -> str:
    box = page.locator(selector).first
    if not box.count():
        return "-"
    return str(round(box.evaluate("e => e.getBoundingClientRect().top")))


def phone(browser, base: str, lang: str, size: tuple[int, int], dark: bool = False):
    """A phone in ``lang`` (its session's choice) at ``size``."""
    width, height = size
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": height}},
        color_scheme="dark" if dark else "light",
    )
    page = context.new_page()
    page.goto(f"{base}/language/{lang}?next=/")
    return context, page


def claim(page, base: str, made: dict, seat: int) -> None:
    page.goto(f"{base}/games/{made['id']}/seats/{seat}")
    page.locator("#claim").click()
    page.wait_for_url("**/rounds/**")
    page.locator("#seat-form .cardpad:not([hidden])").wait_for()


def measure(browser, base: str, lang: str, size: tuple[int, int], shots: Path | None) -> dict:
    width, height = size
    row: dict[str, str] = {}
    tag = f"{lang}-{width}"

    # the seat's phone, round 1
    made = game(base, 0)
    context, page = phone(browser, base, lang, size)
    claim(page, base, made, LONG)
    row["save"] = bottom(page, "#seat-form button[type=submit]")
    row["keys"] = str(
        page.evaluate(
            """h => [...document.querySelectorAll('.cardpad .key[data-card]')].filter(k => {
                 const r = k.getBoundingClientRect();
                 return r.top >= 0 && r.bottom <= h && r.height > 0; }).length""",
            height,
        )
    )
    row["name"] = page.evaluate(
        """() => { const n = document.querySelector('.cardpad-who');
                   if (!n) return '-';
                   const r = n.getBoundingClientRect();
                   const seen = r.bottom <= innerHeight && r.top >= 0;
                   const whole = seen && n.scrollWidth <= n.clientWidth;
                   return whole ? 'whole' : 'cut'; }"""
    )
    if shots:
        page.screenshot(path=str(shots / f"seat-{tag}.png"))
    # its save: where the message lands
    page.locator("#words").fill("c-a-t")
    page.locator("#seat-form button[type=submit]").click()
    page.wait_for_url("**#*")
    page.locator(".flash").first.wait_for()
    row["flash"] = top(page, ".flash")
    if shots:
        page.screenshot(path=str(shots / f"flash-{tag}.png"))
    context.close()

    # the scorekeeper's round 8, every hand in: seats claimed, and none
    for key, claimed in (("close", True), ("close0", False)):
        made = game(base, 7, 1)
        if claimed:
            for seat in range(len(NAMES)):
                other, seat_page = phone(browser, base, lang, size)
                claim(seat_page, base, made, seat)
                other.close()
        context, page = phone(browser, base, lang, size)
        page.goto(made["edit_url"])
        page.goto(f"{base}/games/{made['id']}/rounds/8")
        row[key] = bottom(page, "#close")
        if shots and claimed:
            page.screenshot(path=str(shots / f"close-{tag}.png"))
        context.close()

    # the page after "Start the game"
    made = game(base, 0)
    context, page = phone(browser, base, lang, size)
    page.goto(made["edit_url"])
    page.goto(f"{base}/games/{made['id']}?created=1")
    row["qr"] = bottom(page, ".qr-code")
    if shots:
        page.screenshot(path=str(shots / f"qr-{tag}.png"))
    context.close()

    # the game over
    made = game(base, 8)
    context, page = phone(browser, base, lang, size)
    page.goto(made["edit_url"])
    row["winner"] = bottom(page, ".winner")
    if shots:
        page.screenshot(path=str(shots / f"winner-{tag}.png"))
    context.close()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, help="save each first screen as a PNG here")
    args = parser.parse_args()
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        print("Chromium is not installed: nothing measured.")
        return
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        app, _ = migrated_app(Path(tmp))
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line a request
        app.extensions["lexicons"].build("standard")
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        print("lang size     | save keys/31 name  | close close(no seats) | qr    | flash | winner")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
                for lang in LANGS:
                    for size in SIZES:
                        r = measure(browser, base, lang, size, args.shots)
                        print(
                            f"{lang:4} {size[0]}x{size[1]:<4} | {r['save']:>4} {r['keys']:>7}"
                            f" {r['name']:5} | {r['close']:>5} {r['close0']:>16} | {r['qr']:>5}"
                            f" | {r['flash']:>5} | {r['winner']:>6}",
                            flush=True,
                        )
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
