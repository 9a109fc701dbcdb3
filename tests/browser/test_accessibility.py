"""Every page type, in both themes and all four languages, checked by axe-core.

axe-core comes from its npm package (``make test`` installs it under ``.venv/npm``, no
CDN): it is put into each page (CDP, so the page's Content-Security-Policy is bypassed
in this test's contexts only) and ``axe.run()`` reports what a screen reader, a low-vision
player or a thumb would stumble on. A serious or critical violation fails the test, with
its rule, impact, element and axe's summary. Besides axe's default rules, ``target-size``
(WCAG 2.2: at least 24 px, or spaced) is on.

One game made through the API serves every context; each context (a theme and a
language) walks the pages in sequence: as a viewer, as a player on their own seat, then
as the scorekeeper.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".venv/npm/node_modules/axe-core/axe.min.js"
"""axe-core's browser build, as ``make test`` installs it (the Makefile's ``AXE_CORE``)."""
LOCALES = {"en": "en-GB", "lt": "lt-LT", "hu": "hu-HU", "cs": "cs-CZ"}
THEMES = ("light", "dark")
FAILING = ("serious", "critical")
RUN = """async () => {
  const result = await axe.run(document, {
    rules: {"target-size": {enabled: true}},
    resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({impact: n.impact, target: n.target.join(" "),
                                summary: n.failureSummary})),
  }));
}"""

KEY_CONTRAST = """() => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const mix = (a, b, t) => a.map((x, i) => x * t + b[i] * (1 - t));
  const under = rgb(getComputedStyle(document.querySelector(".cardpad")).backgroundColor);
  return [...document.querySelectorAll(".cardpad .key[data-card]")].map((k) => {
    const s = getComputedStyle(k);
    const o = Number(s.opacity);
    const fg = lum(mix(rgb(s.color), under, o));
    const bg = lum(mix(rgb(s.backgroundColor), under, o));
    const target = `.key[data-card="${k.dataset.card}"]` + (k.matches(".used-up") ? ".used-up" : "")
    return {target: target, ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)};
  });
}"""
"""The contrast of each card key's letter (axe leaves one-letter text undecided): the
text's and the key's colours, each seen through the key's opacity over the keyboard."""


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core's script; missing, a failure on CI (REQUIRE_BROWSER), else a skip."""
    if not AXE.is_file():
        why = "axe-core is not installed (make test installs it with npm into .venv/npm)"
        if os.environ.get("REQUIRE_BROWSER") or os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return AXE


@pytest.fixture(scope="module")
def table(live_server, browser) -> dict:
    """A game of Ann, Ben and Cy: round 1 entered, challenged and closed, round 2 open
    with Ben's hand in (the seat list and the bonus to beat show)."""
    context = browser.new_context()
    try:
        api = context.request
        made = api.post(f"{live_server}/api/v1/games", data={"players": ["Ann", "Ben", "Cy"]})
        assert made.status == 201, made.text()
        game = made.json()
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        rounds = f"{live_server}/api/v1/games/{game['id']}/rounds"
        hands = [
            {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": ["d-o-g"], "unused": []},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
        ]
        challenge = {"by": "Ben", "player": "Ann", "word": 0}
        bens_hand = {"words": ["t-o-p"], "unused": ["m"]}
        for answer in (
            api.put(f"{rounds}/1", data={"players": hands}, headers=auth),
            api.post(f"{rounds}/1/challenges", data=challenge, headers=auth),
            api.post(f"{rounds}/1/close", data={}, headers=auth),
            api.put(f"{rounds}/2/seats/1", data=bens_hand, headers=auth),
        ):
            assert answer.ok, answer.text()
        return game
    finally:
        context.close()


def violations(page, axe: Path) -> list[dict]:
    """axe's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(axe))
    found = page.evaluate(RUN)
    return [v for v in found if v["impact"] in FAILING]


def faint_keys(page) -> list[dict]:
    """The card keys whose letter has less than 4.5:1 contrast, as a violation of axe's shape."""
    low = [k for k in page.evaluate(KEY_CONTRAST) if k["ratio"] < 4.5]
    nodes = [
        {"impact": "serious", "target": k["target"], "summary": f"\n{k['ratio']:.2f}:1 < 4.5:1"}
        for k in low
    ]
    faint = {"id": "card-key-contrast", "impact": "serious", "help": "", "nodes": nodes}
    return [faint] if low else []


def described(where: str, found: list[dict]) -> list[str]:
    """One line per failing element: page, rule, impact, target and axe's summary."""
    return [
        f"{where}: {v['id']} ({n['impact']}) {n['target']}: "
        + " / ".join(s.strip() for s in (n["summary"] or "").splitlines()[1:] or [v["help"]])
        for v in found
        for n in v["nodes"]
    ]


def walk(page, base: str, game: dict, axe: Path, snap) -> dict[str, list[dict]]:
    """Every page type as a viewer, a seated player and the scorekeeper: the serious and
    critical violations found on each (``snap(page, name)`` is given each page)."""
    found: dict[str, list[dict]] = {}
    gid = game["id"]

    def check(name: str) -> None:
        found[name] = violations(page, axe)
        snap(page, name)

    for name, path in {
        "home": "/",
        "new-game": "/games/new",
        "game-viewer": f"/games/{gid}",
        "seat-claim": f"/games/{gid}/seats/0",
        "round-closed-viewer": f"/games/{gid}/rounds/1",
        "round-open-viewer": f"/games/{gid}/rounds/2",
        "rules": f"/rules?game={gid}",
        "words": "/words?word=quiz",
        "words-not-legal": "/words?word=zzq",
        "solitaire-start": "/solitaire",
        "not-found": "/games/nope",
    }.items():
        page.goto(base + path)
        check(name)

    page.goto(base + "/score")
    check("score")
    page.fill("#players-0-name", "Ann")
    page.fill("#players-0-words", "qu-i-z")
    page.fill("#players-1-name", "Ben")
    page.fill("#players-1-words", "top")
    with page.expect_navigation():
        page.locator("form.score-form button[type=submit]").last.click()
    page.locator("#result").wait_for()
    check("score-result")

    page.goto(base + "/judge")
    page.fill("#words", "cat dog")
    with page.expect_navigation():
        page.locator("form.judge-form button[type=submit]").click()
    page.locator("#judge-screen").wait_for()
    check("judge-verdict")

    page.goto(base + "/solitaire")
    with page.expect_navigation():
        page.locator("button[name=practice]").click()
    page.locator("#piles").wait_for()
    check("solitaire-game")

    # Ann's own phone: the seat form with its card keyboard, CAT and a C left over tapped
    # in (both C cards of the deck: its key is used up).
    page.goto(f"{base}/games/{gid}/seats/0")
    page.locator("#claim").click()
    page.wait_for_url(re.compile(r"/rounds/2$"))
    pad = page.locator(".cardpad")
    for key in ("c", "a", "t"):
        pad.locator(f".key[data-card='{key}']").click()
    pad.locator("[data-action=left]").click()
    pad.locator(".key[data-card='c']").click()
    expect(pad.locator(".key.used-up[data-card='c']")).to_be_visible()
    check("seat-form")
    found["seat-form"] += faint_keys(page)
    page.locator("#seat-form .word-chip", has_text="CAT").click()  # its menu: edit, remove
    expect(page.locator("#seat-form .chip-menu")).to_be_visible()
    check("seat-form-chip-menu")
    pad.locator("[data-action=fold]").click()
    expect(pad.locator(".keys")).to_be_hidden()
    check("seat-form-folded")
    freed = page.context.request.delete(
        f"{base}/api/v1/games/{gid}/seats/0/claim",
        data={},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert freed.ok, freed.text()

    # The scorekeeper's phone (the edit link's cookie).
    assert page.context.request.get(game["edit_url"]).ok
    for name, path in {
        "game-scorekeeper": f"/games/{gid}",
        "round-open-scorekeeper": f"/games/{gid}/rounds/2?enter=all",
        "round-closed-scorekeeper": f"/games/{gid}/rounds/1",
    }.items():
        page.goto(base + path)
        check(name)
    return found


SHOWN = {"home", "new-game", "score", "seat-form", "round-open-viewer", "solitaire-game"}
"""The pages saved as screenshots, in English, in each theme (the ones the checks changed)."""


@pytest.mark.parametrize("theme", THEMES)
def test_no_serious_violations(
    live_server, browser, axe_script, table, screenshot, theme: str
) -> None:
    """axe finds nothing serious or critical on any page, in any language, in ``theme``."""
    problems: list[str] = []
    counts: dict[tuple[str, str], int] = {}
    for lang, locale in LOCALES.items():
        context = browser.new_context(
            **{**PHONE, "device_scale_factor": 1},
            locale=locale,
            color_scheme=theme,
            bypass_csp=True,
        )
        try:
            page = context.new_page()

            def snap(page, name: str, lang: str = lang) -> None:
                if lang == "en" and name in SHOWN:
                    screenshot(page, f"a11y-{theme}-{name}")

            for name, found in walk(page, live_server, table, axe_script, snap).items():
                for v in found:
                    key = (v["id"], v["impact"])
                    counts[key] = counts.get(key, 0) + len(v["nodes"])
                problems += described(f"{lang} {theme} {name}", found)
        finally:
            context.close()
    summary = ", ".join(f"{rule} {impact}: {n}" for (rule, impact), n in sorted(counts.items()))
    assert not problems, f"{len(problems)} serious or critical ({summary}):\n" + "\n".join(problems)


def test_what_another_phone_changes_is_said_once_politely(live_server, browser) -> None:
    """A watching phone's screen reader hears each hand come in, the round scored and the
    round closed, a short sentence each time, from one status line outside the parts that
    are replaced (on the round page and on the leaderboard)."""
    context = browser.new_context(**PHONE)
    try:
        api = context.request
        made = api.post(f"{live_server}/api/v1/games", data={"players": ["Ann", "Ben", "Cy"]})
        assert made.status == 201, made.text()
        game = made.json()
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        rounds = f"{live_server}/api/v1/games/{game['id']}/rounds"
        round_page, board = context.new_page(), context.new_page()
        round_page.goto(f"{live_server}/games/{game['id']}/rounds/1")
        board.goto(f"{live_server}/games/{game['id']}")
        said = round_page.locator("#live-news")
        expect(said).to_have_attribute("role", "status")
        expect(said).to_be_empty()
        assert round_page.locator(".round-live [role=status], .round-live [aria-live]").count() == 0

        bens = {"words": ["d-o-g"], "unused": []}
        assert api.put(f"{rounds}/1/seats/1", data=bens, headers=auth).ok
        expect(said).to_have_text("Ben's hand is in.")

        hands = [
            {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": ["d-o-g"], "unused": []},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
        ]
        assert api.put(f"{rounds}/1", data={"players": hands}, headers=auth).ok
        expect(said).to_have_text("Ann's hand is in. Cy's hand is in. Round 1 is scored.")

        assert api.post(f"{rounds}/1/close", data={}, headers=auth).ok
        expect(said).to_have_text("Round 1 is closed: the leaderboard is updated.")
        expect(board.locator("#live-news")).to_have_text(
            "Round 1 is closed: the leaderboard is updated."
        )
    finally:
        context.close()
